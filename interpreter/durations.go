package interpreter

// This file keeps what lasts until a period ends: ids added `until end of
// PERIOD` and effects used `once per PERIOD`, as battle.durations in the
// state, and ends them when an event declared `ends PERIOD` is signalled.

import (
	"fmt"
	"reflect"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// addUntil adds an id to a list and, if it was not there, records that it
// goes when the period ends.
func (r *runner) addUntil(s *syntax.Add, f *frame) error {
	obj := f.value(s.To.Parts[0].Name)
	field, holder, err := fieldOf(obj, s.To.Parts[1:])
	if err != nil {
		return r.errorAt(f, diag.CodeRunState, point(s.Pos), err)
	}
	du := &state.Duration{Period: s.Until.Period.Name, Item: s.Item.Name, Field: s.To.Parts[len(s.To.Parts)-1].Name}
	switch h := holder.(type) {
	case *state.Model:
		du.Model = h.ID
	case *state.Gang:
		du.Gang = h.ID
	case *state.Battle:
	default:
		return r.errorAt(f, diag.CodeRunState, stmtSpan(s), fmt.Errorf("until end of %s: only a list of a model, a gang or the battle can hold an id for a period, not %s", du.Period, s.To))
	}
	before := field.Len()
	if err := r.listEdit(f, nil, s.To, s.Item.Name, true, s.Pos); err != nil {
		return err
	}
	if field, _, _ = fieldOf(obj, s.To.Parts[1:]); field.Len() == before {
		return nil // it was there already: it stays as it was
	}
	r.st.Battle.Durations = append(r.st.Battle.Durations, du)
	return nil
}

// usedKey names an effect in battle.durations.
func usedKey(ef *effect) string {
	kind := ""
	switch it := ef.info.Item.(type) {
	case *syntax.Modify:
		kind = "modify"
	case *syntax.Reroll:
		kind = "reroll"
	case *syntax.ExtraDice:
		kind = "extra_dice"
	case *syntax.Override:
		kind = "override"
	case *syntax.Hook:
		kind = it.Timing
	case *syntax.On:
		kind = "on"
	}
	return ef.info.Owner + ": " + kind + " " + ef.info.Target
}

// useOnce reports whether an effect limited to once per period may apply
// now for holder (nil for an effect no one holds: once overall), and if
// so records it as used.
func (r *runner) useOnce(ef *effect, f *frame, holder any) bool {
	du := r.onceEntry(ef, holder)
	if du == nil {
		return true
	}
	if r.onceSpent(du) {
		_ = r.logLazy(f, func() *Event {
			return &Event{Kind: EventSkip, Rule: ef.owner, Text: fmt.Sprintf("%s: already used this %s", titleOf(ef.owner), du.Period)}
		})
		return false
	}
	r.st.Battle.Durations = append(r.st.Battle.Durations, du)
	return true
}

// onceEntry is the record of an effect's use once per period by holder,
// nil for an effect with no `once per`.
func (r *runner) onceEntry(ef *effect, holder any) *state.Duration {
	once := dsl.OnceOf(ef.info.Item)
	if once == nil {
		return nil
	}
	du := &state.Duration{Period: once.Period.Name, Used: usedKey(ef)}
	switch h := holder.(type) {
	case *state.Model:
		du.Model = h.ID
	case *state.Gang:
		du.Gang = h.ID
	case *state.Weapon:
		// A weapon's use is its bearer's, and names the weapon: two
		// weapons of one trait are each used once.
		if m := r.bearer(h); m != nil {
			du.Model = m.ID
		}
		du.Used += " (" + h.ID + ")"
	}
	return du
}

// onceSpent reports whether the state records the use du describes.
func (r *runner) onceSpent(du *state.Duration) bool {
	for _, x := range r.st.Battle.Durations {
		if x != nil && x.Used == du.Used && x.Period == du.Period && x.Model == du.Model && x.Gang == du.Gang {
			return true
		}
	}
	return false
}

// endPeriod ends what lasts until the end of the period an event ends:
// entries held by a model end only when the event names that model, if
// it has a model parameter.
func (r *runner) endPeriod(ev *syntax.Event, args callArgs, f *frame) error {
	var named map[string]bool
	for i, p := range ev.Params {
		if p.TypeName() != "model" {
			continue
		}
		if named == nil {
			named = map[string]bool{}
		}
		if m, ok := args.vals[i].(*state.Model); ok && m != nil {
			named[m.ID] = true
		}
	}
	period := ev.Ends.Name
	kept := r.st.Battle.Durations[:0:0]
	var ended []*state.Duration
	for _, du := range r.st.Battle.Durations {
		if du == nil || du.Period != period || (du.Model != "" && named != nil && !named[du.Model]) {
			kept = append(kept, du)
			continue
		}
		ended = append(ended, du)
	}
	r.st.Battle.Durations = kept
	if len(kept) == 0 {
		r.st.Battle.Durations = nil
	}
	for _, du := range ended {
		if du.Item == "" {
			continue
		}
		if err := r.removeEnded(du, f); err != nil {
			return err
		}
	}
	return nil
}

// removeEnded takes an id added until the end of a period out of its list.
func (r *runner) removeEnded(du *state.Duration, f *frame) error {
	var holder any = &r.st.Battle
	switch {
	case du.Model != "":
		m := r.st.Model(du.Model)
		if m == nil {
			return nil // the model has gone: so has what it held
		}
		holder = m
	case du.Gang != "":
		g := r.st.Gang(du.Gang)
		if g == nil {
			return nil
		}
		holder = g
	}
	v := reflect.ValueOf(holder).Elem()
	idx, ok := fieldIndex(v.Type(), du.Field)
	if !ok {
		return r.errorAt(f, diag.CodeRunState, span{}, fmt.Errorf("battle.durations: %s has no list %s", identify(holder), du.Field))
	}
	field := v.FieldByIndex(idx)
	list, ok := field.Interface().([]string)
	if !ok {
		return r.errorAt(f, diag.CodeRunState, span{}, fmt.Errorf("battle.durations: %s of %s is not a list of ids", du.Field, identify(holder)))
	}
	for i, x := range list {
		if x == du.Item {
			list = append(append([]string(nil), list[:i]...), list[i+1:]...)
			field.Set(reflect.ValueOf(list))
			return r.logLazy(f, func() *Event {
				return &Event{Kind: EventSet, Object: identify(holder), Field: du.Field, Old: du.Item,
					Text: fmt.Sprintf("%s %s: -%s (until the end of the %s)", display(holder), du.Field, du.Item, du.Period)}
			})
		}
	}
	return nil
}

// bearer is the model that carries a weapon (nil if none does).
func (r *runner) bearer(w *state.Weapon) *state.Model {
	for _, g := range r.st.Gangs {
		for _, m := range g.Models {
			for _, x := range m.Weapons {
				if x == w {
					return m
				}
			}
		}
	}
	return nil
}
