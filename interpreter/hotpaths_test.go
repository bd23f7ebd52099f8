package interpreter_test

import (
	"context"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
)

// The runs the speed benchmarks measure (the End Phase, an activation, a
// Monte Carlo question) run every expression as closures: expr's VM,
// which a closure falls back to where it fails or cannot be built, runs
// none of them. A VM run here is a slow path nobody sees in the results,
// only in the time: the test says which run took it.
func TestHotPathsRunNoVM(t *testing.T) {
	p := coreProgram(t)
	of, diags := p.Rules.Index.CompileQuery("of", `gang("g0").bottled`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		name string
		run  func(seed uint64) error
	}{
		{"end_phase", func(seed uint64) error {
			return p.Run(benchState(), "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(seed)})
		}},
		{"activation", func(seed uint64) error {
			st := activationState()
			args := map[string]any{"model": st.Gangs[0].Models[0]}
			return p.Run(st, "activation", args, interpreter.Options{Dice: interpreter.NewSeeded(seed)})
		}},
		{"monte carlo", func(seed uint64) error {
			q := odds.Question{Program: p, State: benchState(), Procedure: "end_phase", Of: of}
			_, err := odds.Sample(context.Background(), q, 5, seed, 1, nil)
			return err
		}},
	} {
		before := dsl.VMRuns()
		for seed := range uint64(20) {
			if err := c.run(seed); err != nil {
				t.Fatalf("%s, seed %d: %v", c.name, seed, err)
			}
		}
		if n := dsl.VMRuns() - before; n > 0 {
			t.Errorf("%s: expr's VM ran %d expressions in 20 runs; each should run as closures (dsl/fastexpr)", c.name, n)
		}
	}
}
