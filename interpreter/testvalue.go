package interpreter

// This file replaces the value a characteristic test is against
// (`override P.x = …` on a test, `override C = …` on every test of a
// characteristic): a fighter using another's Cool (Unbreakable Will).

import (
	"fmt"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// testValue is the value a test of m is against: the model's own (value),
// or, when overrides are in force on the test (seen from f) or on every
// test of the characteristic (seen from cf), the best for the model of
// those of the highest layer that has one (a replacement is the tested
// fighter's to use; its when says whether it is worth using).
func (r *runner) testValue(ci *dsl.CharInfo, m *state.Model, value int, target string, s *syntax.TestStmt, f, cf *frame) (int, error) {
	var chosen *effect
	best := value
	layer := -1
	try := func(list []*effect, fr *frame) error {
		for _, ef := range list {
			if chosen != nil && ef.info.Layer < layer {
				return nil
			}
			o := ef.info.Item.(*syntax.Override)
			ok, restore, err := r.effectApplies(ef, o.When, fr)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			v, err := r.evalInt(fr, o.Value)
			restore()
			if err != nil {
				return err
			}
			better := v > best
			if ci.Target {
				better = v < best
			}
			if chosen == nil || better {
				chosen, best, layer = ef, v, ef.info.Layer
			}
		}
		return nil
	}
	if err := try(r.p.override[target], f); err != nil {
		return 0, err
	}
	if err := try(r.p.override[ci.ID], cf); err != nil {
		return 0, err
	}
	if chosen == nil {
		return value, nil
	}
	if ci.Target && best <= 0 {
		return 0, r.errorAt(f, diag.CodeRunEffect, spanOf(s), fmt.Errorf("%s makes the %s test of %s against %d, which is no %s", chosen.owner, ci.Title, m.Name, best, ci.Title))
	}
	ef := chosen
	return best, r.logLazy(f, func() *Event {
		return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: s.Name.Name, Object: m.ID, Value: best,
			Text: fmt.Sprintf("%s: %s %s %s (%s)", titleOf(ef.owner), r.charTitle(ci), r.say("test_for", "test for"), m.Name, showChar(ci, best))}
	})
}
