package interpreter

// This file copies a run paused at a checkpoint (a Snapshot) and
// continues a copy from there (Program.Resume), so that exact odds can
// follow each branch of the next decision from the configuration itself
// instead of replaying the dice that led to it from the start.
//
// The interpreter runs rules on the Go call stack, which cannot be
// copied. What a checkpoint's levels say is enough to rebuild it: every
// block running was entered by a construct that keeps nothing of its own
// in Go variables but what the level records (a procedure's, action's or
// table row's body, an if, a while, a step; a for each keeps its items,
// the one running and its variable's outer value). Resume re-enters those
// constructs from the outermost level in: each runs the rest of its
// block from the saved statement, then does what its construct does
// after the block (a while tests its condition again, a for each takes
// its next item, a procedure runs its after hooks and leaves). Where a
// level was entered otherwise (hook and `on` bodies) there is no
// checkpoint, and so no snapshot.
//
// A copy of the state gets new models, gangs and weapons: the values the
// frames hold (a model in a variable, a list of them being looped over)
// are mapped onto the copy's. A value that cannot be mapped (one a rule
// cannot hold, or one outside the state) makes the snapshot fail, and
// the caller continues as before (by replay).

import (
	"fmt"
	"slices"
	"sync"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// Snapshot is a copy of a run paused at a checkpoint. It is never
// changed: Program.Resume continues a copy of it, so one snapshot can be
// continued down each branch of what comes next, concurrently too.
type Snapshot struct {
	st *state.State
	// levels are the levels running, each with its frame in frames (the
	// level's own f is nil): a snapshot's frames hold only the names set,
	// not a slot for every name numbered.
	levels []packedLevel
	frames []packedFrame
	root   any // what the run runs (runner.root)
	blocks int // checkpoints.root
	stack  []string
	active []string
	steps  int
	seq    int
	text   int
	topRow string
}

// Snapshot copies the run at this checkpoint, or returns nil when
// something it keeps cannot be copied (the run then cannot be resumed
// from here).
func (c Checkpoint) Snapshot() *Snapshot { return c.SnapshotIn(nil) }

// SnapshotMemory is the memory of a snapshot (Checkpoint.SnapshotIn):
// the copy of the state, and the snapshot's own lists (its levels,
// frames and the names each frame has set). A caller that keeps many
// snapshots, each for a while, keeps these: the memory of one no longer
// needed is the next one's, and a state and frames copied afresh for
// each snapshot were most of exact odds' garbage.
type SnapshotMemory struct {
	Buf     state.Buffer
	snap    Snapshot
	levels  []packedLevel
	frames  []packedFrame
	slots   []packedSlot
	natural []packedNatural
	rolled  []packedRolled
	names   []string // the snapshot's stack, then its active
	items   []any    // the items of its levels' for each loops
	bases   []int    // its levels' bases (ckLevel.base)
}

// SnapshotIn is Snapshot made in mem's memory. The snapshot is valid
// until the next one made in mem; with mem nil, it is a snapshot of its
// own (Snapshot).
func (c Checkpoint) SnapshotIn(mem *SnapshotMemory) *Snapshot {
	r := c.r
	if len(r.running) > 0 || r.root == nil || r.rowOnly {
		return nil
	}
	if r.values != nil && len(r.values.asking) > 0 {
		return nil
	}
	var buf *state.Buffer
	var s *Snapshot
	if mem != nil {
		buf, s = &mem.Buf, &mem.snap
	} else {
		s, mem = new(Snapshot), new(SnapshotMemory) // its lists are the snapshot's alone
	}
	m := newRemap(r.st, buf)
	names := append(append(mem.names[:0], r.stack...), r.active...)
	mem.names = names
	*s = Snapshot{st: m.to, root: r.root, blocks: r.ck.root,
		stack: names[:len(r.stack):len(r.stack)], active: names[len(r.stack):],
		steps: r.steps, seq: r.seq, text: r.text, topRow: r.topRow}
	m.pack(s, r.ck.levels, mem)
	ok := m.ok
	m.free()
	if !ok {
		return nil
	}
	return s
}

// Resume continues a copy of the snapshot to its end with opts (its own
// dice, checkpoints, log), and returns the copy's state as the run left
// it. Events are numbered on from those before the snapshot. The dice and
// choices opts give are those from the snapshot's point on: a source
// that counts what it dealt (a script, a walker of the dice's branches)
// is the caller's to position.
func (p *Program) Resume(s *Snapshot, opts Options) (*state.State, error) {
	return p.ResumeIn(s, opts, nil)
}

// ResumeIn is Resume with the copy of the state made in buf (nil: a
// Clone), as a worker resuming snapshot after snapshot does.
func (p *Program) ResumeIn(s *Snapshot, opts Options, buf *state.Buffer) (*state.State, error) {
	return p.resume(s, opts, buf, new(runner), nil)
}

// A Resumer is the memory one worker resumes snapshot after snapshot in,
// or runs in (Options.Memory): the copy of the state (Buf) and the run's
// own. The state a resume returns answers through the run (State.Effects)
// until the next resume or run with the same Resumer overwrites both:
// Release gives them up to a value kept beyond that. Not safe for
// concurrent use.
//
// The lists, dice and boxes the runs make are cut from slabs the Resumer
// keeps; Recycle lets the next runs cut the same memory again.
type Resumer struct {
	Buf state.Buffer
	r   *runner
	// stacks are what its runs grow and leave empty, and their slabs:
	// its own, not the pool's, so that only its runs' memory is
	// recycled.
	stacks *runStacks
	// query is where EvalQuery asks its questions.
	query dsl.QueryMemory
	// args are the arguments last bound (Resumer.BindArgs).
	args map[string]any
}

// Release gives up the state last made, and the run it answers through,
// to whoever holds a value pointing into them (see state.Buffer.Release):
// the lists and boxes the runs made too (Recycle takes back only what is
// made after).
func (rm *Resumer) Release() {
	rm.Buf.Release()
	rm.r = nil
	rm.args = nil // they point into the state
	if rs := rm.stacks; rs != nil {
		rs.mem.forget()
		rs.exprs.Forget()
	}
	rm.query.Frames.Forget()
}

// Recycle says that nothing of the runs made in rm since the last Recycle
// (or Release) is kept any more: their states, events, values and
// anything pointing into them. The lists, dice and boxes those runs cut
// from rm's slabs are then cut again by the next runs, which allocate
// nothing once the slabs have grown to a run's needs: a Monte Carlo
// sample, tallied, makes no garbage. Call it only then: a value of an
// earlier run still held would change under its holder. A Resumer never
// recycled hands out no memory twice.
func (rm *Resumer) Recycle() {
	if rs := rm.stacks; rs != nil {
		rs.mem.rewind()
		rs.exprs.Rewind()
	}
	rm.query.Frames.Rewind()
}

// EvalQuery asks q of a state a run in rm left (dsl.Query.EvalRun), with
// the lists and boxes it makes cut from rm's memory: what it returns is
// then the run's, which Recycle takes back and Release gives up.
func (rm *Resumer) EvalQuery(q *dsl.Query, st *state.State, signalled map[string]int) (any, error) {
	return q.EvalRunIn(st, signalled, &rm.query)
}

// runner is rm's run's memory.
func (rm *Resumer) runner() *runner {
	if rm.r == nil {
		rm.r = new(runner)
	}
	return rm.r
}

// runStacks are rm's stacks and slabs, made at its first run.
func (rm *Resumer) runStacks() *runStacks {
	if rm.stacks == nil {
		rm.stacks = &runStacks{mem: new(runMem), exprs: new(fastexpr.Frames)}
	}
	return rm.stacks
}

// ResumeWith is ResumeIn in rm's memory: a run resumed allocates no
// runner (736 bytes, a fifth of the garbage of a question of exact odds).
func (p *Program) ResumeWith(s *Snapshot, opts Options, rm *Resumer) (*state.State, error) {
	return p.resume(s, opts, &rm.Buf, rm.runner(), rm.runStacks())
}

// resume is ResumeIn with the run in r's memory, and rs's stacks (nil:
// the pool's).
func (p *Program) resume(s *Snapshot, opts Options, buf *state.Buffer, mem *runner, rs *runStacks) (*state.State, error) {
	m := newRemap(s.st, buf)
	r := newRunnerBoxed(mem, p, m.to, m.gangs, opts, rs)
	defer r.done()
	// The copies of the frames come from those the runner keeps between
	// runs (resumeBody releases them there again), not new ones each time.
	if r.ck == nil {
		r.ckOwn = checkpoints{hook: func(Checkpoint) bool { return false }, levels: r.stacks.levels, bases: &r.stacks.bases}
		r.ck = &r.ckOwn
	}
	levels, scopes, items := m.unpack(s, r.ck.levels[:0], r.stacks.scopes[:0], r.stacks.resumed[:0], r.emptyFrame)
	st := m.to
	m.free()
	r.stacks.scopes, r.stacks.resumed = scopes, items
	r.root, r.ck.root, r.ck.levels = s.root, s.blocks, levels
	// Into the stacks the runner keeps between runs (newRunner).
	r.stack, r.active = append(r.stack[:0], s.stack...), append(r.active[:0], s.active...)
	r.steps, r.seq, r.text, r.topRow = s.steps, s.seq, s.text, s.topRow
	r.resumeDepth = len(levels)
	var err error
	switch root := s.root.(type) {
	case *dsl.ProcInfo:
		err = r.resumeBody(root.ID, 0)
	case *dsl.ActionInfo:
		err = r.resumeBody(root.ID, 0)
	case *dsl.TableInfo:
		_, err = r.resumeRow(root, 0)
	}
	return st, r.stopped(err)
}

// resumeBlock runs the rest of the block of level k: the statement it
// stopped at (re-entering the construct running there, if a level above
// is in it), then the ones after.
func (r *runner) resumeBlock(k int) (control, error) {
	lv := r.ck.levels[k]
	defer lv.sc.restore()
	defer r.ck.pop()
	i := lv.stmt
	if k+1 < r.resumeDepth {
		st := lv.block.Stmts[i]
		r.at(lv.block, i, lv.f)
		ctl, err := r.resumeStmt(st, lv.f, k+1)
		if err != nil || ctl == stopped {
			return ctl, err
		}
		if r.ck.callEnds {
			if err := r.callEndAt(lv.block, i); err != nil {
				return next, err
			}
		}
		i++
	}
	return r.stmts(r.levelCode(k, lv.block, lv.f), lv.f, lv.sc, i)
}

// resumeStmt continues a statement whose construct entered level k, as
// stmt would after that level's block.
func (r *runner) resumeStmt(st syntax.Stmt, f *frame, k int) (control, error) {
	switch s := st.(type) {
	case *syntax.If:
		return r.resumeBlock(k)
	case *syntax.While:
		body := r.levelCode(k, s.Body, f)
		ctl, err := r.resumeBlock(k)
		if err != nil || ctl == stopped {
			return ctl, err
		}
		return r.while(s, body, f)
	case *syntax.ForEach:
		at, kept, name, body := r.ck.levels[k].loop, r.ck.levels[k].extra, s.Var.Name, r.levelCode(k, s.Body, f)
		defer func() {
			if at.hadOld {
				f.set(name, at.old)
			}
		}()
		ctl, err := r.resumeBlock(k)
		if err != nil || ctl == stopped {
			return ctl, err
		}
		at.index++
		return r.eachFrom(s, body, f, slotOf(f.slots, s.Var.Name), at, kept)
	case *syntax.Step:
		ctl, err := r.resumeBlock(k)
		if err != nil {
			return next, err
		}
		if err := r.hooks(r.p.after[r.p.effectKey(f.proc, s.ID.Name)], f); err != nil {
			return next, err
		}
		return ctl, nil
	case *syntax.Call:
		return next, r.resumeBody(s.Proc.Name, k)
	case *syntax.Perform:
		return next, r.resumeBody(r.ck.levels[k].f.proc, k)
	case *syntax.Apply:
		_, err := r.resumeRow(r.p.idx.Tables[s.Table.Name], k)
		return next, err
	}
	panic(fmt.Sprintf("internal: no way to resume a %T", st))
}

// levelCode is the compiled block b that level k runs (a loop's body),
// as the run entered it.
func (r *runner) levelCode(k int, b *syntax.Block, f *frame) *compiledBlock {
	if code := r.ck.levels[k].code; code != nil && code.block == b {
		return code
	}
	return r.p.compiledBlock(b, f.proc)
}

// resumeBody is the rest of callProc or runAction (id's) from their
// body, at level k.
func (r *runner) resumeBody(id string, k int) error {
	defer r.leave()
	defer r.deactivate()
	f := r.ck.levels[k].f
	defer r.release(f)
	if _, err := r.resumeBlock(k); err != nil && !isStopOf(err, id) {
		return err
	}
	return r.hooks(r.p.after[id], f)
}

// resumeRow is the rest of applyTable from a row's body, at level k.
func (r *runner) resumeRow(t *dsl.TableInfo, k int) (control, error) {
	defer r.deactivate()
	defer r.leave()
	defer r.release(r.ck.levels[k].f)
	ctl, err := r.resumeBlock(k)
	if isStopOf(err, t.ID) {
		return next, nil
	}
	return ctl, err
}

// deactivate is what the function activate returns does.
func (r *runner) deactivate() { r.active = r.active[:len(r.active)-1] }

// remap copies a state and maps values of the original onto the copy.
// The copy has the original's shape (each gang, model, weapon and armour
// at the same index), so a pointer is mapped by finding where it is in
// the original: a paused run holds few of them, far fewer than the state
// has.
type remap struct {
	from, to *state.State
	gangs    any // to.Gangs, boxed once as runner.gangs is
	// copies of weapons and armour outside the state (see mapOrCopy)
	copies map[any]any
	ok     bool // every value so far could be mapped
	// shared: values that point into no state are not copied (unpack: a
	// snapshot's values are its own and never changed, see value)
	shared bool
	// where the last model mapped was (model)
	lastGang, lastModel int
}

// newRemap copies from, into buf if there is one. The remap is one of
// those kept between copies (a copy per run resumed and per snapshot):
// give it back with free once done.
func newRemap(from *state.State, buf *state.Buffer) *remap {
	m := remaps.Get().(*remap)
	*m = remap{from: from, ok: true}
	if buf != nil {
		m.to = from.CopyInto(buf)
	} else {
		m.to = from.Clone()
	}
	m.gangs = m.to.Gangs
	return m
}

var remaps = sync.Pool{New: func() any { return new(remap) }}

// free gives m back to be used again. Nothing may use it after.
func (m *remap) free() {
	*m = remap{}
	remaps.Put(m)
}

// packedLevel is a level of a snapshot: its frame is frames[frame], its
// scope is scope.
type packedLevel struct {
	ckLevel
	frame int
	scope blockScope
}

// packedFrame is a frame of a snapshot: the names set, by slot in the
// order first set (globals left out: they are filled again for the
// copy), and the dice of its rolls.
type packedFrame struct {
	numbering          *dsl.Slots // the frame's (frame.slots)
	rule, source, proc string
	slots              []packedSlot
	top                int // the highest slot set, plus one (at least dsl.GlobalSlots)
	natural            []packedNatural
	rolled             []packedRolled
}

type packedSlot struct {
	value any
	slot  int32
	// plain: nothing in value points into the state (see remap.value),
	// so every copy of the frame shares it
	plain bool
}

type packedNatural struct {
	name string
	n    int
}

type packedRolled struct {
	name string
	dice []int
}

// pack copies the levels of a paused run into s: their frames (each
// once), block scopes and loops; its lists in mem's memory.
func (m *remap) pack(s *Snapshot, from []ckLevel, mem *SnapshotMemory) {
	s.levels = slices.Grow(mem.levels[:0], len(from))[:len(from)]
	mem.levels = s.levels
	mem.slots, mem.natural, mem.rolled, mem.items, mem.bases = mem.slots[:0], mem.natural[:0], mem.rolled[:0], mem.items[:0], mem.bases[:0]
	frames := mem.frames[:0]
	for i, lv := range from {
		if i == 0 || from[i-1].f != lv.f {
			frames = append(frames, lv.f.packFor(m, mem))
		}
		p := &s.levels[i]
		p.frame = len(frames) - 1
		lv.f = nil
		p.scope = blockScope{}
		lv.sc = m.scope(lv.sc, nil, &p.scope)
		mem.items = m.loop(&lv, mem.items)
		if lv.base != nil { // the run's, which it reuses once the level ends
			from := len(mem.bases)
			mem.bases = append(mem.bases, lv.base...)
			lv.base, lv.ownBase = mem.bases[from:len(mem.bases):len(mem.bases)], false
		}
		p.ckLevel = lv
	}
	s.frames, mem.frames = frames, frames
}

// unpack copies the levels of a snapshot into out, with their block
// scopes in scopes and their loops' items in items (all emptied, for
// reuse), each frame once into an empty one from empty.
func (m *remap) unpack(s *Snapshot, out []ckLevel, scopes []blockScope, items []any, empty func() *frame) ([]ckLevel, []blockScope, []any) {
	m.shared = true
	// Room for the levels the continued run enters, so that they do not
	// grow the list again on every resume.
	if cap(out) < len(s.levels)+4 {
		out = make([]ckLevel, 0, len(s.levels)+4)
	}
	out = out[:len(s.levels)]
	if cap(scopes) < len(s.levels) {
		scopes = make([]blockScope, len(s.levels))
	}
	scopes = scopes[:len(s.levels)]
	var f *frame
	for i := range s.levels {
		lv := s.levels[i].ckLevel
		if i == 0 || s.levels[i].frame != s.levels[i-1].frame {
			f = s.frames[s.levels[i].frame].unpackFor(m, empty())
		}
		lv.f = f
		lv.sc = m.scope(lv.sc, f, &scopes[i])
		items = m.loop(&lv, items)
		out[i] = lv
	}
	return out, scopes, items
}

// scope copies a block scope into c, for frame f.
func (m *remap) scope(sc *blockScope, f *frame, c *blockScope) *blockScope {
	c.f, c.hidden = f, nil
	if len(sc.hidden) > 0 {
		c.hidden = make([]hiddenName, len(sc.hidden))
		for k, h := range sc.hidden {
			h.value, h.rolled = m.value(h.value), slices.Clone(h.rolled)
			c.hidden[k] = h
		}
	}
	return c
}

// loop maps what a level's for each keeps, its items into a piece of
// into's memory (cut to their length: should into grow for a later
// level, the pieces before keep the old one), and returns into grown.
func (m *remap) loop(lv *ckLevel, into []any) []any {
	if lv.loop.items == nil {
		return into
	}
	if len(lv.loop.items) == 0 {
		lv.loop.items = []any{} // not nil: a loop running
	} else {
		from := len(into)
		for _, v := range lv.loop.items {
			into = append(into, m.value(v))
		}
		lv.loop.items = into[from:len(into):len(into)]
	}
	lv.loop.old = m.value(lv.loop.old)
	return into
}

// packFor copies a frame of a paused run for a snapshot, mapping its
// values onto the copy of the state m makes, its lists carved from
// mem's. (This and unpackFor are the one place that knows a frame's
// layout for snapshots.)
func (f *frame) packFor(m *remap, mem *SnapshotMemory) packedFrame {
	p := packedFrame{numbering: f.slots, rule: f.rule, source: f.source, proc: f.proc}
	n := 0
	for _, i := range f.used {
		if f.state[i] == slotSet && i >= dsl.GlobalSlots {
			n++
		}
	}
	// Each list is a piece of mem's, cut to its length: should mem's
	// grow for a later frame, the pieces before keep the old one.
	slots := slices.Grow(mem.slots, n)
	from := len(slots)
	for _, i := range f.used {
		if f.state[i] != slotSet || i < dsl.GlobalSlots {
			continue
		}
		v := m.value(f.vals[i])
		slots = append(slots, packedSlot{value: v, slot: int32(i), plain: pointsNowhere(v)})
		p.top = max(p.top, i+1)
	}
	p.slots, mem.slots = slots[from:len(slots):len(slots)], slots
	if len(f.natural) > 0 {
		natural := slices.Grow(mem.natural, len(f.natural))
		from := len(natural)
		for k, v := range f.natural {
			natural = append(natural, packedNatural{k, v})
		}
		p.natural, mem.natural = natural[from:len(natural):len(natural)], natural
	}
	if len(f.rolled) > 0 {
		rolled := slices.Grow(mem.rolled, len(f.rolled))
		from := len(rolled)
		for k, v := range f.rolled {
			// The dice are cloned: a resumed frame shares them (unpackFor).
			rolled = append(rolled, packedRolled{k, slices.Clone(v)})
		}
		p.rolled, mem.rolled = rolled[from:len(rolled):len(rolled)], rolled
	}
	return p
}

// unpackFor copies a snapshot's frame into c, an empty frame, for the
// copy of the state m makes.
func (p *packedFrame) unpackFor(m *remap, c *frame) *frame {
	c.slots, c.rule, c.source, c.proc = p.numbering, p.rule, p.source, p.proc
	// Slot by slot, into slots made once at the size the highest needs:
	// a copy per branch of every decision, so no names looked up and no
	// growing by doubling (slots are numbered per process, so a frame is
	// as long as its highest name's number).
	top := max(p.top, dsl.GlobalSlots)
	if len(c.vals) < top {
		c.vals, c.state = make([]any, top), make([]uint8, top)
		c.filled = nil // the globals are not in these slots (fillGlobals)
	}
	if cap(c.used) < len(p.slots)+dsl.GlobalSlots {
		c.used = make([]int, 0, len(p.slots)+dsl.GlobalSlots)
	}
	for _, s := range p.slots {
		if s.plain {
			c.setSlot(int(s.slot), s.value)
		} else {
			c.setSlot(int(s.slot), m.value(s.value))
		}
	}
	for _, n := range p.natural {
		c.natural[n.name] = n.n
	}
	for _, r := range p.rolled {
		c.rolled[r.name] = r.dice // the snapshot's own (see remap.value)
	}
	c.fillGlobals(m.to, m.gangs)
	return c
}

func (m *remap) list(items []any) []any {
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = m.value(v)
	}
	return out
}

