package interpreter_test

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// TestRulesKeepTheirSlots: once checks number frame slots afresh (a new
// numbering, dsl/frameslots.go), rules checked before still run with
// theirs, and rules checked after do not reuse a compiled expression of
// the same text that reads the old slots.
func TestRulesKeepTheirSlots(t *testing.T) {
	const body = `
  let a = 2
  let b = a + 1
  emit "b is {b}"
}
`
	dsl.RenumberSlots()
	old := programOf(t, `procedure p() "P" {`+body) // a and b: the first slots after the globals
	dsl.RenumberSlots()
	renumbered := programOf(t, `procedure p() "P" {
  let x1 = 40
  let x2 = 41
  let x3 = 42
  emit "{x1} {x2} {x3}"`+body) // the same text; the first slots are x1, x2 and x3
	// Each in turn, and the first again: runs remember slots by name.
	for i, p := range []*interpreter.Program{old, renumbered, old} {
		name := []string{"checked before", "checked after"}[i%2]
		st, err := state.Decode("s.yaml", []byte("gangs:\n  - {id: g, name: G}\n"))
		if err != nil {
			t.Fatal(err)
		}
		var log interpreter.Events
		if err := p.Run(st, "p", nil, interpreter.Options{Log: &log}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var text strings.Builder
		if err := interpreter.WriteText(&text, log); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "b is 3") {
			t.Errorf("rules %s the numbering started again: want b is 3, got\n%s", name, text.String())
		}
	}
}
