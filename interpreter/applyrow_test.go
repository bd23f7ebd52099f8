package interpreter_test

import (
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// ApplyRow says which row a table applied (the row rolled, not the rows
// it applied in turn); RollRow finds the same row and stops there.
func TestApplyRowAndRollRow(t *testing.T) {
	p := coreProgram(t)
	for _, c := range []struct {
		result any
		row    string
	}{
		{11, "lesson_learned"},
		{25, "out_cold"},
		{54, "multiple_injuries"}, // which applies the table again, D3 times
		{66, "memorable_death"},
	} {
		st := benchState()
		m := st.Gangs[0].Models[5]
		row, err := p.ApplyRow(st, "lasting_injury", map[string]any{"fighter": m, "attacker": (*state.Model)(nil)}, c.result,
			interpreter.Options{Dice: interpreter.NewSeeded(1)})
		if err != nil || row != c.row {
			t.Errorf("ApplyRow with %v = %q, %v; want %s", c.result, row, err, c.row)
		}
		if c.row != "out_cold" && len(m.LastingInjuries) == 0 {
			t.Errorf("ApplyRow with %v did not apply the row", c.result)
		}
	}
	// Rolled: the same dice land on the same row, and RollRow runs none of it.
	for seed := range uint64(40) {
		a, b := benchState(), benchState()
		args := func(st *state.State) map[string]any {
			return map[string]any{"fighter": st.Gangs[0].Models[5], "attacker": (*state.Model)(nil)}
		}
		applied, err := p.ApplyRow(a, "lasting_injury", args(a), nil, interpreter.Options{Dice: interpreter.NewSeeded(seed)})
		if err != nil {
			t.Fatal(err)
		}
		rolled, err := p.RollRow(b, "lasting_injury", args(b), interpreter.Options{Dice: interpreter.NewSeeded(seed)})
		if err != nil {
			t.Fatal(err)
		}
		if applied != rolled || rolled == "" {
			t.Fatalf("seed %d: ApplyRow %q, RollRow %q", seed, applied, rolled)
		}
		if m := b.Gangs[0].Models[5]; len(m.LastingInjuries) != 0 || m.Dead || m.Convalescence {
			t.Fatalf("seed %d: RollRow applied %s", seed, rolled)
		}
	}
}
