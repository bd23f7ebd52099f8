package interpreter

// This file answers what the effects in force make of the state: the
// features a model or weapon holds (granted ones too), the value of a
// characteristic or weapon profile every rule reads (stat), and the
// conditions a holder is protected from (prevent). The runner is the
// state's Effects while it runs, so has_skill and its kin and stat ask it.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// maxValueDepth bounds how deep reading one value or holding one feature
// may nest through the conditions of effects (a grant whose when asks
// about another grant, a value whose modifier reads another value).
const maxValueDepth = 32

// valueKey is one question being answered: does x hold kind id, or what
// is x's field.
type valueKey struct {
	x          any
	kind, name string
}

// valueState is what a run keeps while answering: the questions being
// answered, so one that depends on itself stops.
type valueState struct {
	asking map[valueKey]bool
}

func (r *runner) valueState() *valueState {
	if r.values == nil {
		r.values = &valueState{asking: map[valueKey]bool{}}
	}
	return r.values
}

// Holds implements state.Effective.
func (r *runner) Holds(x any, kind, id string) (bool, error) { return r.holds(x, kind, id) }

// Stat implements state.Effective.
func (r *runner) Stat(x any, field string) (int, error) { return r.stat(x, field) }

// BoxedGangs implements dsl.GangsBoxer: the run's state's gangs, boxed
// once for the run.
func (r *runner) BoxedGangs() any { return r.gangs }

// holds reports whether x (a model or weapon) holds a feature: listed in
// the state, or granted by an effect in force. A grant that, through its
// conditions, depends on itself does not hold.
func (r *runner) holds(x any, kind, id string) (bool, error) {
	return r.holdsGranted(x, kind, id, r.p.grants[kind][id])
}

