package interpreter

// This file runs `reroll any`: a re-roll of any single roll, test or
// table roll (Future Sight, Misfortune), offered to the player as the roll
// is made and bounded by its `once per PERIOD`.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// anyRerollAsk asks whether (or which dice) an effect re-rolls the roll:
// the choice reroll_any keyed by key. It reports whether it does.
type anyRerollAsk func(ef *effect, key string) (bool, error)

// offerAnyReroll offers the re-rolls of any roll in force on a roll just
// made, seen as `roll`. Each whose when holds (for a feature's, for some
// model or weapon holding it, in state order) and whose once per period
// is not spent asks the player; the first yes is the re-roll, and spends
// its once. A roll another effect has re-rolled is not offered: the
// callers do not call this then, as a dice is re-rolled once.
func (r *runner) offerAnyReroll(f *frame, seen *dsl.RollSeen, ask anyRerollAsk) (*effect, error) {
	list := r.p.anyRerolls
	if len(list) == 0 {
		return nil, nil
	}
	oldRoll, hadRoll := f.get("roll")
	oldHolder, hadHolder := f.get("holder")
	defer func() {
		restoreEnv(f, "roll", oldRoll, hadRoll)
		restoreEnv(f, "holder", oldHolder, hadHolder)
	}()
	f.set("roll", seen)
	for _, ef := range list {
		if r.running[ef] {
			continue
		}
		rr := ef.info.Item.(*syntax.Reroll)
		holders := []any{nil}
		if ef.info.Role == dsl.RoleAny && ef.info.Feature != nil {
			if !r.anyHolderAt(ef) {
				continue // the common case, made cheap: every roll asks
			}
			holders = r.candidates(ef.info.Feature.Kind, ef.info.Feature.ID.Name)
		}
		for _, h := range holders {
			if h != nil {
				f.set("holder", h)
			}
			if rr.When != nil {
				ok, err := r.evalBool(f, rr.When)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
			}
			if du := r.onceEntry(ef, h); du != nil && r.onceSpent(du) {
				continue
			}
			key := ownerKey(ef) + "." + seen.Name
			if m, ok := h.(*state.Model); ok && len(holders) > 1 {
				key = ownerKey(ef) + "." + m.ID + "." + seen.Name
			}
			yes, err := ask(ef, key)
			if err != nil {
				return nil, err
			}
			if yes {
				r.useOnce(ef, f, h)
				return ef, nil
			}
		}
	}
	return nil, nil
}

func restoreEnv(f *frame, name string, old any, had bool) {
	if had {
		f.set(name, old)
	} else {
		f.unset(name)
	}
}

// askAnyReroll asks a yes or no: whether the effect re-rolls a single
// roll (by default, whether its where holds; no without one: the re-roll
// is the player's to spend).
func (r *runner) askAnyReroll(f *frame, pos lexerPos, where span, name, shown string) anyRerollAsk {
	return func(ef *effect, key string) (bool, error) {
		def, err := r.anyRerollDefault(f, ef)
		if err != nil {
			return false, err
		}
		req := &ChoiceRequest{Name: dsl.AnyRerollChoice, Key: key, Rule: ef.owner, Default: def,
			Prompt: fmt.Sprintf("%s: re-roll %s (%s)?", titleOf(ef.owner), name, shown)}
		v, err := r.ask(f, req, pos, where)
		if err != nil {
			return false, err
		}
		yes, _ := v.(bool)
		return yes, nil
	}
}

// anyRerollPossible reports whether a re-roll of any roll could be
// offered in this state: one of a rule, or of a feature some model (or
// weapon) holds. Rolls and tests are then not decided by their chances,
// as the player may re-roll them.
func (r *runner) anyRerollPossible() bool {
	for _, ef := range r.p.anyRerolls {
		if ef.info.Role != dsl.RoleAny || ef.info.Feature == nil || r.anyHolderAt(ef) {
			return true
		}
	}
	return false
}

