package interpreter

// This file narrows the writes of writes.go by model, as bymodel.go
// narrows the reads: a write through a variable of the frame (`set
// m.status = …`, `set m.stats.cl = …`, `add x to m.marks`, `remove x from
// g.stash`, `improve cl of m`) is a write of the object that variable
// holds, and nothing else:
//
//   - in a block of a frame running, of the object the variable holds at
//     the checkpoint, when no statement of the rest of the frame may set
//     it (a let, a roll, a test, a choose, a for each, `set v = …`, or any
//     name written outside an expression and a path: more than is set; and
//     `set v = …` in any effect's body, which may run in the frame), and
//     of the values blocks running hide under it (back when they end); the
//     variable of a for each running, which sets it, reaches its remaining
//     items and the value it had before the loop too;
//   - in a procedure or table called (with all it calls), through a
//     parameter it never sets and that has no default, of what the call's
//     argument is when that is a plain variable of the caller (then as the
//     caller's write through that variable), of any object otherwise;
//   - every other write is of any object, as before: a longer path (`set
//     m.gang.bottled`, which goes through a pointer), a list held by a
//     variable, `add … until` (a period's end removes the item from the
//     model found by id), a path from the battle, an action performed, an
//     event's handlers, every effect (hooks, modifiers, characteristics,
//     values), and what Go code writes (goWrittenFields).
//
// A question reads of one object what it reads through `model("id")` or
// `gang("id")` with a constant id (`model("m").status`,
// `model("m").stats.cl`, `gang("g").bottled`), and of any object the rest
// (the lists of gangs and models and their ids, which find the object,
// included). Checkpoint.Decided then takes a write through a variable as
// changing the answer only when its field is read of any object, or of the
// object it holds (found by id in the state at the checkpoint), or when
// the variable holds something else than a model or a gang (a record, a
// weapon, nothing: any object).
//
// Two more narrowings leave writes out where the checkpoint knows they
// cannot happen: the effects of a skill, power, condition or trait no
// model or weapon holds, that nothing grants, no weapon_of profile gives
// and nothing the rest may write adds (gatedEffect, writes.firing), and
// the branches of the ifs the checkpoint decides (guards.go) that the run
// will not take (placeWrites).

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// viaWrites are the fields statements write through variables of the
// frame, by the variable's slot (of the object it holds), and the
// variables they may set.
type viaWrites struct {
	via      map[int]*nameSet
	assigned slotBits
}

// at is the writes through the variable of slot, made on first use.
func (v *viaWrites) at(slots *dsl.Slots, slot int) *nameSet {
	if v.via == nil {
		v.via = map[int]*nameSet{}
	}
	s := v.via[slot]
	if s == nil {
		s = &nameSet{slots: slots}
		v.via[slot] = s
	}
	return s
}

func (v *viaWrites) union(slots *dsl.Slots, o *viaWrites) {
	v.assigned.union(o.assigned)
	for slot, s := range o.via {
		v.at(slots, slot).unionFields(s)
	}
}

func (v *viaWrites) clone(slots *dsl.Slots) viaWrites {
	var c viaWrites
	c.union(slots, v)
	return c
}

// count is a measure of v, which only grows.
func (v *viaWrites) count() int {
	n := v.assigned.count()
	for _, s := range v.via {
		n += s.fieldsCount() + 1
	}
	return n
}

// frameSlot is the slot of the variable of the frame a path starts at
// when the path writes a field of the object that variable holds (`v.f`,
// `v.stats.f`: a model's characteristics are a value in it), or -1.
func frameSlot(slots *dsl.Slots, p *syntax.Path) int {
	if p == nil || slots == nil {
		return -1
	}
	parts := p.Parts
	if !(len(parts) == 2 || len(parts) == 3 && parts[1].Name == statsWhole) {
		return -1
	}
	v := parts[0].Name
	if v == "" || isGlobal(v) || strings.HasPrefix(v, "$") {
		return -1
	}
	return slots.Of(v)
}

