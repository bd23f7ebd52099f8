package interpreter

// This file finds which variables of a frame the rest of a run may still
// read at a checkpoint (its live names), so that Checkpoint.Hash leaves
// out those in scope that nothing reads any more (a roll already tested,
// a parameter already used) and exact odds merges runs that differ only
// in them.
//
// What is read is over-approximated, never under: a statement reads every
// name its expressions name (expr's identifiers, with the functions the
// checker inlined), every name in its text's placeholders, every
// identifier written in it (paths such as `set model.status`, roles,
// targets: more than is read, never less), and those of the blocks inside
// it. An effect reads the same of its item (its when, value, body), its
// role and holder; the effects on a procedure, action or table (hooks,
// modifiers, overrides, re-rolls of its rolls: they run in its frame) are
// live everywhere in its frames, and those that run in the frame of
// whatever roll they meet (re-rolls of any roll) everywhere. Effects that
// run in frames of their own (on characteristics, events, grants,
// prevents, values) read nothing of a procedure's frame.
//
// The live names of a frame at a checkpoint are then the union, over the
// blocks of that frame running, of the reads of the rest of each block
// (the statement running on: for the innermost block, from its next
// statement; for an enclosing if, step, call, apply or perform, from the
// statement after it, since these do nothing more in the frame after
// their block; for an enclosing while or for each, from the loop itself,
// which runs its body and test again), plus its effects' reads. A name is
// never read "backwards": once dead it stays dead along the run, so two
// runs that agree on the live names at a checkpoint read the same values
// from there on.

import (
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// nameSet is a set of variable names by their slot (dsl.SlotOf); all
// stands for every name. natural and rolled hold the names X read only
// as natural.X and rolled.X (a reader of the whole table, natural or
// rolled, is a reader of that name).
type nameSet struct {
	all                    bool
	names, natural, rolled slotBits
}

// slotBits is a set of slots.
type slotBits []uint64

func (b *slotBits) add(name string) {
	i := dsl.SlotOf(name)
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b *slotBits) union(o slotBits) {
	for len(*b) < len(o) {
		*b = append(*b, 0)
	}
	for i, w := range o {
		(*b)[i] |= w
	}
}

func (b slotBits) has(name string) bool {
	i, ok := dsl.SlotLookup(name)
	return ok && i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0
}

func (s *nameSet) add(name string) {
	if !s.all {
		s.names.add(name)
	}
}

// setAll makes the set every name.
func (s *nameSet) setAll() { *s = nameSet{all: true} }

func (s *nameSet) union(o *nameSet) {
	if s.all {
		return
	}
	if o.all {
		s.setAll()
		return
	}
	s.names.union(o.names)
	s.natural.union(o.natural)
	s.rolled.union(o.rolled)
}

// has reports whether the set holds name.
func (s *nameSet) has(name string) bool { return s.all || s.names.has(name) }

// hasNatural reports whether natural.NAME may be read.
func (s *nameSet) hasNatural(name string) bool {
	return s.all || s.names.has(dsl.GlobalNatural) || s.natural.has(name)
}

// hasRolled reports whether rolled.NAME may be read.
func (s *nameSet) hasRolled(name string) bool {
	return s.all || s.names.has(dsl.GlobalRolled) || s.rolled.has(name)
}

func (s *nameSet) clone() nameSet {
	return nameSet{all: s.all, names: slices.Clone(s.names), natural: slices.Clone(s.natural), rolled: slices.Clone(s.rolled)}
}

// liveness is a program's reads, found once and kept: the effects' by
// what they act on, and each block's suffixes (by whether the run logs,
// which decides whether emit renders its text).
type liveness struct {
	// owner: the reads of the effects on a procedure, action or table,
	// which run in its frames.
	owner map[string]*nameSet
	// anywhere: the reads of effects that run in any frame (re-rolls of
	// any roll), and of every effect, for a frame of no known owner.
	anywhere, every nameSet
	// tables: a table row's body, to the table whose frame runs it.
	tables map[*syntax.Block]string
	blocks [2]sync.Map // *syntax.Block → []nameSet, without and with logging
}

// liveness is the program's, made on first use.
func (p *Program) liveness() *liveness {
	p.liveOnce.Do(func() { p.live = newLiveness(p) })
	return p.live
}

func newLiveness(p *Program) *liveness {
	lv := &liveness{owner: map[string]*nameSet{}, tables: map[*syntax.Block]string{}}
	owners := map[string]bool{}
	for id := range p.idx.Procedures {
		owners[id] = true
	}
	for id := range p.idx.Actions {
		owners[id] = true
	}
	for id, t := range p.idx.Tables {
		owners[id] = true
		for _, row := range t.Rows {
			if row.Row != nil && row.Row.Body != nil {
				lv.tables[row.Row.Body] = id
			}
		}
	}
	for _, e := range p.idx.Effects {
		var reads nameSet
		// An effect's text is rendered whether or not the run logs in
		// a few places (a hook's emit only when it does): count it.
		readsOf(e.Item, true, &reads)
		if e.Role != "" && e.Role != dsl.RoleAny {
			reads.add(e.Role) // effectApplies reads the holder in the role
		}
		reads.add("holder")
		lv.every.union(&reads)
		target, _, _ := strings.Cut(e.Target, ".")
		switch {
		case owners[target] && e.Target != dsl.AnyRoll:
			if lv.owner[target] == nil {
				lv.owner[target] = &nameSet{}
			}
			lv.owner[target].union(&reads)
		case e.TargetKind == "characteristic" || e.TargetKind == "event" || e.TargetKind == "value":
			// Run in a frame of their own (charFrame, an on handler's,
			// a value's): they read none of a procedure's names.
		default:
			switch e.Item.(type) {
			case *syntax.Grant, *syntax.Prevent:
				// Asked in a frame of their own (holds.go).
			default:
				lv.anywhere.union(&reads)
			}
		}
	}
	return lv
}

// suffixes are the reads of each block's statements from i on (the last
// is empty: the block's end).
func (lv *liveness) suffixes(b *syntax.Block, logging bool) []nameSet {
	mode := 0
	if logging {
		mode = 1
	}
	if v, ok := lv.blocks[mode].Load(b); ok {
		return v.([]nameSet)
	}
	out := make([]nameSet, len(b.Stmts)+1)
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = out[i+1].clone()
		readsOf(b.Stmts[i], logging, &out[i])
	}
	v, _ := lv.blocks[mode].LoadOrStore(b, out)
	return v.([]nameSet)
}

