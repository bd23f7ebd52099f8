package odds

import (
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/munda-rules/munda/interpreter"
)

// Exact gives the exact distribution of the question's outcomes by
// pushing configurations of the run through the rules and merging those
// that are the same.
//
// A configuration is a run paused at a checkpoint (the start of a
// statement; see interpreter.Checkpoint): its position, a hash of all the
// run depends on from there (the state, the variables of the blocks
// running, the rules running; less the variables, and the fields of
// models, that neither the rest of the run nor the question reads:
// interpreter/liveness.go), a snapshot of the run there
// (interpreter.Snapshot) and its probability. Configurations wait in a
// queue ordered by position; the first is taken, and every branch of the
// dice after it is followed from a copy of its snapshot up to the next
// checkpoint, where each becomes a configuration, merged with any at the
// same position with the same hash (their probabilities add up), or to
// the end, where it is an outcome. Runs are deterministic and positions
// only grow along a run, so once the first configuration is taken,
// nothing can reach it any more.
//
// Where a run cannot be copied (a value in its variables that a snapshot
// cannot map onto a copy of the state), the configuration keeps one path
// of dice that reaches it instead, and is reached by replaying that path
// from the start.
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
//
// Configurations at the same position are expanded at once, on every
// core: none can reach another, and their results are merged in the
// queue's order, so the result does not depend on the scheduling.
func Exact(ctx context.Context, q Question, maxConfigs int) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: runtime.GOMAXPROCS(0)})
}

// exactOptions are Exact's knobs for tests: the workers, and whether to
// continue configurations from snapshots (else by replaying their paths,
// as where a snapshot cannot be made).
type exactOptions struct {
	workers     int
	noSnapshots bool
	// runAgain: take every configuration by running the paused run
	// again to its checkpoint, none as the run passes it.
	runAgain bool
	// scopeHash: merge by every variable in scope, read later or not
	// (interpreter.Checkpoint.ScopeHash), as before liveness.
	scopeHash bool
	// wholeState: leave out variables nothing later reads, but hash the
	// whole state (no field of a model left out).
	wholeState bool
	// unnarrowed: hash what the rest of a run reads without the
	// narrowings that depend on values at the checkpoint
	// (interpreter.Checkpoint.HashUnnarrowed), as before them.
	unnarrowed bool
	// checkLive: check that merging by the live hash is sound. Where a
	// run merges into a configuration whose hash of every variable in
	// scope differs, both are continued, and their next steps must give
	// the same configurations and outcomes with the same chances.
	checkLive bool
	// noUnread: follow every face of a roll nothing later reads (see
	// interpreter.Checkpoint.UnreadRoll), as before.
	noUnread bool
	// checkUnread: where an expansion goes through a roll on one face
	// alone, expand it again through every face, and fail unless both
	// give the same configurations and outcomes with the same chances.
	checkUnread bool
	// noDecided: follow every run to its end, even once nothing later
	// can change the question's answer (interpreter.Checkpoint.Decided).
	noDecided bool
	// checkDecided: continue every run taken as decided (once per
	// distinct configuration) to its end, on every branch, and fail
	// unless every one gives the answer it was taken to have.
	checkDecided bool
	// decidedChecked, if set, counts the configurations checkDecided
	// continued.
	decidedChecked *int
	// noMemo: run the callee of a call again for every caller
	// configuration, as before the call memo (memo.go).
	noMemo bool
	// checkMemo: for each group of callers the memo serves, continue
	// each caller to the end alone, with the memo and without, and fail
	// unless both give the same outcomes with the same chances.
	checkMemo bool
	// memoChecked, if set, counts the callers checkMemo checked.
	memoChecked *int
}

// batchSize bounds how many configurations are expanded at once (and so
// how many expansions are held before they are merged). It is fixed, not
// the number of workers, so that the batches are the same however many
// there are.
const batchSize = 64

