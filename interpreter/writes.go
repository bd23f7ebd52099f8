package interpreter

// This file finds which fields of the state the rest of a run may still
// write at a checkpoint, by name, as liveness.go finds what it may read:
// so that exact odds can end a run whose question nothing later can
// change (decided.go).
//
// What is written is over-approximated, never under. A statement writes
// the field its `set`, `add` or `remove` path ends in (whatever the
// object: `set gang.bottled` writes every gang's bottled), an `add …
// until` also the battle's durations, an `improve` or `worsen` the
// characteristic's field and stats; a list edited through a plain
// variable, anything. It writes, besides, what the procedures, tables,
// actions and event handlers it calls write with all they call (a
// summary of each, found by a fixpoint; a `perform` of an action named at
// run time calls any), and an effect writes where it fires: one on a
// procedure, an action or a table as that runs (so with its summary, and
// while one of its frames runs: its after hooks), an `on` handler at each
// `signal` of its event, the others (on characteristics' tests, values,
// re-rolls of any roll) anywhere. Expressions write nothing: no built-in
// writes the state (TestGoWritesAreListed keeps Go code that writes a
// field of the state listed in goWrittenFields, which count as written
// anywhere). Checkpoint.Decided narrows these by object
// (writesbymodel.go) and leaves out the effects that cannot fire
// (writesgated.go); the ifs the liveness decides (guards.go) use them as
// they are.

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// goWrittenFields are the fields of the state (by Go name, whatever the
// struct) that Go code running rules writes other than as a rule's `set`,
// `add`, `remove`, `improve` or `worsen` says (found by
// TestGoWritesAreListed; some are names of other types' fields, listed to
// be safe): they count as written anywhere, so a question that reads one
// is never decided early.
var goWrittenFields = []string{
	"Base", "Battle", "Durations", "Effects", "Field", "Gang", "Int", "Kind", "Model",
	"Name", "State", "Type", "Used",
}

// goWrittenNames are goWrittenFields by their names in the rules.
var goWrittenNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	var walk func(t reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() != stateType.PkgPath() {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			for _, g := range goWrittenFields {
				if f.Name == g {
					out[ruleName(f)] = true
				}
			}
			walk(f.Type)
		}
	}
	walk(stateType)
	return out
})

// ruleName is a state field's name in the rules.
func ruleName(f reflect.StructField) string {
	if n := f.Tag.Get("expr"); n != "" && n != "-" {
		return n
	}
	return strings.ToLower(f.Name)
}

// writes is a program's write summaries, found once: what each
// procedure ("p:id"), table ("t:id"), action ("a:id"), function ("f:id")
// and event's handlers ("e:id") write with all they call, and the
// effects on each procedure, action or table (owner).
type writes struct {
	slots  *dsl.Slots
	called map[string]*nameSet
	owner  map[string]*nameSet
	// always: what effects that may fire anywhere write; every: what any
	// effect writes (a frame of no known owner).
	always, every nameSet
	tables        map[*syntax.Block]string // a row's body, to its table
	blocks        sync.Map                 // *syntax.Block → []nameSet (suffixes)
	ats           sync.Map                 // levels → *nameSet

	// By object (writesbymodel.go), found on first use: each callable's
	// writeSummary, the names effects may set, each block's suffixes and
	// what is written at each place. calls: what each key calls, by name.
	byModelOnce sync.Once
	calls       map[string][]string
	ownerKeys   map[string][]string // the effects on each procedure, action or table but start hooks
	grants      map[string]map[string][]*effect
	gated       []gatedEffect     // by bit
	gatedBit    map[string]int    // effect key → bit
	gatedBy     map[feature][]int // a feature → the bits of its effects
	byModel     map[string]*writeSummary
	effectsSet  slotBits
	modelBlocks sync.Map                // *syntax.Block → []suffixByModel
	atsByModel  map[string]*placeWrites // by place and loops at their last item
	atsMu       sync.RWMutex
}

// writes is the program's, made on first use.
func (p *Program) writes() *writes {
	p.writesOnce.Do(func() { p.wr = newWrites(p) })
	return p.wr
}

