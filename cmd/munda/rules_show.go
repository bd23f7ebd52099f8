package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

func newRulesShowCmd() *cobra.Command {
	var (
		rf      ruleFlags
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "show [KIND] ID",
		Short: "Explain a house rule, a house group or any declaration",
		Long: `Show explains one thing of the rules: a house rule ("aa.single_lasting_injury",
switched on to be shown), a house group ("aa"), or any declaration by id
(a procedure, table, dice, characteristic, function, event, kind of model,
enum, skill, trait, power, action, condition, standing rule or ruleset;
kebab-case is fine).
It prints its title, kind, source and text, its effects with what each
touches, and for a procedure, table, characteristic or event the effects
in force that act on it and whose they are. For a skill, trait, power,
condition, action or standing rule, "touches" sums up the procedures,
actions, rolls, tables and events its effects reach, and "text only" says
why a feature marked text_only does not run. --rules, --house and --with
choose the rules in force, as for run. An id found in several kinds (a
skill and a trait) shows each; naming the kind first (skill dodge) shows
that one.`,
		Example: `  munda rules show aa.single_lasting_injury
  munda rules show aa
  munda rules show bottle-check --house aa
  munda rules show lasting-injury --json
  munda rules show skill dodge`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := ""
			if len(args) == 2 {
				kind = strings.TrimSpace(args[0])
				args = args[1:]
			}
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
			// switched on to be ruledoc.Shown, so its effects resolve.
			known := map[string]*syntax.House{}
			for _, p := range packs {
				for _, h := range p.Houses {
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
			found := ruledoc.Show(rules, id)
			if _, ok := rulesets.Resolve(id); ok && len(found) == 0 {
				// A shipped ruleset the base does not extend: ruledoc.Shown as
				// the base.
				sel.Base = id
				if rules, err = loadRules(cmd, sel, ""); err != nil {
					return err
				}
				found = ruledoc.Show(rules, id)
			}
			if len(found) == 0 {
				// A house rule named without its group.
				var full []string
				for _, p := range packs {
					for _, h := range p.Houses {
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
					found = ruledoc.Show(rules, id)
				}
			}
			if len(found) == 0 {
				cands := ruledoc.ShownIDs(rules)
				for _, p := range packs {
					for _, h := range p.Houses {
						cands = append(cands, h.ID.Name)
						for _, r := range h.Rules() {
							cands = append(cands, h.ID.Name+"."+r.ID.Name)
						}
					}
				}
				return usagef("unknown id %q%s", args[0], didYouMean(id, cands, nil))
			}
			if kind != "" {
				var kinds []string
				var ofKind []ruledoc.Shown
				for _, s := range found {
					kinds = append(kinds, s.Kind)
					if s.Kind == kind {
						ofKind = append(ofKind, s)
					}
				}
				if len(ofKind) == 0 {
					return usagef("%q is no %s (it is: %s)", args[0], kind, strings.Join(kinds, ", "))
				}
				found = ofKind
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

// writeShown prints what show found, as text.
func writeShown(w io.Writer, s ruledoc.Shown, indent string) {
	fmt.Fprintf(w, "%s%s  %s\n", indent, s.ID, s.Title)
	facts := []ruledoc.Fact{{Name: "kind", Value: s.Kind}, {Name: "at", Value: s.At}, {Name: "source", Value: s.Source}, {Name: "text", Value: s.Text}, {Name: "replaced by", Value: s.ReplacedBy}}
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
	if len(s.Touches) > 0 {
		fmt.Fprintf(w, "%s  touches:\n", indent)
		for _, t := range s.Touches {
			fmt.Fprintf(w, "%s    %s\n", indent, t)
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