func exact(ctx context.Context, q Question, maxConfigs int, opts exactOptions) (*Result, error) {
	if maxConfigs <= 0 {
		maxConfigs = DefaultMaxPaths
	}
	q.keys = newKeyTable()
	e := &merger{q: &q, max: maxConfigs, pending: map[string]*config{}, acc: newAccumulator(),
		counters: q.Limits != (interpreter.Limits{}), noSnapshots: opts.noSnapshots, runAgain: opts.runAgain,
		scopeHash: opts.scopeHash, unnarrowed: opts.unnarrowed, checkLive: opts.checkLive, noUnread: opts.noUnread}
	// The references of the hash's narrowings (and their checks, whose
	// counts of configurations tests compare with theirs) run without
	// the memo, unless it is checked too.
	reference := opts.scopeHash || opts.wholeState || opts.unnarrowed || opts.noUnread || opts.runAgain ||
		(opts.checkLive || opts.checkUnread) && !opts.checkMemo
	e.memo = !opts.noMemo && !reference && memoServes(&q, e)
	if e.memo && opts.checkMemo {
		e.checkMemo, e.memoChecked = true, opts.memoChecked
	}
	if !opts.noDecided && q.Table == "" {
		// What the question reads of the final state, when all of it
		// is known: a run whose rest can change none of it is an
		// outcome at once.
		e.watch = q.Program.Watch(q.Of)
	}
	if opts.checkDecided {
		e.checkDecided, e.checked, e.decidedChecked = true, map[string]bool{}, opts.decidedChecked
	}
	if !opts.scopeHash && !opts.wholeState {
		// What the question reads of the final state: the fields of
		// models it does not, nor the rest of a run, are left out of
		// the configurations (a summary reads all but the details, of
		// the focus models when there are some).
		switch {
		case q.Of != nil:
			e.reads = q.Program.QueryReads(q.Of)
		case q.Table == "":
			e.reads = q.Program.SummaryReads(q.Focus)
		}
	}
	root := &config{p: probOne}
	defer func() {
		for _, rm := range e.mem {
			resumers.put(rm)
		}
		e.releaseGroups()
	}()
	if err := e.drain(ctx, root, opts); err != nil {
		return nil, err
	}
	res := e.acc.result()
	res.Exact, res.Paths, res.Configs, res.Runs, res.Calls = true, e.ends, e.configs, e.runs, e.memoCalls
	return res, nil
}

// drain expands root, then the configurations waiting, first position
// first, until none is left.
func (e *merger) drain(ctx context.Context, root *config, opts exactOptions) error {
	if len(e.mem) == 0 {
		e.mem = append(e.mem, resumers.get())
	}
	x := e.expand(ctx, root, e.mem[0], nil, 0)
	if e.checkDecided {
		if err := e.checkDecidedRuns(ctx, []expansion{x}); err != nil {
			return err
		}
	}
	if err := e.merge(x); err != nil {
		return err
	}
	var batch []*config
	for e.queue.Len() > 0 {
		batch = batch[:0]
		// At a call the memo may serve, every configuration at the
		// position is taken at once, so that all its callers are found.
		for e.queue.Len() > 0 && (len(batch) < batchSize || e.memo && batch[0].hasCall) &&
			(len(batch) == 0 || interpreter.ComparePositions(e.queue[0].pos, batch[0].pos) == 0) {
			c := heap.Pop(&e.queue).(*config)
			delete(e.pending, c.key)
			batch = append(batch, c)
		}
		if e.memo {
			var err error
			if batch, err = e.formGroups(ctx, batch); err != nil {
				return err
			}
		}
		xs := e.expandAll(ctx, batch, opts.workers)
		if opts.checkUnread {
			if err := e.checkUnread(ctx, batch, xs); err != nil {
				return err
			}
		}
		if e.checkDecided {
			if err := e.checkDecidedRuns(ctx, xs); err != nil {
				return err
			}
		}
		for _, x := range xs {
			if err := e.merge(x); err != nil {
				return err
			}
			e.keepEnds(x.ends)
			keepMerges(x.merges)
		}
		if e.checkLive {
			for _, c := range batch {
				if err := e.checkMerged(ctx, c); err != nil {
					return err
				}
			}
		}
		// The batch is continued: its snapshots' memory is the next's.
		for _, c := range batch {
			c.release()
			for _, a := range c.alts {
				a.release()
			}
		}
	}
	return nil
}

// expandAll expands configurations at the same position, with up to
// workers at once, and gives their expansions in the batch's order.
func (e *merger) expandAll(ctx context.Context, batch []*config, workers int) []expansion {
	xs := make([]expansion, len(batch))
	workers = min(workers, len(batch))
	others := &batchMade{by: map[string]int{}}
	// One Resumer per worker, kept from batch to batch: each run resumed
	// is copied into its memory (the state's, and the run's).
	for len(e.mem) < workers {
		e.mem = append(e.mem, resumers.get())
	}
	if workers <= 1 {
		for i, c := range batch {
			xs[i] = e.expand(ctx, c, e.mem[0], others, i)
		}
		return xs
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func(mem *interpreter.Resumer) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(batch) {
					return
				}
				xs[i] = e.expand(ctx, batch[i], mem, others, i)
			}
		}(e.mem[k])
	}
	wg.Wait()
	return xs
}

