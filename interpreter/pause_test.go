package interpreter_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// A run paused at any checkpoint returns interpreter.ErrPaused itself:
// no construct between the checkpoint and the run's top (calls, tables'
// rows, loops, steps, actions, a dynamic perform) places it as a
// diagnostic or rewords it. Each case pauses at checkpoints spread over
// the whole run, for a few seeds.
func TestPauseReturnsErrPaused(t *testing.T) {
	p := coreProgram(t)
	tmpl, err := os.ReadFile("testdata/duel.yaml.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	duel, err := state.Decode("duel.yaml", []byte(fmt.Sprintf(string(tmpl), 3, 1)))
	if err != nil {
		t.Fatal(err)
	}
	duelArgs := func(st *state.State) map[string]any {
		shooter, target := st.Gangs[0].Models[0], st.Gangs[1].Models[0]
		return map[string]any{"attacker": shooter, "target": target, "weapon": shooter.Weapons[0]}
	}
	for _, c := range []struct {
		name, proc string
		action     bool
		state      func() *state.State
		args       func(*state.State) map[string]any
	}{
		{"end phase", "end_phase", false, benchState, func(*state.State) map[string]any { return nil }},
		{"resolve hit", "resolve_hit", false, duel.Clone, duelArgs},
		{"activation", "activation", false, duel.Clone, func(st *state.State) map[string]any {
			return map[string]any{"model": st.Gangs[0].Models[0]}
		}},
		{"fight (an action)", "fight", true, func() *state.State {
			st := duel.Clone()
			a, t := st.Gangs[0].Models[0], st.Gangs[1].Models[0]
			t.X = 0.9
			a.Secondary, t.Secondary = "engaged", "engaged"
			return st
		}, func(st *state.State) map[string]any {
			return map[string]any{"attacker": st.Gangs[0].Models[0], "target": st.Gangs[1].Models[0]}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := p.Run
			if c.action {
				run = p.RunAction
			}
			for seed := uint64(0); seed < 5; seed++ {
				n := 0
				st := c.state()
				if err := run(st, c.proc, c.args(st), interpreter.Options{Dice: interpreter.NewSeeded(seed),
					Checkpoint: func(interpreter.Checkpoint) bool { n++; return false }}); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				stride := max(1, n/40)
				for at := 0; at < n; at += stride {
					i := 0
					st := c.state()
					err := run(st, c.proc, c.args(st), interpreter.Options{Dice: interpreter.NewSeeded(seed),
						Checkpoint: func(interpreter.Checkpoint) bool { i++; return i > at }})
					if err != interpreter.ErrPaused {
						t.Fatalf("seed %d, paused at checkpoint %d of %d: the run returned %v, want ErrPaused itself", seed, at, n, err)
					}
				}
			}
		})
	}
}
