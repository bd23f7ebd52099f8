package interpreter

// This file finds the ifs of the rest of a run whose test a checkpoint
// already decides, so that the liveness (liveness.go) leaves out the
// reads of the branch the run will not take: the End Phase's `if
// "flooded_passage" in battle.rules { call flooded_passage() }` reads,
// through flooded_passage's loop over every model, every model's Lasting
// Injuries; in a battle without the rule, it reads none.
//
// An if of the rest of a frame running is decided at a checkpoint when
// all of these hold, else both its branches are read:
//
//   - it runs at most once more: it is a statement of a block running
//     (from the statement the rest of that block starts at, as
//     frameLive has it) or of a step's body among them, and no block
//     running from the outermost down to that one was entered by a loop
//     (only by a procedure's start, an if, a step, a call, an apply or a
//     perform);
//   - it has no else if, and its test reads the battle alone: no name
//     but `battle`, and nothing but fields, constants and operators (no
//     function of the rules, no built-in), so that its value is the
//     state's and evaluating it does nothing;
//   - nothing that may run before it writes a field its test reads: the
//     rest of every block deeper than its own, the statements of its
//     own block (and steps) before it, the effects on the procedures,
//     actions and tables of the frames running and those that may fire
//     anywhere (writes.go); no Go code writes one (goWrittenFields), and
//     no duration of the state names one (a period's end removes what it
//     names).
//
// The value of each such test is found at the checkpoint, and what is
// live there (liveAt) is found once per place and values. The tests read
// the battle's fields alone, which every configuration's hash holds
// whole, so two runs merged have the same values, the same live sets and
// the same hash plan.