// config is a run paused at a checkpoint, standing for every run that
// reached it (their probabilities summed).
type config struct {
	pos  []int
	key  string // position, blocks and hash: equal keys are merged
	snap *interpreter.Snapshot
	// snapMem holds snap (its copy of the state, levels and frames),
	// given back (release) once nothing continues the configuration any
	// more
	snapMem *interpreter.SnapshotMemory
	// trail is one path of picks that reaches it from the start (to
	// replay, when there is no snapshot; and to name it in errors).
	trail   *trail
	signals signalCounts // the signals so far, when the question asks them
	p       prob
	index   int // in the queue
	// checkLive: the hash of every variable in scope, and runs merged
	// into this one whose hash of them differs (see exactOptions).
	scope uint64
	alts  []*config
	// The call memo (memo.go). hasCall: at a call it may serve, with
	// its callKey. grp: a run of the callers of grp through their call,
	// by one of them (weights: each caller's chance of being here; since:
	// the picks from the call on); exit: where the call completed,
	// whence each caller goes on. replay: a caller going on from such a
	// run, by these picks from its snapshot at the call.
	hasCall   bool
	callKey   uint64
	callLevel int
	callSite  uintptr
	grp       *memoGroup
	weights   []prob
	since     *trail
	exit      bool
	replay    []branch
}

type merger struct {
	q        *Question
	max      int
	counters bool // the limits are the question's own: counts matter
	pending  map[string]*config
	queue    configQueue
	acc      *accumulator
	configs  int  // distinct configurations made
	runs     int  // runs started (each up to the next checkpoint)
	ends     int  // runs that reached the end
	covered  prob // the probability of the ends so far (for Progress)
	merged   int  // paused runs merged into a configuration
	// noSnapshots: configurations are reached by replay (tests)
	noSnapshots bool
	runAgain    bool // see exactOptions
	scopeHash   bool // see exactOptions
	unnarrowed  bool // see exactOptions
	checkLive   bool // see exactOptions
	noUnread    bool // see exactOptions
	// unreadEvery: go through a roll nothing later reads, past the
	// decision an expansion follows, on every face (checkUnread's
	// reference), not on one
	unreadEvery bool
	// reads: what the question reads of the final state (nil: all)
	reads *interpreter.Reads
	// watch: the same, when all of it is known, for runs whose answer is
	// decided before their end (nil: none is)
	watch        *interpreter.Watch
	checkDecided bool            // see exactOptions
	checked      map[string]bool // checkDecided: the configurations checked
	// decidedChecked: see exactOptions
	decidedChecked *int
	mem            []*interpreter.Resumer // each worker's (see expandAll)
	// memo: the call memo serves this question (memo.go); groups its
	// groups of callers so far, memoCalls the callers it served;
	// checkMemo, memoChecked: see exactOptions
	memo        bool
	unpaying    map[uintptr]bool // calls where no group was found
	groups      []*memoGroup
	memoCalls   int
	checkMemo   bool
	memoChecked *int
}

// expansion is what following the branches from one configuration gave:
// the runs paused at a configuration and those that ended, in the order
// they were run.
type expansion struct {
	paused []*config
	// merges: paused runs whose configuration was waiting already when
	// they paused, merged into it (no configuration of their own)
	merges []mergeInto
	ends   []ending
	runs   int
	err    error
	// forced: a roll was followed on one face alone (nothing later
	// reads it: walker.force).
	forced bool
	// decided: runs taken as outcomes before their end (checkDecided).
	decided []decidedRun
}

// mergeInto is a paused run's chance, added to a configuration waiting
// (and, in a group of callers, each caller's: weights).
type mergeInto struct {
	into    *config
	p       prob
	weights []prob
}

// decidedRun is a run taken as an outcome where nothing later could
// change the answer: its configuration there, and the answer.
type decidedRun struct {
	at     *config
	answer string
}

type ending struct {
	key   string
	value any
	p     prob
}

