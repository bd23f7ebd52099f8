package interpreter_test

import (
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// recordedDice deals seeded dice and keeps them, so that a resumed run
// can be dealt the same dice from where its snapshot was taken.
type recordedDice struct {
	src  interpreter.DiceSource
	dice []interpreter.Die
}

func (d *recordedDice) Roll(req *interpreter.DieRequest) (interpreter.Die, error) {
	die, err := d.src.Roll(req)
	d.dice = append(d.dice, die)
	return die, err
}

// replayedDice deals dice kept by a recordedDice, from a place on.
type replayedDice struct {
	dice []interpreter.Die
	next int
}

func (d *replayedDice) Roll(*interpreter.DieRequest) (interpreter.Die, error) {
	die := d.dice[d.next]
	d.next++
	return die, nil
}

// A run resumed from a snapshot taken at any checkpoint ends as the run
// it was taken from, given the same dice: the same state and the same
// events after the snapshot. Over a few hundred seeds of the shipped End
// Phase (20 models) and a lasgun hit with its Lasting Injury, each
// snapshot at a checkpoint picked by the seed; and so a run resumed from
// where a call completed (Options.CallEnds), past its block's last
// statement when the call was the last.
func TestResumeMatchesUninterrupted(t *testing.T) {
	p := coreProgram(t)
	tmpl, err := os.ReadFile("testdata/duel.yaml.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	duel, err := state.Decode("duel.yaml", []byte(fmt.Sprintf(string(tmpl), 3, 1))) // a T3 W1 target
	if err != nil {
		t.Fatal(err)
	}
	duelArgs := func(st *state.State) map[string]any {
		shooter, target := st.Gangs[0].Models[0], st.Gangs[1].Models[0]
		return map[string]any{"attacker": shooter, "target": target, "weapon": shooter.Weapons[0]}
	}
	for _, c := range []struct {
		name, proc string
		action     bool // proc is an action (Program.RunAction)
		state      func() *state.State
		args       func(*state.State) map[string]any
		seeds      uint64
	}{
		{"end phase", "end_phase", false, benchState, func(*state.State) map[string]any { return nil }, 200},
		{"resolve hit", "resolve_hit", false, duel.Clone, duelArgs, 300},
		// an activation performs the action chosen (a dynamic perform)
		{"activation", "activation", false, duel.Clone, func(st *state.State) map[string]any {
			return map[string]any{"model": st.Gangs[0].Models[0]}
		}, 100},
		{"fight (an action)", "fight", true, func() *state.State {
			st := duel.Clone()
			a, t := st.Gangs[0].Models[0], st.Gangs[1].Models[0]
			t.X = 0.9 // base to base
			a.Secondary, t.Secondary = "engaged", "engaged"
			return st
		}, func(st *state.State) map[string]any {
			return map[string]any{"attacker": st.Gangs[0].Models[0], "target": st.Gangs[1].Models[0]}
		}, 100},
	} {
		for _, ends := range []bool{false, true} {
			name := c.name
			if ends {
				name += " at a call's end"
			}
			t.Run(name, func(t *testing.T) {
				resumed := 0
				// On odd seeds, the snapshot and the runs resumed are made
				// in memory kept from seed to seed, as exact odds makes them.
				var (
					mem interpreter.SnapshotMemory
					rm  interpreter.Resumer
				)
				for seed := uint64(0); seed < c.seeds; seed++ {
					// How many checkpoints the run passes.
					n := 0
					run := p.Run
					if c.action {
						run = p.RunAction
					}
					st := c.state()
					if err := run(st, c.proc, c.args(st), interpreter.Options{Dice: interpreter.NewSeeded(seed), CallEnds: ends,
						Checkpoint: func(cp interpreter.Checkpoint) bool {
							if cp.Completed() == ends {
								n++
							}
							return false
						}}); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if n == 0 && ends {
						continue // no call completed at a checkpoint
					}
					if n == 0 {
						t.Fatalf("seed %d: no checkpoint", seed)
					}
					at := int(seed*7919) % n
					// The run again, with a snapshot at checkpoint number at.
					var (
						snap          *interpreter.Snapshot
						diceAt, logAt int
						i             int
						events        interpreter.Events
					)
					dice := &recordedDice{src: interpreter.NewSeeded(seed)}
					st = c.state()
					if err := run(st, c.proc, c.args(st), interpreter.Options{Dice: dice, Log: &events, CallEnds: ends,
						Checkpoint: func(cp interpreter.Checkpoint) bool {
							if cp.Completed() != ends {
								return false
							}
							if i == at {
								take := cp.Snapshot
								if seed%2 == 1 {
									take = func() *interpreter.Snapshot { return cp.SnapshotIn(&mem) }
								}
								snap, diceAt, logAt = take(), len(dice.dice), len(events)
							}
							i++
							return false
						}}); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if snap == nil {
						t.Fatalf("seed %d: no snapshot at checkpoint %d of %d", seed, at, n)
					}
					// The snapshot twice: it is never changed by a resume.
					for range 2 {
						var more interpreter.Events
						opts := interpreter.Options{Dice: &replayedDice{dice: dice.dice, next: diceAt}, Log: &more}
						resume := p.Resume
						if seed%2 == 1 {
							resume = func(s *interpreter.Snapshot, opts interpreter.Options) (*state.State, error) {
								return p.ResumeWith(s, opts, &rm)
							}
						}
						got, err := resume(snap, opts)
						if err != nil {
							t.Fatalf("seed %d: resumed at checkpoint %d: %v", seed, at, err)
						}
						want, _ := state.Encode(st, "json")
						have, _ := state.Encode(got, "json")
						if string(want) != string(have) {
							t.Fatalf("seed %d, checkpoint %d: resumed run ends in\n%s\nwant\n%s", seed, at, have, want)
						}
						if tail := events[logAt:]; len(tail) != len(more) || len(more) > 0 && !reflect.DeepEqual(tail, more) {
							t.Fatalf("seed %d, checkpoint %d: resumed run logged\n%v\nwant\n%v", seed, at, eventTexts(more), eventTexts(events[logAt:]))
						}
					}
					resumed++
				}
				t.Logf("%d runs resumed", resumed)
				if resumed < int(c.seeds)/2 {
					t.Errorf("only %d of %d runs resumed", resumed, c.seeds)
				}
			})
		}
	}
}

func eventTexts(es interpreter.Events) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Text)
	}
	return out
}
