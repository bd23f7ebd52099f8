package ruledoc

import (
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"sort"
	"strconv"
	"strings"
)

// This file compares two checked sets of rules by meaning, not by text: a
// declaration differs when its canonical form (Canonical) does, so moving
// it to another file, re-indenting it or commenting it changes nothing.

// How something differs between rules A and B.
const (
	Removed = "removed" // only in A
	Added   = "added"   // only in B
	Changed = "changed" // in both, but different
)

// DiffKinds are the kinds of declaration a RulesDiff compares, in the
// order it lists them.
var DiffKinds = []string{"ruleset", "kind", "enum", "dice", "characteristic", "table", "procedure", "function", "event",
	"skill", "trait", "power", "action", "condition", "rule"}

// RulesDiff is what differs between two checked sets of rules.
type RulesDiff struct {
	// HouseRules are the house rules switched on in only one of them.
	HouseRules []HouseRuleChange `json:"house_rules"`
	// Declarations differ in kind order (DiffKinds), then by id.
	Declarations []DeclChange `json:"declarations"`
	// Effects are the effects in force in only one of them (or, as
	// Changed, in both with the same description but different bodies).
	Effects []EffectChange `json:"effects"`
}

// Empty reports whether the rules mean the same.
func (d *RulesDiff) Empty() bool {
	return len(d.HouseRules) == 0 && len(d.Declarations) == 0 && len(d.Effects) == 0
}

// HouseRuleChange is a house rule switched on in only A or only B.
type HouseRuleChange struct {
	Change string `json:"change"`
	ID     string `json:"id"`
	Title  string `json:"title"`
}

// DeclChange is a declaration in force in only one set of rules, or in
// both but different.
type DeclChange struct {
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Change string `json:"change"`
	Title  string `json:"title"` // B's, or A's when removed
	// ReplacedByA and ReplacedByB say who wrote the declaration in force
	// on each side when it replaced another ("house rule aa.x").
	ReplacedByA string   `json:"replaced_by_a,omitempty"`
	ReplacedByB string   `json:"replaced_by_b,omitempty"`
	Details     []Detail `json:"details,omitempty"`
}

// Detail is one part of a changed declaration that differs: a table row,
// a dice face, a procedure's let, roll, test, step or choice, its title,
// parameters, or a line of its body.
type Detail struct {
	Change string `json:"change"`
	What   string `json:"what"`           // row, face, let, roll, test, step, choose, title, parameters, when, value, statements, or an item's keyword
	ID     string `json:"id,omitempty"`   // the row, face or statement's name
	Key    string `json:"key,omitempty"`  // a row's key: "66", "7+", "glancing"
	A      string `json:"a,omitempty"`    // as in A (one line)
	B      string `json:"b,omitempty"`    // as in B
	ByA    string `json:"by_a,omitempty"` // who wrote the row in A, if it replaced the table's own ("house rule aa.x")
	ByB    string `json:"by_b,omitempty"` // … in B
}

// EffectChange is an effect in force in only one set of rules.
type EffectChange struct {
	Change string `json:"change"`
	EffectDesc
	Rule string `json:"rule,omitempty"` // the house rule, for house rules' effects
	Text string `json:"text"`           // EffectDesc.String()
}

// Diff compares two checked sets of rules (Check must have succeeded on
// both).
func Diff(a, b *dsl.Rules) *RulesDiff {
	d := &RulesDiff{HouseRules: []HouseRuleChange{}, Declarations: []DeclChange{}, Effects: []EffectChange{}}
	d.houseRules(a, b)
	sa, sb := sideOf(a), sideOf(b)
	for _, kind := range DiffKinds {
		da, db := sa.decls[kind], sb.decls[kind]
		for _, id := range unionKeys(da, db) {
			x, inA := da[id]
			y, inB := db[id]
			switch {
			case !inB:
				d.Declarations = append(d.Declarations, DeclChange{Kind: kind, ID: id, Change: Removed, Title: declTitle(x)})
			case !inA:
				d.Declarations = append(d.Declarations, DeclChange{Kind: kind, ID: id, Change: Added, Title: declTitle(y)})
			default:
				if c := sa.compare(sb, kind, id, x, y); c != nil {
					d.Declarations = append(d.Declarations, *c)
				}
			}
		}
	}
	d.Effects = diffEffects(a, b)
	return d
}