// expand follows every branch of the dice from c through its next
// decision, each up to the last checkpoint before the decision after it
// (where the values of the rolls before have had time to fall out of
// scope, so that more runs merge), or to the end. It only reads the
// merger (several expand at once: see Exact).
//
// Which checkpoint is the last before a decision is known only at the
// decision, past it. A statement that rolls (a roll, a test, an apply)
// usually holds the decision, so the run is hashed and copied at those as
// it passes them; when the last checkpoint was another, the paused run is
// run again with the same dice up to it, to be hashed and copied there.
// Most statements are checkpoints, so this costs far less than hashing
// and copying the run at each of them.
//
// others, if not nil, are the configurations the other expansions of
// c's batch made (c is the index-th): see madeKeys.
func (e *merger) expand(ctx context.Context, c *config, buf *interpreter.Resumer, others *batchMade, index int) (x expansion) {
	if c.exit {
		return e.dissolve(ctx, c, buf, others, index)
	}
	w := &walker{}
	x.ends = e.endsList()
	if l, ok := mergeLists.Get().(*[]mergeInto); ok {
		x.merges = (*l)[:0]
	}
	switch {
	case c.snap == nil:
		path := c.trail.path()
		w.path, w.base = path, len(path)
	case c.replay != nil:
		w.path, w.base = slices.Clone(c.replay), len(c.replay)
	}
	grp := c.grp
	// follows: the picks up to it are the configuration's own; a run
	// pauses before a new decision past it. A caller going on from a
	// call the memo ran has followed the call's picks (replayed) as its
	// decision: it pauses before the first decision after them.
	follows := w.base
	if len(c.replay) > 0 {
		follows--
	}
	var (
		seen    bool // a checkpoint since the latest new decision
		ord     int  // checkpoints passed in this run
		candOrd int  // the last one a configuration could be taken at
		taken   *config
		into    *config // or the configuration waiting it merges into
		takenAt int     // the checkpoint taken was taken at (0: none)
		signals signalCounts
		decided *ending
		dAt     *config // checkDecided: the run where it was decided
		// a run of a group of callers: where the call completed (taken
		// there), or that it left the call otherwise (escaped)
		exitAt, exitInto *config
		escaped          bool
	)
	made := &madeKeys{own: map[string]bool{}, others: others, index: index}
	hook := func(cp interpreter.Checkpoint) bool {
		if cp.Completed() {
			if grp == nil || w.pos < w.base || !grp.completedAt(cp) {
				return false
			}
			// The call completed: each caller goes on from here.
			exitAt, exitInto = e.take(cp, signals, made, grp, true)
			return true
		}
		ord++
		if grp != nil && !grp.inside(cp) {
			escaped = true // it left the call without completing it
			return true
		}
		// A run whose rest cannot change the answer is an outcome here
		// (past the picks replayed to reach c; at c itself, or at a
		// statement that may decide something).
		if e.watch != nil && grp == nil && w.pos >= w.base && (ord == 1 || !cp.Plain()) && cp.Decided(e.counters, e.watch) {
			key, value, _, err := outcomeOf(e.q, cp.State(), nil, nil)
			decided = &ending{key: key, value: value}
			if err != nil {
				decided.key, decided.value = "", err
			}
			if e.checkDecided {
				pos := cp.Position(nil)
				dAt = &config{pos: pos, key: e.keyAt(cp, pos, nil), snap: cp.Snapshot(), trail: c.trailTo(w)}
			}
			return true
		}
		// A roll nothing later reads, past the decision this run
		// follows, is gone through without pausing, on one face (or,
		// to check, on every face: unreadEvery): every face leads to
		// the same configuration at the next statement, a checkpoint.
		// No configuration is taken at it. (At a configuration's own
		// checkpoint, the first, nothing is past its decision yet.)
		w.pass, w.force = false, false
		if ord > 1 && w.pos > w.base && !e.noUnread && cp.Rolls() && cp.UnreadRoll(e.counters, e.reads) {
			w.pass, w.force = true, !e.unreadEvery
			x.forced = true
			return false
		}
		if w.pos <= follows || cp.Plain() {
			// Replaying, or no decision taken yet; or a plain statement,
			// after which there is a checkpoint before any decision (the
			// last one before it is as good a place to merge).
			return false
		}
		candOrd, seen = ord, true
		if cp.Rolls() && !e.runAgain {
			if taken != nil {
				taken.release() // a later checkpoint of the same run
			}
			taken, into = e.take(cp, signals, made, grp, false)
			takenAt = ord
		}
		return false
	}
	w.onPick = func(i int) bool {
		if w.pass {
			return false // a roll nothing reads: no decision
		}
		if i > follows && seen {
			return true // continued from that checkpoint
		}
		seen = false
		return false
	}
	for {
		if err := ctx.Err(); err != nil {
			x.err = err
			return x
		}
		w.start()
		seen, ord, taken, into, takenAt, decided, dAt = false, 0, nil, nil, 0, nil, nil
		exitAt, exitInto, escaped = nil, nil, false
		signals = e.signalsFrom(c)
		key, value, paused, err := e.run(c, w, hook, buf, signals)
		x.runs++
		if grp != nil && err == nil && (escaped || !paused) {
			// Past the call by another way than its end (a stop of a
			// procedure outside it): each caller is continued alone.
			if taken != nil {
				taken.release()
			}
			y := e.dissolve(ctx, c, buf, others, index)
			y.runs += x.runs
			e.dropExpansion(x)
			return y
		}
		if err == nil && decided != nil {
			if derr, isErr := decided.value.(error); isErr {
				err = derr
			}
		}
		if err != nil {
			x.err = pathError(c.fullPath(w), err)
			return x
		}
		p := c.p.mul(w.p)
		if taken != nil && (!paused || takenAt != candOrd || exitAt != nil || exitInto != nil) {
			taken.release() // taken, but not where the run paused
		}
		if exitAt != nil || exitInto != nil {
			if exitInto != nil {
				x.merges = append(x.merges, mergeInto{exitInto, p, scaled(c.weights, w.p)})
			} else {
				exitAt.trail, exitAt.since, exitAt.p, exitAt.weights = c.trailTo(w), c.sinceTo(w), p, scaled(c.weights, w.p)
				x.paused = append(x.paused, exitAt)
			}
		} else if decided != nil {
			x.ends = append(x.ends, ending{decided.key, decided.value, p})
			if !plainValue(decided.value) {
				buf.Release()
			}
			if dAt != nil {
				x.decided = append(x.decided, decidedRun{at: dAt, answer: decided.key})
			}
		} else if paused {
			child, waiting := taken, into
			if takenAt != candOrd {
				child, waiting, err = e.capture(c, w.path[:w.pos], candOrd, made, buf, grp)
				x.runs++
				if err != nil {
					x.err = pathError(c.fullPath(w), err)
					return x
				}
			}
			if waiting != nil {
				x.merges = append(x.merges, mergeInto{waiting, p, scaled(c.weights, w.p)})
			} else {
				if child.snap != nil {
					made.add(child.key)
				}
				child.trail, child.p = c.trailTo(w), p
				if grp != nil {
					child.since, child.weights = c.sinceTo(w), scaled(c.weights, w.p)
				}
				x.paused = append(x.paused, child)
			}
		} else {
			x.ends = append(x.ends, ending{key, value, p})
			if !plainValue(value) {
				// The outcome keeps a value that points into the copy
				// of the state: the buffer gives the copy up to it.
				buf.Release()
			}
		}
		// Memory stays bounded while expanding, too.
		if len(x.paused)+len(x.merges)+len(x.ends) > e.max {
			x.err = e.tooMany()
			return x
		}
		if !w.next() {
			return x
		}
	}
}

