package odds_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/stdlib/slab"
	"github.com/munda-rules/munda/stdlib/state"
)

// recycleQuestions are Monte Carlo questions whose outcomes keep values of
// every kind a run's memory may hold: a yes/no, text and a number boxed
// by the query, lists it builds, lists of the state, a model, and the
// summary of what changed.
func recycleQuestions(t *testing.T) map[string]odds.Question {
	p := program(t)
	b, err := os.ReadFile("../../rulesets/core-2023/tests/states/end_phase.yaml")
	if err != nil {
		t.Fatal(err)
	}
	endPhase := func(of string) odds.Question {
		q := odds.Question{Program: p, State: decodeState(t, string(b)), Procedure: "end_phase"}
		if of != "" {
			q.Of = query(t, p, of)
		}
		return q
	}
	hit := func(of string) odds.Question {
		return odds.Question{Program: p, State: decodeState(t, duel(3, 1)), Procedure: "resolve_hit",
			Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Of: query(t, p, of)}
	}
	return map[string]odds.Question{
		"end_phase/bottled":      endPhase(`gang("goliaths").bottled`),
		"end_phase/summary":      endPhase(""),
		"end_phase/text":         endPhase(`model("bully").status + "/" + model("sister").secondary`),
		"end_phase/secondary":    endPhase(`model("bully").secondary`),
		"end_phase/list":         endPhase(`map(filter(models(), .secondary == "seriously_injured" or .status == "out_of_action"), .id)`),
		"end_phase/number":       endPhase(`count(models(), .status == "standing") * 1000 + len(model("brute").conditions)`),
		"end_phase/state_list":   endPhase(`model("brute").conditions`),
		"end_phase/model":        endPhase(`first(filter(models(), .status == "prone"))`),
		"resolve_hit/status":     hit(`model("target").status`),
		"resolve_hit/conditions": hit(`model("target").conditions`),
	}
}

// show is an outcome's value as text, a model by its id.
func show(v any) string {
	if m, ok := v.(*state.Model); ok {
		if m == nil {
			return "no model"
		}
		return "model " + m.ID
	}
	return fmt.Sprintf("%T %v", v, v)
}

// A Monte Carlo worker that recycles a sample's memory for the next gives,
// sample for sample, the outcomes of samples run each on a clone in memory
// of its own, and keeps the values of its outcomes intact to the end: with
// rewound memory zeroed, and poisoned (slab.Poison), which a value kept
// past a Recycle would read.
func TestRecycledSamplesMatchFresh(t *testing.T) {
	const samples = 120
	for _, poisoned := range []bool{false, true} {
		for name, q := range recycleQuestions(t) {
			t.Run(fmt.Sprintf("%s/poisoned=%v", name, poisoned), func(t *testing.T) {
				if poisoned {
					defer slab.Poison()()
				}
				for _, seed := range []uint64{1, 7} {
					fresh, want, err := odds.SampleRuns(q, samples, seed, false)
					if err != nil {
						t.Fatal(err)
					}
					recycled, got, err := odds.SampleRuns(q, samples, seed, true)
					if err != nil {
						t.Fatal(err)
					}
					if i := firstDifference(fresh, recycled); i >= 0 {
						t.Fatalf("seed %d, sample %d: recycled %q, fresh %q", seed, i, recycled[i], fresh[i])
					}
					if len(got) != len(want) {
						t.Fatalf("seed %d: %d outcomes recycled, %d fresh", seed, len(got), len(want))
					}
					for i := range want {
						g, w := got[i], want[i]
						if g.Key != w.Key || g.Count != w.Count || show(g.Value) != show(w.Value) {
							t.Errorf("seed %d: outcome %d recycled %q ×%d = %s, fresh %q ×%d = %s", seed, i, g.Key, g.Count, show(g.Value), w.Key, w.Count, show(w.Value))
						}
					}
				}
			})
		}
	}
}

// Sample, its workers recycling their memory, gives the outcomes of
// samples each run fresh, with their values whole, on any number of
// workers (under the race detector too: a worker's memory is its own).
func TestSampleMatchesFresh(t *testing.T) {
	qs := recycleQuestions(t)
	for _, name := range []string{"end_phase/list", "end_phase/secondary", "end_phase/text", "end_phase/model", "resolve_hit/status", "resolve_hit/conditions"} {
		q := qs[name]
		want, err := odds.SampleFresh(q, 700, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			res, err := odds.Sample(context.Background(), q, 700, 5, workers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Outcomes) != len(want) {
				t.Fatalf("%s, %d workers: %d outcomes, fresh %d", name, workers, len(res.Outcomes), len(want))
			}
			for i, w := range want {
				g := res.Outcomes[i]
				if g.Key != w.Key || g.Count != w.Count || show(g.Value) != show(w.Value) {
					t.Errorf("%s, %d workers: outcome %d %q ×%d = %s, fresh %q ×%d = %s", name, workers, i, g.Key, g.Count, show(g.Value), w.Key, w.Count, show(w.Value))
				}
			}
		}
	}
}

// firstDifference is the first index where a and b differ, or -1.
func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// The questions have several outcomes each, so that the values kept come
// from samples well before the last (a test of one outcome would not
// see a value overwritten).
func TestRecycleQuestionsVary(t *testing.T) {
	for name, q := range recycleQuestions(t) {
		keys, _, err := odds.SampleRuns(q, 120, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(keys)
		if len(slices.Compact(keys)) < 2 {
			t.Errorf("%s: one outcome only, %q", name, keys[0])
		}
	}
}

// A sample in a worker's recycled memory allocates (almost) nothing once
// the memory has grown: its lists, dice and boxes are cut from memory the
// sample before gave back. A bound, not a count: a roll, a filter or a
// loop that allocated again would pass it.
func TestRecycledSampleAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates of its own")
	}
	// What is left: a list's key as text (fmt), numbers above 255 boxed,
	// and the summary's diff.
	bounds := map[string]float64{
		"end_phase/bottled": 0, "end_phase/secondary": 0, "end_phase/model": 0, "end_phase/text": 0,
		"end_phase/list": 1, "end_phase/state_list": 1, "end_phase/number": 3,
		"end_phase/summary": 5, "resolve_hit/status": 0, "resolve_hit/conditions": 2,
	}
	for name, q := range recycleQuestions(t) {
		n, err := odds.SampleAllocs(q, 100)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.1f allocations a sample", name, n)
		if bound, ok := bounds[name]; !ok || n > bound {
			t.Errorf("%s: a recycled sample allocates %.1f objects, more than %v", name, n, bound)
		}
	}
}