// writesCore adds to s the fields node writes (writesOf); with by, those
// written through a variable of the frame go to by.via instead, the
// variables set to by.assigned, and each call and apply to sites with its
// arguments. It returns what node calls (as writesOf).
func writesCore(idx *dsl.Index, node any, s *nameSet, by *viaWrites, sites *[]readSite, skip map[*syntax.Block]bool) []string {
	var calls []string
	// through is where the writes of path go: s, or the variable's.
	through := func(p *syntax.Path) *nameSet {
		if by != nil {
			if slot := frameSlot(s.slots, p); slot >= 0 {
				return by.at(s.slots, slot)
			}
		}
		return s
	}
	// An add or remove writes one item of a field: by the field and
	// the item (intersects takes it as a write of the field for a
	// reader of the field, of that item for one that asks whether the
	// field holds an item).
	target := func(p *syntax.Path, item *syntax.Ident, until bool) {
		if p == nil || len(p.Parts) < 2 {
			// A list held by a variable may share its items with the
			// state's: anything.
			s.setAllFields()
			return
		}
		into := s
		if !until && len(p.Parts) == 2 {
			into = through(p)
		}
		into.addMember(p.Parts[len(p.Parts)-1].Name, item.Name)
	}
	// The idents that name no variable set (as readsCore has them): a
	// path's parts (but a lone one: `set v = …`), a reference, a
	// parameter declared.
	inPath := map[*syntax.Ident]bool{}
	syntax.Inspect(node, func(n any) bool {
		switch x := n.(type) {
		case *syntax.Block:
			return !skip[x]
		case *syntax.Set:
			if x.Target != nil && len(x.Target.Parts) > 1 {
				through(x.Target).addField(x.Target.Parts[len(x.Target.Parts)-1].Name)
			}
		case *syntax.Add:
			target(x.To, x.Item, x.Until != nil)
			if x.Until != nil {
				s.addField("durations")
			}
		case *syntax.Remove:
			target(x.From, x.Item, false)
		case *syntax.Change:
			into := s
			if by != nil && x.Model != nil && x.Model.Program != nil {
				if v := plainVariable(x.Model); v != "" {
					into = by.at(s.slots, s.slots.Of(v))
				}
			}
			into.addField("stats")
			if x.Char != nil {
				into.addField(x.Char.Name)
				if ci := idx.Characteristics[x.Char.Name]; ci != nil {
					into.addField(ci.FieldName)
				} else {
					s.setAllFields()
				}
			}
		case *syntax.Path:
			for i, part := range x.Parts {
				if i > 0 || len(x.Parts) > 1 {
					inPath[part] = true
				}
			}
		case *syntax.Ref:
			inPath[x.Name] = true
			if x.Member != nil {
				inPath[x.Member] = true
			}
		case *syntax.Arg:
			if x.Name != nil {
				inPath[x.Name] = true // the callee's parameter, set in its frame
			}
		case *syntax.Param:
			inPath[x.Name] = true
			if x.Type != nil {
				inPath[x.Type] = true
			}
		case *syntax.Ident:
			if by != nil && !inPath[x] && s.slots != nil {
				by.assigned.add(s.slots, x.Name) // may be set here
			}
		default:
			if k := calleeKey(n); k != "" {
				calls = append(calls, k)
				if sites != nil {
					*sites = append(*sites, readSiteOf(k, n, s.slots))
				}
			}
		}
		return true
	})
	return calls
}

// plainVariable is the variable of the frame an expression is, or "".
func plainVariable(e *syntax.Expr) string {
	if e == nil || e.Program == nil {
		return ""
	}
	if id, ok := e.Program.Node().(*ast.IdentifierNode); ok && !isGlobal(id.Value) && !strings.HasPrefix(id.Value, "$") {
		return id.Value
	}
	return ""
}

// writeSummary is what a procedure or table writes with all it calls, by
// object: of any object, and through each of its parameters (by index)
// of the object it holds.
type writeSummary struct {
	any    nameSet
	params []nameSet
	// gated: the effects of features (gatedEffect) it may fire, whose
	// writes are not in any
	gated slotBits
}

