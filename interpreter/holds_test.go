package interpreter_test

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// A prevented condition is logged with the rule that prevented it.
func TestPreventLogged(t *testing.T) {
	p := programOf(t, `
condition frightened "Frightened" {}
condition blessed "Blessed" {
  source "Blessings §1"
  prevent condition frightened
}
procedure frighten(m: model) "Frighten" {
  add frightened to m.conditions
}
`)
	st, err := state.Decode("s.yaml", []byte(`
gangs:
  - id: g
    name: G
    models:
      - {id: a, name: A, kind: fighter, conditions: [blessed], status: standing, x: 0, y: 0, base: 25}
`))
	if err != nil {
		t.Fatal(err)
	}
	var log interpreter.Events
	if err := p.Run(st, "frighten", map[string]any{"m": st.Model("a")}, interpreter.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := interpreter.WriteText(&text, log); err != nil {
		t.Fatal(err)
	}
	if got := text.String(); !strings.Contains(got, "Condition Blessed: A is not frightened") || !strings.Contains(got, "Blessings §1") {
		t.Errorf("the log does not name the prevention and its rule:\n%s", got)
	}
	if len(st.Model("a").Conditions) != 1 {
		t.Errorf("conditions = %v, want [blessed]", st.Model("a").Conditions)
	}
}