// endsList is an empty list of ends for an expansion, one kept from
// expansions merged before when there is one: a batch's expansions end
// thousands of runs, and growing a list for each was a twentieth of a
// question's garbage.
func (e *merger) endsList() []ending {
	if l, ok := endLists.Get().(*[]ending); ok {
		return (*l)[:0]
	}
	return nil
}

// keepEnds keeps the list of ends of an expansion merged, for another.
func (e *merger) keepEnds(ends []ending) {
	if cap(ends) == 0 {
		return
	}
	clear(ends[:cap(ends)]) // the values and keys are the accumulator's now
	ends = ends[:0]
	endLists.Put(&ends)
}

// endLists are the lists of ends kept (*[]ending).
var endLists sync.Pool

// keepMerges keeps the list of merges of an expansion merged, for
// another (as keepEnds).
func keepMerges(merges []mergeInto) {
	if cap(merges) == 0 {
		return
	}
	clear(merges[:cap(merges)])
	merges = merges[:0]
	mergeLists.Put(&merges)
}

// mergeLists are the lists of merges kept (*[]mergeInto).
var mergeLists sync.Pool

// signalsFrom is a run's count of signals, starting from c's, when the
// question asks them (else nil).
func (e *merger) signalsFrom(c *config) signalCounts {
	if e.q.Of == nil || !e.q.Of.Signals() {
		return nil
	}
	if s := c.signals.clone(); s != nil {
		return s
	}
	return signalCounts{}
}

// take makes a configuration of the run at checkpoint cp: its position
// and key, and a snapshot unless a configuration of that key is waiting
// already, or was made by this expansion or one before it in its batch
// (made; it is then merged into that one). Where one of that key is
// waiting, it makes none but gives that one (into), which the run
// merges into (unless merges are checked: checkLive keeps the run).
//
// In a run of a group of callers (grp), the key is the group's; exit
// says the call has just completed there (no snapshot: each caller goes
// on from its own).
func (e *merger) take(cp interpreter.Checkpoint, signals signalCounts, made *madeKeys, grp *memoGroup, exit bool) (child, into *config) {
	var buf [64]int
	var kb [256]byte
	pos := cp.Position(buf[:0])
	key := e.appendKey(grp.appendKey(kb[:0], exit), cp, pos, signals)
	have, waiting := e.pending[string(key)]
	if waiting && !e.checkLive {
		return nil, have
	}
	child = &config{}
	if e.checkLive {
		child.scope = cp.ScopeHash(e.counters)
	}
	if waiting {
		// The same place: merged into it (its key and position serve).
		child.key, child.pos = have.key, have.pos
	} else {
		child.key = string(key)
		child.pos = slices.Clone(pos)
		child.grp, child.exit = grp, exit
		if e.memo && grp == nil {
			// Where a group of callers was found at none of the call's
			// positions so far, the memo is not asked for one again.
			if site, _, ok := cp.CallSite(); ok && !e.unpaying[site] {
				child.callKey, child.callLevel, child.hasCall = cp.CallKey(e.counters)
				child.callSite = site
			}
		}
		if !made.has(child.key) && !e.noSnapshots && !exit {
			mem := snapMemory.get()
			if child.snap = cp.SnapshotIn(mem); child.snap != nil {
				child.snapMem = mem
			} else {
				snapMemory.put(mem)
			}
		}
	}
	child.signals = signals.clone()
	return child, nil
}

