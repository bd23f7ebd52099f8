package dsl

// This file checks characteristic declarations: how each is tested, and the limits that bound it.

import (
	"reflect"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// CharInfo is a checked characteristic: how it is tested and bounded.
type CharInfo struct {
	Decl    *syntax.Characteristic
	ID      string
	Title   string
	Dice    *DiceInfo // nil for a characteristic that is never tested
	AtLeast bool      // pass when the modified roll is at least the value; else at most
	Target  bool      // a target number (7+): lower is better
	// Naturals maps a natural roll to a fixed outcome (true = pass).
	Naturals  map[int]bool
	Field     []int // index of the field in state.Stats
	FieldName string
	Limits    map[string]Limits // by kind of model
}

// Limits are the worst and best values a characteristic may take.
type Limits struct{ Worst, Best int }

var statsType = reflect.TypeOf(state.Stats{})

func (c *checker) checkCharacteristics() {
	for _, d := range c.all {
		ch, ok := d.(*syntax.Characteristic)
		if !ok {
			continue
		}
		info := c.charInfo(ch)
		if info != nil && c.lookup(nsCore, ch.ID.Name) == ch {
			c.idx.Characteristics[ch.ID.Name] = info
		}
	}
}

func (c *checker) charInfo(ch *syntax.Characteristic) *CharInfo {
	info := &CharInfo{Decl: ch, ID: ch.ID.Name, Title: ch.Title.Value(), FieldName: ch.ID.Name,
		Naturals: map[int]bool{}, Limits: map[string]Limits{}}
	var check *syntax.CharCheck
	fieldAt := ch.ID
	for _, it := range ch.Items {
		switch it := it.(type) {
		case *syntax.CharCheck:
			if check != nil {
				c.diags.errorf(diag.CodeCharDefinition, diag.RangeOf(it.Pos, it.EndPos), "characteristic %s has two check lines", ch.ID.Name)
			}
			check = it
		case *syntax.CharNatural:
			info.Naturals[it.Roll.Value()] = it.Outcome == "passes"
		case *syntax.CharTarget:
			info.Target = true
		case *syntax.CharField:
			info.FieldName, fieldAt = it.Field.Name, it.Field
		case *syntax.CharLimits:
			c.isKind(it.Kind)
			info.Limits[it.Kind.Name] = Limits{Worst: it.Worst.Value(), Best: it.Best.Value()}
		}
	}
	f, ok := fieldByTag(statsType, info.FieldName)
	if !ok {
		d := c.diags.errorf(diag.CodeUnknownRef, identRange(fieldAt), "stats have no field %s", info.FieldName)
		if s := diag.Suggestion(info.FieldName, fieldNames(statsType)); s != "" {
			d.Summary += "; " + s
			d.Detail = "A characteristic named differently from its stats field needs `field NAME`."
		}
	} else {
		info.Field = f.Index
	}
	if check == nil {
		// Not tested (Movement, Wounds): it only has limits.
		if info.Field == nil {
			return nil
		}
		return info
	}
	info.AtLeast = check.Mode == "at_least"
	if decl, ok := c.lookup(nsCore, check.Dice.Name).(*syntax.Dice); ok {
		info.Dice = c.diceInfo(decl, nil)
		if info.Dice != nil && info.Dice.Symbolic() {
			c.diags.errorf(diag.CodeCharDefinition, identRange(check.Dice), "a characteristic is tested with numeric dice; %s has symbols", check.Dice.Name)
		}
	} else {
		c.unknown(identRange(check.Dice), "dice", check.Dice.Name, c.ofKind("dice"))
	}
	if info.Dice == nil || info.Field == nil {
		return nil
	}
	return info
}

// Value is the model's current value of the characteristic.
func (ci *CharInfo) Value(m *state.Model) int {
	return int(reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).Int())
}

// SetValue sets the model's value of the characteristic.
func (ci *CharInfo) SetValue(m *state.Model, v int) {
	reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).SetInt(int64(v))
}

// LimitsFor returns the limits that apply to a model: its kind's.
func (ci *CharInfo) LimitsFor(m *state.Model) (Limits, bool) {
	l, ok := ci.Limits[m.Kind]
	return l, ok
}

// Changed computes the value after improving (or worsening) by n. ok is
// false when the change would pass the limit for the model's kind, in
// which case the rules say it does not happen at all.
func (ci *CharInfo) Changed(m *state.Model, improve bool, n int) (int, bool) {
	v := ci.Value(m)
	step := n
	if ci.Target {
		step = -n // a lower target number is better
	}
	if !improve {
		step = -step
	}
	next := v + step
	lim, ok := ci.LimitsFor(m)
	if !ok {
		return next, true
	}
	lo, hi := min(lim.Worst, lim.Best), max(lim.Worst, lim.Best)
	if next < lo || next > hi {
		return v, false
	}
	return next, true
}
