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
		c.diags.errorf(diag.CodeWrongKind, diag.RangeOf(r.Pos, r.EndPos), "a %s cannot be replaced; replace a dice, characteristic, table, procedure or function", syntax.KindOf(r.Decl))
		return
	}
	c.packOf[r.Decl] = pack
	c.all = append(c.all, r.Decl)
	prev, ok := c.decls[ns][id]
	if !ok {
		c.diags.errorf(diag.CodeUnknownRef, identRange(at), "replace: there is no %s %s to replace", syntax.KindOf(r.Decl), id).
			Suggest(id, keys(c.decls[ns]))
		return
	}
	if syntax.KindOf(prev) != syntax.KindOf(r.Decl) {
		c.diags.errorf(diag.CodeWrongKind, identRange(at), "replace: %s is a %s, not a %s", id, syntax.KindOf(prev), syntax.KindOf(r.Decl))
		return
	}
	key := ns + ":" + id
	if who, done := c.replaced[key]; done && owner != "" && who != owner {
		c.conflict(diag.RangeOf(r.Pos, r.EndPos), ownerName(who), ownerName(owner), fmt.Sprintf("both replace %s %s", syntax.KindOf(prev), id))
		return
	}
	c.replaced[key] = owner
	c.idx.replacedBy[prev] = owner
	c.decls[ns][id] = r.Decl
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