func (d *RulesDiff) houseRules(a, b *dsl.Rules) {
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, id := range a.ActiveRules() {
		inA[id] = true
	}
	for _, id := range b.ActiveRules() {
		inB[id] = true
	}
	for _, id := range unionKeys(inA, inB) {
		switch {
		case !inB[id]:
			d.HouseRules = append(d.HouseRules, HouseRuleChange{Change: Removed, ID: id, Title: houseRuleTitle(a, id)})
		case !inA[id]:
			d.HouseRules = append(d.HouseRules, HouseRuleChange{Change: Added, ID: id, Title: houseRuleTitle(b, id)})
		}
	}
}

func houseRuleTitle(r *dsl.Rules, id string) string {
	if hr := r.Index.HouseRules[id]; hr != nil {
		return hr.Title.Value()
	}
	return ""
}

// side is one set of rules, ready to compare: its declarations in force
// by kind and id, and who replaced them.
type side struct {
	rules     *dsl.Rules
	decls     map[string]map[string]syntax.Decl
	replacers map[syntax.Decl]string
}

func sideOf(r *dsl.Rules) *side {
	s := &side{rules: r, decls: map[string]map[string]syntax.Decl{}, replacers: r.Replacers()}
	put := func(kind, id string, d syntax.Decl) {
		if s.decls[kind] == nil {
			s.decls[kind] = map[string]syntax.Decl{}
		}
		s.decls[kind][id] = d
	}
	for _, p := range r.Packs {
		if p.Header != nil {
			put("ruleset", p.Header.ID.Name, p.Header)
		}
	}
	idx := r.Index
	for id, x := range idx.Kinds {
		put("kind", id, x.Decl)
	}
	for id, x := range idx.Enums {
		put("enum", id, x.Decl)
	}
	for id, x := range idx.Dice {
		put("dice", id, x.Decl)
	}
	for id, x := range idx.Characteristics {
		put("characteristic", id, x.Decl)
	}
	for id, x := range idx.Tables {
		put("table", id, x.Decl)
	}
	for id, x := range idx.Procedures {
		put("procedure", id, x.Decl)
	}
	for id, x := range idx.Functions {
		if x.Function != nil {
			put("function", id, x.Function)
		}
	}
	for id, x := range idx.Events {
		put("event", id, x)
	}
	for kind, m := range idx.Features {
		for id, f := range m {
			put(kind, id, f)
		}
	}
	for id, hr := range r.StandingRules() {
		put("rule", id, hr)
	}
	return s
}

// compare returns how x (in force in s) and y (in force in t) differ, or
// nil if they mean the same.
func (s *side) compare(t *side, kind, id string, x, y syntax.Decl) *DeclChange {
	var details []Detail
	if kind == "table" {
		ta, tb := s.rules.Index.Tables[id], t.rules.Index.Tables[id]
		details = tableDetails(ta, tb)
	} else if syntax.Canonical(x) != syntax.Canonical(y) {
		details = declDetails(x, y)
		if len(details) == 0 {
			details = []Detail{{Change: Changed, What: "statements"}}
		}
	}
	if len(details) == 0 {
		return nil
	}
	return &DeclChange{Kind: kind, ID: id, Change: Changed, Title: declTitle(y),
		ReplacedByA: s.replacers[x], ReplacedByB: t.replacers[y], Details: details}
}

