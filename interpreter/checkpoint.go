package interpreter

// This file lets a caller see a run at its statement boundaries, so that
// exact odds (interpreter/odds) can merge runs that reached the same
// point in the same configuration and continue only one of them.
//
// A checkpoint is offered at the start of each statement of a block, but
// only where everything the rest of the run depends on is known: every
// block running was entered by a construct that keeps nothing of its own
// in Go variables (a procedure's or action's body, an if, a while, a step,
// a table's row) or that declares what it keeps (a for each: its list and
// the loop variable's outer value). Blocks entered otherwise (the bodies
// of hooks and `on` handlers, which keep the holder they bound and the
// test or roll they run inside) are opaque: no checkpoint inside them.

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// Checkpoint is a run stopped at the start of a statement, as handed to
// Options.Checkpoint. It is valid only during that call.
type Checkpoint struct{ r *runner }

// checkpoints is a run's bookkeeping for Options.Checkpoint.
type checkpoints struct {
	hook   func(Checkpoint) bool
	levels []ckLevel
	// bases are lists of slots the levels' bases reuse (the run's:
	// runStacks.bases); nil, a base each.
	bases *[][]int
	// root counts the blocks entered at the top (the hooks and body of
	// the procedure run).
	root   int
	opaque int // levels entered by constructs that keep state of their own
	// set by a construct about to enter a block whose state is known
	nextKnown bool
	// callEnds: offer a checkpoint where a call completes (callEndAt);
	// completed: the one offered now is one
	callEnds, completed bool
	nextExtra           uint64
	nextVar             string
	nextLoop            loopAt
}

// ckLevel is one block running.
type ckLevel struct {
	block    *syntax.Block
	code     *compiledBlock // block compiled, as the run entered it
	f        *frame
	sc       *blockScope
	entry    int // which block entered at the enclosing statement this is
	stmt     int // the statement running
	children int // blocks entered at this statement so far
	known    bool
	extra    uint64 // what the construct that entered it keeps (a loop's list)
	loopVar  string // the variable of the for each that entered it
	loop     loopAt // and where that for each is (for a snapshot)
	// base: the slots of the names in the frame when its first block
	// began (its parameters, the globals, a table's result), for the
	// first level of each frame. ownBase: base is the run's, from
	// checkpoints.bases, and goes back there at pop (a resumed level's is
	// its snapshot's).
	base    []int
	ownBase bool
}

// ErrPaused is what a run that a checkpoint hook paused returns (the
// hook returned true). It travels as an error, as `stop` does, through
// every construct between the checkpoint and the run's top, none of which
// places or rewords it: an error return costs far less than unwinding by
// panic, which exact odds do at almost every checkpoint they merge.
var ErrPaused = errors.New("run paused at a checkpoint")

// IsPause reports whether a run's error is a pause by Options.Checkpoint.
func IsPause(err error) bool {
	return err == ErrPaused || errors.Is(err, ErrPaused)
}

// enterKnown says that the next block entered keeps nothing hidden but
// extra (a hash of what its construct keeps in Go variables).
func (r *runner) enterKnown(extra uint64) {
	if r.ck != nil {
		r.ck.nextKnown, r.ck.nextExtra, r.ck.nextVar, r.ck.nextLoop = true, extra, "", loopAt{}
	}
}

// enterLoop is enterKnown for the body of a for each over name, at
// item index of items.
func (r *runner) enterLoop(extra uint64, name string, at loopAt) {
	if r.ck != nil {
		r.ck.nextKnown, r.ck.nextExtra, r.ck.nextVar, r.ck.nextLoop = true, extra, name, at
	}
}

// loopAt is what a for each keeps in Go variables: its items, the one
// running, and the outer value of its variable (restored at its end).
type loopAt struct {
	items  []any
	index  int
	old    any
	hadOld bool
}

