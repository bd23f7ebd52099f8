package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

func newRulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, explain and compare rulesets and house rules",
		Long: `Rules says what rules there are and what they change: "list" lists the
shipped rulesets and house rules, "show" explains one rule or declaration
and what acts on it, "diff" compares two stacks of rules by meaning.`,
		Example: `  munda rules list
  munda rules show aa.single_lasting_injury
  munda rules show bottle-check --house aa
  munda rules diff core-2023 core-2023+aa`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown rules verb %q (list, show or diff)", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newRulesListCmd(), newRulesShowCmd(), newRulesDiffCmd())
	return cmd
}

// ---------------------------------------------------------------------------
// munda rules list

type listedBase struct {
	Name   string `json:"name"` // as given to --rules: "core-2023"
	ID     string `json:"id"`   // as declared: "core_2023"
	Title  string `json:"title"`
	Source string `json:"source,omitempty"`
	InUse  bool   `json:"in_use"`
}

type listedHouse struct {
	ID      string       `json:"id"`
	Title   string       `json:"title"`
	Source  string       `json:"source,omitempty"`
	Pack    string       `json:"pack"`
	Shipped bool         `json:"shipped"`
	Rules   []listedRule `json:"rules"`
}

type listedRule struct {
	ID      string `json:"id"` // "aa.single_lasting_injury"
	Title   string `json:"title"`
	Source  string `json:"source,omitempty"`
	Effects bool   `json:"effects"` // false: text only
	On      bool   `json:"on"`      // switched on by --house
}

type listing struct {
	Rulesets []listedBase  `json:"rulesets"`
	Houses   []listedHouse `json:"houses"`
}

func newRulesListCmd() *cobra.Command {
	var (
		rf      ruleFlags
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "list [KIND]",
		Short: "List the shipped rulesets and house rules, or the declarations of one kind",
		Long: `List lists the shipped base rulesets (for --rules) and every house group
of the shipped house packs and of the --with packs, with their rules (for
--house), each with its title and source, and whether it has effects or
is text only. The ruleset in use is marked *, and so are the house rules
--house switches on.

With a KIND, it lists the declarations of that kind in the rules --rules,
--house and --with select, with their titles and sources: ` + strings.Join(ruledoc.ListKinds, ", ") + `.
Ids are shown as typed on a command line (end-phase).`,
		Example: `  munda rules list
  munda rules list --house aa,-aa.single_lasting_injury
  munda rules list --with mymod/ --json
  munda rules list procedures
  munda rules list skills --with mymod/`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: ruledoc.ListKinds,
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				return listKind(cmd, sel, args[0], jsonOut)
			}
			packs, err := housePacks(cmd, sel)
			if err != nil {
				return err
			}
			var l listing
			inUse := sel.Base
			if inUse == "" {
				inUse = rulesets.DefaultBase
			}
			for _, name := range rulesets.Bases() {
				b := listedBase{Name: name, ID: dsl.NormalizeID(name),
					InUse: dsl.NormalizeID(name) == dsl.NormalizeID(inUse)}
				if lp, _ := dsl.LoadPack(rulesets.Pack(name)); lp != nil && lp.Header != nil {
					b.ID, b.Title = lp.Header.ID.Name, lp.Header.Title.Value()
					b.Source = syntax.MetaOf(lp.Header.Items).Source
				}
				l.Rulesets = append(l.Rulesets, b)
			}
			on, err := checkToggles(packs, sel.Houses, "--house: ")
			if err != nil {
				return err
			}
			l.Houses = []listedHouse{}
			for _, p := range packs {
				houses := append([]*syntax.House(nil), p.Houses...)
				if p.Shipped {
					sort.SliceStable(houses, func(i, j int) bool { return houses[i].ID.Name < houses[j].ID.Name })
				}
				for _, h := range houses {
					lh := listedHouse{ID: h.ID.Name, Title: h.Title.Value(), Source: syntax.MetaOf(h.Items).Source,
						Pack: p.Display, Shipped: p.Shipped, Rules: []listedRule{}}
					for _, r := range h.Rules() {
						id := h.ID.Name + "." + r.ID.Name
						lr := listedRule{ID: id, Title: r.Title.Value(), Source: syntax.MetaOf(r.Items).Source, On: on[id]}
						for _, it := range r.Items {
							lr.Effects = lr.Effects || ruledoc.IsEffect(it)
						}
						lh.Rules = append(lh.Rules, lr)
					}
					l.Houses = append(l.Houses, lh)
				}
			}
			if jsonOut {
				return writeJSON(cmd.OutOrStdout(), l)
			}
			return writeListing(cmd.OutOrStdout(), l)
		},
	}
	rf.register(cmd)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON for tools")
	return cmd
}

// listKind prints the declarations of one kind.
func listKind(cmd *cobra.Command, sel rulesets.Selection, kind string, jsonOut bool) error {
	if !slices.Contains(ruledoc.ListKinds, kind) {
		msg := diag.Suggest(fmt.Sprintf("unknown kind %q", kind), kind, ruledoc.ListKinds)
		return usagef("%s (kinds: %s)", msg, strings.Join(ruledoc.ListKinds, ", "))
	}
	rules, err := loadRules(cmd, sel, "")
	if err != nil {
		return err
	}
	list, _ := ruledoc.Declarations(rules, kind)
	if jsonOut {
		if list == nil {
			list = []ruledoc.Listed{}
		}
		return writeJSON(cmd.OutOrStdout(), list)
	}
	var rows [][]string
	for _, d := range list {
		rows = append(rows, []string{kebab(d.ID), d.Title, bracket(d.Source)})
	}
	if len(rows) == 0 {
		fmt.Fprintf(cmd.OutOrStdout(), "no %s\n", kind)
	}
	writeColumns(cmd.OutOrStdout(), "", rows)
	return nil
}

func writeListing(w io.Writer, l listing) error {
	mark := func(on bool) string {
		if on {
			return "*"
		}
		return " "
	}
	fmt.Fprintln(w, "Rulesets (--rules; * in use):")
	var rows [][]string
	for _, b := range l.Rulesets {
		rows = append(rows, []string{mark(b.InUse) + " " + b.Name, b.Title, bracket(b.Source)})
	}
	writeColumns(w, "", rows)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "House rules (--house; * switched on):")
	if len(l.Houses) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for i, h := range l.Houses {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, strings.Join(nonEmpty(h.ID, h.Title, bracket(h.Source), "("+h.Pack+")"), "  "))
		rows = nil
		for _, r := range h.Rules {
			kind := "text only"
			if r.Effects {
				kind = "effects"
			}
			rows = append(rows, []string{mark(r.On) + " " + r.ID, kind, r.Title, bracket(r.Source)})
		}
		if len(rows) == 0 {
			fmt.Fprintln(w, "    (no rules)")
		}
		writeColumns(w, "  ", rows)
	}
	return nil
}

// writeColumns prints rows with their columns aligned, two spaces apart,
// and no blanks at the ends of lines.
func writeColumns(w io.Writer, indent string, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// bracket puts a source in brackets, as the narration does.
func bracket(s string) string {
	if s == "" {
		return ""
	}
	return "[" + s + "]"
}

// nonEmpty drops the empty strings.
func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
