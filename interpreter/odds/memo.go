package odds

// The call memo: a callee's runs are followed once for all the caller
// configurations that reach the call in a state the callee cannot tell
// apart, as AnyDice and Icepool reuse a function's distribution for the
// same inputs.
//
// Configurations at the same call (a call, an apply or a perform of a
// named action) with the same interpreter.Checkpoint.CallKey — which
// hashes everything the callee, with all it calls and the effects that
// may fire in it, may read or write (by model through its arguments),
// and what the rest of the run reads of the frames — make a group. One
// of them (the first in the queue's order) stands for all: its runs
// through the callee are followed as any run is, each branch taking
// each caller along with the chance the caller had times the branch's
// (weights). Since the callers agree on all the callee reads, the same
// dice take each through the callee alike, writing the same values. A
// configuration inside the call is merged by the standing caller's key,
// which holds what the rest of the run, the callee's and the callers',
// reads of the state the callee may have changed; the callers differ
// from it only in what the callee never reads or writes, so two runs
// merged for it are merged for each caller too.
//
// Where the call completes (interpreter.Options.CallEnds: the run is
// paused right after the statement, before anything of the caller
// runs), the runs that completed alike are merged by the standing
// caller's key there, and each caller goes on from its own snapshot at
// the call, replaying the dice of one of those runs through the callee
// (what it wrote is then in the caller's own state) and following the
// branches after as a configuration's expansion does. So a callee
// reached from N callers is run once, plus N replays for each distinct
// way it ends, rather than N times over every way through it.
//
// A run of a group that leaves the call without completing it (a stop
// of a procedure outside it) has each caller continued alone from the
// configuration it was taken from (dissolve). The memo is off where a
// caller's continuation could tell the runs apart otherwise: questions
// of what happened (signals), the question's own limits (the callee's
// counts), runs that log, tables, and configurations without a
// snapshot.

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math/big"

	"github.com/munda-rules/munda/interpreter"
)

// memoGroup is a group of callers at one call, the first of which
// stands for all.
type memoGroup struct {
	id      int
	callPos []int     // the call's position
	callers []*config // each with its snapshot at the call
}

// memoServes reports whether the memo may serve question q (e's).
func memoServes(q *Question, e *merger) bool {
	return q.Table == "" && !(q.Of != nil && q.Of.Signals()) && !e.counters && !e.noSnapshots
}

// appendKey starts the key of a configuration of g's runs: no group's
// configuration has the same (the keys of the others start with a
// position's first number, never 0).
func (g *memoGroup) appendKey(b []byte, exit bool) []byte {
	if g == nil {
		return b
	}
	b = append(b, 0)
	b = binary.AppendUvarint(b, uint64(g.id))
	if exit {
		return append(b, 1)
	}
	return append(b, 0)
}

// inside reports whether cp is in g's call (or at it).
func (g *memoGroup) inside(cp interpreter.Checkpoint) bool {
	var buf [64]int
	pos := cp.Position(buf[:0])
	if len(pos) < len(g.callPos) {
		return false
	}
	for i, v := range g.callPos {
		if pos[i] != v {
			return false
		}
	}
	return true
}

// completedAt reports whether cp is where g's call has completed.
func (g *memoGroup) completedAt(cp interpreter.Checkpoint) bool {
	var buf [64]int
	pos := cp.Position(buf[:0])
	n := len(g.callPos)
	if len(pos) != n {
		return false
	}
	for i, v := range g.callPos[:n-1] {
		if pos[i] != v {
			return false
		}
	}
	return pos[n-1] == g.callPos[n-1]+1
}

// sinceTo is the picks from c's call to where w is (c's run of a group).
func (c *config) sinceTo(w *walker) *trail {
	t := &trail{parent: c.since}
	t.picks = append([]branch(nil), w.path[w.base:w.pos]...)
	return t
}

// scaled is each of ws times p (nil for nil).
func scaled(ws []prob, p prob) []prob {
	if ws == nil {
		return nil
	}
	out := make([]prob, len(ws))
	for i, w := range ws {
		out[i] = w.mul(p)
	}
	return out
}

// addWeights adds ws to into, caller by caller.
func addWeights(into, ws []prob) {
	for i, w := range ws {
		into[i] = into[i].add(w)
	}
}

