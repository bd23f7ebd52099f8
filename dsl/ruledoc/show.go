package ruledoc

// This file gathers what `munda rules show ID` says about a rule or
// declaration: its title, source, text, facts, its own effects and the
// effects in force that act on it.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// Shown is what munda rules show says about one rule or declaration.
type Shown struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	At         string `json:"at,omitempty"`
	Source     string `json:"source,omitempty"`
	Text       string `json:"text,omitempty"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	Facts      []Fact `json:"facts,omitempty"`
	// Lists are rows, faces and the like, one line each.
	Lists []ItemList `json:"lists,omitempty"`
	// Effects are its own effects and replacements, with what each touches.
	Effects []OwnEffect `json:"effects,omitempty"`
	// Touches sums up the procedures, actions, rolls, tables and events
	// its effects reach: their targets, then what their bodies call,
	// perform, roll on or signal. Each once, in order.
	Touches []string `json:"touches,omitempty"`
	// Rules are a house group's rules.
	Rules []Shown `json:"rules,omitempty"`
	// EffectsOnIt are the effects in force that act on it.
	EffectsOnIt []EffectOnIt `json:"effects_on_it,omitempty"`
}

type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type ItemList struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

type OwnEffect struct {
	Effect  string `json:"effect"`            // as written, on one line
	Touches string `json:"touches,omitempty"` // "the let threshold of procedure bottle_check"
}

type EffectOnIt struct {
	EffectDesc
	Rule string `json:"rule,omitempty"`
	Text string `json:"text"`
}

// ShownIDs lists every id show knows in the rules.
func ShownIDs(r *dsl.Rules) []string {
	var out []string
	for _, p := range r.Packs {
		if p.Header != nil {
			out = append(out, p.Header.ID.Name)
		}
	}
	idx := r.Index
	for id := range idx.Kinds {
		out = append(out, id)
	}
	for id := range idx.Enums {
		out = append(out, id)
	}
	for id := range idx.Dice {
		out = append(out, id)
	}
	for id := range idx.Characteristics {
		out = append(out, id)
	}
	for id := range idx.Tables {
		out = append(out, id)
	}
	for id := range idx.Procedures {
		out = append(out, id)
	}
	for id, f := range idx.Functions {
		if f.Function != nil {
			out = append(out, id)
		}
	}
	for id := range idx.Events {
		out = append(out, id)
	}
	for _, m := range idx.Features {
		for id := range m {
			out = append(out, id)
		}
	}
	for id := range r.StandingRules() {
		out = append(out, id)
	}
	for id := range idx.Houses {
		out = append(out, id)
	}
	for id := range idx.HouseRules {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Show finds everything named id in checked rules, in a fixed order
// of kinds.
func Show(r *dsl.Rules, id string) []Shown {
	idx := r.Index
	effects := map[any]*dsl.EffectInfo{}
	for _, e := range idx.Effects {
		effects[e.Item] = e
	}
	replacers := r.Replacers()
	var out []Shown
	if h := idx.Houses[id]; h != nil {
		s := shownOf(h, "house", h.ID.Name, h.Title, h.Items)
		for _, rule := range h.Rules() {
			rid := h.ID.Name + "." + rule.ID.Name
			sr := shownOf(rule, "house rule", rid, rule.Title, rule.Items)
			if !r.Active[rid] {
				sr.Facts = append(sr.Facts, Fact{"in force", "no (switched off)"})
			}
			sr.Effects = ownEffects(idx, rule.Items, effects)
			s.Rules = append(s.Rules, sr)
		}
		out = append(out, s)
	}
	if hr := idx.HouseRules[id]; hr != nil {
		group, _, _ := strings.Cut(id, ".")
		s := shownOf(hr, "house rule", id, hr.Title, hr.Items)
		if h := idx.Houses[group]; h != nil {
			s.Facts = append(s.Facts, Fact{"house", fmt.Sprintf("%s %q", group, h.Title.Value())})
		}
		if !r.Active[id] {
			s.Facts = append(s.Facts, Fact{"in force", "no (switched off)"})
		}
		if m := syntax.TextOnlyOf(hr.Items); m != nil {
			s.Facts = append(s.Facts, Fact{"text only", m.Reason.Value()})
		}
		s.Effects = ownEffects(idx, hr.Items, effects)
		out = append(out, s)
	}
	for _, p := range r.Packs {
		if h := p.Header; h != nil && h.ID.Name == id {
			s := shownOf(h, "ruleset", id, h.Title, h.Items)
			if ext := h.Extends(); ext != nil {
				s.Facts = append(s.Facts, Fact{"extends", ext.Base.Name})
			}
			if si := h.StandIn(); si != nil {
				s.Facts = append(s.Facts, Fact{"stand-in", standInText(si)})
			}
			s.Facts = append(s.Facts, Fact{"pack", p.Pack.Display})
			out = append(out, s)
		}
	}
	if k := idx.Kinds[id]; k != nil {
		s := shownOf(k.Decl, "kind", id, k.Decl.Title, k.Decl.Items)
		if len(k.Carries) > 0 {
			s.Facts = append(s.Facts, Fact{"carries", strings.Join(k.Carries, ", ")})
		}
		l := ItemList{Name: "statuses"}
		for _, st := range k.Statuses {
			line := fmt.Sprintf("%s %q", st.ID.Name, st.Title.Value())
			for i, m := range st.Secondaries {
				sep := ", "
				if i == 0 {
					sep = ": "
				}
				line += fmt.Sprintf("%s%s %q", sep, m.ID.Name, m.Title.Value())
			}
			l.Items = append(l.Items, line)
		}
		s.Lists = append(s.Lists, l)
		out = append(out, s)
	}
	if e := idx.Enums[id]; e != nil {
		s := shownOf(e.Decl, "enum", id, e.Decl.Title, e.Decl.Items)
		s.Lists = append(s.Lists, itemList("members", e.Decl.Items))
		out = append(out, s)
	}
	if d := idx.Dice[id]; d != nil {
		s := shownOf(d.Decl, "dice", id, d.Decl.Title, d.Decl.Items)
		s.Lists = append(s.Lists, itemList("faces", d.Decl.Items))
		out = append(out, s)
	}
	if c := idx.Characteristics[id]; c != nil {
		s := shownOf(c.Decl, "characteristic", id, c.Decl.Title, c.Decl.Items)
		s.Lists = append(s.Lists, itemList("properties", c.Decl.Items))
		out = append(out, s)
	}
	if t := idx.Tables[id]; t != nil {
		out = append(out, shownTable(t))
	}
	if p := idx.Procedures[id]; p != nil {
		out = append(out, shownProcedure(p))
	}
	if f := idx.Functions[id]; f != nil && f.Function != nil {
		s := shownOf[syntax.Stmt](f.Function, "function", id, f.Function.Title, nil)
		s.Facts = append(s.Facts, Fact{"parameters", ParamsText(f.Function.Params)},
			Fact{"value", syntax.CanonicalExpr(f.Function.Body)})
		out = append(out, s)
	}
	if e := idx.Events[id]; e != nil {
		s := shownOf[syntax.Stmt](e, "event", id, e.Title, nil)
		s.Facts = append(s.Facts, Fact{"parameters", ParamsText(e.Params)})
		out = append(out, s)
	}
	var kinds []string
	for k := range idx.Features {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		if f := idx.Features[k][id]; f != nil {
			s := shownOf(f, k, id, f.Title, f.Items)
			if l := itemList("properties", f.Items); len(l.Items) > 0 {
				s.Facts = append(s.Facts, Fact{"properties", strings.Join(l.Items, ", ")})
			}
			if m := syntax.TextOnlyOf(f.Items); m != nil {
				s.Facts = append(s.Facts, Fact{"text only", m.Reason.Value()})
			}
			s.Effects = ownEffects(idx, f.Items, effects)
			s.Touches = touches(idx, f.Items, effects)
			out = append(out, s)
		}
	}
	if hr := r.StandingRules()[id]; hr != nil {
		s := shownOf(hr, "rule", id, hr.Title, hr.Items)
		s.Facts = append(s.Facts, Fact{"in force", "always (a standing rule of the ruleset)"})
		s.Effects = ownEffects(idx, hr.Items, effects)
		s.Touches = touches(idx, hr.Items, effects)
		out = append(out, s)
	}
	for i := range out {
		s := &out[i]
		var decl syntax.Decl
		switch s.Kind {
		case "kind":
			decl = idx.Kinds[id].Decl
		case "enum":
			decl = idx.Enums[id].Decl
		case "dice":
			decl = idx.Dice[id].Decl
		case "characteristic":
			decl = idx.Characteristics[id].Decl
		case "table":
			decl = idx.Tables[id].Decl
		case "procedure":
			decl = idx.Procedures[id].Decl
		case "function":
			decl = idx.Functions[id].Function
		}
		if decl != nil {
			s.ReplacedBy = replacers[decl]
		}
		s.EffectsOnIt = effectsOn(idx, s.Kind, id)
	}
	return out
}

// standInText is a stand-in clause's state: its file, or "inline".
func standInText(si *syntax.StandIn) string {
	if strings.HasPrefix(si.Source.Raw, "`") {
		return "an inline state"
	}
	return si.Source.Value()
}