// holdsGranted is holds with the grants of the feature (kind, id) looked
// up by the caller, who asks of many holders in turn.
func (r *runner) holdsGranted(x any, kind, id string, list []*effect) (bool, error) {
	if stdlib.Listed(x, kind, id) {
		return true, nil
	}
	if len(list) == 0 {
		return false, nil
	}
	vs := r.valueState()
	key := valueKey{x, kind, id}
	if vs.asking[key] {
		return false, nil
	}
	if len(vs.asking) >= maxValueDepth {
		return false, fmt.Errorf("whether %s holds %s %s depends on more than %d other grants or values (the limit)", display(x), kind, id, maxValueDepth)
	}
	vs.asking[key] = true
	defer delete(vs.asking, key)
	for _, ef := range list {
		g := ef.info.Item.(*syntax.Grant)
		ok, err := r.heldBy(ef, g.When, x)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// heldBy reports whether an effect of a feature (grant, prevent) is in
// force for x: x holds the feature (a rule's effects are everyone's), and
// the effect's when holds with x as model (or weapon).
//
// A trait granted to a weapon sees the model that carries it as `model`;
// a model's feature granting a trait grants it to that model's weapons.
func (r *runner) heldBy(ef *effect, when *syntax.Expr, x any) (bool, error) {
	var bearer *state.Model
	if w, ok := x.(*state.Weapon); ok {
		bearer = r.st.Bearer(w)
	}
	if ft := ef.info.Feature; ft != nil {
		holder := x
		if bearer != nil && ft.Kind != "trait" {
			holder = bearer
		}
		if ok, err := r.holds(holder, ft.Kind, ft.ID.Name); err != nil || !ok {
			return false, err
		}
	}
	if when == nil {
		return !r.running[ef], nil
	}
	f := r.newFrame(ef.owner, ef.source, "")
	defer r.release(f)
	f.set(roleOf(x), x)
	if _, ok := x.(*state.Weapon); ok {
		f.set(dsl.ValueModel, bearer)
	}
	ok, restore, err := r.effectApplies(ef, when, f)
	restore()
	return ok, err
}

// roleOf is the name an effect on x's values or features sees x under.
func roleOf(x any) string {
	if _, ok := x.(*state.Weapon); ok {
		return dsl.ValueWeapon
	}
	return dsl.ValueModel
}

// stat is the value of x's field every rule reads: the state's, or an
// override's in force, plus the modifiers in force, kept within the
// limits of the characteristic for the model's kind.
func (r *runner) stat(x any, field string) (int, error) {
	base, err := stdlib.BaseStat(x, field)
	if err != nil {
		return 0, err
	}
	if !r.p.values {
		return base, nil
	}
	v := base
	role := roleOf(x)
	if vt, ok := r.p.valueTargets[role][field]; ok {
		target := vt.target
		vs := r.valueState()
		key := valueKey{x, "stat", field}
		if vs.asking[key] {
			return 0, fmt.Errorf("the %s of %s depends on itself: an effect on %s reads it", field, display(x), target)
		}
		if len(vs.asking) >= maxValueDepth {
			return 0, fmt.Errorf("the %s of %s depends on more than %d other values or grants (the limit)", field, display(x), maxValueDepth)
		}
		vs.asking[key] = true
		defer delete(vs.asking, key)
		f := r.newFrame(vt.rule, "", "")
		defer r.release(f)
		f.set(role, x)
		for _, ef := range r.p.override[target] {
			o := ef.info.Item.(*syntax.Override)
			ok, restore, err := r.effectApplies(ef, o.When, f)
			if err != nil {
				return 0, err
			}
			if ok {
				v, err = r.evalInt(f, o.Value)
				restore()
				if err != nil {
					return 0, err
				}
				break
			}
		}
		mod, _, err := r.modifiers(r.p.effectsOn(target), f, 0, "")
		if err != nil {
			return 0, err
		}
		v += mod
		if m, ok := x.(*state.Model); ok {
			v = r.clampStat(m, field, base, v)
		}
	}
	return v, nil
}

// clampStat keeps a model's changed value within the limits its
// characteristic declares for the model's kind. A state's own value
// outside them stands (a fighter's card may say so): effects cannot push
// the value past the limits, nor past what the state says.
func (r *runner) clampStat(m *state.Model, field string, base, v int) int {
	for _, ci := range r.p.idx.Characteristics {
		if ci.FieldName != field {
			continue
		}
		lim, ok := ci.Limits[m.Kind]
		if !ok {
			continue
		}
		lo, hi := min(lim.Worst, lim.Best, base), max(lim.Worst, lim.Best, base)
		v = min(max(v, lo), hi)
	}
	return v
}

// prevented finds the effect, if any, that keeps condition id from being
// added to model m.
func (r *runner) prevented(m *state.Model, id string) (*effect, error) {
	for _, ef := range r.p.prevents[id] {
		ok, err := r.heldBy(ef, ef.info.Item.(*syntax.Prevent).When, m)
		if err != nil || ok {
			if ok {
				return ef, nil
			}
			return nil, err
		}
	}
	return nil, nil
}

// candidates lists, in state order, the models (or, for traits, the
// weapons of the models) of the state that hold a feature: who an `as any`
// effect may apply for.
func (r *runner) candidates(kind, id string) []any {
	var out []any
	if r.st == nil {
		return nil
	}
	grants := r.p.grants[kind][id] // looked up once, not for every holder
	for _, g := range r.st.Gangs {
		for _, m := range g.Models {
			if kind == "trait" {
				for _, w := range m.Weapons {
					if ok, _ := r.holdsGranted(w, kind, id, grants); ok {
						out = append(out, w)
					}
				}
			} else if ok, _ := r.holdsGranted(m, kind, id, grants); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

func noRestore() {}

// effectApplies says whether an effect applies where f stands: for an
// effect scoped to its holder's role, the model or weapon in that role
// holds the feature (for `as any`: some model or weapon of the state
// does); and the effect's when holds (true when it has none). A scoped
// effect's expressions see `holder`, bound until restore is called.
func (r *runner) effectApplies(ef *effect, when *syntax.Expr, f *frame) (ok bool, restore func(), err error) {
	if r.running[ef] {
		return false, noRestore, nil
	}
	info := ef.info
	if info.Role == "" || info.Feature == nil {
		if when != nil {
			if ok, err := r.evalBool(f, when); err != nil || !ok {
				return false, noRestore, err
			}
		}
		return r.useOnce(ef, f, nil), noRestore, nil
	}
	kind, id := info.Feature.Kind, info.Feature.ID.Name
	h := holderTry{r: r, ef: ef, when: when, f: f}
	if info.Role != dsl.RoleAny {
		var x any
		if f.slots == ef.roleSlots { // its slot, found at Compile
			x, _ = f.getSlot(ef.roleSlot)
		} else {
			x = f.value(info.Role)
		}
		if x == nil {
			return false, noRestore, nil
		}
		held, err := r.holdsGranted(x, kind, id, ef.grants) // p.grants[kind][id], found at Compile
		if err != nil || !held {
			return false, noRestore, err
		}
		ok, err := h.try(x)
		return h.end(ok, err)
	}
	// as any: the models (or, for traits, their weapons) in state order
	// that hold the feature (candidates), asked one by one without
	// making their list.
	if r.st == nil {
		return false, noRestore, nil
	}
	if held, known := r.anyHeldKnown(ef); known && !held {
		return false, noRestore, nil // nobody holds it, for the whole run
	}
	grants := ef.grants // p.grants[kind][id]
	if len(grants) == 0 && kind != "trait" {
		// Nothing grants it: holdsGranted is stdlib.Listed, its kind
		// decided here once rather than for every model.
		if listed := listedBy(kind); listed != nil {
			for _, g := range r.st.Gangs {
				for _, m := range g.Models {
					if m != nil && slices.Contains(listed(m), id) {
						if ok, err := h.try(m); ok || err != nil {
							return h.end(ok, err)
						}
					}
				}
			}
		}
		return h.end(false, nil)
	}
	for _, g := range r.st.Gangs {
		for _, m := range g.Models {
			if kind != "trait" {
				if held, _ := r.holdsGranted(m, kind, id, grants); held {
					if ok, err := h.try(m); ok || err != nil {
						return h.end(ok, err)
					}
				}
				continue
			}
			for _, w := range m.Weapons {
				if held, _ := r.holdsGranted(w, kind, id, grants); held {
					if ok, err := h.try(w); ok || err != nil {
						return h.end(ok, err)
					}
				}
			}
		}
	}
	return h.end(false, nil)
}

// holderTry is effectApplies trying the holders of a scoped effect in
// turn: `holder` is bound to each, and the outer one is put back when
// the effect does not apply (or, where it does, by the restore returned).
type holderTry struct {
	r     *runner
	ef    *effect
	when  *syntax.Expr
	f     *frame
	bound bool // holder was set: old and had say what it was
	old   any
	had   bool
}

// try binds holder to x and says whether the effect applies for it.
func (h *holderTry) try(x any) (bool, error) {
	if !h.bound {
		h.old, h.had = h.f.get("holder")
		h.bound = true
	}
	h.f.set("holder", x)
	if h.when != nil {
		ok, err := h.r.evalBool(h.f, h.when)
		if err != nil || !ok {
			return false, err
		}
	}
	return h.r.useOnce(h.ef, h.f, x), nil
}

// end is effectApplies' answer: where the effect applies, a restore of
// holder for the caller; else holder restored now.
func (h *holderTry) end(ok bool, err error) (bool, func(), error) {
	if !h.bound {
		return false, noRestore, err
	}
	if ok && err == nil {
		f, old, had := h.f, h.old, h.had
		return true, func() { restoreEnv(f, "holder", old, had) }, nil
	}
	restoreEnv(h.f, "holder", h.old, h.had)
	return false, noRestore, err
}

// valueTarget is a field of models or weapons that some effect overrides
// or modifies: its effects' key ("model.ws") and the rule its frame
// names, made once rather than at every read of the field.
type valueTarget struct{ target, rule string }

// valueTargetsOf finds the value targets among the keys of effects.
func valueTargetsOf(keyed ...map[string][]*effect) map[string]map[string]valueTarget {
	out := map[string]map[string]valueTarget{}
	for _, m := range keyed {
		for target, list := range m {
			role, field, ok := strings.Cut(target, ".")
			if !ok || len(list) == 0 || (role != dsl.ValueModel && role != dsl.ValueWeapon) {
				continue
			}
			if out[role] == nil {
				out[role] = map[string]valueTarget{}
			}
			out[role][field] = valueTarget{target: target, rule: "value " + target}
		}
	}
	return out
}
