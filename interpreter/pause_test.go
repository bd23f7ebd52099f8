package interpreter_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// pausingDice deals seeded dice, and pauses the run (ErrPaused) at its
// pick number at, as exact odds' walker does at a decision after a
// checkpoint: a roll, a test or a table's row it is asked to decide
// (it decides none, so that they are rolled).
type pausingDice struct {
	src    interpreter.DiceSource
	at, n  int
	paused bool
}

func (d *pausingDice) pick() error {
	d.n++
	if d.n > d.at {
		d.paused = true
		return interpreter.ErrPaused
	}
	return nil
}

func (d *pausingDice) Roll(req *interpreter.DieRequest) (interpreter.Die, error) {
	if err := d.pick(); err != nil {
		return interpreter.Die{}, err
	}
	return d.src.Roll(req)
}

func (d *pausingDice) DecideTest(*interpreter.TestRequest) (bool, bool, error) {
	return false, false, d.pick()
}

func (d *pausingDice) DecideRow(*interpreter.RowRequest) (int, bool, error) {
	return 0, false, d.pick()
}

// A run paused at any checkpoint, or by its dice source at any roll or
// decision, returns interpreter.ErrPaused itself: no construct between
// there and the run's top (calls, tables' rows, loops, steps, actions, a
// dynamic perform, hooks, handlers, tests, re-rolls) places it as a
// diagnostic or rewords it. Each case pauses at places spread over the
// whole run, for a few seeds.
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
				// The dice: how many picks the run makes, then a pause at
				// picks spread over them.
				all := &pausingDice{src: interpreter.NewSeeded(seed), at: 1 << 30}
				st = c.state()
				if err := run(st, c.proc, c.args(st), interpreter.Options{Dice: all}); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				for at := 0; at < all.n; at += max(1, all.n/40) {
					d := &pausingDice{src: interpreter.NewSeeded(seed), at: at}
					st := c.state()
					err := run(st, c.proc, c.args(st), interpreter.Options{Dice: d})
					if !d.paused || err != interpreter.ErrPaused {
						t.Fatalf("seed %d, paused at pick %d of %d: the run returned %v, want ErrPaused itself", seed, at, all.n, err)
					}
				}
			}
		})
	}
}