// shownOf fills in what every kind has: title, place, source and text.
func shownOf[T any](decl any, kind, id string, title *syntax.Str, items []T) Shown {
	meta := syntax.MetaOf(items)
	s := Shown{ID: id, Kind: kind, Title: title.Value(), Source: meta.Source, Text: meta.Text}
	if at := placeOf(decl); at != "" {
		s.At = at
	}
	return s
}

// placeOf is where a declaration is written: "rulesets/core-2023/dice.munda:12".
func placeOf(decl any) string {
	var pos struct {
		file string
		line int
	}
	syntax.Inspect(decl, func(n any) bool {
		if id, ok := n.(*syntax.Ident); ok && pos.line == 0 {
			pos.file, pos.line = id.Pos.Filename, id.Pos.Line
		}
		return pos.line == 0
	})
	if pos.line == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", pos.file, pos.line)
}

// ownEffects lists the effects and replacements among items, with what
// each touches.
func ownEffects[T any](idx *dsl.Index, items []T, effects map[any]*dsl.EffectInfo) []OwnEffect {
	var out []OwnEffect
	for _, it := range items {
		fi, ok := any(it).(syntax.FeatureItem)
		if !ok || !IsEffect(fi) {
			continue
		}
		e := OwnEffect{Effect: ItemHead(fi)}
		if rp, ok := fi.(*syntax.Replace); ok {
			e.Touches = "the " + DescribeReplace(rp)
		} else if info := effects[fi]; info != nil {
			e.Touches = "the " + touchedTarget(idx, info.Target, info.TargetKind)
		} else {
			e.Touches = "nothing in force"
		}
		out = append(out, e)
	}
	return out
}

