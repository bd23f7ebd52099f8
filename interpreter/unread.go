package interpreter

import (
	"reflect"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file finds rolls whose result nothing later reads, so that exact
// odds can follow one face of them instead of every one: each face leads
// to the same configuration at the next statement (the hash leaves out
// what differs), so all but one are work for nothing. The Lesson Learned
// row of the Lasting Injury table rolls a D3 of experience, which a
// question of the fighter's injuries, or of whether a gang bottles, never
// reads.

// UnreadRoll reports whether the statement about to run is a roll whose
// result nothing that may run later reads, for a question that reads
// question of the final state (Program.QueryReads, Program.SummaryReads)
// under the default limits (counters false): every face of it gives the
// same configuration at the next statement, the hash of which leaves out
// what the faces change (Checkpoint.HashFor). It holds when
//
//   - the roll is a dice roll (not `one of`), nothing acts on it (no
//     modifier, re-roll or extra dice on it, no re-roll of any roll
//     possible), it is not its block's last statement (so the next
//     checkpoint comes right after it, before any hook of the construct
//     that holds the block), and the run keeps no log and no translation
//     (an emit then renders nothing);
//   - no later statement of its block, nor an effect that runs in its
//     frame, reads its name, its natural or its rolled dice, but a
//     `set m.F = m.F + NAME` where m is a model (and nothing in the block
//     declares or sets m again) and F an int field of models that the
//     rest of the run and the question leave out of the hash (experience:
//     the faces then differ in a number nothing reads, and an addition of
//     ints cannot fail).
//
// Otherwise it is false, and the caller follows every face.
func (c Checkpoint) UnreadRoll(counters bool, question *Reads) bool {
	r := c.r
	if counters || r.logging() || r.opts.Translation != nil || question == nil {
		return false
	}
	levels := r.ck.levels
	lv := &levels[len(levels)-1]
	roll, ok := lv.block.Stmts[lv.stmt].(*syntax.Roll)
	if !ok || roll.OneOf != nil || roll.Dice == nil || lv.stmt+1 >= len(lv.block.Stmts) {
		return false
	}
	name := roll.Name.Name
	fx := r.p.effectsOn(r.p.effectKey(lv.f.proc, name))
	if len(fx.modify)+len(fx.reroll)+len(fx.extra)+len(fx.override)+len(fx.before)+len(fx.after)+len(fx.instead) > 0 ||
		r.anyRerollPossible() {
		return false
	}
	live := r.p.liveness()
	if live.firedAt[roll] != nil {
		return false
	}
	// The statements after it but the sets (which may be increments
	// into a field nothing reads, below) and the effects running in
	// its frame: one read there is enough, and is found once per roll.
	first := len(levels) - 1
	for first > 0 && levels[first-1].f == lv.f {
		first--
	}
	after := live.readAfterBut(roll, lv, levels[first])
	if readsRoll(&after.other, name) {
		return false
	}
	// The sets after it read it too, but an increment of a field
	// nothing later reads (the question included), of a model the rest
	// of the block does not change (deadIncrement looks).
	var plan fieldPlan
	planned := false
	for i := range after.sets {
		st := &after.sets[i]
		if !readsRoll(&st.reads, name) {
			continue
		}
		if !planned {
			at := live.at(levels, false, false, nil, guardValues{}, 0) // every branch read, by name
			plan, planned = at.plan(r, question, counters), true
		}
		if !r.deadIncrement(st.set, name, lv, plan) {
			return false
		}
	}
	return true
}

// readsRoll reports whether s may read the roll name: by name, its
// natural or its rolled dice.
func readsRoll(s *nameSet, name string) bool {
	return s.all || s.has(name) || s.hasNatural(name) || s.hasRolled(name)
}

// readsAfter is what may read a roll's name after it (readAfterBut):
// the sets of the rest of its block, each with what it reads, and all
// the rest.
type readsAfter struct {
	other nameSet
	sets  []setReads
}

type setReads struct {
	set   *syntax.Set
	reads nameSet
}

// readAfterBut is what may read a roll's name after it: the rest of its
// block (lv's, from the roll on), its `set` statements each on its own
// (with the effects that fire at them) and the other statements together
// with the effects on the procedure, action or table whose frame level
// first begins and those that fire anywhere. The roll's block and place
// decide it (a block has one owner), so it is found once per roll.
func (live *liveness) readAfterBut(roll *syntax.Roll, lv *ckLevel, first ckLevel) *readsAfter {
	if v, ok := live.readAfter.Load(roll); ok {
		return v.(*readsAfter)
	}
	out := &readsAfter{other: nameSet{slots: live.slots}}
	out.other.union(live.ownerReads(first))
	out.other.union(&live.anywhere)
	for _, st := range lv.block.Stmts[lv.stmt+1:] {
		reads := &out.other
		if set, ok := st.(*syntax.Set); ok {
			out.sets = append(out.sets, setReads{set: set, reads: nameSet{slots: live.slots}})
			reads = &out.sets[len(out.sets)-1].reads
		}
		live.add(reads, st, false)
		live.addFiredAt(reads, st)
	}
	v, _ := live.readAfter.LoadOrStore(roll, out)
	return v.(*readsAfter)
}

// ownerReads is what the effects on the procedure, action or table whose
// frame level first begins read (as frameLive has them).
func (lv *liveness) ownerReads(first ckLevel) *nameSet {
	switch owner := first.f.proc; {
	case owner != "":
		if o := lv.owner[owner]; o != nil {
			return o
		}
		return &nameSet{slots: lv.slots}
	case lv.tables[first.block] != "":
		if o := lv.owner[lv.tables[first.block]]; o != nil {
			return o
		}
		return &nameSet{slots: lv.slots}
	}
	return &lv.every // a frame of no known owner
}

// deadIncrement reports whether set is `set m.F = m.F + name`, where m
// is a variable holding a model that no statement of the rest of the
// block (lv's, from the roll on) declares or sets again, and F an int
// field of models that plan leaves out of the hash, for the models the
// question focuses on too.
func (r *runner) deadIncrement(set *syntax.Set, name string, lv *ckLevel, plan fieldPlan) bool {
	parts := set.Target.Parts
	if len(parts) != 2 || parts[0].Name == name || set.Value == nil || set.Value.Program == nil {
		return false
	}
	b, ok := set.Value.Program.Node().(*ast.BinaryNode)
	if !ok || b.Operator != "+" {
		return false
	}
	if m, ok := b.Left.(*ast.MemberNode); !ok || !samePath(m, parts) {
		return false
	}
	if id, ok := b.Right.(*ast.IdentifierNode); !ok || id.Value != name {
		return false
	}
	if m, _ := lv.f.get(parts[0].Name); !isModel(m) {
		return false
	}
	bit := -1
	for i, d := range droppables() {
		if d.name == parts[1].Name && !d.stat && d.field().Type.Kind() == reflect.Int {
			bit = i
		}
	}
	if bit < 0 || plan.drop&(1<<bit) == 0 || plan.focusKeep&(1<<bit) != 0 {
		return false
	}
	// m names the same model wherever the rest of the block writes it.
	changed := false
	for _, st := range lv.block.Stmts[lv.stmt:] {
		syntax.Inspect(st, func(n any) bool {
			switch x := n.(type) {
			case *syntax.Let:
				changed = changed || x.Name.Name == parts[0].Name
			case *syntax.Roll:
				changed = changed || x.Name.Name == parts[0].Name
			case *syntax.TestStmt:
				changed = changed || x.Name.Name == parts[0].Name
			case *syntax.Choose:
				changed = changed || x.Name.Name == parts[0].Name
			case *syntax.ForEach:
				changed = changed || x.Var.Name == parts[0].Name
			case *syntax.Set:
				changed = changed || len(x.Target.Parts) == 1 && x.Target.Parts[0].Name == parts[0].Name
			}
			return !changed
		})
	}
	return !changed && numericDice(r.p.idx, lv, name)
}

func isModel(v any) bool {
	m, ok := v.(*state.Model)
	return ok && m != nil
}

// numericDice reports whether the roll of name at lv's statement rolls
// numbers (so that its value adds to an int).
func numericDice(idx *dsl.Index, lv *ckLevel, name string) bool {
	roll, ok := lv.block.Stmts[lv.stmt].(*syntax.Roll)
	if !ok || roll.Name.Name != name || roll.Count != nil {
		return false
	}
	d := idx.Dice[roll.Dice.Name]
	return d != nil && !d.Symbolic()
}
