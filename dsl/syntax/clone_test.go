package syntax

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A clone of a syntax tree equals it and shares nothing the checker
// writes: every shipped rule file is cloned, compared, and its clone's
// nodes written over without the original changing.
func TestCloneIsDeepAndEqual(t *testing.T) {
	paths, _ := filepath.Glob("../../rulesets/core-2023/*.munda")
	if len(paths) == 0 {
		t.Fatal("no rule files found")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := Parse(p, src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		c := Clone(f)
		if !reflect.DeepEqual(f, c) {
			t.Fatalf("%s: the clone differs from the tree", p)
		}
		before := Clone(f)
		scribble(reflect.ValueOf(c))
		if !reflect.DeepEqual(f, before) {
			t.Fatalf("%s: writing into the clone changed the tree", p)
		}
	}
}

// scribble writes over every string and int reachable through pointers,
// interfaces and slices of a tree.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			scribble(v.Field(i))
		}
	case reflect.Slice:
		if v.Type() != bytesType {
			for i := 0; i < v.Len(); i++ {
				scribble(v.Index(i))
			}
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("scribbled")
		}
	case reflect.Int:
		if v.CanSet() {
			v.SetInt(-1)
		}
	}
}

// BenchmarkClone clones every core-2023 rule file, as each load of the
// ruleset in a process does (ParseCached).
func BenchmarkClone(b *testing.B) {
	paths, _ := filepath.Glob("../../rulesets/core-2023/*.munda")
	var files []*File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		f, diags := Parse(p, src)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		files = append(files, f)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Clone(f)
		}
	}
}
