package interpreter

import (
	"maps"
	"math/bits"
	"reflect"
	"slices"
	"sync"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file says which fields of a model a checkpoint's hash may leave
// out when nothing later reads them (liveness.go): those that only the
// rules read (through expressions, paths and placeholders, which the
// liveness sees), and no Go code of the interpreter, the checker or the
// built-ins does. TestDroppableFieldsOnlyRulesRead keeps the list honest:
// it fails when Go code outside the state's own loading, saving, copying
// and hashing names one of them.
var droppableModelFields = []string{
	"XP", "Kills", "Advancements", "Improvements", "LastingInjuries", "LastingDamage", "Marks", "Enmities",
	"CapturedBy", "Captured", "Dead", "Removed", "SuccumbTest", "InRecovery", "Convalescence", "InRepair",
	"PrimarySets", "SecondarySets", "Joined", "Group", "FleshWounds", "WoundsLost", "HullPointsLost",
	"Terrain", "Aboard", "Fled", "Absent",
}

// attributedModelFields are fields of models that Go code reads too,
// but only where the liveness sees it (stats.go attributes each read to
// the statement or built-in that makes it): a model's skills. With the
// characteristics (every field of its stats, statsType), they are
// droppables too. TestGoReadsOfStatsAttributed keeps the attribution
// honest.
var attributedModelFields = []string{"Skills"}

var (
	modelType = reflect.TypeOf(state.Model{})
	statsType = reflect.TypeOf(state.Stats{})
	// modelStatsField is the index of Model.Stats.
	modelStatsField = func() int {
		f, _ := modelType.FieldByName("Stats")
		return f.Index[0]
	}()
)

// modelIDField is the index of Model.ID.
var modelIDField = func() int {
	f, _ := modelType.FieldByName("ID")
	return f.Index[0]
}()

// droppable is a model field a hash may leave out: its index in Model
// (in Stats for a characteristic: stat) and its name in the rules.
type droppable struct {
	index int
	name  string
	stat  bool
}

// field is d's declaration, in Model or in Stats.
func (d droppable) field() reflect.StructField {
	if d.stat {
		return statsType.Field(d.index)
	}
	return modelType.Field(d.index)
}

var droppables = sync.OnceValue(func() []droppable {
	var out []droppable
	for _, name := range slices.Concat(droppableModelFields, attributedModelFields) {
		f, ok := modelType.FieldByName(name)
		if !ok {
			panic("interpreter: no model field " + name)
		}
		out = append(out, droppable{index: f.Index[0], name: f.Tag.Get("expr")})
	}
	for i := range statsType.NumField() {
		if statsType.Field(i).Type.Kind() != reflect.Int {
			panic("interpreter: a characteristic not a whole number: " + statsType.Field(i).Name)
		}
		out = append(out, droppable{index: i, name: statsType.Field(i).Tag.Get("expr"), stat: true})
	}
	if len(out) > 64 {
		panic("interpreter: more droppable fields than a plan's bits")
	}
	return out
})

// statBits are the bits in droppables of the characteristics, by field
// index of Stats; statMask all of them.
var (
	statBits = sync.OnceValue(func() []int {
		bits := make([]int, statsType.NumField())
		for b, d := range droppables() {
			if d.stat {
				bits[d.index] = b
			}
		}
		return bits
	})
	statMask = sync.OnceValue(func() uint64 {
		var m uint64
		for _, b := range statBits() {
			m |= 1 << b
		}
		return m
	})
)

// Reads is what a question reads of a run's final state (see
// Program.QueryReads and Program.SummaryReads).
type Reads struct {
	s nameSet
	// focus: s is read of these models alone (the others' are not).
	focus []string
	// orderFree: the lists of ids the question reads are read as
	// multisets (a summary counts what a list gained and lost).
	orderFree bool
	// plans: the fieldPlans made for it (liveAt.plan)
	plans sync.Map
}

// SummaryReads is what odds.Summary reads of the state: every field the
// rules see but the details (fields tagged odds:"detail": experience,
// bookkeeping marks), of the focus models only when there are some.
func (p *Program) SummaryReads(focus []string) *Reads {
	r := &Reads{s: nameSet{slots: p.idx.Slots}, focus: focus, orderFree: true}
	for _, d := range droppables() {
		if d.field().Tag.Get("odds") != "detail" {
			r.s.addField(d.name)
		}
	}
	if len(focus) == 0 {
		// The battle's and gangs' fields too: none is left out anyway.
		r.focus = nil
	}
	return r
}

// QueryReads is what the query reads of the state, for
// Checkpoint.HashFor; nil for no query (see SummaryReads).
func (p *Program) QueryReads(q *dsl.Query) *Reads {
	if q == nil {
		return nil
	}
	r := &Reads{s: nameSet{slots: p.idx.Slots}}
	p.liveness().add(&r.s, q.Expr(), false)
	return r
}

// fieldPlan is how a checkpoint's hash reads the droppable fields of
// models: those left out (a bit per entry of droppables), lists that
// the rest of the run only asks whether they hold some items (or removes
// some from), which it hashes as the count of each of those items, by
// field index, and lists it keeps but hashes as multisets (sorted). A question that reads the fields of some models
// only (focus) has them hashed whole for those (focusKeep).
type fieldPlan struct {
	drop      uint64
	counts    map[int][]string
	focus     []string
	focusKeep uint64
	// sorted: lists of ids hashed in sorted order, as multisets, where
	// they are kept: nothing later reads their order (no read but asking
	// whether they hold an item) and the question reads them as multisets.
	sorted uint64
	// countKeys: the keys of counts, in order
	countKeys []int
	// model: how to hash a model the plan alone decides (statehash.go;
	// nil: field by field)
	model []modelOp
	// digest: a hash of drop, focusKeep, sorted and counts, which a
	// checkpoint's hash holds (planDigest)
	digest uint64
	// kept: the modelOps made for models variables reach (keptOps),
	// with model
	kept *keptOpsMade
}

// planKey is what a fieldPlan for a question depends on: the place,
// whether the limits are the question's own, and which droppable fields
// the battle's durations name.
type planKey struct {
	at        *liveAt
	counters  bool
	durations uint64
}

// plan is r.planFields at this place, made once for each question,
// limits and durations: a plan is the same wherever they are. The
// question keeps those made for it (and they go with it).
func (at *liveAt) plan(r *runner, question *Reads, counters bool) fieldPlan {
	key := planKey{at: at, counters: counters}
	if r.st != nil {
		for _, du := range r.st.Battle.Durations {
			for i, d := range droppables() {
				if du.Field == d.name {
					key.durations |= 1 << i
				}
			}
		}
	}
	plans := &at.plans
	if question != nil {
		plans = &question.plans
	}
	if v, ok := plans.Load(key); ok {
		return v.(fieldPlan)
	}
	live := &at.fields
	if at.byModel {
		live = &at.anyFields // and what the variables reach (bymodel.go)
	}
	plan := r.planFields(live, question, counters)
	plan.countKeys = slices.Sorted(maps.Keys(plan.counts))
	plan.digest = planDigest(plan)
	plan.model = modelOpsFor(plan)
	if plan.model != nil {
		plan.kept = new(keptOpsMade)
	}
	v, _ := plans.LoadOrStore(key, plan)
	return v.(fieldPlan)
}

// planDigest is a hash of what decides how plan hashes a model: what it
// leaves out, counts and sorts, and of which models it keeps the fields
// the question reads; 0 for a plan that changes nothing (a checkpoint's
// hash writes it, once, rather than every item counted at every hash).
func planDigest(plan fieldPlan) uint64 {
	if plan.drop == 0 && plan.focusKeep == 0 && plan.sorted == 0 && len(plan.counts) == 0 {
		return 0
	}
	h := getHasher()
	defer putHasher(h)
	h.u64(plan.drop)
	h.u64(plan.focusKeep)
	h.u64(plan.sorted)
	for _, i := range slices.Sorted(maps.Keys(plan.counts)) {
		h.u64(uint64(i))
		h.strs(plan.counts[i])
	}
	return h.sum()
}

// planFields is the fieldPlan at a checkpoint whose frames' reads (with
// what they call) are live, for a question that reads question. With
// counters (the question's own limits) no field is left out: a write to
// a field that nothing reads still counts against the limits of text
// and events as the value it replaces decides. (Under the default
// limits, configurations leave the counters out already.)
func (r *runner) planFields(live *nameSet, question *Reads, counters bool) fieldPlan {
	var plan fieldPlan
	if question == nil || question.s.allFields || live.allFields || counters {
		return plan
	}
	always := &r.p.liveness().always[mode(r.logging())]
	var items slotBits // the items asked of a field, for each in turn
	for i, d := range droppables() {
		if r.p.readsDroppable(live, d) || r.p.readsDroppable(always, d) {
			continue
		}
		if r.st != nil && durationNames(r.st, d.name) {
			continue // removed by name when a period ends
		}
		asked := r.p.readsDroppable(&question.s, d)
		if asked && question.orderFree && d.field().Type == reflect.TypeOf([]string(nil)) {
			plan.sorted |= 1 << i
		}
		if asked && len(question.focus) == 0 {
			continue
		}
		items = items[:0]
		for _, s := range []*nameSet{live, &question.s, always} {
			items.union(s.members[d.name])
		}
		switch n := items.count(); {
		case n == 0:
			plan.drop |= 1 << i
		case d.field().Type == reflect.TypeOf([]string(nil)):
			if plan.counts == nil {
				plan.counts = map[int][]string{}
			}
			names := make([]string, 0, n)
			for j, w := range items {
				for ; w != 0; w &= w - 1 {
					names = append(names, r.p.idx.Slots.Name(j*64+bits.TrailingZeros64(w)))
				}
			}
			plan.counts[d.index] = names
		default:
			continue // asked of something but a list of ids: keep it
		}
		if asked {
			plan.focusKeep |= 1 << i
		}
	}
	if plan.focusKeep != 0 {
		plan.focus = question.focus
	}
	return plan
}

// durationNames reports whether the battle's durations name field.
func durationNames(st *state.State, field string) bool {
	for _, du := range st.Battle.Durations {
		if du.Field == field {
			return true
		}
	}
	return false
}

// droppableBits is, by field index of Model, its bit in a set of
// droppables (-1 for the fields always hashed).
var droppableBits = sync.OnceValue(func() []int {
	bits := make([]int, modelType.NumField())
	for i := range bits {
		bits[i] = -1
	}
	for b, d := range droppables() {
		if !d.stat {
			bits[d.index] = b
		}
	}
	return bits
})
