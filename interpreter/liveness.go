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
// role and holder; the effects on one roll, test, let or step of a
// procedure or action read at that statement (they fire there alone), the
// other effects on a procedure, action or table (hooks, a table's roll:
// they run in its frame) are live everywhere in its frames, and those
// that run in the frame of
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
//
// The same is done for the fields of models in the state (fields.go says
// which: those that no Go code reads, so that only the rules read them,
// through expressions, paths and placeholders): a field is live at a
// checkpoint when some expression of the rest of the run may read it (by
// name, whatever the object: `m.xp` reads every model's xp; a field read
// by a name known only at run time, such as get(m, f), reads them all),
// in any frame, the procedures, tables, actions and functions the rest
// calls included (a summary of each, by a fixpoint, as they may call one
// another), with the effects that fire there (on a procedure, action or
// table: with it; an on handler: at its event's signals; one on every
// test of a characteristic or on a value: at those tests and stat's
// reads, stats.go; the others: anywhere), what kinds (but their
// warnings, checked at load), characteristics and events' parameters read,
// the fields named by the battle's durations (removed by name when a
// period ends), and the question's Of. A question without Of (a summary of what
// changed) reads them all. `set m.xp = m.xp + N` does not read xp, and a
// list only asked whether it holds some items, or only having some
// removed, is hashed as the counts of those items (fields.go).