func newWrites(p *Program) *writes {
	idx := p.idx
	w := &writes{slots: idx.Slots, called: map[string]*nameSet{}, owner: map[string]*nameSet{}, tables: p.liveness().tables}
	calls := map[string][]string{}
	collect := func(key string, nodes ...any) {
		s := w.set(key)
		for _, n := range nodes {
			calls[key] = append(calls[key], writesOf(idx, n, s)...)
		}
	}
	actions := eachCallable(idx, collect)
	// Effects: with what they act on (effectKeys), and, for a procedure,
	// an action or a table, as its own (they run in its frames).
	owners := map[string][]string{}
	for i, e := range idx.Effects {
		key := "x:" + strconv.Itoa(i)
		collect(key, e.Item)
		w.every.unionFields(w.called[key])
		for _, k := range effectKeys(idx, e) {
			w.set(k) // an event's handlers have no summary but theirs
			calls[k] = append(calls[k], key)
		}
		target, _, _ := strings.Cut(e.Target, ".")
		// A hook before (or instead of) a procedure's or action's body
		// has run in any frame whose body runs: with what calls it only.
		if e.Target != dsl.AnyRoll && (idx.Procedures[target] != nil || idx.Actions[target] != nil || idx.Tables[target] != nil) && !startHook(idx, e) {
			owners[target] = append(owners[target], key)
		}
		if e.TargetKind == "characteristic" || e.TargetKind == "value" {
			calls[anywhere] = append(calls[anywhere], key)
		}
	}
	w.set(anywhere)
	for k, cs := range calls {
		for i, c := range cs {
			if c == allActions {
				calls[k] = append(append(cs[:i:i], cs[i+1:]...), actions...)
				break
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for k, s := range w.called {
			before, all := s.fieldsCount(), s.allFields
			for _, c := range calls[k] {
				if o := w.called[c]; o != nil {
					s.unionFields(o)
				}
			}
			changed = changed || s.allFields != all || s.fieldsCount() != before
		}
	}
	// Every effect's writes with what it calls.
	for k, s := range w.called {
		if strings.HasPrefix(k, "x:") {
			w.every.unionFields(s)
		}
	}
	for target, keys := range owners {
		s := &nameSet{slots: w.slots}
		for _, k := range keys {
			s.unionFields(w.called[k])
		}
		w.owner[target] = s
	}
	w.always.slots = w.slots
	w.always.unionFields(w.called[anywhere])
	w.calls, w.ownerKeys, w.grants = calls, owners, p.grants
	return w
}

// byModelSummaries finds the summaries by object once.
func (w *writes) byModelSummaries(idx *dsl.Index) {
	w.byModelOnce.Do(func() { w.summariseByModel(idx, w.calls) })
}

// set is the summary of key, made empty on first use.
func (w *writes) set(key string) *nameSet {
	if w.called[key] == nil {
		w.called[key] = &nameSet{slots: w.slots}
	}
	return w.called[key]
}

// writesOf adds to s the fields node writes (see the file's comment) and
// returns what it calls ("p:id", "t:id", "a:id", "e:id", allActions).
func writesOf(idx *dsl.Index, node any, s *nameSet) []string {
	var calls []string
	// An add or remove writes one item of a field: by the field and
	// the item (intersects takes it as a write of the field for a
	// reader of the field, of that item for one that asks whether the
	// field holds an item).
	target := func(p *syntax.Path, item *syntax.Ident) {
		if p == nil || len(p.Parts) < 2 {
			// A list held by a variable may share its items with the
			// state's: anything.
			s.setAllFields()
			return
		}
		s.addMember(p.Parts[len(p.Parts)-1].Name, item.Name)
	}
	syntax.Inspect(node, func(n any) bool {
		switch x := n.(type) {
		case *syntax.Set:
			if x.Target != nil && len(x.Target.Parts) > 1 {
				s.addField(x.Target.Parts[len(x.Target.Parts)-1].Name)
			}
		case *syntax.Add:
			target(x.To, x.Item)
			if x.Until != nil {
				s.addField("durations")
			}
		case *syntax.Remove:
			target(x.From, x.Item)
		case *syntax.Change:
			s.addField("stats")
			if x.Char != nil {
				s.addField(x.Char.Name)
				if ci := idx.Characteristics[x.Char.Name]; ci != nil {
					s.addField(ci.FieldName)
				} else {
					s.setAllFields()
				}
			}
		default:
			if k := calleeKey(n); k != "" {
				calls = append(calls, k)
			}
		}
		return true
	})
	return calls
}

// add adds what node writes to s, with what it calls.
func (w *writes) add(idx *dsl.Index, s *nameSet, node any) {
	for _, c := range writesOf(idx, node, s) {
		if c == allActions {
			for k, o := range w.called {
				if strings.HasPrefix(k, "a:") {
					s.unionFields(o)
				}
			}
		} else if o := w.called[c]; o != nil {
			s.unionFields(o)
		}
	}
}

// suffixes are the writes of each block's statements from i on, with
// what they call (the last is empty: the block's end).
func (w *writes) suffixes(idx *dsl.Index, b *syntax.Block) []nameSet {
	if v, ok := w.blocks.Load(b); ok {
		return v.([]nameSet)
	}
	out := make([]nameSet, len(b.Stmts)+1)
	out[len(b.Stmts)].slots = w.slots
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = out[i+1].clone()
		w.add(idx, &out[i], b.Stmts[i])
	}
	v, _ := w.blocks.LoadOrStore(b, out)
	return v.([]nameSet)
}

// rest is what the rest of a run paused with these levels may write: the
// rest of every block running (for an enclosing if, step, call, apply or
// perform, from the statement after it; for a while or a for each, from
// the loop itself), the effects on the procedure, action or table of
// each frame (its after hooks, a table's whole declaration), and the
// effects that may fire anywhere. It depends on the blocks, their
// statements and their frames' owners alone, so it is found once per
// place.
func (w *writes) rest(idx *dsl.Index, levels []ckLevel) *nameSet {
	key := appendPlaceKey(make([]byte, 0, 16*len(levels)), levels)
	if v, ok := w.ats.Load(string(key)); ok {
		return v.(*nameSet)
	}
	s := w.restFrom(idx, levels, 0, 0)
	v, _ := w.ats.LoadOrStore(string(key), s)
	return v.(*nameSet)
}

// ownerWrites is what the effects on the procedure, action or table whose
// frame level first begins write (its hooks; a table's whole
// declaration), as rest has them.
func (w *writes) ownerWrites(first ckLevel) *nameSet {
	switch owner := first.f.proc; {
	case owner != "":
		if o := w.owner[owner]; o != nil {
			return o
		}
		return &nameSet{slots: w.slots}
	case w.tables[first.block] != "":
		return w.called["t:"+w.tables[first.block]]
	}
	return &w.every // a frame of no known owner
}
