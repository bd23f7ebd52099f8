package interpreter

// This file narrows the liveness of droppable fields (fields.go) by
// model. Field reads are by name (liveness.go): once a later rule may
// read a field of some model, the same field of every model is live, so
// configurations that differ only in a fighter already done with (its
// Lasting Injuries, while the next fighter's are rolled) never merge.
// Here a read of a droppable field through a variable of the frame
// (`fighter.lasting_injuries`, `"impressive_scars" in
// fighter.lasting_injuries`, `remove x from m.marks`, through the lets
// of an inlined function that hold the variable) is a read of the model
// that variable holds, and nothing else:
//
//   - in a block of a frame running, of the model the variable holds at
//     the checkpoint, when no statement of the rest of the frame may set
//     it (a let, a roll, a test, a choose, a for each, `set v = …`, or
//     any name written outside an expression and a path: more than is
//     set), and of the values blocks running hide under it (back when
//     they end); the variable of a for each running, which sets it,
//     reaches its remaining items and the value it had before the loop
//     too (all of which the configuration's hash holds);
//   - in a procedure or table called (with all it calls), through a
//     parameter it never sets, of what the call's argument is when that
//     is a plain variable of the caller (then as the caller's read of
//     that variable), of any model otherwise (an argument that is not a
//     variable, a parameter left to its default);
//   - every other read is of any model, as before: through `#` or `.f`
//     in a predicate, a list, a built-in's result (`friends(m)`,
//     `model(id)`), a variable set later, a function not inlined, an
//     action performed, an event's handlers, every effect (hooks,
//     modifiers, characteristics, values), kinds, the question, a text's
//     placeholders.
//
// At a checkpoint the hash then keeps a droppable field of a model when
// a read of any model may read it (fields.go's plan, as before) or a
// read through a variable reaches that model; the models a variable
// reaches are found from the frames at the checkpoint (keeps.go). Two runs merged
// agree on those variables (they are read later, so live, and hashed),
// so they keep the same fields of the same models.