func (c *checkpoints) push(cb *compiledBlock, f *frame, sc *blockScope) {
	b := cb.block
	entry := 0
	if n := len(c.levels); n > 0 {
		c.levels[n-1].children++
		entry = c.levels[n-1].children
	} else {
		c.root++
		entry = c.root
	}
	if c.nextLoop.items != nil {
		entry = loopEntry(c.nextLoop)
	}
	newFrame := len(c.levels) == 0 || c.levels[len(c.levels)-1].f != f
	// The level is made in place, and what the construct set is cleared
	// only where it was set: a level is a few hundred bytes of pointers,
	// and copying them (or writing zeros over them) costs a write barrier
	// each while the collector runs.
	c.levels = append(c.levels, ckLevel{})
	lv := &c.levels[len(c.levels)-1]
	lv.block, lv.code, lv.f, lv.sc, lv.entry, lv.known, lv.extra = b, cb, f, sc, entry, c.nextKnown, c.nextExtra
	if at := &c.nextLoop; c.nextVar != "" || at.items != nil || at.index != 0 || at.old != nil || at.hadOld {
		lv.loopVar, lv.loop = c.nextVar, c.nextLoop
		c.nextVar, c.nextLoop = "", loopAt{}
	}
	c.nextKnown, c.nextExtra = false, 0
	if newFrame {
		var base []int
		if c.bases != nil {
			if n := len(*c.bases); n > 0 {
				base, *c.bases = (*c.bases)[n-1][:0], (*c.bases)[:n-1]
				lv.ownBase = true
			}
		}
		if base == nil {
			base = make([]int, 0, f.size())
			lv.ownBase = c.bases != nil
		}
		for _, i := range f.used {
			if f.state[i] == slotSet {
				base = append(base, i)
			}
		}
		lv.base = base
	}
	if !lv.known {
		c.opaque++
	}
}

// loopEntry is the place of a for each's pass among the blocks entered
// at its statement, counted by the items left (this one included) rather
// than by the items done: passes that have as many items left are at
// one position, so that a pass of a longer list and one of a shorter
// list with the same rest to run (the second of `for each _ in 1..3` and
// the first of `1..2`) can merge (their hash holds the items left, see
// hashLoopLeft). The fewer left, the later: positions still grow along
// a run.
func loopEntry(at loopAt) int { return loopEntryBase - (len(at.items) - at.index) }

// loopEntryBase is above any list's length (lists are bounded by the
// limits far below it).
const loopEntryBase = 1 << 40

func (c *checkpoints) pop() {
	n := len(c.levels)
	lv := &c.levels[n-1]
	if !lv.known {
		c.opaque--
	}
	if lv.ownBase {
		// Nothing keeps it: a snapshot copies it (remap.pack).
		*c.bases = append(*c.bases, lv.base[:0])
		lv.ownBase = false
	}
	c.levels = c.levels[:n-1]
}

// checkpointAt is the start of statement i of the innermost block: the
// hook is asked there, and pauses the run by returning ErrPaused, which
// the run returns unchanged.
func (r *runner) checkpointAt(i int) error {
	c := r.ck
	top := &c.levels[len(c.levels)-1]
	top.stmt, top.children = i, 0
	c.nextKnown = false
	if c.opaque == 0 && c.hook(Checkpoint{r}) {
		return ErrPaused
	}
	return nil
}

// Plain reports whether the statement about to run is one that rolls no
// dice and asks nothing, and runs no block (a let, a set, an add): a
// caller merging runs gains nothing by looking at it, since the next
// checkpoint comes before any decision.
func (c Checkpoint) Plain() bool {
	lv := &c.r.ck.levels[len(c.r.ck.levels)-1] // not a copy: a level is large
	switch lv.block.Stmts[lv.stmt].(type) {
	case *syntax.Let, *syntax.Set, *syntax.Add, *syntax.Remove, *syntax.Change, *syntax.Emit,
		*syntax.Require, *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
		return true
	}
	return false
}

// Rolls reports whether the statement about to run is a roll, a test or
// an apply: one that decides by the dice itself, so that the next
// decision is likely inside it (a caller merging runs may copy the run
// here rather than at every checkpoint).
func (c Checkpoint) Rolls() bool {
	lv := &c.r.ck.levels[len(c.r.ck.levels)-1] // not a copy: a level is large
	switch lv.block.Stmts[lv.stmt].(type) {
	case *syntax.Roll, *syntax.TestStmt, *syntax.Apply:
		return true
	}
	return false
}

// Position appends the checkpoint's place in the run to buf: for each
// block running, outermost first, which block entered at its enclosing
// statement it is (a for each's pass, by the items it has left:
// loopEntry) and which of its statements is next. Along one run
// positions only grow (compare them with ComparePositions), and runs at
// the same position are at the same point of the same rules. Identity
// appends what tells apart blocks at the same position in different runs
// (the two branches of an if).
func (c Checkpoint) Position(buf []int) []int {
	for i := range c.r.ck.levels {
		lv := &c.r.ck.levels[i]
		buf = append(buf, lv.entry, lv.stmt)
	}
	return buf
}