// touches lists what the effects among items reach: each effect's target
// ("roll hit of action shoot", "procedure take_wound"), then what the
// bodies of hooks and handlers call, perform, roll on or signal. An effect
// on a procedure's part names the action when the target is an action.
func touches[T any](idx *dsl.Index, items []T, effects map[any]*dsl.EffectInfo) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var bodies []any
	for _, it := range items {
		fi, ok := any(it).(syntax.FeatureItem)
		if !ok || !IsEffect(fi) {
			continue
		}
		if info := effects[fi]; info != nil {
			add(touchedTarget(idx, info.Target, info.TargetKind))
		}
		switch x := fi.(type) {
		case *syntax.Hook:
			bodies = append(bodies, x.Body)
		case *syntax.On:
			bodies = append(bodies, x.Body)
		}
	}
	for _, b := range bodies {
		syntax.Inspect(b, func(n any) bool {
			switch n := n.(type) {
			case *syntax.Call:
				add("procedure " + n.Proc.Name + " (called)")
			case *syntax.Perform:
				if n.Action != nil {
					add("action " + n.Action.Name + " (performed)")
				} else {
					add("an action chosen as it runs (performed)")
				}
			case *syntax.Apply:
				add("table " + n.Table.Name + " (rolled on)")
			case *syntax.Signal:
				add("event " + n.Event.Name + " (signalled)")
			}
			return true
		})
	}
	return out
}

// touchedTarget names an effect's target, as an action's part when the
// name is an action's and no procedure's.
func touchedTarget(idx *dsl.Index, target, kind string) string {
	name, member, _ := strings.Cut(target, ".")
	isAction := idx.Procedures[name] == nil && idx.Actions[name] != nil
	if !isAction {
		return DescribeTarget(target, kind)
	}
	switch kind {
	case "let", "roll", "test", "step":
		return kind + " " + member + " of action " + name
	case "procedure":
		return "action " + name
	}
	return DescribeTarget(target, kind)
}