// value maps a value a rule can hold onto the copy of the state.
//
// Packing a run copies every list and record: the run's may share memory
// with its state, which a worker's buffer lays out again for the next
// copy (state.CopyInto). Unpacking (m.shared) shares those of the
// snapshot that point into no state instead: a snapshot's values are
// its own, and neither rules nor Go change a list or record a variable
// holds (expressions make new ones; add and remove write a struct's
// field with a new list; a roll's dice are a new list each time).
func (m *remap) value(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, string:
		return v
	case []any:
		if m.shared && pointsNowhere(x) {
			return v
		}
		return m.list(x)
	case map[string]any: // a record a rule made
		if m.shared && pointsNowhere(x) {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = m.value(e)
		}
		return out
	case []int:
		if m.shared {
			return v
		}
		return slices.Clone(x)
	case []string:
		if m.shared {
			return v
		}
		return slices.Clone(x)
	case *state.Model:
		return mapPtr(m, x, m.model)
	case *state.Gang:
		return mapPtr(m, x, m.gang)
	case *state.Weapon:
		return mapOrCopy(m, x, m.weapon, copyWeapon)
	case *state.Armour:
		return mapOrCopy(m, x, m.armour, copyArmour)
	case *state.State:
		return mapPtr(m, x, func(x *state.State) (*state.State, bool) { return m.to, x == m.from })
	case *state.Battle:
		return mapPtr(m, x, func(x *state.Battle) (*state.Battle, bool) { return &m.to.Battle, x == &m.from.Battle })
	case []*state.Model:
		return mapPtrs(m, x, m.model)
	case []*state.Gang:
		return mapPtrs(m, x, m.gang)
	case []*state.Weapon:
		out := make([]*state.Weapon, len(x))
		for i, w := range x {
			out[i] = mapOrCopy(m, w, m.weapon, copyWeapon)
		}
		return out
	case []*state.Armour:
		out := make([]*state.Armour, len(x))
		for i, a := range x {
			out[i] = mapOrCopy(m, a, m.armour, copyArmour)
		}
		return out
	}
	m.ok = false
	return v
}

