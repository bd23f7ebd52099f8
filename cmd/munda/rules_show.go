package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// shown is what munda rules show says about one rule or declaration.
type shown struct {
	ID         string      `json:"id"`
	Kind       string      `json:"kind"`
	Title      string      `json:"title"`
	At         string      `json:"at,omitempty"`
	Source     string      `json:"source,omitempty"`
	Text       string      `json:"text,omitempty"`
	ReplacedBy string      `json:"replaced_by,omitempty"`
	Facts      []shownFact `json:"facts,omitempty"`
	// Lists are rows, faces and the like, one line each.
	Lists []shownList `json:"lists,omitempty"`
	// Effects are its own effects and replacements, with what each touches.
	Effects []shownEffect `json:"effects,omitempty"`
	// Rules are a house group's rules.
	Rules []shown `json:"rules,omitempty"`
	// EffectsOnIt are the effects in force that act on it.
	EffectsOnIt []effectOnIt `json:"effects_on_it,omitempty"`
}

type shownFact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type shownList struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

type shownEffect struct {
	Effect  string `json:"effect"`            // as written, on one line
	Touches string `json:"touches,omitempty"` // "the let threshold of procedure bottle_check"
}

type effectOnIt struct {
	ruledoc.EffectDesc
	Rule string `json:"rule,omitempty"`
	Text string `json:"text"`
}