// declDetails lists what differs between two declarations of one kind.
func declDetails(x, y syntax.Decl) []Detail {
	var out []Detail
	if ta, tb := declTitle(x), declTitle(y); ta != tb {
		out = append(out, Detail{Change: Changed, What: "title", A: ta, B: tb})
	}
	changed := func(what, a, b string) {
		if a != b {
			out = append(out, Detail{Change: Changed, What: what, A: a, B: b})
		}
	}
	switch x := x.(type) {
	case *syntax.Ruleset:
		out = append(out, itemDetails(x.Items, y.(*syntax.Ruleset).Items)...)
	case *syntax.ModelKind:
		out = append(out, itemDetails(x.Items, y.(*syntax.ModelKind).Items)...)
	case *syntax.Enum:
		out = append(out, itemDetails(x.Items, y.(*syntax.Enum).Items)...)
	case *syntax.Dice:
		out = append(out, itemDetails(x.Items, y.(*syntax.Dice).Items)...)
	case *syntax.Characteristic:
		out = append(out, itemDetails(x.Items, y.(*syntax.Characteristic).Items)...)
	case *syntax.Procedure:
		y := y.(*syntax.Procedure)
		changed("parameters", ParamsText(x.Params), ParamsText(y.Params))
		changed("when", syntax.CanonicalExpr(x.When), syntax.CanonicalExpr(y.When))
		out = append(out, procedureDetails(x, y)...)
	case *syntax.Function:
		y := y.(*syntax.Function)
		changed("parameters", ParamsText(x.Params), ParamsText(y.Params))
		changed("value", syntax.CanonicalExpr(x.Body), syntax.CanonicalExpr(y.Body))
	case *syntax.Event:
		changed("parameters", ParamsText(x.Params), ParamsText(y.(*syntax.Event).Params))
	case *syntax.Feature:
		out = append(out, itemDetails(x.Items, y.(*syntax.Feature).Items)...)
	case *syntax.HouseRule:
		out = append(out, itemDetails(x.Items, y.(*syntax.HouseRule).Items)...)
	}
	return out
}

// tableDetails compares two tables as in force: their heads (parameters,
// roll, key, requires, metadata) and their rows, matched by row id, with
// whatever house rules replaced.
func tableDetails(a, b *dsl.TableInfo) []Detail {
	var out []Detail
	if a.Title != b.Title {
		out = append(out, Detail{Change: Changed, What: "title", A: a.Title, B: b.Title})
	}
	if pa, pb := ParamsText(a.Decl.Params), ParamsText(b.Decl.Params); pa != pb {
		out = append(out, Detail{Change: Changed, What: "parameters", A: pa, B: pb})
	}
	head := func(t *syntax.Table) []syntax.TableItem {
		var items []syntax.TableItem
		for _, it := range t.Items {
			if _, row := it.(*syntax.Row); !row {
				items = append(items, it)
			}
		}
		return items
	}
	out = append(out, itemDetails(head(a.Decl), head(b.Decl))...)
	rowKey := func(r *dsl.RowInfo) string {
		if r.ID != "" {
			return r.ID
		}
		return r.Key()
	}
	rowText := func(r *dsl.RowInfo) string { return r.Key() + " " + strconv.Quote(r.Title) }
	inB := map[string]*dsl.RowInfo{}
	for _, r := range b.Rows {
		inB[rowKey(r)] = r
	}
	inA := map[string]bool{}
	for _, ra := range a.Rows {
		k := rowKey(ra)
		inA[k] = true
		rb, ok := inB[k]
		switch {
		case !ok:
			out = append(out, Detail{Change: Removed, What: "row", ID: ra.ID, Key: ra.Key(), A: rowText(ra), ByA: ra.ReplacedBy})
		case syntax.Canonical(ra.Row) != syntax.Canonical(rb.Row):
			out = append(out, Detail{Change: Changed, What: "row", ID: rb.ID, Key: rb.Key(), A: rowText(ra), B: rowText(rb),
				ByA: ra.ReplacedBy, ByB: rb.ReplacedBy})
		}
	}
	for _, rb := range b.Rows {
		if !inA[rowKey(rb)] {
			out = append(out, Detail{Change: Added, What: "row", ID: rb.ID, Key: rb.Key(), B: rowText(rb), ByB: rb.ReplacedBy})
		}
	}
	return out
}