// snapMemory is the memory of snapshots, given back by configurations
// continued; resumers are the workers' (each a copy of the state and a
// run's memory), given back at the end of a question.
var (
	snapMemory = freeList[interpreter.SnapshotMemory]{max: 128}
	resumers   = freeList[interpreter.Resumer]{max: 16}
)

// freeList keeps what was given back for the next to ask: up to max
// under a lock, the rest in a sync.Pool. (A sync.Pool drops what it
// keeps at each collection: the memory it held, a state's copy grown to
// a battle's size, was made again after each. What a large question
// gives back past max goes with the collections, as before.)
type freeList[T any] struct {
	mu   sync.Mutex
	free []*T
	max  int
	more sync.Pool
}

// get is one kept, or a new one.
func (l *freeList[T]) get() *T {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		x := l.free[n-1]
		l.free[n-1] = nil
		l.free = l.free[:n-1]
		return x
	}
	if x, ok := l.more.Get().(*T); ok {
		return x
	}
	return new(T)
}

// put keeps x for the next get, unless max are kept already.
func (l *freeList[T]) put(x *T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.free) < l.max {
		l.free = append(l.free, x)
		return
	}
	l.more.Put(x)
}

// release gives back the memory of c's snapshot: nothing may continue c
// after.
func (c *config) release() {
	if c.snapMem != nil {
		snapMemory.put(c.snapMem)
		c.snap, c.snapMem = nil, nil
	}
}

// keyAt is the key of a configuration at checkpoint cp: its position
// (pos, cp's), blocks and hash.
func (e *merger) keyAt(cp interpreter.Checkpoint, pos []int, signals signalCounts) string {
	var bb [256]byte
	return string(e.appendKey(bb[:0], cp, pos, signals))
}

// appendKey appends keyAt's key to b (a caller's buffer on the stack: a
// run merged into a configuration waiting needs no key of its own).
func (e *merger) appendKey(b []byte, cp interpreter.Checkpoint, pos []int, signals signalCounts) []byte {
	var ib [32]uintptr
	for _, v := range pos {
		b = binary.AppendUvarint(b, uint64(v))
	}
	for _, v := range cp.Identity(ib[:0]) {
		b = binary.AppendUvarint(b, uint64(v))
	}
	if e.scopeHash {
		b = binary.LittleEndian.AppendUint64(b, cp.ScopeHash(e.counters))
	} else if e.unnarrowed {
		b = binary.LittleEndian.AppendUint64(b, cp.HashUnnarrowed(e.counters, e.reads))
	} else {
		b = binary.LittleEndian.AppendUint64(b, cp.HashFor(e.counters, e.reads))
	}
	if signals != nil {
		b = signals.appendKey(b)
	}
	return b
}

// run runs from configuration c (a copy of its snapshot, or its path
// replayed) with the walker's dice, up to a pause or the end.
func (e *merger) run(c *config, w *walker, hook func(interpreter.Checkpoint) bool, buf *interpreter.Resumer, signals signalCounts) (string, any, bool, error) {
	if c.snap != nil {
		return runResumed(e.q, c.snap, w, hook, buf, signals, c.grp != nil)
	}
	return runUntil(e.q, w, hook, buf, signals, c.grp != nil)
}

// capture runs from c again with the picks a paused run took, up to its
// checkpoint number at, and takes a configuration there.
func (e *merger) capture(c *config, picks []branch, at int, made *madeKeys, buf *interpreter.Resumer, grp *memoGroup) (child, into *config, err error) {
	w := &walker{path: append([]branch(nil), picks...), base: len(picks)}
	w.start()
	signals := e.signalsFrom(c)
	ord := 0
	hook := func(cp interpreter.Checkpoint) bool {
		if cp.Completed() {
			return false
		}
		if ord++; ord < at {
			return false
		}
		child, into = e.take(cp, signals, made, grp, false)
		return true
	}
	_, _, paused, err := e.run(c, w, hook, buf, signals)
	if err == nil && !paused {
		err = fmt.Errorf("internal: a run again with the same dice did not reach checkpoint %d", at)
	}
	return child, into, err
}