func newRulesShowCmd() *cobra.Command {
	var (
		rf      ruleFlags
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Explain a house rule, a house group or any declaration",
		Long: `Show explains one thing of the rules: a house rule ("aa.single_lasting_injury",
switched on to be shown), a house group ("aa"), or any declaration by id
(a procedure, table, dice, characteristic, function, event, skill, trait,
power, action, condition, standing rule or ruleset; kebab-case is fine).
It prints its title, kind, source and text, its effects with what each
touches, and for a procedure, table, characteristic or event the effects
in force that act on it and whose they are. --rules, --house and --with
choose the rules in force, as for run. An id found in several kinds (a
skill and a trait) shows each.`,
		Example: `  munda rules show aa.single_lasting_injury
  munda rules show aa
  munda rules show bottle-check --house aa
  munda rules show lasting-injury --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			packs, err := housePacks(cmd, sel)
			if err != nil {
				return err
			}
			if _, err := checkToggles(packs, sel.Houses, "--house: "); err != nil {
				return err
			}
			id := dsl.NormalizeID(strings.TrimSpace(args[0]))
			// A shipped (or --with) house group, or one of its rules, is
			// switched on to be shown, so its effects resolve.
			known := map[string]*syntax.House{}
			for _, p := range packs {
				for _, h := range p.houses {
					known[h.ID.Name] = h
				}
			}
			if group, _, dotted := strings.Cut(id, "."); known[group] != nil {
				if dotted {
					var ids []string
					for _, r := range known[group].Rules() {
						ids = append(ids, group+"."+r.ID.Name)
					}
					if !slices.Contains(ids, id) {
						return usagef("unknown house rule %q%s", id, didYouMean(id, ids, ids))
					}
				}
				sel.Houses = append(sel.Houses, id)
			}
			rules, err := loadRules(cmd, sel, "")
			if err != nil {
				return err
			}
			found := findShown(rules, id)
			if _, ok := rulesets.Resolve(id); ok && len(found) == 0 {
				// A shipped ruleset the base does not extend: shown as
				// the base.
				sel.Base = id
				if rules, err = loadRules(cmd, sel, ""); err != nil {
					return err
				}
				found = findShown(rules, id)
			}
			if len(found) == 0 {
				// A house rule named without its group.
				var full []string
				for _, p := range packs {
					for _, h := range p.houses {
						for _, r := range h.Rules() {
							if r.ID.Name == id {
								full = append(full, h.ID.Name+"."+r.ID.Name)
							}
						}
					}
				}
				if len(full) > 1 {
					return usagef("%q is a rule of several house groups (%s): name one", args[0], strings.Join(full, ", "))
				}
				if len(full) == 1 {
					id = full[0]
					sel.Houses = append(sel.Houses, id)
					if rules, err = loadRules(cmd, sel, ""); err != nil {
						return err
					}
					found = findShown(rules, id)
				}
			}
			if len(found) == 0 {
				cands := shownIDs(rules)
				for _, p := range packs {
					for _, h := range p.houses {
						cands = append(cands, h.ID.Name)
						for _, r := range h.Rules() {
							cands = append(cands, h.ID.Name+"."+r.ID.Name)
						}
					}
				}
				return usagef("unknown id %q%s", args[0], didYouMean(id, cands, nil))
			}
			if jsonOut {
				return writeJSON(cmd.OutOrStdout(), found)
			}
			out := cmd.OutOrStdout()
			for i, s := range found {
				if i > 0 {
					fmt.Fprintln(out)
				}
				writeShown(out, s, "")
			}
			return nil
		},
	}
	rf.register(cmd)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON for tools (a list: an id may name several things)")
	return cmd
}

// didYouMean is "; did you mean x?" for the closest candidate, or the
// known ones when there are few and none is close.
func didYouMean(name string, cands, known []string) string {
	if s := diag.Suggestion(name, cands); s != "" {
		return "; " + s
	}
	if len(known) > 0 && len(known) <= 12 {
		return " (known: " + strings.Join(known, ", ") + ")"
	}
	return ""
}

// shownIDs lists every id show knows in the rules.
func shownIDs(r *dsl.Rules) []string {
	var out []string
	for _, p := range r.Packs {
		if p.Header != nil {
			out = append(out, p.Header.ID.Name)
		}
	}
	idx := r.Index
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

// findShown finds everything named id in checked rules, in a fixed order
// of kinds.
func findShown(r *dsl.Rules, id string) []shown {
	idx := r.Index
	effects := map[any]*dsl.EffectInfo{}
	for _, e := range idx.Effects {
		effects[e.Item] = e
	}
	replacers := r.Replacers()
	var out []shown
	if h := idx.Houses[id]; h != nil {
		s := shownOf(h, "house", h.ID.Name, h.Title, h.Items)
		for _, rule := range h.Rules() {
			rid := h.ID.Name + "." + rule.ID.Name
			sr := shownOf(rule, "house rule", rid, rule.Title, rule.Items)
			if !r.Active[rid] {
				sr.Facts = append(sr.Facts, shownFact{"in force", "no (switched off)"})
			}
			sr.Effects = ownEffects(rule.Items, effects)
			s.Rules = append(s.Rules, sr)
		}
		out = append(out, s)
	}
	if hr := idx.HouseRules[id]; hr != nil {
		group, _, _ := strings.Cut(id, ".")
		s := shownOf(hr, "house rule", id, hr.Title, hr.Items)
		if h := idx.Houses[group]; h != nil {
			s.Facts = append(s.Facts, shownFact{"house", fmt.Sprintf("%s %q", group, h.Title.Value())})
		}
		if !r.Active[id] {
			s.Facts = append(s.Facts, shownFact{"in force", "no (switched off)"})
		}
		s.Effects = ownEffects(hr.Items, effects)
		out = append(out, s)
	}
	for _, p := range r.Packs {
		if h := p.Header; h != nil && h.ID.Name == id {
			s := shownOf(h, "ruleset", id, h.Title, h.Items)
			if ext := h.Extends(); ext != nil {
				s.Facts = append(s.Facts, shownFact{"extends", ext.Base.Name})
			}
			s.Facts = append(s.Facts, shownFact{"pack", p.Pack.Display})
			out = append(out, s)
		}
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
		s.Facts = append(s.Facts, shownFact{"parameters", ruledoc.ParamsText(f.Function.Params)},
			shownFact{"value", syntax.CanonicalExpr(f.Function.Body)})
		out = append(out, s)
	}
	if e := idx.Events[id]; e != nil {
		s := shownOf[syntax.Stmt](e, "event", id, e.Title, nil)
		s.Facts = append(s.Facts, shownFact{"parameters", ruledoc.ParamsText(e.Params)})
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
				s.Facts = append(s.Facts, shownFact{"properties", strings.Join(l.Items, ", ")})
			}
			s.Effects = ownEffects(f.Items, effects)
			out = append(out, s)
		}
	}
	if hr := r.StandingRules()[id]; hr != nil {
		s := shownOf(hr, "rule", id, hr.Title, hr.Items)
		s.Facts = append(s.Facts, shownFact{"in force", "always (a standing rule of the ruleset)"})
		s.Effects = ownEffects(hr.Items, effects)
		out = append(out, s)
	}
	for i := range out {
		s := &out[i]
		var decl syntax.Decl
		switch s.Kind {
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

// shownOf fills in what every kind has: title, place, source and text.
func shownOf[T any](decl any, kind, id string, title *syntax.Str, items []T) shown {
	meta := syntax.MetaOf(items)
	s := shown{ID: id, Kind: kind, Title: title.Value(), Source: meta.Source, Text: meta.Text}
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
func ownEffects[T any](items []T, effects map[any]*dsl.EffectInfo) []shownEffect {
	var out []shownEffect
	for _, it := range items {
		fi, ok := any(it).(syntax.FeatureItem)
		if !ok || !ruledoc.IsEffect(fi) {
			continue
		}
		e := shownEffect{Effect: ruledoc.ItemHead(fi)}
		if rp, ok := fi.(*syntax.Replace); ok {
			e.Touches = "the " + ruledoc.DescribeReplace(rp)
		} else if info := effects[fi]; info != nil {
			e.Touches = "the " + ruledoc.DescribeTarget(info.Target, info.TargetKind)
		} else {
			e.Touches = "nothing in force"
		}
		out = append(out, e)
	}
	return out
}

// itemList lists a declaration's items other than metadata and effects,
// one line each.
func itemList[T any](name string, items []T) shownList {
	l := shownList{Name: name}
	for _, it := range items {
		switch x := any(it).(type) {
		case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
			continue
		case syntax.FeatureItem:
			if ruledoc.IsEffect(x) {
				continue
			}
		}
		l.Items = append(l.Items, ruledoc.ItemHead(it))
	}
	return l
}

func shownTable(t *dsl.TableInfo) shown {
	s := shownOf(t.Decl, "table", t.ID, t.Decl.Title, t.Decl.Items)
	if len(t.Params) > 0 {
		s.Facts = append(s.Facts, shownFact{"parameters", ruledoc.ParamsText(t.Decl.Params)})
	}
	for _, it := range t.Decl.Items {
		switch it.(type) {
		case *syntax.TableRoll:
			s.Facts = append(s.Facts, shownFact{"roll", strings.TrimPrefix(ruledoc.ItemHead(it), "roll ")})
		case *syntax.TableBy:
			s.Facts = append(s.Facts, shownFact{"by", strings.TrimPrefix(ruledoc.ItemHead(it), "by ")})
		case *syntax.Require:
			s.Facts = append(s.Facts, shownFact{"require", strings.TrimPrefix(ruledoc.ItemHead(it), "require ")})
		}
	}
	rows := shownList{Name: "rows"}
	for _, r := range t.Rows {
		line := r.Key()
		if r.ID != "" && r.ID != r.Key() {
			line += " " + r.ID
		}
		line += fmt.Sprintf(" %q", r.Title)
		if r.ReplacedBy != "" {
			line += " (row of house rule " + r.ReplacedBy + ")"
		}
		rows.Items = append(rows.Items, line)
	}
	s.Lists = append(s.Lists, rows)
	return s
}

func shownProcedure(p *dsl.ProcInfo) shown {
	s := shownOf(p.Decl, "procedure", p.ID, p.Decl.Title, p.Decl.Body.Stmts)
	s.Facts = append(s.Facts, shownFact{"parameters", ruledoc.ParamsText(p.Decl.Params)})
	if p.Decl.When != nil {
		s.Facts = append(s.Facts, shownFact{"when", syntax.CanonicalExpr(p.Decl.When)})
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
			s.Facts = append(s.Facts, shownFact{kind, strings.Join(names[kind], ", ")})
		}
	}
	return s
}

// effectsOn lists the effects in force whose target is the declaration
// (or, for a procedure, one of its lets, rolls, tests or steps).
func effectsOn(idx *dsl.Index, kind, id string) []effectOnIt {
	targetKinds := map[string][]string{
		"procedure":      {"let", "roll", "test", "step", "procedure"},
		"table":          {"table"},
		"characteristic": {"characteristic"},
		"event":          {"event"},
	}[kind]
	var out []effectOnIt
	for _, e := range idx.Effects {
		name, _, _ := strings.Cut(e.Target, ".")
		if name != id || !slices.Contains(targetKinds, e.TargetKind) {
			continue
		}
		d := ruledoc.DescribeEffect(e)
		out = append(out, effectOnIt{EffectDesc: d, Rule: e.Rule, Text: d.String()})
	}
	return out
}

// writeShown prints what show found, as text.
func writeShown(w io.Writer, s shown, indent string) {
	fmt.Fprintf(w, "%s%s  %s\n", indent, s.ID, s.Title)
	facts := []shownFact{{"kind", s.Kind}, {"at", s.At}, {"source", s.Source}, {"text", s.Text}, {"replaced by", s.ReplacedBy}}
	facts = append(facts, s.Facts...)
	width := 0
	for _, f := range facts {
		if f.Value != "" {
			width = max(width, len(f.Name))
		}
	}
	for _, f := range facts {
		if f.Value == "" {
			continue
		}
		pad := strings.Repeat(" ", width-len(f.Name))
		// A text of several lines continues under its first.
		value := strings.ReplaceAll(strings.TrimRight(f.Value, "\n"), "\n", "\n"+indent+"  "+strings.Repeat(" ", width+2))
		fmt.Fprintf(w, "%s  %s:%s %s\n", indent, f.Name, pad, value)
	}
	for _, l := range s.Lists {
		if len(l.Items) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s  %s:\n", indent, l.Name)
		for _, it := range l.Items {
			fmt.Fprintf(w, "%s    %s\n", indent, it)
		}
	}
	if s.Kind == "house rule" || s.Kind == "rule" || len(s.Effects) > 0 {
		if len(s.Effects) == 0 {
			fmt.Fprintf(w, "%s  effects: none (text only)\n", indent)
		} else {
			fmt.Fprintf(w, "%s  effects:\n", indent)
		}
		for _, e := range s.Effects {
			fmt.Fprintf(w, "%s    %s\n", indent, e.Effect)
			fmt.Fprintf(w, "%s      touches %s\n", indent, e.Touches)
		}
	}
	switch s.Kind {
	case "procedure", "table", "characteristic", "event":
		if len(s.EffectsOnIt) == 0 {
			fmt.Fprintf(w, "%s  effects in force on it: none\n", indent)
			break
		}
		fmt.Fprintf(w, "%s  effects in force on it:\n", indent)
		for _, e := range s.EffectsOnIt {
			fmt.Fprintf(w, "%s    %s\n", indent, e.Text)
		}
	}
	for i, r := range s.Rules {
		if i == 0 {
			fmt.Fprintf(w, "%s  rules:\n", indent)
		}
		writeShown(w, r, indent+"    ")
	}
}