// itemDetails compares the items of two declarations. Items that are one
// of a kind (a face by its id, a property by its name, limits by model
// kind, the source, the text) are matched and reported as changed; the
// others (effects, say) as removed or added, by their canonical text.
func itemDetails[T any](a, b []T) []Detail {
	type entry struct {
		what, id, text, head string
	}
	entries := func(items []T) (keyed map[string]entry, order []string, loose []entry) {
		keyed = map[string]entry{}
		for _, it := range items {
			text := syntax.Canonical(it)
			e := entry{text: text, head: ItemHead(it)}
			e.what, e.id = itemKey(it)
			if e.what == "" {
				e.what, _, _ = strings.Cut(e.head, " ")
				loose = append(loose, e)
				continue
			}
			e.head = bareHead(it, "")
			k := e.what + " " + e.id
			if _, dup := keyed[k]; dup {
				loose = append(loose, e)
				continue
			}
			keyed[k] = e
			order = append(order, k)
		}
		return keyed, order, loose
	}
	ka, orderA, la := entries(a)
	kb, orderB, lb := entries(b)
	var out []Detail
	for _, k := range orderA {
		x := ka[k]
		y, ok := kb[k]
		switch {
		case !ok:
			out = append(out, Detail{Change: Removed, What: x.what, ID: x.id, A: x.head})
		case x.text != y.text:
			out = append(out, Detail{Change: Changed, What: x.what, ID: x.id, A: x.head, B: y.head})
		}
	}
	for _, k := range orderB {
		if _, ok := ka[k]; !ok {
			y := kb[k]
			out = append(out, Detail{Change: Added, What: y.what, ID: y.id, B: y.head})
		}
	}
	// Loose items: a multiset difference by canonical text; a removed and an
	// added item that look the same on one line changed in their bodies.
	count := map[string]int{}
	for _, e := range lb {
		count[e.text]++
	}
	var removed []entry
	for _, e := range la {
		if count[e.text] > 0 {
			count[e.text]--
			continue
		}
		removed = append(removed, e)
	}
	var added []entry
	for _, e := range lb {
		if count[e.text] > 0 {
			count[e.text]--
			added = append(added, e)
		}
	}
	for _, x := range removed {
		paired := false
		for i, y := range added {
			if y.head == x.head {
				out = append(out, Detail{Change: Changed, What: x.what, A: x.head, B: y.head})
				added = append(added[:i], added[i+1:]...)
				paired = true
				break
			}
		}
		if !paired {
			out = append(out, Detail{Change: Removed, What: x.what, A: x.head})
		}
	}
	for _, y := range added {
		out = append(out, Detail{Change: Added, What: y.what, B: y.head})
	}
	return out
}

// itemKey says which items are one of a kind in their declaration, and so
// are matched between two versions of it.
func itemKey(it any) (what, id string) {
	switch it := it.(type) {
	case *syntax.SourceItem:
		return "source", ""
	case *syntax.TextItem:
		return "text", ""
	case *syntax.TitleItem:
		return "title", it.Lang.Name
	case *syntax.Extends:
		return "extends", ""
	case *syntax.StandIn:
		return "stand_in", ""
	case *syntax.Status:
		return "status", it.ID.Name
	case *syntax.Carries:
		return "carries", ""
	case *syntax.Warn:
		return "warn", it.Message.Value()
	case *syntax.Member:
		return "member", it.ID.Name
	case *syntax.Faces:
		return "faces", ""
	case *syntax.Face:
		return "face", it.ID.Name
	case *syntax.Sum, *syntax.Digits:
		return "dice", ""
	case *syntax.CharCheck:
		return "check", ""
	case *syntax.CharNatural:
		return "natural", it.Roll.Digits
	case *syntax.CharTarget:
		return "target", ""
	case *syntax.CharField:
		return "field", ""
	case *syntax.CharLimits:
		return "limits", it.Kind.Name
	case *syntax.TableRoll:
		return "roll", ""
	case *syntax.TableBy:
		return "by", ""
	case *syntax.TableChoose:
		return "choose", ""
	case *syntax.Property:
		return it.Name, ""
	case *syntax.Flag:
		return it.Name, ""
	case *syntax.TextOnly:
		return "text_only", ""
	}
	return "", ""
}

