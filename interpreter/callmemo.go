package interpreter

// This file serves exact odds' call memo (interpreter/odds/memo.go): runs
// paused at the same call statement that agree on everything the callee
// may read or write go through the callee alike, dice for dice, whatever
// else they hold. CallKey is a hash of that, and a checkpoint where the
// call has completed (Options.CallEnds, Checkpoint.Completed) is where
// each caller goes on from.
//
// What the callee may touch is found as the liveness and the writes by
// object find it: what the statement reads and writes with all it calls
// and the effects that may fire in it (effects read and write of any
// model, and every gated effect it may fire is taken to fire), of any
// model, and through the caller's variables its arguments are (by
// model). The models those variables hold are hashed whole; of the
// others every field the callee may read or write of any model, and
// every field but the droppable ones (ids, names, statuses, the gangs,
// the battle), are hashed. The variables of the frames running are
// hashed as a checkpoint's hash has them: those the rest of the run
// reads (so that what the rest reads after the call is the same place
// for every caller with the key).

import (
	"unsafe"

	"github.com/munda-rules/munda/dsl/syntax"
)

// callFootprint is what a call statement's callee may read or write: a
// plan leaving out the droppable fields it touches of no model, and the
// slots of the caller's variables through which it touches a model.
type callFootprint struct {
	plan  fieldPlan
	slots []int
}

// footprint is st's callFootprint, nil when st calls nothing the memo
// serves (a statement not a call, apply or perform of a named action).
func (p *Program) footprint(st syntax.Stmt) *callFootprint {
	switch x := st.(type) {
	case *syntax.Call, *syntax.Apply:
	case *syntax.Perform:
		if x.Action == nil {
			return nil
		}
	default:
		return nil
	}
	lv := p.liveness()
	if v, ok := lv.footprints.Load(st); ok {
		return v.(*callFootprint)
	}
	reads := nameSet{slots: lv.slots}
	lv.addByModel(&reads, st, false, nil)
	lv.addFiredAt(&reads, st)
	reads.unionFields(&lv.always[mode(false)])
	reads.unionFields(&lv.anywhere)
	w := p.writes()
	w.byModelSummaries(p.idx)
	written := nameSet{slots: lv.slots}
	var by viaWrites
	var gated slotBits
	w.addByModel(p.idx, &written, &by, &gated, st, nil)
	written.unionFields(&w.always)
	for b, g := range w.gated {
		if gated.hasSlot(b) {
			if s := w.called[g.key]; s != nil {
				written.unionFields(s)
			}
		}
	}
	fp := &callFootprint{}
	for slot := range reads.via {
		fp.slots = append(fp.slots, slot)
	}
	for slot := range by.via {
		fp.slots = append(fp.slots, slot)
	}
	for i, d := range droppables() {
		if !p.readsDroppable(&reads, d) && !p.readsDroppable(&written, d) {
			fp.plan.drop |= 1 << i
		}
	}
	fp.plan.digest = planDigest(fp.plan)
	fp.plan.model = modelOpsFor(fp.plan)
	if fp.plan.model != nil {
		fp.plan.kept = new(keptOpsMade)
	}
	v, _ := lv.footprints.LoadOrStore(st, fp)
	return v.(*callFootprint)
}

// vias appends to buf the footprint's variables, of the frame of
// levels[level] (the caller's), each read whole.
func (fp *callFootprint) vias(buf []viaAt, levels []ckLevel, level int) []viaAt {
	if len(fp.slots) == 0 {
		return buf
	}
	first := level
	for first > 0 && levels[first-1].f == levels[first].f {
		first--
	}
	out := buf
	for _, slot := range fp.slots {
		out = append(out, viaAt{level: first, slot: slot, name: levels[first].f.slots.Name(slot), reads: viaReads{whole: ^uint64(0)}})
	}
	return out
}

// CallSite is the call a checkpoint is at (a call, an apply or a perform
// of a named action about to run, or just begun: at the first statement
// of the callee's body or of a row's, nothing of the callee has run that
// could differ), as an identity of its statement, and its level; ok is
// false at no call.
func (c Checkpoint) CallSite() (site uintptr, level int, ok bool) {
	levels := c.r.ck.levels
	level = len(levels) - 1
	site = memoSite(stmtAt(&levels[level]))
	if site == 0 && level > 0 && levels[level].stmt == 0 {
		level--
		site = memoSite(stmtAt(&levels[level]))
	}
	return site, level, site != 0
}

// memoSite is st's identity when it is a call the memo serves, else 0.
func memoSite(st syntax.Stmt) uintptr {
	switch x := st.(type) {
	case *syntax.Call:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Apply:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Perform:
		if x.Action != nil {
			return uintptr(unsafe.Pointer(x))
		}
	}
	return 0
}

// CallKey is, at a checkpoint at a call (CallSite), a hash of everything
// the callee (with all it calls and the effects that may fire in it) may
// read or write, of what the rest of the run reads of the frames running
// (the callee's among them), and of the blocks and rules running: runs at
// the same position with the same key go through the rest of the callee
// alike. level is the call's (CallSite's). ok is false where there is
// none: no call, a run that logs or translates, the question's own
// limits (counters: the callee's counts would differ by caller), or
// durations in the battle (a period's end writes by name).
func (c Checkpoint) CallKey(counters bool) (key uint64, level int, ok bool) {
	r := c.r
	if counters || r.logging() || r.opts.Translation != nil || r.ck.completed || r.st == nil || len(r.st.Battle.Durations) > 0 {
		return 0, 0, false
	}
	if _, level, ok = c.CallSite(); !ok {
		return 0, 0, false
	}
	levels := r.ck.levels
	fp := r.p.footprint(stmtAt(&levels[level]))
	h := c.hashWith(counters, true, true, nil, fp, level)
	for i := range levels {
		h = h*0x9e3779b97f4a7c15 ^ uint64(uintptr(unsafe.Pointer(levels[i].block)))
	}
	return h ^ uint64(level), level, true
}

// Completed reports whether the checkpoint is where a call, an apply or
// a perform has completed (Options.CallEnds): placed at the statement
// after it, which may be past its block's last. Only Position, Identity,
// the hashes, State and Snapshot may be asked of it.
func (c Checkpoint) Completed() bool { return c.r.ck.completed }

// callEndAt offers the hook the checkpoint where statement i of the
// innermost block has completed, when it is a call, an apply or a
// perform.
func (r *runner) callEndAt(b *syntax.Block, i int) error {
	switch b.Stmts[i].(type) {
	case *syntax.Call, *syntax.Apply, *syntax.Perform:
	default:
		return nil
	}
	c := r.ck
	if c.opaque != 0 {
		return nil
	}
	top := &c.levels[len(c.levels)-1]
	top.stmt, top.children = i+1, 0
	c.nextKnown = false
	c.completed = true
	paused := c.hook(Checkpoint{r})
	c.completed = false
	if paused {
		return ErrPaused
	}
	return nil
}

// stmtAt is the statement level l is at, nil past its block's last (a
// checkpoint where a call completed).
func stmtAt(l *ckLevel) syntax.Stmt {
	if l.stmt >= len(l.block.Stmts) {
		return nil
	}
	return l.block.Stmts[l.stmt]
}