func (s *writeSummary) count() int {
	n := s.gated.count()
	for _, f := range append([]*nameSet{&s.any}, ptrs(s.params)...) {
		n += f.fieldsCount()
		if f.allFields {
			n += 1 << 20
		}
	}
	return n
}

// ptrs are pointers to each of xs.
func ptrs[T any](xs []T) []*T {
	out := make([]*T, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

// addTo adds every write of the summary to s, as writes of any object
// (a call whose arguments are not known).
func (s *writeSummary) addTo(into *nameSet, gated *slotBits) {
	into.unionFields(&s.any)
	for i := range s.params {
		into.unionFields(&s.params[i])
	}
	gated.union(s.gated)
}

// summariseByModel finds each callable's writeSummary (a fixpoint over
// what they call). calls are what writes.go found each key calls by name
// (the effects on it included), which the summaries of keys without
// arguments (actions, functions, events, effects) use as they are.
func (w *writes) summariseByModel(idx *dsl.Index, calls map[string][]string) {
	w.findGated(idx)
	type body struct {
		by    viaWrites
		sites []readSite
		calls []string // without arguments
	}
	bodies := map[string]*body{}
	sums := map[string]*writeSummary{}
	collect := func(key string, nodes ...any) {
		b := &body{}
		params := paramsOf(idx, key)
		sum := &writeSummary{any: nameSet{slots: w.slots}, params: make([]nameSet, len(params))}
		for i := range sum.params {
			sum.params[i].slots = w.slots
		}
		for _, n := range nodes {
			if strings.HasPrefix(key, "p:") || strings.HasPrefix(key, "t:") {
				var sites []readSite
				cs := writesCore(idx, n, &sum.any, &b.by, &sites, nil)
				b.calls = append(b.calls, withoutSites(cs, sites)...)
				for _, site := range sites {
					if site.key != allActions {
						b.sites = append(b.sites, site)
					}
				}
			} else {
				writesCore(idx, n, &sum.any, nil, nil, nil)
			}
		}
		for slot, s := range b.by.via {
			i := paramIndex(params, w.slots.Name(slot))
			if i < 0 || b.by.assigned.hasSlot(slot) || params[i].Default != nil {
				sum.any.unionFields(s)
				continue
			}
			sum.params[i].unionFields(s)
		}
		bodies[key], sums[key] = b, sum
	}
	actions := eachCallable(idx, collect)
	// What else each key calls (effects on it, what an event's handlers
	// are, what calls them), as writes.go has it: without arguments.
	for k, cs := range calls {
		b := bodies[k]
		if b == nil {
			b = &body{}
			bodies[k] = b
			sums[k] = &writeSummary{any: nameSet{slots: w.slots}}
			if strings.HasPrefix(k, "x:") {
				writesCore(idx, idx.Effects[effectIndex(k)].Item, &sums[k].any, nil, nil, nil)
			}
		}
		if strings.HasPrefix(k, "p:") || strings.HasPrefix(k, "t:") {
			// Its own statements' calls are in b already (with their
			// sites); the others are the effects on it.
			for _, c := range cs {
				if strings.HasPrefix(c, "x:") {
					b.calls = append(b.calls, c)
				}
			}
			continue
		}
		if len(b.calls) == 0 {
			b.calls = slices.Clone(cs)
		}
	}
	for _, b := range bodies {
		b.calls = withActions(b.calls, actions)
	}
	for changed := true; changed; {
		changed = false
		for k, b := range bodies {
			sum := sums[k]
			params := paramsOf(idx, k)
			before := sum.count()
			for _, c := range b.calls {
				if bit, gated := w.gatedBit[c]; gated {
					sum.gated.addSlot(bit)
				} else if o := sums[c]; o != nil && o != sum {
					o.addTo(&sum.any, &sum.gated)
				} else if o == sum {
					for i := range sum.params {
						sum.any.unionFields(&sum.params[i])
					}
				}
			}
			for _, site := range b.sites {
				o := sums[site.key]
				if o == nil {
					continue
				}
				sum.any.unionFields(&o.any)
				sum.gated.union(o.gated)
				callee := paramsOf(idx, site.key)
				for j := range o.params {
					slot := site.bound(callee, j)
					i := -1
					if slot >= 0 && !b.by.assigned.hasSlot(slot) {
						i = paramIndex(params, w.slots.Name(slot))
					}
					if i < 0 || params[i].Default != nil {
						sum.any.unionFields(&o.params[j])
					} else {
						sum.params[i].unionFields(&o.params[j])
					}
				}
			}
			changed = changed || sum.count() != before
		}
	}
	w.byModel = sums
	// The names an effect's body may set in the frame it runs in: only a
	// set of a name outside it lasts (as bymodel.go has them).
	for _, e := range idx.Effects {
		syntax.Inspect(e.Item, func(n any) bool {
			if st, ok := n.(*syntax.Set); ok && st.Target != nil && len(st.Target.Parts) == 1 {
				w.effectsSet.add(w.slots, st.Target.Parts[0].Name)
			}
			return true
		})
	}
}

// effectIndex is the index of the effect of key "x:i".
func effectIndex(key string) int {
	i := 0
	for _, c := range key[2:] {
		i = i*10 + int(c-'0')
	}
	return i
}

// addByModel adds what node writes, with what it calls, to s (of any
// object) and by (through the frame's variables: a callee's writes
// through a parameter given a plain variable are writes through it).
func (w *writes) addByModel(idx *dsl.Index, s *nameSet, by *viaWrites, gated *slotBits, node any, skip map[*syntax.Block]bool) {
	var sites []readSite
	calls := writesCore(idx, node, s, by, &sites, skip)
	for _, site := range sites {
		o := w.byModel[site.key]
		if o == nil || site.key == allActions {
			continue
		}
		s.unionFields(&o.any)
		gated.union(o.gated)
		callee := paramsOf(idx, site.key)
		for j := range o.params {
			if slot := site.bound(callee, j); slot >= 0 {
				by.at(w.slots, slot).unionFields(&o.params[j])
			} else {
				s.unionFields(&o.params[j])
			}
		}
	}
	for _, c := range withoutSites(calls, sites) {
		if c == allActions {
			for k, o := range w.byModel {
				if strings.HasPrefix(k, "a:") {
					o.addTo(s, gated)
				}
			}
		} else if o := w.byModel[c]; o != nil {
			o.addTo(s, gated)
		}
	}
}

// suffixByModel is what the statements of a block from i on write, by
// object.
type suffixByModel struct {
	any   nameSet
	by    viaWrites
	gated slotBits
}

// suffixesByModel are a block's suffixes by object (the last is empty).
func (w *writes) suffixesByModel(idx *dsl.Index, b *syntax.Block) []suffixByModel {
	if v, ok := w.modelBlocks.Load(b); ok {
		return v.([]suffixByModel)
	}
	out := make([]suffixByModel, len(b.Stmts)+1)
	out[len(b.Stmts)].any.slots = w.slots
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = suffixByModel{any: out[i+1].any.clone(), by: out[i+1].by.clone(w.slots), gated: slices.Clone(out[i+1].gated)}
		w.addByModel(idx, &out[i].any, &out[i].by, &out[i].gated, b.Stmts[i], nil)
	}
	v, _ := w.modelBlocks.LoadOrStore(b, out)
	return v.([]suffixByModel)
}

// writesAt is what the rest of a run paused at a place may write: of any
// object, and through variables of the frames running (of the objects
// they reach at the checkpoint).
type writesAt struct {
	any   nameSet
	vias  []writeVia
	gated slotBits // the gated effects it may fire (not in any)
	// fired: any with what the gated effects that may fire write, by the
	// gated effects whose feature a model holds (writtenFiring)
	fired   map[string]*nameSet
	firedMu sync.Mutex
}

// writeVia is a variable of a frame running through which the rest of a
// run writes: the frame (by its first level), the slot, the fields, and
// the levels of the for each loops running over it.
type writeVia struct {
	level  int
	slot   int
	name   string
	fields nameSet
	loops  []int
}

// placeWrites is what the rest of a run paused at one place (with the
// loops at their last item) may write, by object (writesAt): on every
// branch, on none of the ifs the place decides (guards.go: a bound below,
// to rule out what even those branches keep open), and past the branches
// the guards' values leave out, by those values. It depends on the place
// alone, so it is found once for each.
type placeWrites struct {
	full, least *writesAt // least: nil where the place decides no if
	guards      []guard
	mu          sync.Mutex
	byVals      map[guardValues]*writesAt
}

// placeAt is the placeWrites of levels, last.
func (w *writes) placeAt(p *Program, levels []ckLevel, last uint64) *placeWrites {
	w.byModelSummaries(p.idx)
	var buf [256]byte
	key := appendPlaceKey(buf[:0], levels)
	key = binary.AppendUvarint(key, last)
	w.atsMu.RLock()
	have, ok := w.atsByModel[string(key)] // looked up with no copy of the key
	w.atsMu.RUnlock()
	if ok {
		return have
	}
	pw := &placeWrites{full: w.restByModel(p.idx, levels, last, nil), guards: p.guardsAt(levels, last)}
	if len(pw.guards) > 0 {
		every := map[int]map[*syntax.Block]bool{}
		for _, g := range pw.guards {
			if every[g.level] == nil {
				every[g.level] = map[*syntax.Block]bool{}
			}
			for _, b := range []*syntax.Block{g.s.Then, g.s.Else} {
				if b != nil {
					every[g.level][b] = true
				}
			}
		}
		pw.least = w.restByModel(p.idx, levels, last, every)
	}
	w.atsMu.Lock()
	defer w.atsMu.Unlock()
	if have, ok := w.atsByModel[string(key)]; ok {
		return have // found by another run meanwhile
	}
	if w.atsByModel == nil {
		w.atsByModel = map[string]*placeWrites{}
	}
	w.atsByModel[string(key)] = pw
	return pw
}

// withValues is the writes past the branches the guards' values vals
// leave out.
func (pw *placeWrites) withValues(w *writes, idx *dsl.Index, levels []ckLevel, last uint64, vals guardValues) *writesAt {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if at, ok := pw.byVals[vals]; ok {
		return at
	}
	at := w.restByModel(idx, levels, last, untaken(pw.guards, vals))
	if pw.byVals == nil {
		pw.byVals = map[guardValues]*writesAt{}
	}
	pw.byVals[vals] = at
	return at
}

// restByModel is writes.rest by object, but the bodies of for each
// loops at their last item (last, by level), which do not run again, and
// the blocks of skip (by level: those of the ifs the checkpoint decides
// that the run will not enter).
func (w *writes) restByModel(idx *dsl.Index, levels []ckLevel, last uint64, skip map[int]map[*syntax.Block]bool) *writesAt {
	at := &writesAt{any: nameSet{slots: w.slots}}
	if o := w.byModel[anywhere]; o != nil {
		o.addTo(&at.any, &at.gated)
	}
	for k0 := 0; k0 < len(levels); {
		k1 := k0 + 1
		for k1 < len(levels) && levels[k1].f == levels[k0].f {
			k1++
		}
		w.ownerByModel(levels[k0], &at.any, &at.gated)
		var by viaWrites
		loops := map[int][]int{}
		for k := k0; k < k1; k++ {
			l := levels[k]
			from := l.stmt
			if k < len(levels)-1 {
				switch l.block.Stmts[l.stmt].(type) {
				case *syntax.If, *syntax.Step, *syntax.Call, *syntax.Apply, *syntax.Perform:
					from++ // done once its block ends
				}
			}
			suf := w.suffixesByModel(idx, l.block)
			// rest adds what the statements of the block from i on write.
			rest := func(i int) {
				if sk := skip[k]; sk != nil {
					for _, st := range l.block.Stmts[i:] {
						w.addByModel(idx, &at.any, &by, &at.gated, st, sk)
					}
					return
				}
				at.any.unionFields(&suf[i].any)
				by.union(w.slots, &suf[i].by)
				at.gated.union(suf[i].gated)
			}
			if fe, ok := stmtAt(&l).(*syntax.ForEach); ok && k+1 < k1 && levels[k+1].loopVar == fe.Var.Name && levels[k+1].block == fe.Body {
				// A for each running: what follows it, its body again
				// for the items left; its variable is set only by it.
				rest(from + 1)
				if k+1 >= 64 || last&(1<<(k+1)) == 0 {
					body := w.suffixesByModel(idx, fe.Body)
					at.any.unionFields(&body[0].any)
					by.union(w.slots, &body[0].by)
					at.gated.union(body[0].gated)
				}
				slot := w.slots.Of(fe.Var.Name)
				loops[slot] = append(loops[slot], k+1)
				continue
			}
			rest(from)
		}
		by.assigned.union(w.effectsSet)
		for slot, fields := range by.via {
			if by.assigned.hasSlot(slot) {
				at.any.unionFields(fields)
				continue
			}
			at.vias = append(at.vias, writeVia{level: k0, slot: slot, name: w.slots.Name(slot), fields: fields.clone(), loops: loops[slot]})
		}
		k0 = k1
	}
	slices.SortFunc(at.vias, func(a, b writeVia) int {
		if a.level != b.level {
			return a.level - b.level
		}
		return a.slot - b.slot
	})
	return at
}

// ownerByModel adds what the effects on the procedure, action or table
// whose frame level first begins write (ownerWrites) to s, those of gated
// effects to gated.
func (w *writes) ownerByModel(first ckLevel, s *nameSet, gated *slotBits) {
	switch owner := first.f.proc; {
	case owner != "":
		for _, k := range w.ownerKeys[owner] {
			if bit, ok := w.gatedBit[k]; ok {
				gated.addSlot(bit)
			} else if o := w.called[k]; o != nil {
				s.unionFields(o)
			}
		}
	case w.tables[first.block] != "":
		if o := w.byModel["t:"+w.tables[first.block]]; o != nil {
			o.addTo(s, gated)
		}
	default:
		s.unionFields(&w.every) // a frame of no known owner
	}
}

// reached calls f with each value the variable of via may hold in the
// rest of the run: now, those blocks running hide under its name (back
// when they end), and for a for each running over it, the items left and
// the value it had before the loop. It stops and reports false when f
// does; a variable not set now reaches an unknown value (nil).
func (via *writeVia) reached(levels []ckLevel, f func(v any) bool) bool {
	fr := levels[via.level].f
	v, ok := fr.getSlot(via.slot)
	if !ok {
		v = nil
	}
	if !f(v) {
		return false
	}
	for j := via.level; j < len(levels) && levels[j].f == fr; j++ {
		sc := levels[j].sc
		if sc == nil {
			continue
		}
		hidden := sc.hidden
		if sc.shared != nil {
			hidden = (*sc.shared)[sc.base:]
		}
		for _, h := range hidden {
			if h.name == via.name && !f(h.value) {
				return false
			}
		}
	}
	for _, li := range via.loops {
		loop := &levels[li].loop
		for j := loop.index + 1; j < len(loop.items); j++ {
			if !f(loop.items[j]) {
				return false
			}
		}
		if loop.hadOld && !f(loop.old) {
			return false
		}
	}
	return true
}

// objectOf is v as a model or a gang of the state (an object a question
// may read by id), or nil.
func objectOf(v any) any {
	switch x := v.(type) {
	case *state.Model:
		if x != nil {
			return x
		}
	case *state.Gang:
		if x != nil {
			return x
		}
	}
	return nil
}