// frameLive is the names of one frame the rest of the run may read, at a
// checkpoint whose blocks running in that frame are levels (outermost
// first); innermost says the last of them is the checkpoint's own block
// (else it runs a call, an apply or a perform into another frame).
func (lv *liveness) frameLive(levels []ckLevel, innermost, logging bool) nameSet {
	var s nameSet
	first := levels[0]
	switch owner := first.f.proc; {
	case owner != "":
		if o := lv.owner[owner]; o != nil {
			s.union(o)
		}
	case lv.tables[first.block] != "":
		if o := lv.owner[lv.tables[first.block]]; o != nil {
			s.union(o)
		}
	default:
		s.union(&lv.every) // a frame of no known owner
	}
	s.union(&lv.anywhere)
	for k, l := range levels {
		from := l.stmt
		if !innermost || k < len(levels)-1 {
			switch l.block.Stmts[l.stmt].(type) {
			case *syntax.If, *syntax.Step, *syntax.Call, *syntax.Apply, *syntax.Perform:
				from++ // done in this frame once its block ends
			}
		}
		suf := lv.suffixes(l.block, logging)
		s.union(&suf[from])
		if s.all {
			break
		}
	}
	return s
}

// readsOf adds to s the names node may read: see the file's comment.
// Without logging, emit renders nothing, so it reads nothing.
func readsOf(node any, logging bool, s *nameSet) {
	syntax.Inspect(node, func(n any) bool {
		if s.all {
			return false
		}
		switch x := n.(type) {
		case *syntax.Emit:
			return logging
		case *syntax.Expr:
			exprReads(x, s)
		case *syntax.Ident:
			s.add(x.Name)
		case *syntax.Str:
			placeholderReads(x.Raw, s)
		}
		return true
	})
}

// exprReads adds the names a checked expression looks up: its
// identifiers (a function's body is inlined into it, reading only its
// parameters and the globals; a function not inlined runs in a frame of
// its own), natural.X and rolled.X as reads of X's dice alone. One that
// reads the whole environment ($env), or one not compiled, reads
// everything.
func exprReads(e *syntax.Expr, s *nameSet) {
	if e.Program == nil {
		s.setAll()
		return
	}
	tables := map[ast.Node]bool{} // natural and rolled, read as natural.X
	ast.Find(e.Program.Node(), func(n ast.Node) bool {
		m, ok := n.(*ast.MemberNode)
		if !ok {
			return false
		}
		id, ok := m.Node.(*ast.IdentifierNode)
		key, isStr := m.Property.(*ast.StringNode)
		if !ok || !isStr || m.Method {
			return false
		}
		switch id.Value {
		case dsl.GlobalNatural:
			s.natural.add(key.Value)
		case dsl.GlobalRolled:
			s.rolled.add(key.Value)
		default:
			return false
		}
		tables[id] = true
		return false
	})
	ast.Find(e.Program.Node(), func(n ast.Node) bool {
		if id, ok := n.(*ast.IdentifierNode); ok && !tables[id] {
			if strings.HasPrefix(id.Value, "$") {
				s.setAll()
			} else {
				s.add(id.Value)
			}
		}
		return false
	})
}

// placeholderReads adds the first name of each {placeholder} of a text
// (a prompt's, a title's: lookupPath reads a.b.c from the frame's a).
func placeholderReads(raw string, s *nameSet) {
	for {
		i := strings.IndexByte(raw, '{')
		if i < 0 {
			return
		}
		raw = raw[i+1:]
		j := 0
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
			j++
		}
		k := j
		for k < len(raw) && (raw[k] == '_' || raw[k] >= 'a' && raw[k] <= 'z' || raw[k] >= 'A' && raw[k] <= 'Z' || raw[k] >= '0' && raw[k] <= '9' && k > j) {
			k++
		}
		if k > j {
			s.add(raw[j:k])
		}
	}
}