// pointsNowhere reports whether v is a value value copies (lists and records of
// numbers, texts and flags) with nothing in it that points into the
// state.
func pointsNowhere(v any) bool {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, string, []int, []string:
		return true
	case []any:
		for _, e := range x {
			if !pointsNowhere(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !pointsNowhere(e) {
				return false
			}
		}
		return true
	}
	return false
}

// model, gang, weapon and armour find x in the original state, and give
// the copy's at the same place.
func (m *remap) model(x *state.Model) (*state.Model, bool) {
	// The model after the last one found first: lists of models (a
	// gang's, a loop's) are mostly in the state's order.
	if i, j := m.lastGang, m.lastModel+1; i < len(m.from.Gangs) && m.from.Gangs[i] != nil &&
		j < len(m.from.Gangs[i].Models) && m.from.Gangs[i].Models[j] == x {
		m.lastModel = j
		return m.to.Gangs[i].Models[j], true
	}
	for i, g := range m.from.Gangs {
		if g == nil {
			continue
		}
		for j, md := range g.Models {
			if md == x {
				m.lastGang, m.lastModel = i, j
				return m.to.Gangs[i].Models[j], true
			}
		}
	}
	return nil, false
}

func (m *remap) gang(x *state.Gang) (*state.Gang, bool) {
	for i, g := range m.from.Gangs {
		if g == x {
			return m.to.Gangs[i], true
		}
	}
	return nil, false
}