// Identity appends the blocks running, for equality of positions.
func (c Checkpoint) Identity(buf []uintptr) []uintptr {
	for i := range c.r.ck.levels {
		buf = append(buf, uintptr(unsafe.Pointer(c.r.ck.levels[i].block)))
	}
	return buf
}

// ComparePositions orders positions as the run reaches them.
func ComparePositions(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

var ckSeed = maphash.MakeSeed()

// Hash is a 64-bit hash of everything the rest of the run depends on:
// the state, the variables of every block running that the rest of the
// run may read (and the outer values they hide), what the constructs
// running keep, the rules and tables running; with counters, also the
// run's counts of steps, events and text, which decide whether a limit
// is reached (ask for them when the limits are lower than the defaults).
// Values it cannot hash make it unique, so that such runs are never
// merged. A variable still in scope that nothing later reads (see
// liveness.go) is left out: runs that differ only in it go on alike.
func (c Checkpoint) Hash(counters bool) uint64 { return c.hash(counters, true, true, nil) }

// HashFor is Hash for a question that reads question of the final state
// (Program.QueryReads, Program.SummaryReads; nil: all of it): it also
// leaves out the fields of models that neither the rest of the run nor
// the question may read (fields.go).
func (c Checkpoint) HashFor(counters bool, question *Reads) uint64 {
	return c.hash(counters, true, true, question)
}

// HashUnnarrowed is HashFor without the narrowings that depend on the
// values at the checkpoint (guards.go: the branches of ifs the run will
// not take are read all the same): what tests compare HashFor with.
func (c Checkpoint) HashUnnarrowed(counters bool, question *Reads) uint64 {
	return c.hash(counters, true, false, question)
}

// ScopeHash is Hash over every variable in scope, read later or not, and
// the whole state: the hash before liveness, which tests compare Hash
// with.
func (c Checkpoint) ScopeHash(counters bool) uint64 { return c.hash(counters, false, false, nil) }

func (c Checkpoint) hash(counters, liveOnly, narrow bool, question *Reads) uint64 {
	return c.hashWith(counters, liveOnly, narrow, question, nil, 0)
}

// hashWith is hash; with a footprint (of the call at level callLevel),
// the state is hashed by the footprint's plan and models instead of what
// the rest of the run reads (CallKey).
func (c Checkpoint) hashWith(counters, liveOnly, narrow bool, question *Reads, fp *callFootprint, callLevel int) uint64 {
	r := c.r
	h := getHasher()
	defer putHasher(h)
	// A translation reads placeholders of its own texts: keep every name.
	liveOnly = liveOnly && r.opts.Translation == nil
	levels := r.ck.levels
	liveness := r.p.liveness()
	var at *liveAt
	if liveOnly {
		var guards []guard
		var vals guardValues
		var last uint64
		if narrow {
			last = lastItems(levels)
			guards = r.p.guardsAt(levels, last)
			vals = r.guardValues(guards)
		}
		at = liveness.at(levels, r.logging(), narrow, guards, vals, last)
		h.plan = at.plan(r, question, counters)
		if fp != nil {
			var buf [4]viaAt
			h.plan = fp.plan
			h.keeps(levels, fp.vias(buf[:0], levels, callLevel))
		} else if len(at.vias) > 0 && (h.plan.drop != 0 || h.plan.counts != nil || h.plan.sorted != 0) {
			h.keeps(levels, at.vias)
		}
		h.u64(vals.known)
		h.u64(vals.value)
	}
	h.u64(h.plan.digest)
	h.state(r.st)
	// The levels of each frame, and what the rest of the run reads of it.
	for k, from := 0, 0; from < len(levels); k++ {
		to := from
		for to < len(levels) && levels[to].f == levels[from].f {
			to++
		}
		// The names in scope in the frame, by slot.
		inScope := h.inScope[:0]
		for _, i := range levels[from].base {
			inScope.addSlot(i)
		}
		var live *nameSet
		if at != nil {
			live = &at.frames[k]
		}
		for j := from; j < to; j++ {
			lv := &levels[j]
			if live != nil && lv.loopVar != "" {
				h.loopLeft(lv, live)
			} else {
				h.u64(lv.extra)
			}
			h.scope(lv.sc)
			if lv.loopVar != "" {
				inScope.addSlot(slotOf(lv.f.slots, lv.loopVar))
			}
			for _, i := range liveness.declaredBy(lv.block)[:lv.stmt] {
				if i >= 0 {
					inScope.addSlot(i)
				}
			}
		}
		h.inScope = inScope
		h.frame(levels[from].f, inScope, live)
		from = to
	}
	for _, s := range r.stack {
		h.str(s)
	}
	h.u64(0xfeed)
	for _, s := range r.active {
		h.str(s)
	}
	h.u64(uint64(len(r.running)))
	if counters {
		h.u64(uint64(r.steps))
		h.u64(uint64(r.seq))
		h.u64(uint64(r.text))
	}
	if h.unique {
		h.u64(uniqueCount.Add(1))
		h.str("unique")
	}
	return h.sum()
}

// hashers keeps hashers between checkpoints: a hasher's buffers grow to
// the run's size once. A list under a lock rather than a sync.Pool,
// which the collector empties: its hashers grew their buffers again
// after each collection, a twentieth of exact odds' garbage.
var hashers struct {
	sync.Mutex
	free []*hasher
}

// maxFreeHashers bounds the hashers kept (a few for each core).
const maxFreeHashers = 64

func getHasher() *hasher {
	hashers.Lock()
	var h *hasher
	if n := len(hashers.free); n > 0 {
		h = hashers.free[n-1]
		hashers.free = hashers.free[:n-1]
	}
	hashers.Unlock()
	if h == nil {
		h = new(hasher)
	}
	h.n = 0
	return h
}

func putHasher(h *hasher) {
	h.unique, h.st, h.plan, h.keep = false, nil, fieldPlan{}, h.keep[:0]
	clear(h.keep[:cap(h.keep)])
	hashers.Lock()
	if len(hashers.free) < maxFreeHashers {
		hashers.free = append(hashers.free, h)
	}
	hashers.Unlock()
}

// uniqueCount makes hashes of runs that cannot be compared differ.
var uniqueCount atomic.Uint64

// hashLoop is what a for each keeps: its list and the outer value of its
// variable.
func (r *runner) hashLoop(items []any, name string, old any, hadOld bool) uint64 {
	if r.ck == nil {
		return 0
	}
	h := getHasher()
	defer putHasher(h)
	h.str(name)
	h.list(items)
	if hadOld {
		h.value(old)
	}
	if h.unique {
		return 0 // the level is then left opaque by the caller
	}
	return h.sum() | 1
}

// loopLeft is what the for each that entered lv keeps, for a hash of
// what the rest of the run reads (live, its frame's): the items it has
// left to run, this one included, and the outer value of its variable;
// not the items done, which it never reads again. Where its variable is
// not live (nothing from here on, in this pass, the next ones or after
// the loop, reads the name), the items' values are not either: only how
// many passes are left, which the position says too (loopEntry).
func (h *hasher) loopLeft(lv *ckLevel, live *nameSet) {
	at := lv.loop
	left := at.items[at.index:]
	h.str(lv.loopVar)
	h.u64(uint64(len(left)))
	if live.has(lv.loopVar) {
		for _, it := range left {
			h.value(it)
		}
	}
	if at.hadOld {
		h.value(at.old)
	}
}

// hasher writes values into a buffer, hashed at the end (sum) with
// maphash: a checkpoint writes hundreds of small values, and appending
// them costs less than a maphash.Hash's Write each.
type hasher struct {
	// buf[:n] is what was written. (Writing bytes and moving n, rather
	// than appending to buf, stores no pointer: no write barrier at every
	// value while the collector runs, as it often does.)
	buf    []byte
	n      int
	unique bool // a value it could not hash
	st     *state.State
	plan   fieldPlan // how to hash the droppable fields of models (fields.go)
	// keep: the models variables reach, and the droppable fields read of
	// each, hashed whatever the plan says (bymodel.go)
	keep  []modelKeep
	spare *hasher // sub's hasher, kept for the next entry
	// inScope: the names in scope in the frame being hashed, by slot
	inScope slotBits
}

func (h *hasher) u64(x uint64) {
	if len(h.buf)-h.n < 8 {
		h.grow(8)
	}
	binary.LittleEndian.PutUint64(h.buf[h.n:], x)
	h.n += 8
}

func (h *hasher) str(s string) {
	if len(h.buf)-h.n < 8+len(s) {
		h.grow(8 + len(s))
	}
	binary.LittleEndian.PutUint64(h.buf[h.n:], uint64(len(s)))
	h.n += 8 + copy(h.buf[h.n+8:], s)
}

// reserve makes room for a number written later (putAt), where it
// comes: its place in buf.
func (h *hasher) reserve() int {
	if len(h.buf)-h.n < 8 {
		h.grow(8)
	}
	h.n += 8
	return h.n - 8
}

// putAt writes x where reserve made room for it.
func (h *hasher) putAt(at int, x uint64) {
	binary.LittleEndian.PutUint64(h.buf[at:], x)
}

// bytes writes b as it is.
func (h *hasher) bytes(b string) {
	if len(h.buf)-h.n < len(b) {
		h.grow(len(b))
	}
	h.n += copy(h.buf[h.n:], b)
}

// boolean adds a bool, as 1 or 0.
func (h *hasher) boolean(v bool) {
	var x uint64
	if v {
		x = 1
	}
	h.u64(x) // one u64, so that boolean is inlined
}

// strs adds a list of strings, in order, after its length.
func (h *hasher) strs(list []string) {
	h.u64(uint64(len(list)))
	for _, s := range list {
		h.str(s)
	}
}

// grow makes room for k more bytes.
func (h *hasher) grow(k int) {
	buf := make([]byte, max(2*len(h.buf), h.n+k, 1024))
	copy(buf, h.buf[:h.n])
	h.buf = buf
}

// sum is the hash of what was written.
func (h *hasher) sum() uint64 { return maphash.Bytes(ckSeed, h.buf[:h.n]) }

// sub hashes one entry of an unordered collection on its own.
func (h *hasher) sub(f func(*hasher)) uint64 {
	s := h.spare
	if s == nil {
		s = &hasher{}
		h.spare = s
	}
	s.st, s.unique, s.n = h.st, false, 0 // its plan stays empty: values hold no models
	f(s)
	if s.unique {
		h.unique = true
	}
	return s.sum()
}

// frame hashes the names of a frame that are in scope and, when live is
// not nil, that the rest of the run may read: a name declared in a block
// that has ended stays in the frame, but no rule can read it (the checker
// sees to that), and one in scope that nothing reads any more is as good
// as gone, so runs that differ only in them are merged. natural.NAME and
// rolled.NAME are read as such, or by a reader of the whole table.
func (h *hasher) frame(f *frame, inScope slotBits, live *nameSet) {
	h.str(f.rule)
	h.str(f.proc)
	// The names by their slots in order, one order for every run (not
	// the order they were set in): each name and its value, then an end.
	for w, word := range inScope {
		if live != nil && !live.all {
			if w >= len(live.names) {
				break
			}
			word &= live.names[w]
		}
		for ; word != 0; word &= word - 1 {
			i := w*64 + bits.TrailingZeros64(word)
			if i < len(f.state) && f.state[i] == slotSet {
				h.str(f.slots.Name(i))
				h.value(f.vals[i])
			}
		}
	}
	h.u64(math.MaxUint64) // no name's length
	var sum uint64
	for k, v := range f.natural {
		if inScope.has(f.slots, k) && (live == nil || live.hasNatural(k)) {
			sum += h.sub(func(s *hasher) { s.str(k); s.u64(uint64(v)) })
		}
	}
	h.u64(sum)
	sum = 0
	for k, v := range f.rolled {
		if inScope.has(f.slots, k) && (live == nil || live.hasRolled(k)) {
			sum += h.sub(func(s *hasher) { s.str(k); s.ints(v) })
		}
	}
	h.u64(sum)
}

// declaredBy lists the slot of the name each statement of a block
// declares (-1 for none), as block's scope declares them; found once per
// block.
func (lv *liveness) declaredBy(b *syntax.Block) []int {
	if v, ok := lv.declared.Load(b); ok {
		return v.([]int)
	}
	slots := make([]int, len(b.Stmts))
	for i, st := range b.Stmts {
		name := ""
		switch s := st.(type) {
		case *syntax.Let:
			name = s.Name.Name
		case *syntax.Roll:
			name = s.Name.Name
		case *syntax.TestStmt:
			name = s.Name.Name
		case *syntax.Choose:
			name = s.Name.Name
		}
		slots[i] = -1
		if name != "" {
			slots[i] = slotOf(lv.slots, name)
		}
	}
	v, _ := lv.declared.LoadOrStore(b, slots)
	return v.([]int)
}

func (h *hasher) scope(sc *blockScope) {
	var sum uint64
	for _, v := range sc.hidden {
		sum += h.sub(func(s *hasher) {
			s.str(v.name)
			s.value(v.value)
			s.u64(uint64(v.natural))
			s.ints(v.rolled)
			if v.hadRoll {
				s.u64(1)
			}
		})
	}
	h.u64(sum)
}

func (h *hasher) ints(v []int) {
	h.u64(uint64(len(v)))
	for _, x := range v {
		h.u64(uint64(x))
	}
}

func (h *hasher) list(items []any) {
	h.u64(uint64(len(items)))
	for _, it := range items {
		h.value(it)
	}
}

// value hashes a value a rule can hold: state objects by who they are.
func (h *hasher) value(v any) {
	switch x := v.(type) {
	case nil:
		h.u64(1)
	case bool:
		if x {
			h.u64(3)
		} else {
			h.u64(2)
		}
	case int:
		h.u64(4)
		h.u64(uint64(x))
	case int64:
		h.u64(4)
		h.u64(uint64(x))
	case float64:
		h.u64(5)
		h.u64(math.Float64bits(x))
	case string:
		h.u64(6)
		h.str(x)
	case []any:
		h.u64(7)
		h.list(x)
	case []int:
		h.u64(8)
		h.ints(x)
	case []string:
		h.u64(9)
		h.u64(uint64(len(x)))
		for _, s := range x {
			h.str(s)
		}
	case *state.Model:
		h.u64(10)
		if x != nil {
			h.str(x.ID)
		}
	case *state.Gang:
		h.u64(11)
		if x != nil {
			h.str(x.ID)
		}
	case *state.Weapon:
		h.u64(12)
		h.where(x, func(m *state.Model) int { return slices.Index(m.Weapons, x) })
	case *state.Armour:
		h.u64(13)
		h.where(x, func(m *state.Model) int { return slices.Index(m.Armour, x) })
	case []*state.Model:
		h.u64(14)
		h.u64(uint64(len(x)))
		for _, m := range x {
			h.value(m)
		}
	case []*state.Gang:
		h.u64(15)
		h.u64(uint64(len(x)))
		for _, g := range x {
			h.value(g)
		}
	case []*state.Weapon:
		h.u64(16)
		h.u64(uint64(len(x)))
		for _, w := range x {
			h.value(w)
		}
	case *state.State, *state.Battle:
		h.u64(17) // the run's own state, hashed as a whole
	case map[string]int, map[string][]int:
		h.u64(18) // natural and rolled: hashed with their frame
	default:
		h.unique = true
	}
}

// where hashes a weapon or armour by the model that carries it and its
// place there: ids of weapons repeat between models.
func (h *hasher) where(x any, index func(*state.Model) int) {
	if reflect.ValueOf(x).IsNil() || h.st == nil {
		h.unique = true
		return
	}
	for _, g := range h.st.Gangs {
		for _, m := range g.Models {
			if i := index(m); i >= 0 {
				h.str(m.ID)
				h.u64(uint64(i))
				return
			}
		}
	}
	h.unique = true // not in the state: a copy
}

// state hashes every field of the state a rule can see, in order (lists
// as lists: a rule may read their order), by the typed plans of
// statehash.go.
func (h *hasher) state(st *state.State) {
	h.st = st
	if st == nil {
		h.u64(0)
		return
	}
	h.at(stateNode(), unsafe.Pointer(st))
}

// stateReflective is state by reflection, field by field: what the typed
// plans must write (the tests compare them).
func (h *hasher) stateReflective(st *state.State) {
	h.st = st
	if st == nil {
		h.u64(0)
		return
	}
	h.reflectValue(reflect.ValueOf(st).Elem())
}

var (
	stateType = reflect.TypeOf(state.State{})
	gangType  = reflect.TypeOf(state.Gang{})
)

func (h *hasher) reflectValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == modelType {
			h.reflectModel(v)
			return
		}
		for _, i := range hashedFields(v.Type()) {
			h.reflectValue(v.Field(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			h.u64(0)
			return
		}
		h.u64(1)
		h.reflectValue(v.Elem())
	case reflect.Slice:
		h.u64(uint64(v.Len()))
		for i := 0; i < v.Len(); i++ {
			h.reflectValue(v.Index(i))
		}
	case reflect.String:
		h.str(v.String())
	case reflect.Int, reflect.Int64, reflect.Int32:
		h.u64(uint64(v.Int()))
	case reflect.Bool:
		if v.Bool() {
			h.u64(1)
		} else {
			h.u64(0)
		}
	case reflect.Float64:
		h.u64(math.Float64bits(v.Float()))
	case reflect.Map: // battle.recorded: entries in any order
		h.u64(uint64(v.Len()))
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			k, val := it.Key(), it.Value()
			sum += h.sub(func(s *hasher) { s.reflectValue(k); s.recorded(val) })
		}
		h.u64(sum)
	case reflect.Interface:
		if v.IsNil() {
			h.u64(0)
			return
		}
		h.recorded(v.Elem())
	default:
		h.unique = true
	}
}

