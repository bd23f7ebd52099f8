package odds

import (
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/munda-rules/munda/interpreter"
)

// Exact gives the exact distribution of the question's outcomes by
// pushing configurations of the run through the rules and merging those
// that are the same.
//
// A configuration is a run paused at a checkpoint (the start of a
// statement; see interpreter.Checkpoint): its position, a hash of all the
// run depends on from there (the state, the variables of the blocks
// running, the rules running), one path of dice that reaches it and its
// probability. Configurations wait in a queue ordered by position; the
// first is taken, and every branch of the dice after it is followed up to
// the next checkpoint, where each becomes a configuration, merged with
// any at the same position with the same hash (their probabilities add
// up), or to the end, where it is an outcome. A configuration is reached
// by replaying its path from the start: the interpreter cannot yet be
// copied mid-run, so replay is the price of merging. Runs are
// deterministic and positions only grow along a run, so once the first
// configuration is taken, nothing can reach it any more.
//
// Merging assumes the question's choice source answers by the request
// alone (interpreter.Choices does), as replaying every run already did.
//
// A characteristic test is one branch of pass and fail with its exact
// probability, and faces that show the same result are one branch, as in
// every run (interpreter.TestDecider, RowDecider).
//
// A question of what the run signalled (dsl.QuerySignalled) counts the
// signals so far as part of a configuration: runs merge only when they
// signalled the same on their way.
//
// More than maxConfigs distinct configurations (0: DefaultMaxPaths),
// counting each branch that reaches the end as one, gives
// ErrTooManyPaths: memory stays bounded by it.
func Exact(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	if maxConfigs <= 0 {
		maxConfigs = DefaultMaxPaths
	}
	e := &merger{q: &q, max: maxConfigs, pending: map[string]*config{}, acc: newAccumulator(),
		counters: q.Limits != (interpreter.Limits{}), covered: new(big.Rat)}
	root := &config{p: big.NewRat(1, 1)}
	if err := e.expand(ctx, root); err != nil {
		return nil, err
	}
	for e.queue.Len() > 0 {
		c := heap.Pop(&e.queue).(*config)
		delete(e.pending, c.key)
		if err := e.expand(ctx, c); err != nil {
			return nil, err
		}
	}
	res := e.acc.result()
	res.Exact, res.Paths, res.Configs, res.Runs = true, e.ends, e.configs, e.runs
	return res, nil
}

// config is a run paused at a checkpoint, standing for every run that
// reached it (their probabilities summed).
type config struct {
	pos   []int
	key   string   // position, blocks and hash: equal keys are merged
	path  []branch // one path of picks that reaches it
	p     *big.Rat
	index int // in the queue
}

type merger struct {
	q        *Question
	max      int
	counters bool // the limits are the question's own: counts matter
	pending  map[string]*config
	queue    configQueue
	acc      *accumulator
	configs  int // distinct configurations made
	runs     int // runs started (each up to the next checkpoint)
	ends     int // runs that reached the end
	covered  *big.Rat
	idBuf    []uintptr
	merged   int          // paused runs merged into a configuration
	signals  signalCounts // the run's signals so far, when the question asks them
	keyBuf   []byte
}

// expand follows every branch of the dice from c through its next
// decision, each up to the last checkpoint before the decision after it
// (where the values of the rolls before have had time to fall out of
// scope, so that more runs merge), or to the end.
func (e *merger) expand(ctx context.Context, c *config) error {
	w := &walker{path: append([]branch(nil), c.path...), base: len(c.path)}
	// The last checkpoint since the latest new decision, if any.
	var (
		seen    bool
		candPos []int
		candKey string
	)
	hook := func(cp interpreter.Checkpoint) bool {
		if w.pos <= w.base || cp.Plain() {
			// Replaying, or no decision taken yet; or a plain statement,
			// after which there is a checkpoint before any decision (the
			// last one before it is as good a place to merge).
			return false
		}
		candPos = cp.Position(candPos[:0])
		e.idBuf = cp.Identity(e.idBuf[:0])
		b := e.keyBuf[:0]
		for _, x := range candPos {
			b = binary.AppendUvarint(b, uint64(x))
		}
		for _, x := range e.idBuf {
			b = binary.AppendUvarint(b, uint64(x))
		}
		b = binary.LittleEndian.AppendUint64(b, cp.Hash(e.counters))
		if e.signals != nil {
			b = e.signals.appendKey(b)
		}
		e.keyBuf = b
		candKey = string(b)
		seen = true
		return false
	}
	w.onPick = func(i int) {
		if i > w.base && seen {
			panic(pickPause{})
		}
		seen = false
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		w.start()
		seen = false
		if e.q.Of != nil && e.q.Of.Signals() {
			e.signals = signalCounts{}
		}
		key, value, paused, err := runUntil(e.q, w, hook, nil, e.signals)
		e.runs++
		if err != nil {
			return pathError(w, err)
		}
		p := new(big.Rat).Mul(c.p, w.p)
		if paused {
			if err := e.add(append([]int(nil), candPos...), candKey, w.path[:w.pos], p); err != nil {
				return err
			}
		} else {
			e.ends++
			if e.configs+e.ends > e.max {
				return e.tooMany()
			}
			e.acc.add(key, value, p)
			if e.q.Progress != nil {
				e.covered.Add(e.covered, p)
			}
		}
		if e.q.Progress != nil && e.runs%64 == 0 {
			f, _ := e.covered.Float64()
			e.q.Progress(e.runs, f)
		}
		if !w.next() {
			return nil
		}
	}
}

// pickPause unwinds a run that reached a decision after a checkpoint: it
// is continued from that checkpoint.
type pickPause struct{}

// add merges a paused run into the configuration at its position with
// its hash, or makes a new one.
func (e *merger) add(pos []int, key string, path []branch, p *big.Rat) error {
	if c, ok := e.pending[key]; ok {
		e.merged++
		c.p.Add(c.p, p)
		return nil
	}
	e.configs++
	if e.configs+e.ends > e.max {
		return e.tooMany()
	}
	c := &config{pos: pos, key: key, path: append([]branch(nil), path...), p: p}
	e.pending[key] = c
	heap.Push(&e.queue, c)
	return nil
}

// tooMany is the error past the bound: configurations, counting the
// branches that reached the end (each a configuration at the end).
func (e *merger) tooMany() error {
	return fmt.Errorf("%w: more than %d distinct configurations of the run", ErrTooManyPaths, e.max)
}

// configQueue orders configurations by position, earliest first.
type configQueue []*config

func (q configQueue) Len() int { return len(q) }
func (q configQueue) Less(i, j int) bool {
	if c := interpreter.ComparePositions(q[i].pos, q[j].pos); c != 0 {
		return c < 0
	}
	return q[i].key < q[j].key
}
func (q configQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *configQueue) Push(x any) {
	c := x.(*config)
	c.index = len(*q)
	*q = append(*q, c)
}
func (q *configQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
