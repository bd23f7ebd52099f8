package interpreter

// This file finds where a question's answer is decided: a checkpoint
// after which nothing the rest of the run may do (writes.go) changes any
// field the question reads, so that exact odds can ask the question of
// the state there and stop following the run. The 10-model End Phase
// asking whether the gang bottles is decided at the Bottle check; the
// flee tests, Recovery tests and Lasting Injuries after it write nothing
// a gang's bottled reads.

import (
	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/stdlib/state"
)

// Watch is what a question reads of a run's final state when all of it
// is known: the fields it names, and the lists of gangs and models and
// their ids when it finds one by id (see Program.Watch).
type Watch struct {
	fields nameSet // every field it reads, by name
	// any: the fields it reads of any object (the lists of gangs and
	// models and their ids included); objects: those it reads of a model
	// or gang found by a constant id (writesbymodel.go).
	any     nameSet
	objects []watchedObject
}

// watchedObject is a model or a gang a question finds by a constant id
// (`model("m")`, `gang("g")`), with the fields it reads of it alone.
type watchedObject struct {
	gang   bool
	id     string
	fields nameSet
}

// find is the object in st, as the built-in finds it, or nil.
func (o *watchedObject) find(st *state.State) any {
	if st == nil {
		return nil
	}
	if o.gang {
		if g := st.Gang(o.id); g != nil {
			return g
		}
		return nil
	}
	if m := st.Model(o.id); m != nil {
		return m
	}
	return nil
}

// readsOf notes that the question reads field of the object base is:
// one found by a constant id (or its characteristics), else any.
func (w *Watch) readsOf(base ast.Node, field string) {
	w.fields.addField(field)
	gang, id, ok := foundByID(base)
	if !ok {
		w.any.addField(field)
		return
	}
	for i := range w.objects {
		if o := &w.objects[i]; o.gang == gang && o.id == id {
			o.fields.addField(field)
			return
		}
	}
	o := watchedObject{gang: gang, id: id, fields: nameSet{slots: w.fields.slots}}
	o.fields.addField(field)
	w.objects = append(w.objects, o)
}

// foundByID reports whether n is a model or a gang found by a constant id
// (model("m"), gang("g")), or a model's characteristics (model("m").stats,
// a value in the model), and which.
func foundByID(n ast.Node) (gang bool, id string, ok bool) {
	if m, isMember := n.(*ast.MemberNode); isMember && !m.Method {
		if key, isStr := m.Property.(*ast.StringNode); isStr && key.Value == statsWhole {
			gang, id, ok = foundByID(m.Node)
			return false, id, ok && !gang
		}
		return false, "", false
	}
	c, isCall := n.(*ast.CallNode)
	if !isCall || len(c.Arguments) == 0 {
		return false, "", false
	}
	callee, isIdent := c.Callee.(*ast.IdentifierNode)
	if !isIdent || callee.Value != "model" && callee.Value != "gang" {
		return false, "", false
	}
	s, isStr := c.Arguments[len(c.Arguments)-1].(*ast.StringNode)
	if !isStr {
		return false, "", false
	}
	return callee.Value == "gang", s.Value, true
}

// structureBuiltins are the built-ins a question that can be decided
// early may call: they find gangs and models by id, reading the state's
// gangs, their models and ids, and nothing else.
var structureBuiltins = map[string]bool{"gang": true, "model": true, "models": true}

// Watch is what the query reads of the final state, or nil when that is
// not fully known, so that no run can be taken as decided early: a query
// that reads what was signalled, calls a function of the rules or a
// built-in other than gang, model and models, reads a field by a name
// known only at run time or shows a value whole, reads a field Go code
// writes (goWrittenFields), or whose answer is not a plain value
// (a number, a text, a flag, lists and maps of them: a model would
// point into the state where the run was stopped).
func (p *Program) Watch(q *dsl.Query) *Watch {
	if q == nil || q.Signals() || q.Expr() == nil || q.Expr().Program == nil {
		return nil
	}
	root := q.Expr().Program.Node()
	if !plainType(root.Type()) {
		return nil
	}
	w := &Watch{fields: nameSet{slots: p.idx.Slots}, any: nameSet{slots: p.idx.Slots}}
	ok := true
	// A struct is read only through its fields: a value that is not
	// plain must be what a member is read of (or the state, given to a
	// built-in that finds a gang or a model), since comparing it, or
	// handing it to a built-in, may read all its fields.
	bases := map[ast.Node]bool{}
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.MemberNode:
			bases[n.Node] = true
		case *ast.CallNode:
			bases[n.Callee] = true // checked below
			if id, isIdent := n.Callee.(*ast.IdentifierNode); isIdent && structureBuiltins[id.Value] {
				for _, a := range n.Arguments {
					bases[a] = true
				}
			}
		}
		return false
	})
	ast.Find(root, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.MemberNode, *ast.CallNode, *ast.IdentifierNode, *ast.PointerNode, *ast.ConditionalNode:
			if !plainType(n.Type()) && !bases[n] && n != root {
				ok = false
			}
		}
		switch n := n.(type) {
		case *ast.MemberNode:
			if n.Method {
				ok = false
			} else if key, isStr := n.Property.(*ast.StringNode); isStr {
				w.readsOf(n.Node, key.Value)
			} else if !indexable(n.Node.Type()) {
				ok = false
			}
		case *ast.CallNode:
			id, isIdent := n.Callee.(*ast.IdentifierNode)
			if !isIdent || !structureBuiltins[id.Value] {
				ok = false
			} else {
				for _, f := range []string{"gangs", "models", "id"} {
					w.fields.addField(f)
					w.any.addField(f)
				}
			}
		case *ast.BuiltinNode:
			if !fieldSafeBuiltin(n) {
				ok = false
			}
		case *ast.IdentifierNode:
			if len(n.Value) > 0 && n.Value[0] == '$' {
				ok = false
			}
		}
		return false
	})
	if !ok || w.fields.allFields {
		return nil
	}
	for name := range goWrittenNames() {
		if w.fields.hasField(name) {
			return nil
		}
	}
	return w
}