// reflectModel is reflectValue's model (modelAt says how).
func (h *hasher) reflectModel(v reflect.Value) {
	var bits []int
	focus := false
	if h.plan.drop != 0 || h.plan.counts != nil || h.plan.sorted != 0 {
		bits = droppableBits()
		focus = h.plan.focusKeep != 0 && slices.Contains(h.plan.focus, v.Field(modelIDField).String())
	}
	word := h.reserve()
	mask := uint64(modelMark)
	for _, i := range hashedFields(v.Type()) {
		fv := v.Field(i)
		if bits != nil && i == modelStatsField {
			if drop := h.statsDropped(nil, focus); drop != 0 {
				for j := range fv.NumField() {
					if drop&(1<<statBits()[j]) == 0 {
						h.u64(uint64(fv.Field(j).Int()))
					}
				}
				continue
			}
		}
		bit := uint64(1) << i
		if bits != nil && bits[i] >= 0 && !(focus && h.plan.focusKeep&(1<<bits[i]) != 0) {
			if h.plan.drop&(1<<bits[i]) != 0 {
				continue
			}
			if items, ok := h.plan.counts[i]; ok {
				list := fv.Interface().([]string)
				n := 0
				for _, it := range items {
					n += stringCount(list, it)
				}
				if n > 0 {
					mask |= bit
					h.counts(list, items)
				}
				continue
			}
		}
		if bits != nil && bits[i] >= 0 && h.plan.sorted&(1<<bits[i]) != 0 {
			if fv.Len() > 0 {
				mask |= bit
				h.multiset(fv.Interface().([]string))
			}
			continue
		}
		if modelMaskable(fv.Kind()) {
			if fv.IsZero() || (fv.Kind() == reflect.Slice && fv.Len() == 0) {
				continue
			}
			mask |= bit
			if fv.Kind() == reflect.Bool {
				continue // the bit says it all
			}
		}
		h.reflectValue(fv)
	}
	h.putAt(word, mask)
}