// formGroups makes one configuration of each group of the batch's
// configurations at a call with the same key (two or more), which
// stands for them: the batch with each group in place of its callers.
func (e *merger) formGroups(ctx context.Context, batch []*config) ([]*config, error) {
	calls := 0
	for _, c := range batch {
		if c.hasCall && c.grp == nil {
			calls++
		}
	}
	if calls < 2 {
		return batch, nil
	}
	by := map[uint64][]int{}
	var keys []uint64
	for i, c := range batch {
		if !c.hasCall || c.grp != nil || c.snap == nil {
			continue
		}
		if len(c.alts) > 0 {
			// checkLive: the runs merged into a caller are checked
			// here, before it joins a group (expanded alone).
			if err := e.checkMerged(ctx, c); err != nil {
				return nil, err
			}
			for _, a := range c.alts {
				a.release()
			}
			c.alts = nil
		}
		if _, ok := by[c.callKey]; !ok {
			keys = append(keys, c.callKey)
		}
		by[c.callKey] = append(by[c.callKey], i)
	}
	if len(keys) < 2 && (len(keys) == 0 || len(by[keys[0]]) < 2) {
		return batch, nil
	}
	grouped := map[int]*config{} // by the batch's index of the first caller
	gone := map[int]bool{}
	for _, k := range keys {
		idx := by[k]
		if len(idx) < 2 {
			continue
		}
		first := batch[idx[0]]
		g := &memoGroup{id: len(e.groups) + 1, callPos: first.pos[:2*(first.callLevel+1)]}
		gc := &config{pos: first.pos, snap: first.snap, trail: first.trail, grp: g}
		gc.key = string(g.appendKey(nil, false)) + first.key
		for _, i := range idx {
			c := batch[i]
			g.callers = append(g.callers, c)
			gc.weights = append(gc.weights, c.p)
			gc.p = gc.p.add(c.p)
			gone[i] = true
		}
		e.groups = append(e.groups, g)
		e.memoCalls += len(idx) - 1
		grouped[idx[0]] = gc
		if e.checkMemo {
			if err := e.checkGroup(ctx, gc); err != nil {
				return nil, err
			}
		}
	}
	if len(grouped) == 0 {
		// Callers, all different to the callee: its next positions
		// are not asked for keys (each costs a hash).
		if e.unpaying == nil {
			e.unpaying = map[uintptr]bool{}
		}
		for _, k := range keys {
			e.unpaying[batch[by[k][0]].callSite] = true
		}
		return batch, nil
	}
	out := batch[:0:0]
	for i, c := range batch {
		if gc := grouped[i]; gc != nil {
			out = append(out, gc)
		} else if !gone[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// dissolve continues each caller of c's group alone from where c is
// (by its snapshot at the call and c's picks since), with its own
// chance of being there: an exit, or a run that left the call otherwise.
func (e *merger) dissolve(ctx context.Context, c *config, buf *interpreter.Resumer, others *batchMade, index int) (x expansion) {
	var since []branch
	if c.since != nil {
		since = c.since.path()
	}
	for i, caller := range c.grp.callers {
		if c.weights[i].isZero() {
			continue
		}
		t := &trail{parent: caller.trail, picks: since}
		one := &config{pos: c.pos, key: c.key, snap: caller.snap, trail: t, replay: since, p: c.weights[i], signals: caller.signals}
		if since == nil {
			one.replay = []branch{}
		}
		y := e.expand(ctx, one, buf, others, index)
		x.paused = append(x.paused, y.paused...)
		x.merges = append(x.merges, y.merges...)
		x.ends = append(x.ends, y.ends...)
		x.decided = append(x.decided, y.decided...)
		x.runs += y.runs
		x.forced = x.forced || y.forced
		if y.err != nil {
			x.err = y.err
			return x
		}
	}
	return x
}

// dropExpansion gives back what an expansion left unmerged made.
func (e *merger) dropExpansion(x expansion) {
	for _, c := range x.paused {
		c.release()
	}
}

// releaseGroups gives back the callers' snapshots, once the question is
// answered.
func (e *merger) releaseGroups() {
	for _, g := range e.groups {
		for _, c := range g.callers {
			c.release()
		}
	}
}

// checkGroup (exactOptions checkMemo) continues each caller of group
// configuration gc to the end alone, without the memo, and with it (the
// group, the caller's weight alone), and fails unless both give the same
// outcomes with the same chances.
func (e *merger) checkGroup(ctx context.Context, gc *config) error {
	sub := func(memo bool, root *config) (map[string]*big.Rat, error) {
		m := &merger{q: e.q, max: e.max, pending: map[string]*config{}, acc: newAccumulator(),
			counters: e.counters, reads: e.reads, memo: memo}
		defer func() {
			for _, rm := range m.mem {
				resumers.put(rm)
			}
			m.releaseGroups()
		}()
		if err := m.drain(ctx, root, exactOptions{workers: 1}); err != nil {
			return nil, err
		}
		out := map[string]*big.Rat{}
		for _, o := range m.acc.result().Outcomes {
			out[o.Key] = o.P
		}
		return out, nil
	}
	for i, caller := range gc.grp.callers {
		want, err := sub(false, &config{pos: caller.pos, key: caller.key, snap: caller.snap, trail: caller.trail, p: probOne})
		if err != nil {
			return fmt.Errorf("checking the call memo: %w", err)
		}
		alone := &config{pos: gc.pos, key: gc.key, snap: gc.snap, trail: gc.trail, grp: gc.grp, p: probOne,
			weights: make([]prob, len(gc.weights))}
		alone.weights[i] = probOne
		got, err := sub(true, alone)
		if err != nil {
			return fmt.Errorf("checking the call memo: %w", err)
		}
		if !maps.EqualFunc(got, want, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 }) {
			return fmt.Errorf("internal: the call memo continues a caller otherwise than the caller alone (%s):\n%v\n%v",
				caller.trail.describe(), want, got)
		}
		if e.memoChecked != nil {
			*e.memoChecked++
		}
	}
	return nil
}
