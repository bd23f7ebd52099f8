package dsl

// This file checks feature declarations (skills, traits, powers, actions, conditions) and their properties.

import (
	"fmt"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

func (c *checker) checkFeatures() {
	for _, d := range c.all {
		f, ok := d.(*syntax.Feature)
		if !ok {
			continue
		}
		for _, it := range f.Items {
			switch it := it.(type) {
			case *syntax.Property:
				c.property(f, it)
			case *syntax.Replace:
				c.diags.errorf(diag.CodeMisplaced, diag.RangeOf(it.Pos, it.EndPos), "only house rules (and rulesets) replace declarations, not a %s", f.Kind)
			case *syntax.TextOnly:
				if strings.TrimSpace(it.Reason.Value()) == "" {
					c.diags.errorf(diag.CodePropertyError, diag.RangeOf(it.Pos, it.EndPos), "text_only needs a reason: why the rule is only text")
				}
			}
		}
		c.requireDiscipline(f)
	}
	for _, d := range c.all {
		r, ok := d.(*syntax.HouseRule)
		if !ok {
			continue
		}
		for _, it := range r.Items {
			switch it := it.(type) {
			case *syntax.Property, *syntax.Flag, *syntax.TextOnly:
				c.diags.errorf(diag.CodePropertyError, c.anyRange(it), "rules have no properties")
			case *syntax.Replace:
				c.diags.errorf(diag.CodeMisplaced, diag.RangeOf(it.Pos, it.EndPos), "a standing rule is always in force, so it cannot replace; write the replacement at the top level")
			}
		}
	}
	// A house rule that cannot run yet says why, as a feature does: a
	// toggle with a reason, never a silent one.
	for _, h := range c.idx.Houses {
		for _, rule := range h.Rules() {
			for _, it := range rule.Items {
				switch it := it.(type) {
				case *syntax.Property, *syntax.Flag:
					c.diags.errorf(diag.CodePropertyError, c.anyRange(it), "house rules have no properties")
				case *syntax.TextOnly:
					if strings.TrimSpace(it.Reason.Value()) == "" {
						c.diags.errorf(diag.CodePropertyError, diag.RangeOf(it.Pos, it.EndPos), "text_only needs a reason: why the rule is only text")
					}
				}
			}
		}
	}
}

// requireDiscipline: where the rules declare the enum discipline, every
// power belongs to one of them (a mod's power without one would be missing
// from random power determination and from discipline-wide rules).
func (c *checker) requireDiscipline(f *syntax.Feature) {
	e := c.idx.Enums["discipline"]
	if f.Kind != "power" || e == nil || len(e.Members) == 0 {
		return
	}
	for _, it := range f.Items {
		if p, ok := it.(*syntax.Property); ok && p.Name == "discipline" {
			return
		}
	}
	d := c.diags.errorf(diag.CodePropertyError, identRange(f.ID), "power %s has no discipline", f.ID.Name)
	d.Detail = fmt.Sprintf("Add `discipline NAME`, one of enum %s: %s.", e.ID, strings.Join(e.Members, ", "))
}

func (c *checker) property(f *syntax.Feature, p *syntax.Property) {
	allowed := map[string][]string{
		"set":        {"skill"},
		"number":     {"skill", "power"},
		"discipline": {"power"},
		"type":       {"action", "power"},
	}
	ok := false
	for _, k := range allowed[p.Name] {
		if k == f.Kind {
			ok = true
		}
	}
	at := diag.RangeOf(p.Pos, p.EndPos)
	if !ok {
		c.diags.errorf(diag.CodePropertyError, at, "a %s has no %s", f.Kind, p.Name)
		return
	}
	switch p.Name {
	case "number":
		if p.Number == nil {
			c.diags.errorf(diag.CodePropertyError, at, "number takes a whole number")
		}
	case "set", "discipline", "type":
		if p.Value == nil {
			c.diags.errorf(diag.CodePropertyError, at, "%s takes a name", p.Name)
			return
		}
		c.enumProperty(p)
	}
}
