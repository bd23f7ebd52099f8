package interpreter_test

import (
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// TestStateWarnings: a kind's `warn`s are checked on every model of that
// kind, each breach a warning with the model's path and the rule's
// message; models that keep them, and models of other kinds, get none.
func TestStateWarnings(t *testing.T) {
	const rules = `kind fighter "Fighter" {
  source "test"
  status standing "Standing"
  status down "Down"
  warn "{model.name} stands with {model.stats.t - model.flesh_wounds} Toughness" when model.status == "standing" and model.stats.t - model.flesh_wounds <= 0
  warn "{model.name} has lost more wounds than it has" when model.wounds_lost > model.stats.w
}
kind crate "Crate" {
  status there "There"
}
`
	pack := &dsl.Pack{FS: fstest.MapFS{"k.munda": {Data: []byte(rules)}}, Root: ".", Display: "k"}
	r, diags := rulesets.Load(rulesets.Selection{Base: rulesets.None, Pack: pack})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := interpreter.Compile(r)
	if err != nil {
		t.Fatal(err)
	}
	const src = `gangs:
  - id: g
    models:
      - {id: a, name: Ann, kind: fighter, status: standing, x: 0, y: 0, base: 25, stats: {t: 3, w: 1}, flesh_wounds: 3}
      - {id: b, name: Bo, kind: fighter, status: down, x: 0, y: 0, base: 25, stats: {t: 3, w: 1}, flesh_wounds: 3, wounds_lost: 2}
      - {id: c, name: Cy, kind: fighter, status: standing, x: 0, y: 0, base: 25, stats: {t: 3, w: 2}, flesh_wounds: 2, wounds_lost: 2}
      - {id: d, name: Box, kind: crate, status: there, x: 0, y: 0, base: 25}
`
	st, err := state.DecodeWith("s.yaml", []byte(src), r.Index.Vocabulary)
	if err != nil {
		t.Fatal(err)
	}
	warns := prog.StateWarnings(st)
	state.Locate("s.yaml", []byte(src), warns)
	want := []string{
		"s.yaml:4:9: warning: gangs[0].models[0]: in kind fighter: Ann stands with 0 Toughness",
		"s.yaml:5:9: warning: gangs[0].models[1]: in kind fighter: Bo has lost more wounds than it has",
	}
	if len(warns) != len(want) {
		t.Fatalf("got %d warnings, want %d: %v", len(warns), len(want), warns)
	}
	for i, w := range warns {
		if w.Error() != want[i] || w.Code != diag.CodeStateInvariant || w.Severity != diag.Warning || w.Source != "test" && i == 0 {
			t.Errorf("warning %d: %s (%s, %v, source %q), want %s", i, w.Error(), w.Code, w.Severity, w.Source, want[i])
		}
	}
}
