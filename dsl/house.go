package dsl

// This file collects house groups and replacements, and reports overlays that conflict.

import (
	"fmt"
	"sort"
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
	}
}

// replacement is one `replace` that may be in force: a pack's top-level
// one, or a switched-on house rule's.
type replacement struct {
	r     *syntax.Replace
	owner string // who wrote it, as Rules.Replacers names them
	pack  *LoadedPack
	rank  rank
}

// rank orders replacements of one thing: by layer (base, house, mods),
// and within the base layer by the `extends` chain, since a ruleset
// changes what it extends. Two replacements of one thing with the same
// rank are a conflict; of two ranks, the higher is in force.
type rank struct{ layer, step int }

func (a rank) less(b rank) bool {
	if a.layer != b.layer {
		return a.layer < b.layer
	}
	return a.step < b.step
}

// collectReplacements applies every replacement in force: each pack's
// top-level `replace` (whatever its layer: a ruleset, a house pack or a
// mod) and those of the switched-on house rules, lowest rank first, so
// the highest is in force. Replaced declarations take effect at once; a
// replaced row is recorded in c.rowReplaced for its table.
func (c *checker) collectReplacements() {
	var all []replacement
	for i, pack := range c.rules.Packs {
		rk := rank{layer: pack.Layer}
		if pack.Layer == LayerBase && pack.Header != nil {
			rk.step = i // Packs lists a chain of rulesets from what is extended up
		}
		for _, f := range pack.Files {
			for _, d := range f.Decls {
				if r, ok := d.(*syntax.Replace); ok {
					all = append(all, replacement{r: r, owner: pack.Owner(), pack: pack, rank: rk})
				}
			}
		}
	}
	for _, rid := range c.rules.ActiveRules() {
		rule := c.idx.HouseRules[rid]
		if rule == nil {
			continue
		}
		pack := c.packOf[rule]
		for _, it := range rule.Items {
			if r, ok := it.(*syntax.Replace); ok {
				all = append(all, replacement{r: r, owner: "house rule " + rid, pack: pack, rank: rank{layer: c.layerOf(rule)}})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].rank.less(all[j].rank) })
	for _, rp := range all {
		if rp.r.Decl != nil {
			c.replace(rp)
		} else {
			c.replaceRow(rp)
		}
	}
}

// replace applies one replacement of a declaration.
func (c *checker) replace(rp replacement) {
	r := rp.r
	ns, id, at := namespaceOf(r.Decl)
	switch r.Decl.(type) {
	case *syntax.Dice, *syntax.Characteristic, *syntax.Table, *syntax.Procedure, *syntax.Function, *syntax.ModelKind, *syntax.Enum:
	default:
		c.diags.errorf(diag.CodeWrongKind, diag.RangeOf(r.Pos, r.EndPos), "%s cannot be replaced; replace a dice, characteristic, table, procedure, function, kind or enum", withArticle(syntax.KindOf(r.Decl)))
		return
	}
	c.packOf[r.Decl] = rp.pack
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
	if !c.inForce(c.replaced, ns+":"+id, rp, fmt.Sprintf("%s %s", syntax.KindOf(prev), id)) {
		return
	}
	c.idx.replacedBy[prev] = rp.owner
	c.decls[ns][id] = r.Decl
}

// replaceRow records one replacement of a table's row; the table applies
// it when it is built (prepareTables).
func (c *checker) replaceRow(rp replacement) {
	table, row := rp.r.Table.Name, rowID(rp.r.Row)
	if !c.inForce(c.replaced, "row:"+table+":"+row, rp, fmt.Sprintf("row %s of table %s", row, table)) {
		return
	}
	if c.rowReplaced[table] == nil {
		c.rowReplaced[table] = map[string]replacement{}
	}
	c.rowReplaced[table][row] = rp
}

// inForce decides whether rp, the highest-ranked so far of the
// replacements of key, takes effect: not when another of the same rank
// already replaces the same thing (a conflict, reported).
func (c *checker) inForce(done map[string]replacement, key string, rp replacement, what string) bool {
	prev, ok := done[key]
	if ok && !prev.rank.less(rp.rank) {
		at := diag.RangeOf(rp.r.Pos, rp.r.EndPos)
		if prev.owner == rp.owner {
			d := c.diags.errorf(diag.CodeOverlayConflict, at, "%s replaces %s twice", rp.owner, what)
			d.Detail = fmt.Sprintf("The other replacement is at %s. Keep one.", diag.RangeOf(prev.r.Pos, prev.r.EndPos))
		} else {
			c.conflict(at, prev.owner, rp.owner, "both replace "+what)
		}
		return false
	}
	done[key] = rp
	return true
}

// checkReplacedRows checks the statements of every replaced row that is
// not in force (a switched-off house rule's, or one a higher layer
// replaced again) against the table in force, as its own rows are: those
// in force are checked with their table.
func (c *checker) checkReplacedRows() {
	var rows []*syntax.Replace
	for _, f := range c.rules.Files() {
		for _, d := range f.Decls {
			if r, ok := d.(*syntax.Replace); ok && r.Decl == nil {
				rows = append(rows, r)
			}
		}
	}
	for _, rid := range keys(c.idx.HouseRules) {
		for _, it := range c.idx.HouseRules[rid].Items {
			if r, ok := it.(*syntax.Replace); ok && r.Decl == nil {
				rows = append(rows, r)
			}
		}
	}
	for _, r := range rows {
		info := c.idx.Tables[r.Table.Name]
		if info == nil {
			continue
		}
		if ri := info.row(rowID(r.Row)); ri != nil && ri.Row == r.Row {
			continue
		}
		c.rowBody(info, r.Row)
	}
}

// withArticle puts "a" or "an" before a kind of declaration.
func withArticle(kind string) string {
	if strings.ContainsAny(kind[:1], "aeiou") {
		return "an " + kind
	}
	return "a " + kind
}

// conflict reports two things in force that change one target
// incompatibly. a and b name their owners: "house rule aa.x", "rule
// generous", "pack mymod".
func (c *checker) conflict(at *diag.Range, a, b, what string) {
	d := c.diags.errorf(diag.CodeOverlayConflict, at, "%s and %s %s", a, b, what)
	for _, o := range []string{b, a} {
		if rid, ok := strings.CutPrefix(o, "house rule "); ok {
			d.Detail = fmt.Sprintf("Only one of them can be in force: switch one off, e.g. --house …,-%s.", rid)
			return
		}
	}
}