// itemList lists a declaration's items other than metadata and effects,
// one line each.
func itemList[T any](name string, items []T) ItemList {
	l := ItemList{Name: name}
	for _, it := range items {
		switch x := any(it).(type) {
		case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem, *syntax.TextOnly:
			continue
		case syntax.FeatureItem:
			if IsEffect(x) {
				continue
			}
		}
		l.Items = append(l.Items, ItemHead(it))
	}
	return l
}

func shownTable(t *dsl.TableInfo) Shown {
	s := shownOf(t.Decl, "table", t.ID, t.Decl.Title, t.Decl.Items)
	if len(t.Params) > 0 {
		s.Facts = append(s.Facts, Fact{"parameters", ParamsText(t.Decl.Params)})
	}
	for _, it := range t.Decl.Items {
		switch it.(type) {
		case *syntax.TableRoll:
			s.Facts = append(s.Facts, Fact{"roll", strings.TrimPrefix(ItemHead(it), "roll ")})
		case *syntax.TableBy:
			s.Facts = append(s.Facts, Fact{"by", strings.TrimPrefix(ItemHead(it), "by ")})
		case *syntax.TableChoose:
			s.Facts = append(s.Facts, Fact{"choose", strings.TrimPrefix(ItemHead(it), "choose ")})
		case *syntax.Require:
			s.Facts = append(s.Facts, Fact{"require", strings.TrimPrefix(ItemHead(it), "require ")})
		}
	}
	rows := ItemList{Name: "rows"}
	for _, r := range t.Rows {
		line := r.Key()
		if r.ID != "" && r.ID != r.Key() {
			line += " " + r.ID
		}
		line += fmt.Sprintf(" %q", r.Title)
		if r.ReplacedBy != "" {
			line += " (row of " + r.ReplacedBy + ")"
		}
		rows.Items = append(rows.Items, line)
	}
	s.Lists = append(s.Lists, rows)
	return s
}

func shownProcedure(p *dsl.ProcInfo) Shown {
	s := shownOf(p.Decl, "procedure", p.ID, p.Decl.Title, p.Decl.Body.Stmts)
	s.Facts = append(s.Facts, Fact{"parameters", ParamsText(p.Decl.Params)})
	if p.Decl.When != nil {
		s.Facts = append(s.Facts, Fact{"when", syntax.CanonicalExpr(p.Decl.When)})
	}
	// What effects can target: its lets, rolls, tests and steps (and its
	// choices, for --choose), in order.
	names := map[string][]string{}
	seen := map[string]bool{}
	syntax.Inspect(p.Decl.Body, func(n any) bool {
		var kind, name string
		switch n := n.(type) {
		case *syntax.Let:
			kind, name = "lets", n.Name.Name
		case *syntax.Roll:
			kind, name = "rolls", n.Name.Name
		case *syntax.TestStmt:
			kind, name = "tests", n.Name.Name
		case *syntax.Step:
			kind, name = "steps", n.ID.Name
		case *syntax.Choose:
			kind, name = "choices", n.Name.Name
		default:
			return true
		}
		if !seen[kind+" "+name] {
			seen[kind+" "+name] = true
			names[kind] = append(names[kind], name)
		}
		return true
	})
	for _, kind := range []string{"lets", "rolls", "tests", "steps", "choices"} {
		if len(names[kind]) > 0 {
			s.Facts = append(s.Facts, Fact{kind, strings.Join(names[kind], ", ")})
		}
	}
	return s
}

// effectsOn lists the effects in force whose target is the declaration
// (or, for a procedure, one of its lets, rolls, tests or steps).
func effectsOn(idx *dsl.Index, kind, id string) []EffectOnIt {
	targetKinds := map[string][]string{
		"procedure":      {"let", "roll", "test", "step", "procedure"},
		"table":          {"table"},
		"characteristic": {"characteristic"},
		"event":          {"event"},
	}[kind]
	var out []EffectOnIt
	for _, e := range idx.Effects {
		name, _, _ := strings.Cut(e.Target, ".")
		if name != id || !slices.Contains(targetKinds, e.TargetKind) {
			continue
		}
		d := DescribeEffect(e)
		out = append(out, EffectOnIt{EffectDesc: d, Rule: e.Rule, Text: d.String()})
	}
	return out
}