// stringCount is how many times list holds s.
func stringCount(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// counts hashes how many times a list holds each of items: all a run
// that only asks whether it holds them, or removes them, reads of it.
// multiset hashes a list of ids whatever their order.
func (h *hasher) multiset(list []string) {
	h.u64(uint64(len(list)))
	if slices.IsSorted(list) {
		for _, s := range list {
			h.str(s)
		}
		return
	}
	for _, s := range slices.Sorted(slices.Values(list)) {
		h.str(s)
	}
}

func (h *hasher) counts(list, items []string) {
	for _, it := range items {
		n := 0
		for _, x := range list {
			if x == it {
				n++
			}
		}
		h.u64(uint64(n))
	}
}

// recorded hashes an answer recorded in the battle: text, numbers, flags,
// lists and maps of them.
func (h *hasher) recorded(v reflect.Value) {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			h.u64(0)
			return
		}
		v = v.Elem()
	}
	h.str(v.Type().String())
	h.reflectValue(v)
}

var fieldPlans sync.Map // reflect.Type → []int

// hashedFields are the fields of a state struct that a hash reads: those
// a rule can see, but not back-links (a model's gang, a gang's state).
func hashedFields(t reflect.Type) []int {
	if p, ok := fieldPlans.Load(t); ok {
		return p.([]int)
	}
	var plan []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("expr") == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Pointer && (f.Type.Elem() == stateType || f.Type.Elem() == gangType) {
			continue
		}
		plan = append(plan, i)
	}
	fieldPlans.Store(t, plan)
	return plan
}