func (m *remap) weapon(x *state.Weapon) (*state.Weapon, bool) {
	return carried(m, x, func(md *state.Model) []*state.Weapon { return md.Weapons })
}

func (m *remap) armour(x *state.Armour) (*state.Armour, bool) {
	return carried(m, x, func(md *state.Model) []*state.Armour { return md.Armour })
}

// carried maps x, one of a model's list of (weapons or armour), to the
// same place in the copy.
func carried[T any](m *remap, x *T, of func(*state.Model) []*T) (*T, bool) {
	for i, g := range m.from.Gangs {
		if g == nil {
			continue
		}
		for j, md := range g.Models {
			if md == nil {
				continue
			}
			if k := slices.Index(of(md), x); k >= 0 {
				return of(m.to.Gangs[i].Models[j])[k], true
			}
		}
	}
	return nil, false
}

// mapPtr maps x with find; a pointer not in the state (a copy a rule
// made) cannot be mapped.
func mapPtr[T any](m *remap, x *T, find func(*T) (*T, bool)) *T {
	if x == nil {
		return nil
	}
	if c, ok := find(x); ok {
		return c
	}
	m.ok = false
	return x
}

func mapPtrs[T any](m *remap, xs []*T, find func(*T) (*T, bool)) []*T {
	if xs == nil {
		return nil
	}
	out := make([]*T, len(xs))
	for i, x := range xs {
		out[i] = mapPtr(m, x, find)
	}
	return out
}

// mapOrCopy maps x onto the copy of the state, or, when it is not in the
// state (a weapon a built-in made: bare hands, a profile built from
// text), copies it: the copy is the run's own, and every value that
// named the one names the other.
func mapOrCopy[T any](m *remap, x *T, find func(*T) (*T, bool), clone func(*T) *T) *T {
	if x == nil {
		return nil
	}
	if c, ok := find(x); ok {
		return c
	}
	if c, ok := m.copies[x]; ok {
		return c.(*T)
	}
	c := clone(x)
	if m.copies == nil {
		m.copies = map[any]any{}
	}
	m.copies[x] = c
	return c
}

func copyWeapon(w *state.Weapon) *state.Weapon {
	c := *w
	c.Traits = slices.Clone(w.Traits)
	return &c
}

func copyArmour(a *state.Armour) *state.Armour {
	c := *a
	return &c
}