// anyHolder reports whether some model (or weapon) of the state holds the
// feature of a scoped effect, without building the list: it is asked at
// every roll.
func (r *runner) anyHolder(ef *effect) bool {
	if r.st == nil {
		return false
	}
	kind, id := ef.info.Feature.Kind, ef.info.Feature.ID.Name
	granted := ef.grants // p.grants[kind][id], found at Compile
	if len(granted) == 0 && kind != "trait" {
		// Nothing grants it: a model holds it if its list says so
		// (stdlib.Listed), read here without asking per model which list.
		listed := listedBy(kind)
		if listed == nil {
			return false
		}
		for _, g := range r.st.Gangs {
			for _, m := range g.Models {
				if m != nil && slices.Contains(listed(m), id) {
					return true
				}
			}
		}
		return false
	}
	for _, g := range r.st.Gangs {
		for _, m := range g.Models {
			if kind != "trait" {
				if ok, _ := r.holdsGranted(m, kind, id, granted); ok {
					return true
				}
				continue
			}
			for _, w := range m.Weapons {
				if ok, _ := r.holdsGranted(w, kind, id, granted); ok {
					return true
				}
			}
		}
	}
	return false
}

// poolAnyReroll offers the re-rolls of any roll in force on a pool: the
// player names the dice to re-roll (by position; by default all of them
// if the effect's where holds, else none), among those no other effect
// re-rolled. It reports whether any die was.
func (r *runner) poolAnyReroll(p *pool, f *frame, s *syntax.Roll, value any, marked map[int]bool) (bool, error) {
	if len(p.natural) == 0 || !r.anyRerollPossible() {
		return false, nil
	}
	var free []int
	for i := range p.natural {
		if !marked[i] {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return false, nil
	}
	seen := &dsl.RollSeen{Name: p.name, In: f.proc, Pool: true, Dice: slices.Clone(p.natural)}
	for _, v := range p.natural {
		seen.Natural += v
	}
	var chosen []int
	ef, err := r.offerAnyReroll(f, seen, func(ef *effect, key string) (bool, error) {
		var shown []string
		for _, i := range free {
			shown = append(shown, fmt.Sprintf("%d) %s", i+1, p.show(i)))
		}
		def := []int{}
		if yes, err := r.anyRerollDefault(f, ef); err != nil {
			return false, err
		} else if yes {
			for _, i := range free {
				def = append(def, i+1)
			}
		}
		req := &ChoiceRequest{Name: dsl.AnyRerollChoice, Key: key, Rule: ef.owner, Default: def,
			Prompt: fmt.Sprintf("%s: which dice of %s to re-roll, of %s? (positions, or none)", titleOf(ef.owner), p.name, strings.Join(shown, ", "))}
		pos, err := r.askDice(f, req, s, func(v any) ([]int, error) { return dicePositions(v, free) })
		chosen = pos
		return len(pos) > 0, err
	})
	if err != nil || ef == nil {
		return false, err
	}
	var text []string
	sort.Ints(chosen)
	for _, i := range chosen {
		before := p.show(i)
		v, face, err := r.rollPoolDie(p, f)
		if err != nil {
			return false, r.diceErrorAt(f, s, err)
		}
		p.natural[i] = v
		if p.d.Symbolic() {
			p.faces[i] = face
		}
		text = append(text, fmt.Sprintf("die %d: %s → %s", i+1, before, p.show(i)))
	}
	return true, r.logLazy(f, func() *Event {
		return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: p.name,
			Text: fmt.Sprintf("%s: re-rolls %s: %s", titleOf(ef.owner), p.name, strings.Join(text, ", "))}
	})
}

// anyRerollDefault is the default answer to a re-roll of any roll: its
// where, evaluated with the roll (and holder) bound, or no.
func (r *runner) anyRerollDefault(f *frame, ef *effect) (bool, error) {
	where := ef.info.Item.(*syntax.Reroll).Where
	if where == nil {
		return false, nil
	}
	return r.evalBool(f, where)
}

// listedBy is the list of a model's features of a kind (stdlib.Listed
// with the kind decided once, for a loop over models), nil for a kind no
// model lists.
func listedBy(kind string) func(m *state.Model) []string {
	switch kind {
	case "skill":
		return func(m *state.Model) []string { return m.Skills }
	case "power":
		return func(m *state.Model) []string { return m.Powers }
	case "condition":
		return func(m *state.Model) []string { return m.Conditions }
	}
	return nil
}