import (
	"encoding/binary"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// nameSet is what may be read: variable names by their slot (in the
// numbering of the rules' frames, slots; all stands for every name),
// natural.X and rolled.X by X (a reader of the whole table, natural or
// rolled, is a reader of every X), and state fields by their name in the
// rules (allFields: every field). A set without a numbering (never added
// to by liveness.add, nor unioned with one that was) stands for every
// name and field it is given.
type nameSet struct {
	slots                          *dsl.Slots
	all, allFields                 bool
	names, natural, rolled, fields slotBits
	// members: fields read only to ask whether they hold an item
	// ("impressive_scars" in m.lasting_injuries) or to remove one, by
	// field, with those items.
	members map[string]slotBits
	// via: read by model (bymodel.go), the droppable fields of models
	// read through a variable of the frame, by its slot, of the model it
	// holds alone (not in fields or members unless read otherwise too);
	// assigned: the variables the statements may set.
	via      map[int]*viaReads
	assigned slotBits
}

// slotBits is a set of names by their slot.
type slotBits []uint64

func (b *slotBits) add(slots *dsl.Slots, name string) {
	i := slots.Of(name)
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

func (b slotBits) has(slots *dsl.Slots, name string) bool {
	if slots == nil {
		return false
	}
	i, ok := slotLookup(slots, name)
	return ok && b.hasSlot(i)
}

func (b slotBits) hasSlot(i int) bool {
	return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0
}

// addSlot adds slot i, reusing b's room (clear it with b[:0]).
func (b *slotBits) addSlot(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b slotBits) count() int {
	n := 0
	for _, w := range b {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

func (s *nameSet) add(name string) {
	switch {
	case s.all:
	case s.slots == nil:
		s.all, s.names, s.natural, s.rolled = true, nil, nil, nil
	default:
		s.names.add(s.slots, name)
	}
}

// addNatural and addRolled note a read of natural.X or rolled.X.
func (s *nameSet) addNatural(x string) { s.addTo(&s.natural, x) }
func (s *nameSet) addRolled(x string)  { s.addTo(&s.rolled, x) }

func (s *nameSet) addTo(b *slotBits, x string) {
	switch {
	case s.all:
	case s.slots == nil:
		s.all, s.names, s.natural, s.rolled = true, nil, nil, nil
	default:
		b.add(s.slots, x)
	}
}

func (s *nameSet) addField(name string) {
	switch {
	case s.allFields:
	case s.slots == nil:
		s.setAllFields()
	default:
		s.fields.add(s.slots, name)
	}
}

// addMember notes that field is asked whether it holds item.
func (s *nameSet) addMember(field, item string) {
	if s.allFields {
		return
	}
	if s.slots == nil {
		s.setAllFields()
		return
	}
	if s.members == nil {
		s.members = map[string]slotBits{}
	}
	b := s.members[field]
	b.add(s.slots, item)
	s.members[field] = b
}

// setAll makes the set every name and every field.
func (s *nameSet) setAll() { *s = nameSet{slots: s.slots, all: true, allFields: true} }

// setAllFields makes the set every field.
func (s *nameSet) setAllFields() { s.allFields, s.fields, s.members = true, nil, nil }

func (s *nameSet) union(o *nameSet) {
	s.unionNames(o)
	s.unionFields(o)
}

// adopt takes o's numbering where s has none yet (both are the rules').
func (s *nameSet) adopt(o *nameSet) {
	if s.slots == nil {
		s.slots = o.slots
	}
}

func (s *nameSet) unionNames(o *nameSet) {
	s.adopt(o)
	switch {
	case s.all:
	case o.all:
		s.all, s.names, s.natural, s.rolled = true, nil, nil, nil
	default:
		s.names.union(o.names)
		s.natural.union(o.natural)
		s.rolled.union(o.rolled)
	}
}

func (s *nameSet) unionFields(o *nameSet) {
	s.adopt(o)
	if o.via != nil || o.assigned != nil {
		s.unionVia(o)
	}
	switch {
	case s.allFields:
	case o.allFields:
		s.setAllFields()
	default:
		s.fields.union(o.fields)
		for f, b := range o.members {
			if s.members == nil {
				s.members = map[string]slotBits{}
			}
			mine := s.members[f]
			mine.union(b)
			s.members[f] = mine
		}
	}
}

// fieldsCount is a measure of the fields part, which only grows.
func (s *nameSet) fieldsCount() int {
	n := s.fields.count() + s.viaCount()
	for _, b := range s.members {
		n += b.count() + 1
	}
	return n
}

// has reports whether the set holds name.
func (s *nameSet) has(name string) bool { return s.all || s.names.has(s.slots, name) }

// hasSlot is has by the name's slot.
func (s *nameSet) hasSlot(i int) bool { return s.all || s.names.hasSlot(i) }

// hasNatural reports whether natural.NAME may be read.
func (s *nameSet) hasNatural(name string) bool {
	return s.all || s.names.has(s.slots, dsl.GlobalNatural) || s.natural.has(s.slots, name)
}

// hasRolled reports whether rolled.NAME may be read.
func (s *nameSet) hasRolled(name string) bool {
	return s.all || s.names.has(s.slots, dsl.GlobalRolled) || s.rolled.has(s.slots, name)
}

// hasField reports whether a state field of that name may be read.
func (s *nameSet) hasField(name string) bool {
	return s.allFields || s.fields.has(s.slots, name)
}

func (s *nameSet) clone() nameSet {
	c := nameSet{slots: s.slots, all: s.all, allFields: s.allFields, names: slices.Clone(s.names), natural: slices.Clone(s.natural),
		rolled: slices.Clone(s.rolled), fields: slices.Clone(s.fields)}
	if s.members != nil {
		c.members = make(map[string]slotBits, len(s.members))
		for f, b := range s.members {
			c.members[f] = slices.Clone(b)
		}
	}
	if s.via != nil || s.assigned != nil {
		c.unionVia(s)
	}
	return c
}

// liveness is a program's reads, found once and kept: the effects' by
// what they act on, what each procedure, table and action reads with what
// it calls, and each block's suffixes (by whether the run logs, which
// decides whether emit renders its text).
type liveness struct {
	slots *dsl.Slots // the rules' numbering, which the sets' bits use
	// owner: the reads of the effects on a procedure, action or table,
	// which run in its frames.
	owner map[string]*nameSet
	// at: the reads of the effects on one roll, test, let or step of a
	// procedure or action, by its statement: they fire there and nowhere
	// else, so once the run is past it (and not in a loop that runs it
	// again) they read nothing more.
	firedAt map[syntax.Stmt]*nameSet
	// anywhere: the reads of effects that run in any frame (re-rolls of
	// any roll); every: of every effect, for a frame of no known owner.
	anywhere, every nameSet
	// always: the fields read wherever a run is (effects that may fire
	// anywhere, kinds' warnings), by mode (logs).
	always [2]nameSet
	// called: the fields each procedure ("p:id"), table ("t:id"), action
	// ("a:id"), function ("f:id") and event's handlers ("e:id") read,
	// with all they call, by mode.
	called [2]map[string]*nameSet
	// tables: a table row's body, to the table whose frame runs it.
	tables map[*syntax.Block]string
	blocks [2]sync.Map // *syntax.Block → []nameSet, without and with logging
	// ats: what is live at each place a run pauses (liveAt), by the
	// blocks running, their statements and whether the run logs.
	ats   map[string]*liveAt
	atsMu sync.RWMutex
	// declared: the slot each statement of a block declares (declaredBy)
	declared sync.Map
	// guards: the ifs each place decides (guardsAt), by its key (a map
	// under a lock, not a sync.Map: looked up by the key's bytes, with no
	// copy of them made at every checkpoint hashed)
	guards   map[string][]guard
	guardsMu sync.RWMutex
	// byModel: each callable's modelSummary, and modelBlocks each
	// block's suffixes read by model (bymodel.go), by mode.
	idx         *dsl.Index
	byModel     [2]map[string]*modelSummary
	modelBlocks [2]sync.Map
	// effectsSet: the names an effect may set (bymodel.go)
	effectsSet slotBits
	// readAfter: for a roll, what the rest of its block reads but its
	// sets (unread.go's readAfterBut)
	readAfter sync.Map
	// footprints: each call statement's callFootprint (callmemo.go)
	footprints sync.Map
}

// liveAt is what the rest of a run may read at a checkpoint: of each
// frame running, and the fields, in all of them.
type liveAt struct {
	frames []nameSet
	fields nameSet
	// byModel (with narrowing): anyFields are the fields read of any
	// model, vias the variables of frames running read through
	// (bymodel.go); the plan is then made of anyFields.
	byModel   bool
	anyFields nameSet
	vias      []viaAt
	// plans: the fieldPlan for each limits and durations (planKey)
	// without a question (with one, the question keeps them)
	plans sync.Map
}

// appendPlaceKey appends what identifies a place a run pauses at: the
// blocks running, their statements, and each frame's owner (its effects
// are live, and write, in it).
func appendPlaceKey(key []byte, levels []ckLevel) []byte {
	for j := range levels {
		l := &levels[j] // not a copy: a level is a few hundred bytes
		key = binary.LittleEndian.AppendUint64(key, uint64(uintptr(unsafe.Pointer(l.block))))
		key = binary.AppendUvarint(key, uint64(l.stmt))
		if j == 0 || l.f != levels[j-1].f {
			key = append(key, 1)
			key = binary.AppendUvarint(key, uint64(len(l.f.proc)))
			key = append(key, l.f.proc...)
		} else {
			key = append(key, 0)
		}
	}
	return key
}

// at is what is live at a checkpoint with these levels, found once per
// place: it depends on the blocks running and their statements alone,
// and on the values of the place's guards (guards.go: the branches of
// ifs the run will not take are not read; none without guards).
//
// With narrow, the fields are read by model too (bymodel.go).
func (lv *liveness) at(levels []ckLevel, logging, narrow bool, guards []guard, vals guardValues, last uint64) *liveAt {
	var buf [256]byte // a key on the stack, for the lookup
	key := buf[:0]
	if logging {
		key = append(key, 1)
	}
	key = appendPlaceKey(key, levels)
	var skip map[int]map[*syntax.Block]bool
	if narrow {
		key = append(key, 0xfe)
		key = binary.AppendUvarint(key, last)
	}
	if vals.known != 0 {
		key = append(key, 0xff)
		key = binary.AppendUvarint(key, vals.known)
		key = binary.AppendUvarint(key, vals.value)
	}
	lv.atsMu.RLock()
	at, ok := lv.ats[string(key)]
	lv.atsMu.RUnlock()
	if ok {
		return at
	}
	at = &liveAt{}
	if vals.known != 0 {
		skip = untaken(guards, vals)
	}
	for i := 0; i < len(levels); {
		j := i
		for j < len(levels) && levels[j].f == levels[i].f {
			j++
		}
		s := lv.frameLive(levels[i:j], i, skip, last, j == len(levels), logging)
		at.frames = append(at.frames, s)
		at.fields.unionFields(&s)
		if narrow {
			m, vias := lv.frameLiveByModel(levels[i:j], i, skip, last, j == len(levels), logging)
			at.anyFields.unionFields(&m)
			at.vias = append(at.vias, vias...)
		}
		i = j
	}
	at.byModel = narrow
	lv.atsMu.Lock()
	defer lv.atsMu.Unlock()
	if have, ok := lv.ats[string(key)]; ok {
		return have
	}
	if lv.ats == nil {
		lv.ats = map[string]*liveAt{}
	}
	lv.ats[string(key)] = at
	return at
}

// liveness is the program's, made on first use.
func (p *Program) liveness() *liveness {
	p.liveOnce.Do(func() { p.live = newLiveness(p) })
	return p.live
}

func newLiveness(p *Program) *liveness {
	lv := &liveness{slots: p.idx.Slots, owner: map[string]*nameSet{}, firedAt: map[syntax.Stmt]*nameSet{}, tables: map[*syntax.Block]string{}}
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
	lv.summarise(p, false)
	lv.summarise(p, true)
	lv.idx = p.idx
	lv.summariseByModel(p, false)
	lv.summariseByModel(p, true)
	for _, e := range p.idx.Effects {
		reads := nameSet{slots: lv.slots}
		// An effect's text is rendered whether or not the run logs in
		// a few places (a hook's emit only when it does): count it.
		lv.add(&reads, e.Item, true)
		if e.Role != "" && e.Role != dsl.RoleAny {
			reads.add(e.Role) // effectApplies reads the holder in the role
		}
		reads.add("holder")
		featureReads(&reads, e.Feature)
		lv.every.union(&reads)
		target, _, _ := strings.Cut(e.Target, ".")
		sites := siteStmts(p.idx, e)
		switch {
		case startHook(p.idx, e):
			// Runs before the body of its procedure or action starts:
			// never again in a frame whose body runs (a later call is
			// read with the callee's summary).
		case owners[target] && e.Target != dsl.AnyRoll && sites != nil:
			for _, st := range sites {
				if lv.firedAt[st] == nil {
					lv.firedAt[st] = &nameSet{slots: lv.slots}
				}
				lv.firedAt[st].union(&reads)
			}
		case owners[target] && e.Target != dsl.AnyRoll:
			if lv.owner[target] == nil {
				lv.owner[target] = &nameSet{slots: lv.slots}
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

// startHook reports whether e is a before or instead_of hook on a whole
// procedure or action, which the runner runs before its body
// (hookedBody).
func startHook(idx *dsl.Index, e *dsl.EffectInfo) bool {
	h, ok := e.Item.(*syntax.Hook)
	if !ok || h.Timing == "after" || e.TargetKind != "procedure" || strings.Contains(e.Target, ".") {
		return false // on a characteristic's tests, a step, or after
	}
	_, proc := idx.Procedures[e.Target]
	_, action := idx.Actions[e.Target]
	_, table := idx.Tables[e.Target]
	return (proc || action) && !table
}

// summarise finds the fields each procedure, table and action reads with
// what it calls (a fixpoint: they may call one another), and those read
// wherever a run is.
func (lv *liveness) summarise(p *Program, logging bool) {
	idx := p.idx
	direct := map[string]*nameSet{}
	calls := map[string][]string{}
	collect := func(key string, nodes ...any) {
		s := &nameSet{slots: lv.slots}
		for _, n := range nodes {
			calls[key] = append(calls[key], readsOf(n, logging, s)...)
		}
		direct[key] = s
	}
	actions := eachCallable(idx, collect)
	// An effect reads where it fires: one on a procedure, an action or a
	// table (its rolls, lets, steps, hooks) as that runs, so with its
	// summary; an `on` handler at a signal of its event; one on every
	// test of a characteristic or on a value at those tests and stat's
	// reads (readKeys, stats.go); the others (grants, prevents, any
	// roll) anywhere.
	for _, e := range idx.Effects {
		es := &nameSet{slots: lv.slots}
		cs := readsOf(e.Item, logging, es)
		featureReads(es, e.Feature)
		for _, k := range readKeys(idx, e) {
			if direct[k] == nil {
				direct[k] = &nameSet{slots: lv.slots}
			}
			direct[k].union(es)
			calls[k] = append(calls[k], cs...)
		}
	}
	for k, cs := range calls {
		// A perform of an action named at run time may be any.
		if i := slices.Index(cs, allActions); i >= 0 {
			calls[k] = append(slices.Delete(cs, i, i+1), actions...)
		}
	}
	for changed := true; changed; {
		changed = false
		for k, s := range direct {
			before, all := s.fieldsCount(), s.allFields
			for _, c := range calls[k] {
				if o := direct[c]; o != nil {
					s.unionFields(o)
				}
			}
			changed = changed || s.allFields != all || s.fieldsCount() != before
		}
	}
	m := mode(logging)
	lv.called[m] = direct
	if o := direct[anywhere]; o != nil {
		lv.always[m].unionFields(o)
	}

	// What else is read wherever a run is: kinds, characteristics and
	// events (their parameters' defaults). Features and house rules hold
	// nothing but effects (above), metadata and actions (performed). A
	// kind's warnings are checked on a state before a run
	// (Program.StateWarnings, when a state is loaded), never during one.
	var decls []any
	for _, k := range idx.Kinds {
		for _, it := range k.Decl.Items {
			if _, warn := it.(*syntax.Warn); !warn {
				decls = append(decls, it)
			}
		}
	}
	for _, c := range idx.Characteristics {
		decls = append(decls, c.Decl)
	}
	for _, ev := range idx.Events {
		decls = append(decls, ev.Params)
	}
	for _, d := range decls {
		lv.add(&lv.always[m], d, logging)
	}
}

// anywhere is the summary key of what effects that may fire anywhere
// read.
const anywhere = "*"

// effectKeys are the summaries an effect's reads belong to: see
// summarise.
func effectKeys(idx *dsl.Index, e *dsl.EffectInfo) []string {
	switch e.Item.(type) {
	case *syntax.Grant, *syntax.Prevent:
		return []string{anywhere}
	}
	if e.Target == dsl.AnyRoll || e.TargetKind == "characteristic" || e.TargetKind == "value" {
		return []string{anywhere}
	}
	if e.TargetKind == "event" {
		return []string{"e:" + e.Target}
	}
	target, _, _ := strings.Cut(e.Target, ".")
	var keys []string
	if idx.Procedures[target] != nil {
		keys = append(keys, "p:"+target)
	}
	if idx.Actions[target] != nil {
		keys = append(keys, "a:"+target)
	}
	if idx.Tables[target] != nil {
		keys = append(keys, "t:"+target)
	}
	if idx.Functions[target] != nil {
		keys = append(keys, "f:"+target) // a lookup table
	}
	if len(keys) == 0 {
		return []string{anywhere}
	}
	return keys
}

// siteStmts are the statements an effect on a roll, test, let or step
// of a procedure or action ("p.x") fires at, or nil when it acts on more
// than those (a whole procedure, a table) or its site is not found.
func siteStmts(idx *dsl.Index, e *dsl.EffectInfo) []syntax.Stmt {
	switch e.TargetKind {
	case "roll", "test", "let", "step":
	default:
		return nil
	}
	target, name, ok := strings.Cut(e.Target, ".")
	if !ok {
		return nil
	}
	proc := idx.Procedures[target]
	if a := idx.Actions[target]; a != nil {
		if proc != nil {
			return nil // one name, two owners: keep it live everywhere
		}
		proc = a.Proc // its body's sites (Procedure() has none)
	}
	if proc == nil || len(proc.Sites[name]) == 0 {
		return nil
	}
	var out []syntax.Stmt
	for _, site := range proc.Sites[name] {
		out = append(out, site.Stmt)
	}
	return out
}

// eachCallable gives collect the declaration of every procedure ("p:id"),
// table ("t:id"), function or lookup table ("f:id") and action ("a:id":
// its body, conditions and parameters' defaults), as the read and write
// summaries key them, and lists the actions' keys.
func eachCallable(idx *dsl.Index, collect func(key string, nodes ...any)) (actions []string) {
	for id, proc := range idx.Procedures {
		collect("p:"+id, proc.Decl)
	}
	for id, t := range idx.Tables {
		collect("t:"+id, t.Decl)
	}
	for id, fn := range idx.Functions {
		if fn.Function != nil {
			collect("f:"+id, fn.Function)
		} else if fn.Table != nil {
			collect("f:"+id, fn.Table.Decl)
		}
	}
	for id, a := range idx.Actions {
		nodes := []any{a.Body, a.Available, a.Unavailable}
		for _, prm := range a.Params {
			nodes = append(nodes, prm.Default)
		}
		collect("a:"+id, nodes...)
		actions = append(actions, "a:"+id)
	}
	return actions
}

// calleeKey is the summary key of what a call, signal, apply or perform
// runs ("p:id", "e:id", "t:id", "a:id", allActions), "" for other nodes.
func calleeKey(n any) string {
	switch x := n.(type) {
	case *syntax.Call:
		return "p:" + x.Proc.Name
	case *syntax.Signal:
		return "e:" + x.Event.Name
	case *syntax.Apply:
		return "t:" + x.Table.Name
	case *syntax.Perform:
		if x.Action != nil {
			return "a:" + x.Action.Name
		}
		return allActions
	}
	return ""
}

// allActions stands for every action among what a statement calls.
const allActions = "a:*"

// add adds what node reads to s, the fields of what it calls included.
func (lv *liveness) add(s *nameSet, node any, logging bool) { lv.addSkipping(s, node, logging, nil) }

// addSkipping is add but for the blocks in skip (and all they hold).
func (lv *liveness) addSkipping(s *nameSet, node any, logging bool, skip map[*syntax.Block]bool) {
	if s.slots == nil {
		s.slots = lv.slots
	}
	for _, c := range readsOfSkipping(node, logging, s, skip) {
		if c == allActions {
			for k, o := range lv.called[mode(logging)] {
				if strings.HasPrefix(k, "a:") {
					s.unionFields(o)
				}
			}
		} else if o := lv.called[mode(logging)][c]; o != nil {
			s.unionFields(o)
		}
	}
}

// mode indexes what depends on whether the run logs (emit renders its
// text only then).
func mode(logging bool) int {
	if logging {
		return 1
	}
	return 0
}

// suffixes are the reads of each block's statements from i on (the last
// is empty: the block's end), the fields read by what they call included.
func (lv *liveness) suffixes(b *syntax.Block, logging bool) []nameSet {
	m := mode(logging)
	if v, ok := lv.blocks[m].Load(b); ok {
		return v.([]nameSet)
	}
	out := make([]nameSet, len(b.Stmts)+1)
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = out[i+1].clone()
		lv.add(&out[i], b.Stmts[i], logging)
		lv.addFiredAt(&out[i], b.Stmts[i])
	}
	v, _ := lv.blocks[m].LoadOrStore(b, out)
	return v.([]nameSet)
}

// addFiredAt adds the reads of the effects that fire at stmt or at a
// statement inside it (lv.at).
func (lv *liveness) addFiredAt(s *nameSet, stmt syntax.Stmt) { lv.addFiredAtSkipping(s, stmt, nil) }

// addFiredAtSkipping is addFiredAt but for the blocks in skip.
func (lv *liveness) addFiredAtSkipping(s *nameSet, stmt syntax.Stmt, skip map[*syntax.Block]bool) {
	if len(lv.firedAt) == 0 {
		return
	}
	syntax.Inspect(stmt, func(n any) bool {
		if b, ok := n.(*syntax.Block); ok && skip[b] {
			return false
		}
		if st, ok := n.(syntax.Stmt); ok {
			if r := lv.firedAt[st]; r != nil {
				s.union(r)
			}
		}
		return true
	})
}

// frameLive is what the rest of the run may read of one frame, at a
// checkpoint whose blocks running in that frame are levels (outermost
// first, the first the checkpoint's level number level0), with the fields
// that rest reads; innermost says the last of them is the checkpoint's
// own block (else it runs a call, an apply or a perform into another
// frame). skip: by level number, the blocks of ifs the run will not
// enter (guards.go), whose reads are left out.
//
// last: by level, the for each loops at their last item (lastItems),
// whose bodies run no more.
func (lv *liveness) frameLive(levels []ckLevel, level0 int, skip map[int]map[*syntax.Block]bool, last uint64, innermost, logging bool) nameSet {
	s := nameSet{slots: lv.slots}
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
			case *syntax.ForEach:
				if j := level0 + k + 1; j < 64 && last&(1<<j) != 0 && k < len(levels)-1 {
					from++ // at its last item: its body runs no more
				}
			}
		}
		if sk := skip[level0+k]; sk != nil {
			// Statement by statement, but the blocks not entered.
			for _, st := range l.block.Stmts[from:] {
				lv.addSkipping(&s, st, logging, sk)
				lv.addFiredAtSkipping(&s, st, sk)
			}
		} else {
			suf := lv.suffixes(l.block, logging)
			s.union(&suf[from])
		}
		if s.all && s.allFields {
			break
		}
	}
	return s
}

// readsOf adds to s the names and fields node may read (see the file's
// comment) and returns what it calls ("p:id", "t:id", "a:id", allActions).
// Without logging, emit renders nothing, so it reads nothing.
func readsOf(node any, logging bool, s *nameSet) []string {
	return readsCore(node, logging, s, nil, nil)
}

// readsOfSkipping is readsOf but for the blocks in skip (and all they
// hold).
func readsOfSkipping(node any, logging bool, s *nameSet, skip map[*syntax.Block]bool) []string {
	return readsCore(node, logging, s, skip, nil)
}

// readsCore is readsOf but for the blocks in skip; with sites, it reads
// by model (bymodel.go): the droppable fields read through a variable
// go to s.via, the variables set to s.assigned, and each call, apply,
// perform and signal to sites with its arguments.
func readsCore(node any, logging bool, s *nameSet, skip map[*syntax.Block]bool, sites *[]readSite) []string {
	byModel := sites != nil
	var calls []string
	// The idents of paths that name no variable set: a path's fields,
	// and the variable a longer path starts from.
	inPath := map[*syntax.Ident]bool{}
	// The field a set, add or remove writes: its new value depends on
	// the old one only for an add or remove of the field itself (and for
	// the run's counters of text and events, which are a configuration's
	// only when the question has limits of its own: then no field is left
	// out, see droppedFields).
	written := map[*syntax.Ident]bool{}
	target := func(p *syntax.Path) {
		if p != nil && len(p.Parts) > 1 {
			written[p.Parts[len(p.Parts)-1]] = true
		}
	}
	handled := map[*syntax.Expr]bool{}
	syntax.Inspect(node, func(n any) bool {
		switch x := n.(type) {
		case *syntax.Block:
			return !skip[x]
		case *syntax.Emit:
			return logging
		case *syntax.Expr:
			if !handled[x] {
				exprReadsBy(x, s, &calls, byModel)
			}
		case *syntax.Set:
			target(x.Target)
			if by := increment(x); by != nil {
				// set m.xp = m.xp + N: the old value only makes the new
				// one, read only if the field is read later.
				handled[x.Value] = true
				nodeReadsBy(by, s, &calls, byModel)
			}
		case *syntax.Add:
			target(x.To)
		case *syntax.TestStmt:
			if x.Char != nil {
				characteristicRead(s, x.Char.Name, x.Model, byModel)
				calls = append(calls, testsKey(x.Char.Name)) // its effects
				if byModel {
					*sites = append(*sites, testSite(x.Char.Name, x.Model, s.slots))
				}
			}
		case *syntax.Change:
			if x.Char != nil {
				characteristicRead(s, x.Char.Name, x.Model, byModel)
			}
		case *syntax.Remove:
			target(x.From)
			if x.From != nil && len(x.From.Parts) > 1 && x.Item != nil {
				// Whether it removes one depends on the item's count.
				if parts := x.From.Parts; byModel && len(parts) == 2 && s.addViaMember(parts[0].Name, parts[1].Name, x.Item.Name) {
					break
				}
				s.addMember(x.From.Parts[len(x.From.Parts)-1].Name, x.Item.Name)
			}
		case *syntax.Ref:
			// An effect's target (model.ws, p.roll) names, sets nothing.
			inPath[x.Name] = true
			if x.Member != nil {
				inPath[x.Member] = true
			}
		case *syntax.Param:
			inPath[x.Name] = true // a parameter declared, not set
			if x.Type != nil {
				inPath[x.Type] = true
			}
		case *syntax.Path:
			// set model.stats.cl reads the fields on its way (the one
			// written aside; stats on its way to a characteristic is not
			// a read of every one, stats.go).
			for i, part := range x.Parts[1:] {
				if part.Name == statsWhole && i+2 < len(x.Parts) {
					continue
				}
				viaOf := i == 0 || i == 1 && x.Parts[1].Name == statsWhole
				if !written[part] && !(byModel && viaOf && s.addViaField(x.Parts[0].Name, part.Name)) {
					s.addField(part.Name)
				}
			}
			for i, part := range x.Parts {
				if i > 0 || len(x.Parts) > 1 {
					inPath[part] = true
				}
			}
		case *syntax.Ident:
			// A path's first name, a role, a name declared: more than is
			// read, never less.
			s.add(x.Name)
			if byModel && !inPath[x] {
				s.assigned.add(s.slots, x.Name) // may be set here
			}
		case *syntax.Str:
			placeholderReads(x.Raw, s)
		default:
			if k := calleeKey(n); k != "" {
				calls = append(calls, k)
				if byModel {
					*sites = append(*sites, readSiteOf(k, n, s.slots))
				}
			}
		}
		return true
	})
	return calls
}

// exprReads adds what a checked expression reads: its identifiers (a
// function's body is inlined into it, reading only its parameters and the
// globals; a function not inlined runs in a frame of its own), natural.X
// and rolled.X as reads of X's dice alone, and the fields it names. One
// that reads the whole environment ($env), or one not compiled, reads
// everything; a field read by a name known only at run time (m[f],
// get(m, f)) or a value shown whole (string(m), toJSON(m)), every field.
func exprReads(e *syntax.Expr, s *nameSet, calls *[]string) { exprReadsBy(e, s, calls, false) }

// exprReadsBy is exprReads, by model when byModel (bymodel.go).
func exprReadsBy(e *syntax.Expr, s *nameSet, calls *[]string, byModel bool) {
	if e.Program == nil {
		s.setAll()
		return
	}
	nodeReadsBy(e.Program.Node(), s, calls, byModel)
}

// nodeReads is exprReads of a tree, adding to calls the functions and
// lookup tables of the rules it calls ("f:id": those not inlined).
func nodeReads(root ast.Node, s *nameSet, calls *[]string) { nodeReadsBy(root, s, calls, false) }

// nodeReadsBy is nodeReads; byModel, a droppable field read of a
// variable of the frame (directly, or through the lets of inlined
// functions that hold it) goes to s.via (bymodel.go).
func nodeReadsBy(root ast.Node, s *nameSet, calls *[]string, byModel bool) {
	var held func(ast.Node) string // the variable of the frame a node is, or ""
	if byModel {
		held = frameVariable(root)
	}
	tables := map[ast.Node]bool{} // natural and rolled, read as natural.X
	// "item" in x.field asks only whether field holds the item.
	membership := map[ast.Node]bool{}
	ast.Find(root, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		if !ok || b.Operator != "in" && b.Operator != "not in" {
			return false
		}
		item, isStr := b.Left.(*ast.StringNode)
		m, isMember := b.Right.(*ast.MemberNode)
		if !isStr || !isMember || m.Method {
			return false
		}
		if field, ok := m.Property.(*ast.StringNode); ok {
			if held == nil || !s.addViaMember(held(m.Node), field.Value, item.Value) {
				s.addMember(field.Value, item.Value)
			}
			membership[m] = true
		}
		return false
	})
	// x.stats.cl reads cl (of x), not every characteristic (stats.go).
	navigated := statsNavigated(root)
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.MemberNode:
			key, isStr := n.Property.(*ast.StringNode)
			if !isStr {
				// A struct's field is fetched by a text: an index that
				// is a number reads none.
				if !indexable(n.Node.Type()) && !isNumber(n.Property.Type()) {
					s.setAllFields()
				}
				return false
			}
			if navigated[n] {
				return false
			}
			object := n.Node
			if st := statsMember(object); st != nil && !n.Method {
				object = st.Node
			}
			if !membership[n] && (held == nil || n.Method || !s.addViaField(held(object), key.Value)) {
				s.addField(key.Value)
			}
			if id, ok := n.Node.(*ast.IdentifierNode); ok && !n.Method {
				switch id.Value {
				case dsl.GlobalNatural:
					s.addNatural(key.Value)
					tables[id] = true
				case dsl.GlobalRolled:
					s.addRolled(key.Value)
					tables[id] = true
				}
			}
		case *ast.CallNode:
			if id, ok := n.Callee.(*ast.IdentifierNode); ok {
				*calls = append(*calls, "f:"+id.Value)
			}
			builtinReads(n, s, calls, held)
		case *ast.BuiltinNode:
			if n.Map != nil { // folded by the optimizer: Walk skips it
				nodeReads(n.Map, s, calls)
			}
			if !fieldSafeBuiltin(n) {
				s.setAllFields()
			}
		}
		return false
	})
	ast.Find(root, func(n ast.Node) bool {
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

// increment is N of `set a.b.f = a.b.f + N` (or - N), with the object
// a.b: what it reads but the field f; nil for another set.
func increment(st *syntax.Set) ast.Node {
	if st.Target == nil || len(st.Target.Parts) < 2 || st.Value == nil || st.Value.Program == nil {
		return nil
	}
	b, ok := st.Value.Program.Node().(*ast.BinaryNode)
	if !ok || b.Operator != "+" && b.Operator != "-" {
		return nil
	}
	m, ok := b.Left.(*ast.MemberNode)
	if !ok || !samePath(m, st.Target.Parts) {
		return nil
	}
	return &ast.SequenceNode{Nodes: []ast.Node{m.Node, b.Right}}
}

// samePath reports whether n is the member chain parts[0].parts[1]….
func samePath(n ast.Node, parts []*syntax.Ident) bool {
	last := len(parts) - 1
	if last == 0 {
		id, ok := n.(*ast.IdentifierNode)
		return ok && id.Value == parts[0].Name
	}
	m, ok := n.(*ast.MemberNode)
	if !ok || m.Method || m.Optional {
		return false
	}
	key, ok := m.Property.(*ast.StringNode)
	return ok && key.Value == parts[last].Name && samePath(m.Node, parts[:last])
}

// fieldSafeBuiltin reports whether a call of one of expr's built-ins
// reads no field but through the expressions it is given: those that
// could read a struct's fields by a name given at run time, or show a
// value whole, are safe only on plain values, lists and maps.
func fieldSafeBuiltin(n *ast.BuiltinNode) bool {
	switch n.Name {
	case "string", "toJSON":
		for _, a := range n.Arguments {
			if !plainType(a.Type()) {
				return false
			}
		}
	case "get", "keys", "values", "toPairs":
		return len(n.Arguments) > 0 && indexable(n.Arguments[0].Type())
	}
	return true
}

// indexable reports whether a value of type t is read by index or key
// (a list, a map, a text), not by a field's name.
func indexable(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		return true
	}
	return false
}

// isNumber reports whether t is a whole or real number.
func isNumber(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// plainType reports whether values of type t hold no struct: numbers,
// text, flags, and lists and maps of them.
func plainType(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	case reflect.Slice, reflect.Array:
		return plainType(t.Elem())
	case reflect.Map:
		return plainType(t.Key()) && plainType(t.Elem())
	}
	return false
}

// placeholderReads adds the names and fields of each {placeholder} of a
// text (a prompt's, a title's: lookupPath reads a.b.c, the frame's a and
// the fields b and c).
func placeholderReads(raw string, s *nameSet) {
	for parts := range placeholderPaths(raw) {
		for k, part := range parts {
			if part == "" {
				continue
			}
			switch {
			case k == 0:
				s.add(part)
			case part == statsWhole && k+1 < len(parts) && parts[k+1] != "":
				// on its way to a characteristic (stats.go)
			default:
				s.addField(part)
			}
		}
	}
}

// placeholderPaths yields the path of each {placeholder} in a text, split
// at its dots and each part trimmed ({ a.b } is a, b); a brace left open
// runs to the end of the text.
func placeholderPaths(raw string) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for {
			i := strings.IndexByte(raw, '{')
			if i < 0 {
				return
			}
			raw = raw[i+1:]
			j := strings.IndexByte(raw, '}')
			if j < 0 {
				j = len(raw)
			}
			parts := strings.Split(raw[:j], ".")
			for k := range parts {
				parts[k] = strings.TrimSpace(parts[k])
			}
			if !yield(parts) {
				return
			}
		}
	}
}

// lastItems are the levels (as bits) whose for each runs its last item.
func lastItems(levels []ckLevel) uint64 {
	var last uint64
	for k := range min(len(levels), 64) {
		if l := &levels[k]; l.loopVar != "" && l.loop.index >= len(l.loop.items)-1 {
			last |= 1 << k
		}
	}
	return last
}
