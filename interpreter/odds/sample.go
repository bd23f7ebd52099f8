package odds

import (
	"context"
	"math"
	"math/big"
	"runtime"
	"strings"
	"sync"

	"github.com/munda-rules/munda/interpreter"
)

// chunk is the unit of Monte Carlo work: each chunk has its own seed, drawn
// from the question's seed and the chunk's number, so the result does not
// depend on how many workers run the chunks.
const chunk = 256

// Sample runs the question n times with seeded dice, on every core (workers
// <= 0: GOMAXPROCS), and returns the frequencies with 95% intervals.
// progress, if not nil, is called now and then with the runs done.
func Sample(ctx context.Context, q Question, n int, seed uint64, workers int, progress func(done int)) (*Result, error) {
	if n <= 0 {
		n = 1
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (n + chunk - 1) / chunk
	results := make([]*accumulator, chunks)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	next := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One state buffer and run per worker: each sample is copied
			// into it (state.Buffer), not cloned, and runs in it.
			var rm interpreter.Resumer
			for c := range next {
				acc, err := sampleChunk(ctx, &q, c, min(chunk, n-c*chunk), seed, &rm)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				results[c] = acc
				done += min(chunk, n-c*chunk)
				d := done
				mu.Unlock()
				if progress != nil {
					progress(d)
				}
			}
		}()
	}
feed:
	for c := range chunks {
		select {
		case next <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all := newAccumulator()
	for _, acc := range results {
		all.merge(acc)
	}
	res := all.result()
	res.Samples, res.Seed = n, seed
	for i := range res.Outcomes {
		o := &res.Outcomes[i]
		o.P = big.NewRat(int64(o.Count), int64(n))
		o.Low, o.High = wilson(o.Count, n, 1.959964)
	}
	if res.Numeric {
		res.Mean = new(big.Rat)
		for _, o := range res.Outcomes {
			v, _ := number(o.Value)
			res.Mean.Add(res.Mean, new(big.Rat).Mul(v, o.P))
		}
	}
	return res, nil
}

// sampleChunk runs one chunk's samples, each on a fresh copy of the state
// in rm, with no log: runs without one skip the narration.
func sampleChunk(ctx context.Context, q *Question, c, size int, seed uint64, rm *interpreter.Resumer) (*accumulator, error) {
	acc := newAccumulator()
	dice := interpreter.NewSeeded(splitmix(seed ^ splitmix(uint64(c)+1)))
	for range size {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		key, value, err := runOnce(q, dice, rm)
		if err != nil {
			return nil, err
		}
		count(acc, key, value, rm)
	}
	return acc, nil
}

// count counts a sample run in rm's memory, and readies the memory for
// the next: a value the outcome keeps is given its own memory, or the
// memory given up to it, and the rest recycled.
func count(acc *accumulator, key string, value any, rm *interpreter.Resumer) {
	if _, seen := acc.byKey[key]; !seen {
		// A new key is the outcome's text (keyOf), which may be cut
		// from the run's memory that Recycle takes back: kept, its own.
		key = strings.Clone(key)
	}
	if acc.add(key, value, prob{}) {
		if plainValue(value) {
			// Its box may be cut from the run's memory, which Recycle
			// takes back.
			acc.byKey[key].o.Value = ownBox(value)
		} else {
			// The outcome keeps a value that points into this copy (a
			// model, a list): the buffer and the run's memory give it up
			// to it.
			rm.Release()
		}
	}
	// Nothing of the sample is kept any more: its memory serves the next.
	rm.Recycle()
}

// ownBox is a plain value boxed afresh, in memory of its own.
func ownBox(v any) any {
	switch v := v.(type) {
	case string:
		return strings.Clone(v) // its text may be cut from the run's memory too
	case int:
		return v
	case int64:
		return v
	case float64:
		return v
	}
	return v // nil and bool: boxed in no memory
}

// plainValue reports whether v holds nothing of the state it came from.
func plainValue(v any) bool {
	switch v.(type) {
	case nil, bool, int, int64, float64, string:
		return true
	}
	return false
}

// splitmix is SplitMix64's finaliser: well-spread seeds from counters.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// wilson is the Wilson score interval for k successes in n trials at the
// given z (1.96 for 95%, 3.29 for 99.9%).
func wilson(k, n int, z float64) (float64, float64) {
	if n == 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	centre := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// Interval returns the interval of an outcome's probability at the given z
// (Monte Carlo results).
func (r *Result) Interval(o Outcome, z float64) (float64, float64) {
	return wilson(o.Count, r.Samples, z)
}
