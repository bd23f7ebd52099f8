package dsl

import (
	"reflect"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// AnyRoll is the target of `reroll any`: every roll, test and table roll
// of the rules, offered to the player as it is made.
const AnyRoll = "any"

// AnyRerollChoice names the choice a re-roll of any roll asks, keyed by
// the effect's owner and the roll: `reroll_any.future_sight.save`.
const AnyRerollChoice = "reroll_any"

// RollSeen is a roll as the when of `reroll any` sees it, as `roll`.
type RollSeen struct {
	Name    string       `expr:"name"`    // the roll's, test's or table's name
	In      string       `expr:"in"`      // the procedure, action or table it is made in
	Model   *state.Model `expr:"model"`   // the model tested, for a characteristic test; nil otherwise
	Test    bool         `expr:"test"`    // a characteristic test
	Passed  bool         `expr:"passed"`  // a test's outcome
	Pool    bool         `expr:"pool"`    // a pool of dice kept apart
	Value   int          `expr:"value"`   // the modified total of a single numeric roll (0 otherwise)
	Face    string       `expr:"face"`    // the face of a single symbolic roll
	Natural int          `expr:"natural"` // the dice added up, unmodified
	Dice    []int        `expr:"dice"`    // each die as rolled
}

var typeRollSeen = reflect.TypeOf((*RollSeen)(nil))

// anyReroll checks `reroll any where EXPR when EXPR once per PERIOD`: the
// when (and the where) see the roll just made (`roll`) and, for a
// feature's effect, its holder (some model or weapon holding it, as with
// `as any`). It is bounded by its `once per`, and asks the player each
// time it could apply; the where, if any, is the default answer.
func (c *checker) anyReroll(e *syntax.Reroll) (string, string) {
	at := diag.RangeOf(e.Pos, e.Target.EndPos)
	if e.Each || e.UpTo != nil {
		c.diags.errorf(diag.CodeEffectTarget, at,
			"a re-roll of any roll asks the player which dice of a pool to re-roll: no each or up to")
	}
	if e.As != nil && e.As.Name != RoleAny {
		c.diags.errorf(diag.CodeEffectTarget, identRange(e.As),
			"a re-roll of any roll has no role to name: its holder is any model (or weapon) holding the feature, so no `as %s`", e.As.Name)
	}
	if e.Once == nil {
		c.diags.errorf(diag.CodeEffectTarget, at,
			"a re-roll of any roll must be bounded: add `once per PERIOD` after its when")
	}
	sc := newScope(c.globals)
	sc.define(&symbol{name: "roll", kind: symParam, typ: typeRollSeen, used: true})
	if c.eff != nil && c.eff.feature != nil {
		if typ := HolderType(c.eff.feature.Kind); typ != nil {
			c.eff.role = RoleAny
			sc.define(&symbol{name: "holder", kind: symParam, typ: typ, used: true})
		}
	}
	if e.When != nil {
		c.compile(e.When, sc, typeBool, "a re-roll's when")
	}
	if e.Where != nil {
		// The player's answer by default: which rolls are worth it.
		c.compile(e.Where, sc, typeBool, "the rolls a re-roll of any roll takes by default")
	}
	c.idx.Choices[AnyRerollChoice] = true
	return AnyRoll, "any roll"
}