// Decided reports whether the question that reads watch of the final
// state (Program.Watch; nil: never) has its answer already: nothing the
// rest of the run may write (writes.go), nor a period that ends later
// (a duration of the state naming a field it reads), changes a field it
// reads, so asking it of the state now gives what the run's end would.
// Under limits of the question's own (counters) it is never decided: a
// limit reached later is part of the answer. What the rest would report
// (a rule's error, a limit reached under the default limits) is not
// seen: the caller stops following the run.
func (c Checkpoint) Decided(counters bool, watch *Watch) bool {
	if watch == nil || counters {
		return false
	}
	r := c.r
	levels := r.ck.levels
	last := lastItems(levels)
	w := r.p.writes()
	// The ifs the checkpoint decides are looked at only where what the
	// rest of every branch may write keeps the answer open, and what the
	// rest of none does not.
	pw := w.placeAt(r.p, levels, last)
	if !r.unchangedBy(pw.full, watch) {
		if pw.least == nil || !r.unchangedBy(pw.least, watch) {
			return false
		}
		vals := r.guardValues(pw.guards)
		if vals.known == 0 || !r.unchangedBy(pw.withValues(w, r.p.idx, levels, last, vals), watch) {
			return false
		}
	}
	if r.st != nil {
		for _, du := range r.st.Battle.Durations {
			if du != nil && du.Field != "" && watch.fields.hasField(du.Field) {
				return false
			}
		}
	}
	return true
}

// unchangedBy reports whether what at says the rest of the run may write
// leaves what the question reads alone: of any object, through the
// effects of features that may fire (writes.firing), and through
// variables (Watch.unchangedThrough).
func (r *runner) unchangedBy(at *writesAt, watch *Watch) bool {
	if at.any.allFields || intersects(&at.any, &watch.fields) {
		return false
	}
	if !watch.unchangedThrough(r.st, r.ck.levels, at.vias) {
		return false
	}
	if len(at.gated) > 0 {
		written := r.p.writes().writtenFiring(at, r.st)
		if written.allFields || intersects(written, &watch.fields) {
			return false
		}
	}
	return true
}

// unchangedThrough reports whether no write through the variables of
// vias changes what the question reads: a field it reads of any object,
// or of one of the objects it finds by id in st (the one a variable
// reaches; any, when a variable reaches something else than a model or
// a gang, or the question's object is not in st).
func (w *Watch) unchangedThrough(st *state.State, levels []ckLevel, vias []writeVia) bool {
	var found []any
	for i := range vias {
		via := &vias[i]
		if !intersects(&via.fields, &w.fields) {
			continue
		}
		if intersects(&via.fields, &w.any) {
			return false
		}
		if found == nil {
			found = make([]any, len(w.objects))
			for j := range w.objects {
				found[j] = w.objects[j].find(st)
			}
		}
		unchanged := via.reached(levels, func(v any) bool {
			obj := objectOf(v)
			for j := range w.objects {
				if intersects(&via.fields, &w.objects[j].fields) && (obj == nil || found[j] == nil || obj == found[j]) {
					return false
				}
			}
			return true
		})
		if !unchanged {
			return false
		}
	}
	return true
}

// intersects reports whether two sets of fields share one: a field in
// both, a field in one that the other asks (or edits) some items of, or
// an item of a field both ask (or edit).
func intersects(a, b *nameSet) bool {
	if a.allFields || b.allFields {
		return true
	}
	for i := 0; i < len(a.fields) && i < len(b.fields); i++ {
		if a.fields[i]&b.fields[i] != 0 {
			return true
		}
	}
	return membersMeet(a, b) || membersMeet(b, a)
}

// membersMeet reports whether a field x edits some items of (or asks
// whether it holds some) is a field y reads whole, or y edits (or asks)
// one of those items of it. It goes through the smaller side: a rest's
// writes edit many lists, a question reads a few fields.
func membersMeet(x, y *nameSet) bool {
	if len(x.members) == 0 {
		return false
	}
	if len(x.members) <= len(y.members)+4 || y.slots == nil {
		for f, items := range x.members {
			if y.hasField(f) || itemsMeet(items, y.members[f]) {
				return true
			}
		}
		return false
	}
	for i, word := range y.fields {
		for b := 0; word != 0; b, word = b+1, word>>1 {
			if word&1 != 0 {
				if _, edited := x.members[y.slots.Name(i*64+b)]; edited {
					return true
				}
			}
		}
	}
	for f, items := range y.members {
		if itemsMeet(items, x.members[f]) {
			return true
		}
	}
	return false
}

// itemsMeet reports whether two sets of items share one.
func itemsMeet(a, b slotBits) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// State is the run's state at the checkpoint (valid only during the
// call, and not to be changed).
func (c Checkpoint) State() *state.State { return c.r.st }