// fullPath is the path from the start to where w is: c's own, and w's
// picks after it (a replaying walker has c's already).
func (c *config) fullPath(w *walker) *walker {
	if c.snap == nil {
		return &walker{path: append([]branch(nil), w.path[:w.pos]...), pos: w.pos}
	}
	path := append(c.trail.path(), w.path[len(c.replay):w.pos]...) // the trail has the picks replayed
	return &walker{path: path, pos: len(path)}
}

// trailTo is the trail to where w is: c's, and w's picks after it (a
// replaying walker's first picks are c's).
func (c *config) trailTo(w *walker) *trail {
	picks := w.path[w.base:w.pos]
	t := &trail{parent: c.trail}
	if len(picks) <= len(t.few) {
		t.picks = t.few[:len(picks):len(picks)] // one allocation, not two
		copy(t.picks, picks)
	} else {
		t.picks = slices.Clone(picks)
	}
	return t
}

// trail is a path of picks from the start, as the picks of the
// configuration it was taken from (parent) and those after: each
// configuration keeps only the picks of its own expansion, not a copy
// of the whole path.
type trail struct {
	parent *trail
	picks  []branch
	few    [2]branch // picks, when they are this few
}

// path is the whole path of picks, a new list.
func (t *trail) path() []branch {
	n := 0
	for u := t; u != nil; u = u.parent {
		n += len(u.picks)
	}
	path := make([]branch, n)
	for u := t; u != nil; u = u.parent {
		n -= len(u.picks)
		copy(path[n:], u.picks)
	}
	return path
}

// describe names the path of picks, for errors.
func (t *trail) describe() string {
	path := t.path()
	return (&walker{path: path, pos: len(path)}).describe()
}

// merge adds what expanding a configuration gave: outcomes, and paused
// runs merged into the configurations waiting.
func (e *merger) merge(x expansion) error {
	before := e.runs
	e.runs += x.runs
	for _, c := range x.paused {
		if err := e.add(c); err != nil {
			return err
		}
	}
	for _, m := range x.merges {
		e.merged++
		m.into.p = m.into.p.add(m.p)
		addWeights(m.into.weights, m.weights)
	}
	for _, end := range x.ends {
		e.ends++
		if e.configs+e.ends > e.max {
			return e.tooMany()
		}
		e.acc.add(end.key, end.value, end.p)
		if e.q.Progress != nil {
			e.covered = e.covered.add(end.p)
		}
	}
	if x.err != nil {
		return x.err
	}
	if e.q.Progress != nil && e.runs/64 != before/64 {
		e.q.Progress(e.runs, e.covered.float())
	}
	return nil
}