// procedureDetails compares two procedures' named statements (lets,
// rolls, tests, steps, choices) by name, their metadata, and the shape of
// everything else.
func procedureDetails(x, y *syntax.Procedure) []Detail {
	var out []Detail
	meta := func(p *syntax.Procedure) []syntax.Stmt {
		var items []syntax.Stmt
		for _, s := range p.Body.Stmts {
			switch s.(type) {
			case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
				items = append(items, s)
			}
		}
		return items
	}
	out = append(out, itemDetails(meta(x), meta(y))...)
	na, orderA, restA := namedStatements(x.Body)
	nb, orderB, restB := namedStatements(y.Body)
	for _, k := range orderA {
		what, id, _ := strings.Cut(k, " ")
		sb, ok := nb[k]
		switch {
		case !ok:
			out = append(out, Detail{Change: Removed, What: what, ID: id, A: bareHead(na[k][0], k)})
		case stmtsText(na[k]) != stmtsText(sb):
			a, b := firstDifference(na[k], sb)
			out = append(out, Detail{Change: Changed, What: what, ID: id, A: a, B: b})
		}
	}
	for _, k := range orderB {
		if _, ok := na[k]; !ok {
			what, id, _ := strings.Cut(k, " ")
			out = append(out, Detail{Change: Added, What: what, ID: id, B: bareHead(nb[k][0], k)})
		}
	}
	if strings.Join(restA, "\n") != strings.Join(restB, "\n") {
		out = append(out, Detail{Change: Changed, What: "statements"})
	}
	return out
}

// firstDifference shows the first of several statements of one name that
// differ: a let may be declared in several blocks. A statement one side
// lacks is "(none)"; statements alike on one line differ in their bodies,
// and show nothing.
func firstDifference(a, b []syntax.Stmt) (string, string) {
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) && i < len(b) && syntax.Canonical(a[i]) == syntax.Canonical(b[i]) {
			continue
		}
		ha, hb := "(none)", "(none)"
		if i < len(a) {
			ha = bareHead(a[i], "")
		}
		if i < len(b) {
			hb = bareHead(b[i], "")
		}
		if ha == hb {
			return "", ""
		}
		return ha, hb
	}
	return "", ""
}

// bareHead is an item's head without its keyword and name, which the
// detail already says: `= d6 + 1` for `roll check = d6 + 1`.
func bareHead(it any, key string) string {
	head := ItemHead(it)
	if m, ok := it.(*syntax.Member); ok && key == "" {
		key = m.ID.Name // a member is written without a keyword
	}
	if key == "" {
		what, id := itemKey(it)
		if what == "" {
			what, id = statementKey(it)
		}
		key = strings.TrimSpace(what + " " + id)
	}
	if key != "" {
		if rest, ok := strings.CutPrefix(head, key+" "); ok {
			return rest
		}
	}
	return head
}

// statementKey names a let, roll, test, step or choice.
func statementKey(it any) (what, id string) {
	switch s := it.(type) {
	case *syntax.Let:
		return "let", s.Name.Name
	case *syntax.Roll:
		return "roll", s.Name.Name
	case *syntax.TestStmt:
		return "test", s.Name.Name
	case *syntax.Choose:
		return "choose", s.Name.Name
	case *syntax.Step:
		return "step", s.ID.Name
	}
	return "", ""
}

func stmtsText(ss []syntax.Stmt) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, syntax.Canonical(s))
	}
	return strings.Join(parts, "\n")
}

