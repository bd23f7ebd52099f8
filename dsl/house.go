package dsl

// This file collects house groups and replacements, and reports overlays that conflict.

import (
	"fmt"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

func (c *checker) collectHouse(h *syntax.House, pack *LoadedPack) {
	seen := map[string]*syntax.HouseRule{}
	for _, rule := range h.Rules() {
		rid := h.ID.Name + "." + rule.ID.Name
		c.packOf[rule] = pack
		if prev, ok := seen[rule.ID.Name]; ok {
			d := c.diags.errorf(diag.CodeDuplicateID, identRange(rule.ID), "house rule %s is declared twice", rid)
			d.Detail = "The first is at " + identRange(prev.ID).String() + "."
			continue
		}
		seen[rule.ID.Name] = rule
		c.idx.HouseRules[rid] = rule
		for _, it := range rule.Items {
			c.ruleOf[it] = rid
		}
	}
}

// replace applies one `replace` declaration. owner is the house rule that
// does it ("" for a ruleset's own replacement).
func (c *checker) replace(r *syntax.Replace, owner string, pack *LoadedPack) {
	if r.Decl == nil {
		return // a row replacement; handled with its table
	}
	ns, id, at := namespaceOf(r.Decl)
	switch r.Decl.(type) {
	case *syntax.Dice, *syntax.Characteristic, *syntax.Table, *syntax.Procedure, *syntax.Function:
	default:
		c.diags.errorf(diag.CodeInvalid, diag.RangeOf(r.Pos, r.EndPos), "a %s cannot be replaced; replace a dice, characteristic, table, procedure or function", syntax.KindOf(r.Decl))
		return
	}
	c.packOf[r.Decl] = pack
	c.all = append(c.all, r.Decl)
	prev, ok := c.decls[ns][id]
	if !ok {
		d := c.diags.errorf(diag.CodeUnknownRef, identRange(at), "replace: there is no %s %s to replace", syntax.KindOf(r.Decl), id)
		if s := diag.DidYouMean(id, keys(c.decls[ns])); s != "" {
			d.Detail = fmt.Sprintf("Did you mean %s?", s)
		}
		return
	}
	if syntax.KindOf(prev) != syntax.KindOf(r.Decl) {
		c.diags.errorf(diag.CodeInvalid, identRange(at), "replace: %s is a %s, not a %s", id, syntax.KindOf(prev), syntax.KindOf(r.Decl))
		return
	}
	// Layers decide between replacements as between overrides: across
	// layers the higher wins (a mod's over a house rule's over the
	// ruleset's); within one, two that differ are a conflict, whoever
	// makes them (two mods, two house rules, one pack twice), except that
	// a ruleset's replacement wins over a ruleset it extends.
	key := ns + ":" + id
	this := replacement{owner: owner, pack: pack, at: r}
	// A ruleset's own replacement wins over that of a ruleset it extends
	// (which comes before it in the stack): extending is changing.
	extending := func(was replacement) bool {
		return was.owner == "" && owner == "" && was.pack != pack && was.pack.Header != nil && pack.Header != nil
	}
	if was, done := c.replaced[key]; done && !extending(was) {
		switch {
		case was.pack.Layer > pack.Layer:
			return // the higher layer's stands
		case was.pack.Layer == pack.Layer && !c.sameText(was.at, r) && was.name() == this.name():
			d := c.diags.errorf(diag.CodeOverlayConflict, diag.RangeOf(r.Pos, r.EndPos), "%s replaces %s %s twice, differently", this.name(), syntax.KindOf(prev), id)
			d.Detail = "The other replacement is at " + diag.RangeOf(was.at.Pos, was.at.Pos).String() + "; keep one."
			return
		case was.pack.Layer == pack.Layer && !c.sameText(was.at, r):
			c.conflict(diag.RangeOf(r.Pos, r.EndPos), was.name(), this.name(), fmt.Sprintf("both replace %s %s", syntax.KindOf(prev), id))
			return
		case was.pack.Layer == pack.Layer:
			return // the same change again
		}
	}
	c.replaced[key] = this
	c.idx.replacedBy[prev] = owner
	c.decls[ns][id] = r.Decl
}

// sameText reports whether two replacements say the same thing, whatever
// their spacing: two house groups that agree do not conflict.
func (c *checker) sameText(a, b *syntax.Replace) bool {
	ta := c.rangeText(diag.RangeOf(a.Pos, a.EndPos))
	return ta != "" && ta == c.rangeText(diag.RangeOf(b.Pos, b.EndPos))
}

// replacement is the replacement of a declaration in force.
type replacement struct {
	owner string // the house rule that makes it; "" for a pack's own `replace`
	pack  *LoadedPack
	at    *syntax.Replace
}

// name says who made a replacement, for conflicts.
func (r replacement) name() string {
	switch {
	case r.owner != "":
		return ownerName(r.owner)
	case r.pack.Header != nil:
		return "ruleset " + r.pack.Header.ID.Name
	}
	return "pack " + r.pack.Pack.Display
}

// conflict reports two things in force that change one target
// incompatibly. a and b are owners as ownerName gives them.
func (c *checker) conflict(at *diag.Range, a, b, what string) {
	d := c.diags.errorf(diag.CodeOverlayConflict, at, "%s and %s %s", a, b, what)
	for _, o := range []string{b, a} {
		if rid, ok := strings.CutPrefix(o, "house rule "); ok {
			d.Detail = fmt.Sprintf("Only one of them can be in force: switch one off, e.g. --house …,-%s.", rid)
			return
		}
	}
}

// ownerName names who a change belongs to: a house rule's id, or "" for
// the ruleset itself.
func ownerName(rule string) string {
	if rule == "" {
		return "the ruleset"
	}
	return "house rule " + rule
}
