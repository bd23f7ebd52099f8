package interpreter

import (
	"maps"
	"slices"
	"testing"
)

// TestRollReadsOfText checks the reads found in what is not a compiled
// expression: a text's placeholders and an expression left uncompiled.
func TestRollReadsOfText(t *testing.T) {
	for _, tc := range []struct {
		name, placeholders, expr string
		all                      bool
		names                    []string
	}{
		{name: "placeholders", placeholders: `"A {natural.hit} and { rolled . save }, {m.name}"`, names: []string{"hit", "save"}},
		{name: "a placeholder of the whole table", placeholders: `"{natural}"`, all: true},
		{name: "natural.x in an expression", expr: `natural.hit + sum(rolled.save)`, names: []string{"hit", "save"}},
		{name: "a field named natural is no read", expr: `roll.natural + h.natural`},
		{name: "the table indexed", expr: `natural["hit"]`, all: true},
		{name: "the table whole", expr: `f(natural)`, all: true},
		{name: "the environment", expr: `$env.natural.hit`, all: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rollReads{names: map[string]bool{}}
			r.addPlaceholders(tc.placeholders)
			r.addText(tc.expr)
			got := slices.Sorted(maps.Keys(r.names))
			if r.all != tc.all || !tc.all && !slices.Equal(got, tc.names) {
				t.Errorf("all %v, names %v; want all %v, names %v", r.all, got, tc.all, tc.names)
			}
		})
	}
}

// TestRollReadsShipped checks that the shipped rules read natural and
// rolled by name (so a roll no rule reads binds neither), and that the
// names they read are found.
func TestRollReadsShipped(t *testing.T) {
	p := shippedProgram(t)
	if p.rollReads.all {
		t.Fatal("the shipped rules read every roll's natural and rolled")
	}
	for _, name := range []string{"bolt_hit", "crush_save", "hail"} { // powers.munda
		if !p.rollReads.names[name] {
			t.Errorf("natural.%s is read (powers.munda), but not found", name)
		}
	}
}