// namedStatements collects a block's lets, rolls, tests, steps and
// choices, at any depth, by "kind name" (in order of first appearance),
// and the shape of the rest: every other statement's canonical text, with
// only the heads of ifs and loops (their bodies are walked).
func namedStatements(b *syntax.Block) (named map[string][]syntax.Stmt, order []string, rest []string) {
	named = map[string][]syntax.Stmt{}
	add := func(k string, s syntax.Stmt) {
		if _, ok := named[k]; !ok {
			order = append(order, k)
		}
		named[k] = append(named[k], s)
	}
	var walk func(b *syntax.Block)
	walk = func(b *syntax.Block) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *syntax.Let:
				add("let "+s.Name.Name, s)
			case *syntax.Roll:
				add("roll "+s.Name.Name, s)
			case *syntax.TestStmt:
				add("test "+s.Name.Name, s)
			case *syntax.Choose:
				add("choose "+s.Name.Name, s)
			case *syntax.Step:
				add("step "+s.ID.Name, s)
				rest = append(rest, "step "+s.ID.Name+" {")
				walk(s.Body)
				rest = append(rest, "}")
			case *syntax.If:
				for n := s; n != nil; n = n.ElseIf {
					rest = append(rest, "if "+syntax.CanonicalExpr(n.Cond)+" {")
					walk(n.Then)
					rest = append(rest, "}")
					if n.Else != nil {
						rest = append(rest, "else {")
						walk(n.Else)
						rest = append(rest, "}")
					}
				}
			case *syntax.ForEach:
				head := "for each " + s.Var.Name + " in " + syntax.CanonicalExpr(s.List)
				if s.OrderBy != nil {
					head += " ordered by " + syntax.CanonicalExpr(s.OrderBy)
				}
				rest = append(rest, head+" {")
				walk(s.Body)
				rest = append(rest, "}")
			case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
				// compared as metadata
			default:
				rest = append(rest, syntax.Canonical(s))
			}
		}
	}
	walk(b)
	return named, order, rest
}

// diffEffects lists the effects in force in only one set of rules.
func diffEffects(a, b *dsl.Rules) []EffectChange {
	type eff struct {
		key string
		ch  EffectChange
	}
	list := func(r *dsl.Rules, change string) []eff {
		var out []eff
		for _, e := range r.Index.Effects {
			desc := DescribeEffect(e)
			out = append(out, eff{
				key: e.Owner + "\x00" + e.TargetKind + " " + e.Target + "\x00" + syntax.Canonical(e.Item),
				ch:  EffectChange{Change: change, EffectDesc: desc, Rule: e.Rule, Text: desc.String()},
			})
		}
		return out
	}
	la, lb := list(a, Removed), list(b, Added)
	count := map[string]int{}
	for _, e := range lb {
		count[e.key]++
	}
	var removed []EffectChange
	for _, e := range la {
		if count[e.key] > 0 {
			count[e.key]--
			continue
		}
		removed = append(removed, e.ch)
	}
	var added []EffectChange
	for _, e := range lb {
		if count[e.key] > 0 {
			count[e.key]--
			added = append(added, e.ch)
		}
	}
	// The same description on both sides: the body of a hook or handler
	// changed.
	out := []EffectChange{}
	for _, x := range removed {
		for i, y := range added {
			if x.Text == y.Text {
				x.Change = Changed
				added = append(added[:i], added[i+1:]...)
				break
			}
		}
		out = append(out, x)
	}
	out = append(out, added...)
	order := map[string]int{Removed: 0, Changed: 1, Added: 2}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Target != out[j].Target {
			return out[i].Target < out[j].Target
		}
		if out[i].Text != out[j].Text {
			return out[i].Text < out[j].Text
		}
		return order[out[i].Change] < order[out[j].Change]
	})
	return out
}

// declTitle is a declaration's display title.
func declTitle(d syntax.Decl) string {
	switch d := d.(type) {
	case *syntax.Ruleset:
		return d.Title.Value()
	case *syntax.ModelKind:
		return d.Title.Value()
	case *syntax.Enum:
		return d.Title.Value()
	case *syntax.Dice:
		return d.Title.Value()
	case *syntax.Characteristic:
		return d.Title.Value()
	case *syntax.Table:
		return d.Title.Value()
	case *syntax.Procedure:
		return d.Title.Value()
	case *syntax.Function:
		return d.Title.Value()
	case *syntax.Event:
		return d.Title.Value()
	case *syntax.Feature:
		return d.Title.Value()
	case *syntax.House:
		return d.Title.Value()
	case *syntax.HouseRule:
		return d.Title.Value()
	}
	return ""
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