import (
	"encoding/binary"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// guard is an if of the rest of a run that a checkpoint decides: the
// level whose block (or a step's body in it) holds it.
type guard struct {
	level int
	s     *syntax.If
	reads nameSet // the fields its test reads
}

// guardValues are the values of a place's guards at a checkpoint: bit i
// of known says guard i was found, of value that its test holds.
type guardValues struct{ known, value uint64 }

// maxGuards bounds the guards of a place (the bits of guardValues).
const maxGuards = 64

// guardsAt are the guards of the rest of a run paused at these levels,
// found once per place and loops at their last item (last, lastItems).
func (p *Program) guardsAt(levels []ckLevel, last uint64) []guard {
	lv := p.liveness()
	var buf [256]byte
	key := appendPlaceKey(buf[:0], levels)
	key = binary.AppendUvarint(key, last)
	lv.guardsMu.RLock()
	have, ok := lv.guards[string(key)]
	lv.guardsMu.RUnlock()
	if ok {
		return have
	}
	var out []guard
	w := p.writes()
	for k := range levels {
		if k > 0 && !once(levels[k-1].block.Stmts[levels[k-1].stmt]) {
			break // this block and those deeper may run again
		}
		l := levels[k]
		from := l.stmt
		if k < len(levels)-1 && once(l.block.Stmts[l.stmt]) {
			from++ // done once the block it entered ends
		}
		// What may run before a statement of this block: the rest of
		// the blocks deeper, the effects of the frames running and
		// those that may fire anywhere.
		before := &nameSet{slots: w.slots}
		before.unionFields(w.restFrom(p.idx, levels, k+1, last))
		before.unionFields(&w.always)
		for j := 0; j <= k; j++ {
			if j == 0 || levels[j].f != levels[j-1].f {
				before.unionFields(w.ownerWrites(levels[j]))
			}
		}
		out = appendGuards(out, p, w, k, l.block.Stmts[from:], before)
		if len(out) > maxGuards {
			out = out[:maxGuards]
			break
		}
	}
	lv.guardsMu.Lock()
	defer lv.guardsMu.Unlock()
	if have, ok := lv.guards[string(key)]; ok {
		return have // found by another run meanwhile
	}
	if lv.guards == nil {
		lv.guards = map[string][]guard{}
	}
	lv.guards[string(key)] = out
	return out
}

// once reports whether a block that stmt enters runs once each time
// stmt runs (a loop's body runs again).
func once(stmt syntax.Stmt) bool {
	switch stmt.(type) {
	case *syntax.If, *syntax.Step, *syntax.Call, *syntax.Apply, *syntax.Perform:
		return true
	}
	return false
}

// appendGuards appends the guards among stmts (and the bodies of the
// steps among them), each once before (what may run before the first
// of stmts) and the statements before it have been taken into account.
func appendGuards(out []guard, p *Program, w *writes, level int, stmts []syntax.Stmt, before *nameSet) []guard {
	before = ptr(before.clone())
	for _, st := range stmts {
		switch s := st.(type) {
		case *syntax.If:
			if g, ok := guardOf(s, before); ok {
				g.level = level
				out = append(out, g)
			}
		case *syntax.Step:
			out = appendGuards(out, p, w, level, s.Body.Stmts, before)
		}
		w.add(p.idx, before, st)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// guardOf is s as a guard, if its test reads the battle alone and
// nothing before it writes what it reads.
func guardOf(s *syntax.If, before *nameSet) (guard, bool) {
	g := guard{s: s}
	if s.ElseIf != nil || s.Cond == nil || s.Cond.Program == nil || before.allFields {
		return g, false
	}
	ok := true
	ast.Find(s.Cond.Program.Node(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IdentifierNode:
			ok = ok && n.Value == dsl.GlobalBattle
		case *ast.MemberNode:
			_, isStr := n.Property.(*ast.StringNode)
			ok = ok && isStr && !n.Method
		case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode,
			*ast.ConstantNode, *ast.BinaryNode, *ast.UnaryNode, *ast.ArrayNode:
		default:
			ok = false
		}
		return false
	})
	if !ok {
		return g, false
	}
	g.reads = nameSet{slots: before.slots}
	var calls []string
	nodeReads(s.Cond.Program.Node(), &g.reads, &calls)
	if len(calls) > 0 || g.reads.allFields || intersects(&g.reads, before) {
		return g, false
	}
	for name := range goWrittenNames() {
		if g.reads.hasField(name) || g.reads.members[name] != nil {
			return g, false
		}
	}
	return g, true
}

// guardValues are the values of the guards at this checkpoint: a test
// that names a field a duration of the state names, or that fails, is
// not known.
func (r *runner) guardValues(guards []guard) guardValues {
	var v guardValues
	for i, g := range guards {
		if r.st != nil && durationsNameAny(r, &g.reads) {
			continue
		}
		f := r.ck.levels[g.level].f
		x, err := dsl.EvalSlots(g.s.Cond, r.exprs, f.vals, f)
		b, isBool := x.(bool)
		if err != nil || !isBool {
			continue
		}
		v.known |= 1 << i
		if b {
			v.value |= 1 << i
		}
	}
	return v
}

// durationsNameAny reports whether a duration of the state names a field
// of s.
func durationsNameAny(r *runner, s *nameSet) bool {
	for _, du := range r.st.Battle.Durations {
		if du != nil && du.Field != "" && (s.hasField(du.Field) || s.members[du.Field] != nil) {
			return true
		}
	}
	return false
}

// untaken are the blocks of the guards that the run will not enter, by
// the level whose rest holds them.
func untaken(guards []guard, v guardValues) map[int]map[*syntax.Block]bool {
	var out map[int]map[*syntax.Block]bool
	for i, g := range guards {
		if v.known&(1<<i) == 0 {
			continue
		}
		b := g.s.Then
		if v.value&(1<<i) != 0 {
			b = g.s.Else
		}
		if b == nil {
			continue
		}
		if out == nil {
			out = map[int]map[*syntax.Block]bool{}
		}
		if out[g.level] == nil {
			out[g.level] = map[*syntax.Block]bool{}
		}
		out[g.level][b] = true
	}
	return out
}

// restFrom is what the rest of the levels from first on may write (as
// writes.rest), but the bodies of for each loops at their last item
// (last, by level), which do not run again.
func (w *writes) restFrom(idx *dsl.Index, levels []ckLevel, first int, last uint64) *nameSet {
	s := &nameSet{slots: w.slots}
	s.unionFields(&w.always)
	for j := first; j < len(levels); j++ {
		l := levels[j]
		if j == first || l.f != levels[j-1].f {
			s.unionFields(w.ownerWrites(l))
		}
		from := l.stmt
		if j < len(levels)-1 {
			switch l.block.Stmts[l.stmt].(type) {
			case *syntax.If, *syntax.Step, *syntax.Call, *syntax.Apply, *syntax.Perform:
				from++ // done once its block ends
			case *syntax.ForEach:
				if j+1 < 64 && last&(1<<(j+1)) != 0 && levels[j+1].f == l.f {
					from++ // its body runs no more
				}
			}
		}
		suf := w.suffixes(idx, l.block)
		s.unionFields(&suf[from])
	}
	return s
}