// add merges a paused run into the configuration at its position with
// its hash, or makes it a new one.
func (e *merger) add(c *config) error {
	if have, ok := e.pending[c.key]; ok {
		e.merged++
		if e.checkLive && len(have.alts) < maxAlts && have.scope != c.scope &&
			!slices.ContainsFunc(have.alts, func(a *config) bool { return a.scope == c.scope }) {
			have.alts = append(have.alts, c)
		} else {
			c.release() // a snapshot made twice in a batch: one is enough
		}
		have.p = have.p.add(c.p)
		addWeights(have.weights, c.weights)
		return nil
	}
	e.configs++
	if e.configs+e.ends > e.max {
		return e.tooMany()
	}
	e.pending[c.key] = c
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

// checkMerged continues a configuration and the runs merged into it that
// differ in a variable the live hash leaves out (exactOptions checkLive;
// up to maxAlts of them), each from a probability of 1, and fails unless
// all give the same configurations and outcomes with the same chances:
// what merging them assumed.
func (e *merger) checkMerged(ctx context.Context, c *config) error {
	if len(c.alts) == 0 {
		return nil
	}
	one := func(x *config) *config {
		return &config{pos: x.pos, key: x.key, snap: x.snap, trail: x.trail, signals: x.signals, p: probOne}
	}
	buf := new(interpreter.Resumer)
	a := e.expand(ctx, one(c), buf, nil, 0)
	if a.err != nil {
		return fmt.Errorf("checking a merge: %w", a.err)
	}
	want := a.chances()
	for _, alt := range c.alts {
		b := e.expand(ctx, one(alt), buf, nil, 0)
		if b.err != nil {
			return fmt.Errorf("checking a merge: %w", b.err)
		}
		if got := b.chances(); !maps.EqualFunc(got, want, func(x, y prob) bool { return x.cmp(y) == 0 }) {
			return fmt.Errorf("internal: runs merged by their live hash go on differently (%s, and %s):\n%v\n%v",
				c.trail.describe(), alt.trail.describe(), want, got)
		}
	}
	return nil
}

// checkUnread expands again, following every face, each configuration of
// the batch whose expansion went through a roll on one face alone
// (exactOptions checkUnread), and fails unless both expansions give the
// same configurations and outcomes with the same chances.
func (e *merger) checkUnread(ctx context.Context, batch []*config, xs []expansion) error {
	every := *e
	every.unreadEvery = true
	buf := new(interpreter.Resumer)
	for i, x := range xs {
		if !x.forced || x.err != nil {
			continue
		}
		y := every.expand(ctx, batch[i], buf, nil, 0)
		if y.err != nil {
			return fmt.Errorf("checking a roll nothing reads: %w", y.err)
		}
		if got, want := x.chances(), y.chances(); !maps.EqualFunc(got, want, func(a, b prob) bool { return a.cmp(b) == 0 }) {
			return fmt.Errorf("internal: a roll taken as read by nothing later changes what follows (%s):\n%v\n%v",
				batch[i].trail.describe(), want, got)
		}
	}
	return nil
}

// maxAlts bounds the runs checkMerged continues beside a configuration.
const maxAlts = 8

// chances are an expansion's next configurations and outcomes (by key,
// "end " before an outcome's) with the probability of reaching each.
func (x expansion) chances() map[string]prob {
	out := map[string]prob{}
	add := func(k string, p prob) { out[k] = out[k].add(p) }
	for _, c := range x.paused {
		add(fmt.Sprintf("%x", c.key), c.p)
	}
	for _, m := range x.merges {
		add(fmt.Sprintf("%x", m.into.key), m.p)
	}
	for _, end := range x.ends {
		add("end "+end.key, end.p)
	}
	return out
}

// checkDecidedRuns continues each run of the expansions taken as decided
// (exactOptions checkDecided; once per distinct configuration) to its
// end on every branch, with nothing taken as decided, and fails unless
// every branch gives the answer it was taken to have.
func (e *merger) checkDecidedRuns(ctx context.Context, xs []expansion) error {
	for _, x := range xs {
		for _, d := range x.decided {
			if e.checked[d.at.key] {
				continue
			}
			e.checked[d.at.key] = true
			if e.decidedChecked != nil {
				*e.decidedChecked++
			}
			full := &merger{q: e.q, max: e.max, pending: map[string]*config{}, acc: newAccumulator(),
				counters: e.counters, reads: e.reads}
			root := &config{pos: d.at.pos, key: d.at.key, snap: d.at.snap, trail: d.at.trail, p: probOne}
			if err := full.drain(ctx, root, exactOptions{workers: 1}); err != nil {
				return fmt.Errorf("checking a run taken as decided: %w", err)
			}
			res := full.acc.result()
			if len(res.Outcomes) != 1 || res.Outcomes[0].Key != d.answer || res.Outcomes[0].P.Cmp(big.NewRat(1, 1)) != 0 {
				var got []string
				for _, o := range res.Outcomes {
					got = append(got, fmt.Sprintf("%s: %s", o.Key, o.P.RatString()))
				}
				return fmt.Errorf("internal: a run taken as decided (answer %s) goes on to other answers: %v", d.answer, got)
			}
		}
	}
	return nil
}

// madeKeys is what an expansion knows of the configurations made before its
// runs reach one: those it made itself (own), and those that the
// expansions before it in its batch (others; index is its place) made.
// A configuration of one of those keys needs no snapshot: the merge, in
// the batch's order, keeps the first of each key, which was made with
// one. (Expansions after it that made the key do not count: the merge
// keeps this one's.) The expansions of a batch run at once, so what the
// others made is known only as they make it; a key made by an earlier
// one later is merely a snapshot made twice, one dropped.
type madeKeys struct {
	own    map[string]bool
	others *batchMade
	index  int
}

func (m *madeKeys) has(key string) bool {
	return m.own[key] || m.others.before(key, m.index)
}

// add says the expansion made a configuration of key, with a snapshot.
func (m *madeKeys) add(key string) {
	m.own[key] = true
	m.others.add(key, m.index)
}

// batchMade is, for each key of a configuration that the expansions of a
// batch made with a snapshot, the first of them (by their place in the
// batch) to make it.
type batchMade struct {
	mu sync.Mutex
	by map[string]int
}

// before reports whether an expansion before the index-th made key.
func (b *batchMade) before(key string, index int) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.by[key]
	return ok && i < index
}

func (b *batchMade) add(key string, index int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if i, ok := b.by[key]; !ok || index < i {
		b.by[key] = index
	}
}