import (
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// viaReads are the droppable fields read through one variable: whole
// (by bit of droppables) or only asked whether they hold some items.
type viaReads struct {
	whole   uint64
	members map[int]slotBits // by bit: the items asked
}

// droppableBitOf is the bit in droppables of the field the rules name
// name, or -1.
func droppableBitOf(name string) int {
	for i, d := range droppables() {
		if d.name == name {
			return i
		}
	}
	return -1
}

// isGlobal reports whether name is one of the names every expression
// sees (the state and its parts).
func isGlobal(name string) bool {
	switch name {
	case dsl.GlobalState, dsl.GlobalBattle, dsl.GlobalGangs, dsl.GlobalNatural, dsl.GlobalRolled:
		return true
	}
	return false
}

// viaOf is the reads through variable v, made on first use; nil when v
// is no variable (a global, a name unknown).
func (s *nameSet) viaOf(v string) *viaReads {
	if v == "" || isGlobal(v) || s.slots == nil {
		return nil
	}
	return s.viaAt(s.slots.Of(v))
}

// droppableVia is the reads through variable v and field's droppable
// bit, or nil where field is not droppable or v holds no model by name.
func (s *nameSet) droppableVia(v, field string) (*viaReads, int) {
	b := droppableBitOf(field)
	if b < 0 {
		return nil, 0
	}
	return s.viaOf(v), b
}

// addViaField notes that field is read of the model variable v holds,
// and reports whether it did (a droppable field, read through a
// variable); the caller otherwise reads it of any model.
func (s *nameSet) addViaField(v, field string) bool {
	r, b := s.droppableVia(v, field)
	if r == nil {
		return false
	}
	r.whole |= 1 << b
	s.add(v)
	return true
}

// addViaMember is addViaField of a field only asked whether it holds
// item.
func (s *nameSet) addViaMember(v, field, item string) bool {
	r, b := s.droppableVia(v, field)
	if r == nil {
		return false
	}
	if r.members == nil {
		r.members = map[int]slotBits{}
	}
	items := r.members[b]
	items.add(s.slots, item)
	r.members[b] = items
	s.add(v)
	return true
}

// unionVia adds o's reads through variables and variables set.
func (s *nameSet) unionVia(o *nameSet) {
	s.assigned.union(o.assigned)
	for slot, r := range o.via {
		s.viaAt(slot).union(r)
	}
}

// viaAt is the reads through the variable of slot, made on first use.
func (s *nameSet) viaAt(slot int) *viaReads {
	if s.via == nil {
		s.via = map[int]*viaReads{}
	}
	mine := s.via[slot]
	if mine == nil {
		mine = &viaReads{}
		s.via[slot] = mine
	}
	return mine
}

func (r *viaReads) union(o *viaReads) {
	r.whole |= o.whole
	for b, items := range o.members {
		if r.members == nil {
			r.members = map[int]slotBits{}
		}
		mine := r.members[b]
		mine.union(items)
		r.members[b] = mine
	}
}

// viaCount is a measure of the reads through variables, which only grow.
func (s *nameSet) viaCount() int {
	n := s.assigned.count()
	for _, r := range s.via {
		n += r.count()
	}
	return n
}

func (r *viaReads) count() int {
	n := slotBits{r.whole}.count()
	for _, items := range r.members {
		n += items.count() + 1
	}
	return n
}

// toAny makes the reads through variable slot reads of any model.
func (s *nameSet) toAny(slot int) {
	r := s.via[slot]
	delete(s.via, slot)
	if r == nil {
		return
	}
	r.addTo(s)
}

// addTo adds r to s as reads of any model.
func (r *viaReads) addTo(s *nameSet) {
	for i, d := range droppables() {
		if r.whole&(1<<i) != 0 {
			s.addField(d.name)
		}
	}
	for b, items := range r.members {
		name := droppables()[b].name
		for j, w := range items {
			for k := 0; w != 0; k, w = k+1, w>>1 {
				if w&1 != 0 {
					s.addMember(name, s.slots.Name(j*64+k))
				}
			}
		}
	}
}

// frameVariable is, for the nodes of one expression, the variable of
// the frame a node is ("" for any other node): an identifier that no let
// of the expression declares, or a let's name whose value is such an
// identifier (an inlined function's parameter given a variable).
func frameVariable(root ast.Node) func(ast.Node) string {
	lets := map[string]ast.Node{}
	ast.Find(root, func(n ast.Node) bool {
		if d, ok := n.(*ast.VariableDeclaratorNode); ok {
			if _, twice := lets[d.Name]; twice {
				lets[d.Name] = nil // declared twice: neither
			} else {
				lets[d.Name] = d.Value
			}
		}
		return false
	})
	var resolve func(n ast.Node, depth int) string
	resolve = func(n ast.Node, depth int) string {
		id, ok := n.(*ast.IdentifierNode)
		if !ok || depth > 64 || strings.HasPrefix(id.Value, "$") {
			return ""
		}
		v, isLet := lets[id.Value]
		if !isLet {
			return id.Value
		}
		if v == nil {
			return ""
		}
		return resolve(v, depth+1)
	}
	return func(n ast.Node) string { return resolve(n, 0) }
}

// readSite is a call, apply, perform or signal (its summary's key) with
// its arguments: the slot of the caller's variable each is (-1: not a
// plain variable), and the parameter it names, if any.
type readSite struct {
	key  string
	args []siteArg
}

type siteArg struct {
	name string
	slot int
}

// readSiteOf is n's readSite (key is calleeKey(n)). Arguments bind to
// parameters of procedures and tables only: an action's, an event's
// handlers', read through them, count as reads of any model.
func readSiteOf(key string, n any, slots *dsl.Slots) readSite {
	site := readSite{key: key}
	var args []*syntax.Arg
	switch x := n.(type) {
	case *syntax.Call:
		args = x.Args
	case *syntax.Apply:
		args = x.Args
	default:
		return site
	}
	for _, a := range args {
		arg := siteArg{slot: -1}
		if a.Value != nil && a.Value.Program != nil {
			if id, ok := a.Value.Program.Node().(*ast.IdentifierNode); ok && !isGlobal(id.Value) && !strings.HasPrefix(id.Value, "$") {
				arg.slot = slots.Of(id.Value)
			}
		}
		if a.Name != nil {
			arg.name = a.Name.Name
		}
		site.args = append(site.args, arg)
	}
	return site
}

// bound is the slot of the caller's variable given to parameter i of
// params, as the runner binds arguments (callargs.go: by name, else by
// position), or -1.
func (c *readSite) bound(params []dsl.ParamInfo, i int) int {
	for j, a := range c.args {
		if a.name == params[i].Name || a.name == "" && j == i {
			return a.slot
		}
	}
	return -1
}

// withActions is calls with allActions (a body that may perform any
// action) replaced by the actions themselves.
func withActions(calls, actions []string) []string {
	for i, c := range calls {
		if c == allActions {
			return append(append(calls[:i:i], calls[i+1:]...), actions...)
		}
	}
	return calls
}

// withoutSites is calls less one of each site's key (what readsCore
// found of them with arguments), but a perform of any action.
func withoutSites(calls []string, sites []readSite) []string {
	out := slices.Clone(calls)
	for _, site := range sites {
		if site.key == allActions {
			continue
		}
		if i := slices.Index(out, site.key); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// modelSummary is what a procedure or table reads of models with all it
// calls, by model: of any model (fields, members), and through each of
// its parameters (by index) of the model it holds.
type modelSummary struct {
	any    nameSet
	params []viaReads
}

// paramsOf are the parameters of what key names ("p:id", "t:id"), nil
// for the others (their reads through parameters are of any model).
func paramsOf(idx *dsl.Index, key string) []dsl.ParamInfo {
	switch {
	case strings.HasPrefix(key, "p:"):
		if p := idx.Procedures[key[2:]]; p != nil {
			return p.Params
		}
	case strings.HasPrefix(key, "t:"):
		if t := idx.Tables[key[2:]]; t != nil {
			return t.Params
		}
	case isTestsKey(key):
		return testParams
	}
	return nil
}

// summariseByModel finds each procedure's, table's, action's, function's
// and event's modelSummary (a fixpoint over what they call), by mode.
func (lv *liveness) summariseByModel(p *Program, logging bool) {
	idx := p.idx
	type body struct {
		reads nameSet // with via by the callee's variables
		sites []readSite
		calls []string // without arguments (effects, functions)
	}
	bodies := map[string]*body{}
	collect := func(key string, nodes ...any) {
		b := &body{reads: nameSet{slots: lv.slots}}
		for _, n := range nodes {
			if strings.HasPrefix(key, "p:") || strings.HasPrefix(key, "t:") {
				var sites []readSite
				calls := readsCore(n, logging, &b.reads, nil, &sites)
				b.calls = append(b.calls, withoutSites(calls, sites)...)
				for _, site := range sites {
					if site.key != allActions {
						b.sites = append(b.sites, site)
					}
				}
			} else {
				b.calls = append(b.calls, readsOf(n, logging, &b.reads)...)
			}
		}
		bodies[key] = b
	}
	actions := eachCallable(idx, collect)
	// Effects read of any model, with what they act on; those on the
	// tests of a characteristic, of the model tested through `model`
	// (testParams).
	for _, e := range idx.Effects {
		es := nameSet{slots: lv.slots}
		keys := readKeys(idx, e)
		var cs []string
		var sites []readSite
		if slices.ContainsFunc(keys, isTestsKey) {
			cs = withoutSites(readsCore(e.Item, logging, &es, nil, &sites), sites)
		} else {
			cs = readsOf(e.Item, logging, &es)
		}
		featureReads(&es, e.Feature)
		for _, k := range keys {
			b := bodies[k]
			if b == nil {
				b = &body{reads: nameSet{slots: lv.slots}}
				bodies[k] = b
			}
			b.reads.unionFields(&es)
			b.calls = append(b.calls, cs...)
			for _, site := range sites {
				if site.key != allActions {
					b.sites = append(b.sites, site)
				}
			}
		}
	}
	sums := map[string]*modelSummary{}
	for k, b := range bodies {
		params := paramsOf(idx, k)
		sum := &modelSummary{any: nameSet{slots: lv.slots}, params: make([]viaReads, len(params))}
		sum.any.unionFields(&b.reads)
		sum.any.via, sum.any.assigned = nil, nil
		for slot, r := range b.reads.via {
			i := paramIndex(params, lv.slots.Name(slot))
			if i < 0 || b.reads.assigned.hasSlot(slot) || params[i].Default != nil {
				r.addTo(&sum.any)
				continue
			}
			sum.params[i].union(r)
		}
		sums[k] = sum
	}
	for _, b := range bodies {
		b.calls = withActions(b.calls, actions)
	}
	for changed := true; changed; {
		changed = false
		for k, b := range bodies {
			sum := sums[k]
			params := paramsOf(idx, k)
			before, all := sum.count(), sum.any.allFields
			for _, c := range b.calls {
				if o := sums[c]; o != nil {
					sum.any.unionFields(&o.any)
					for j := range o.params {
						o.params[j].addTo(&sum.any) // no arguments known
					}
				}
			}
			for _, site := range b.sites {
				o := sums[site.key]
				if o == nil {
					continue
				}
				// What it reads of any model, as a call without
				// arguments (addByModel does the same at a checkpoint).
				sum.any.unionFields(&o.any)
				callee := paramsOf(idx, site.key)
				for j := range o.params {
					slot := site.bound(callee, j)
					i := -1
					if slot >= 0 && !b.reads.assigned.hasSlot(slot) {
						i = paramIndex(params, lv.slots.Name(slot))
					}
					if i < 0 || params[i].Default != nil {
						o.params[j].addTo(&sum.any)
					} else {
						sum.params[i].union(&o.params[j])
					}
				}
			}
			changed = changed || sum.any.allFields != all || sum.count() != before
		}
	}
	lv.byModel[mode(logging)] = sums
	// What an effect's body declares its block takes back when it ends
	// (blockScope): only a set of a name outside it lasts.
	for _, e := range idx.Effects {
		syntax.Inspect(e.Item, func(n any) bool {
			if st, ok := n.(*syntax.Set); ok && st.Target != nil && len(st.Target.Parts) == 1 {
				lv.effectsSet.add(lv.slots, st.Target.Parts[0].Name)
			}
			return true
		})
	}
}

func (s *modelSummary) count() int {
	n := s.any.fieldsCount()
	for i := range s.params {
		n += s.params[i].count()
	}
	return n
}

// paramIndex is the index of the parameter named name, or -1.
func paramIndex(params []dsl.ParamInfo, name string) int {
	for i, p := range params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// addByModel adds what node reads to s by model: through the frame's
// variables to s.via, what it calls through its arguments (a plain
// variable's) as reads through them, the rest of any model.
func (lv *liveness) addByModel(s *nameSet, node any, logging bool, skip map[*syntax.Block]bool) {
	var sites []readSite
	calls := readsCore(node, logging, s, skip, &sites)
	sums := lv.byModel[mode(logging)]
	for _, site := range sites {
		o := sums[site.key]
		if o == nil || site.key == allActions {
			continue
		}
		s.unionFields(&o.any)
		callee := paramsOf(lv.idx, site.key)
		for j := range o.params {
			if slot := site.bound(callee, j); slot >= 0 {
				s.addVia(slot, &o.params[j])
			} else {
				o.params[j].addTo(s)
			}
		}
	}
	for _, c := range withoutSites(calls, sites) {
		if c == allActions {
			for k, o := range sums {
				if strings.HasPrefix(k, "a:") {
					s.unionFields(&o.any)
				}
			}
		} else if o := sums[c]; o != nil {
			s.unionFields(&o.any)
			for j := range o.params {
				o.params[j].addTo(s)
			}
		}
	}
}

// addVia adds r as reads through the variable of slot.
func (s *nameSet) addVia(slot int, r *viaReads) {
	s.viaAt(slot).union(r)
	s.names.addSlot(slot)
}

// suffixesByModel are suffixes read by model.
func (lv *liveness) suffixesByModel(b *syntax.Block, logging bool) []nameSet {
	m := mode(logging)
	if v, ok := lv.modelBlocks[m].Load(b); ok {
		return v.([]nameSet)
	}
	out := make([]nameSet, len(b.Stmts)+1)
	out[len(b.Stmts)].slots = lv.slots
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = out[i+1].clone()
		lv.addByModel(&out[i], b.Stmts[i], logging, nil)
		lv.addFiredAt(&out[i], b.Stmts[i])
	}
	v, _ := lv.modelBlocks[m].LoadOrStore(b, out)
	return v.([]nameSet)
}

// viaAt is a variable of a frame running through which the rest of a run
// reads droppable fields: the frame (by its first level), the slot, the
// reads, and the levels of the for each loops running over it.
type viaAt struct {
	level int
	slot  int
	name  string
	reads viaReads
	loops []int
	// items: by bit of the fields asked whether they hold some items,
	// those items (as fields.go's counts take them)
	items map[int][]string
}

// frameLiveByModel is frameLive's reads of fields by model: of any model
// (with the effects', which are), and through the frame's variables
// (viaAt), those set later in the frame made reads of any model.
//
// last: by level, the bodies of for each loops at their last item, which
// do not run again.
func (lv *liveness) frameLiveByModel(levels []ckLevel, level0 int, skip map[int]map[*syntax.Block]bool, last uint64, innermost, logging bool) (nameSet, []viaAt) {
	s := nameSet{slots: lv.slots}
	s.unionFields(lv.ownerReads(levels[0]))
	s.unionFields(&lv.anywhere)
	loops := map[int][]int{} // by slot: the levels of loops running over it
	for k, l := range levels {
		from := l.stmt
		if !innermost || k < len(levels)-1 {
			switch l.block.Stmts[l.stmt].(type) {
			case *syntax.If, *syntax.Step, *syntax.Call, *syntax.Apply, *syntax.Perform:
				from++
			}
		}
		if fe, ok := stmtAt(&l).(*syntax.ForEach); ok && k < len(levels)-1 && levels[k+1].loopVar == fe.Var.Name &&
			levels[k+1].block == fe.Body && skip[level0+k] == nil {
			// A for each running: its body again, for the items left,
			// and what follows it; its variable is set only by it.
			suf := lv.suffixesByModel(l.block, logging)
			s.unionFields(&suf[from+1])
			if level0+k+1 >= 64 || last&(1<<(level0+k+1)) == 0 {
				body := lv.suffixesByModel(fe.Body, logging)
				s.unionFields(&body[0])
				lv.addFiredAt(&s, fe)
			}
			slot := lv.slots.Of(fe.Var.Name)
			loops[slot] = append(loops[slot], level0+k+1)
			continue
		}
		if sk := skip[level0+k]; sk != nil {
			for _, st := range l.block.Stmts[from:] {
				lv.addByModel(&s, st, logging, sk)
				lv.addFiredAtSkipping(&s, st, sk)
			}
		} else {
			suf := lv.suffixesByModel(l.block, logging)
			s.unionFields(&suf[from])
		}
	}
	// Effects run in frames of their own or in this one (hooks): a name
	// one of them may set (`set v = …`) is set.
	s.assigned.union(lv.effectsSet)
	var vias []viaAt
	for slot, r := range s.via {
		if s.assigned.hasSlot(slot) {
			continue
		}
		v := viaAt{level: level0, slot: slot, name: lv.slots.Name(slot), reads: viaReads{whole: r.whole}, loops: loops[slot]}
		for b, items := range r.members {
			if droppables()[b].field().Type != reflect.TypeOf([]string(nil)) {
				v.reads.whole |= 1 << b // asked of something but a list of ids: read whole
				continue
			}
			if v.items == nil {
				v.items = map[int][]string{}
			}
			for j, w := range items {
				for k := 0; w != 0; k, w = k+1, w>>1 {
					if w&1 != 0 {
						v.items[b] = append(v.items[b], lv.slots.Name(j*64+k))
					}
				}
			}
		}
		vias = append(vias, v)
	}
	for slot := range s.via {
		if s.assigned.hasSlot(slot) {
			s.toAny(slot)
		}
	}
	for _, v := range vias {
		delete(s.via, v.slot)
	}
	slices.SortFunc(vias, func(a, b viaAt) int { return a.slot - b.slot })
	return s, vias
}
