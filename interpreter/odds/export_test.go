package odds

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter"
)

// ExactReplay is the first exact engine (a whole run per branch), the
// reference Exact is tested against.
var ExactReplay = exactReplay

// ExactWith is Exact with workers workers, continuing configurations from
// snapshots or (snapshots false) by replaying their paths, and (runAgain)
// taking every configuration by running the paused run again.
func ExactWith(ctx context.Context, q Question, maxConfigs, workers int, snapshots, runAgain bool) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: workers, noSnapshots: !snapshots, runAgain: runAgain})
}

// ExactByScope is Exact merging by every variable in scope, read later
// or not (as before liveness), following every run to its end: the
// reference for the live hash.
func ExactByScope(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: runtime.GOMAXPROCS(0), scopeHash: true, noDecided: true})
}

// ExactCheckingLive is Exact checking every merge the live hash makes
// that the hash of every variable in scope would not, and every roll it
// follows on one face because nothing later reads it (see exactOptions).
// It follows every run to its end, so that the merges after a question
// is decided are checked too (ExactCheckingDecided checks runs taken as
// decided).
func ExactCheckingLive(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: 1, checkLive: true, checkUnread: true, noDecided: true})
}

// ExactWholeState is Exact leaving out the variables nothing later reads
// but no field of the state, following every run to its end.
func ExactWholeState(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: 1, wholeState: true, noDecided: true})
}

// ExactEveryFace is Exact following every face of every roll, read later
// or not (as before UnreadRoll), and every run to its end.
func ExactEveryFace(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: runtime.GOMAXPROCS(0), noUnread: true, noDecided: true})
}

// ExactCheckingUnread is Exact checking, where it follows a roll on one
// face, that every face gives the same next configurations and outcomes;
// it follows every run to its end (so that the rolls are reached).
func ExactCheckingUnread(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: 1, checkUnread: true, noDecided: true})
}

// ExactToEnd is Exact following every run to its end, even once its
// answer is decided (as before Checkpoint.Decided).
func ExactToEnd(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: runtime.GOMAXPROCS(0), noDecided: true})
}

// ExactCheckingDecided is Exact continuing every run it takes as decided
// to its end, and failing unless the answer is the one it took; checked
// is how many distinct configurations it so continued.
func ExactCheckingDecided(ctx context.Context, q Question, maxConfigs int) (res *Result, checked int, err error) {
	res, err = exact(ctx, q, maxConfigs, exactOptions{workers: 1, checkDecided: true, decidedChecked: &checked})
	return res, checked, err
}

// ExactUnnarrowed is Exact leaving out what the rest of a run reads by
// the place alone, without the narrowings that depend on values at the
// checkpoint (interpreter.Checkpoint.HashUnnarrowed), following every
// run to its end: the reference those narrowings are compared with.
func ExactUnnarrowed(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: 1, unnarrowed: true, noDecided: true})
}

// SampleRuns runs n samples of q with dice seeded by seed as a Monte
// Carlo worker does, in one Resumer whose memory each sample recycles
// (recycled), or each sample on a clone of its own in memory of its own
// (not): the reference. It returns each sample's key and the outcomes
// tallied, with the values they keep, after the last sample.
func SampleRuns(q Question, n int, seed uint64, recycled bool) ([]string, []Outcome, error) {
	acc := newAccumulator()
	dice := interpreter.NewSeeded(seed)
	var rm interpreter.Resumer
	keys := make([]string, 0, n)
	for range n {
		if !recycled {
			key, value, err := runOnce(&q, dice, nil)
			if err != nil {
				return nil, nil, err
			}
			acc.add(key, value, prob{})
			keys = append(keys, key)
			continue
		}
		key, value, err := runOnce(&q, dice, &rm)
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, strings.Clone(key)) // kept past the Recycle: its text may be the run's
		count(acc, key, value, &rm)
	}
	return keys, acc.result().Outcomes, nil
}

// SampleAllocs is how many objects a sample of q allocates in a worker's
// memory once it has grown (testing.AllocsPerRun over runs samples, with
// the collector off).
func SampleAllocs(q Question, runs int) (float64, error) {
	acc := newAccumulator()
	dice := interpreter.NewSeeded(1)
	var rm interpreter.Resumer
	var err error
	sample := func() {
		key, value, e := runOnce(&q, dice, &rm)
		if e != nil && err == nil {
			err = e
		}
		count(acc, key, value, &rm)
	}
	for range 50 { // the slabs grown, every outcome seen
		sample()
	}
	// No collection while counting: one empties the pools (of frames,
	// environments) that other tests' garbage brought on, which is not
	// the sample's doing.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	// The least of three counts: AllocsPerRun counts the whole process's,
	// and goroutines an earlier test left winding down allocate too.
	n := testing.AllocsPerRun(runs, sample)
	for range 2 {
		n = min(n, testing.AllocsPerRun(runs, sample))
	}
	return n, err
}

// SampleFresh is Sample on one goroutine with each sample on a clone of
// its own in memory of its own, nothing reused or recycled: what Sample
// must give, outcome for outcome.
func SampleFresh(q Question, n int, seed uint64) ([]Outcome, error) {
	all := newAccumulator()
	for c := range (n + chunk - 1) / chunk {
		dice := interpreter.NewSeeded(splitmix(seed ^ splitmix(uint64(c)+1)))
		acc := newAccumulator()
		for range min(chunk, n-c*chunk) {
			key, value, err := runOnce(&q, dice, nil)
			if err != nil {
				return nil, err
			}
			acc.add(key, value, prob{})
		}
		all.merge(acc)
	}
	return all.result().Outcomes, nil
}

// ExactNoMemo is Exact (toEnd: ExactToEnd) without the call memo: the
// callee of a call is run again for every caller configuration
// (memo.go).
func ExactNoMemo(ctx context.Context, q Question, maxConfigs int, toEnd bool) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: runtime.GOMAXPROCS(0), noDecided: toEnd, noMemo: true})
}

// ExactCheckingMemo is ExactToEnd continuing each caller of every group
// the call memo serves to the end alone, with the memo and without, and
// failing unless both give the same outcomes; checked is how many
// callers it so continued. It checks merges by the live hash and rolls
// followed on one face as ExactCheckingLive does, the runs of the
// memo's groups among them.
func ExactCheckingMemo(ctx context.Context, q Question, maxConfigs int) (res *Result, checked int, err error) {
	res, err = exact(ctx, q, maxConfigs, exactOptions{workers: 1, noDecided: true, checkMemo: true, memoChecked: &checked,
		checkLive: true, checkUnread: true})
	return res, checked, err
}
