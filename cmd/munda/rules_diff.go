package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/rulesets"
)

func newRulesDiffCmd() *cobra.Command {
	var (
		with    []string
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two stacks of rules by what they mean",
		Long: `Diff compares two stacks of rules, each written BASE[+TOGGLES]: a base
ruleset (or "none") and house rules switched on or off as for --house,
e.g. core-2023, core-2023+aa, core-2023+aa,-aa.single_lasting_injury.
--with packs are loaded on both sides. Both are assembled and checked
first; errors in either fail the command.

The comparison is by meaning, not by text: layout, comments and which
file a declaration is in do not count. It lists, by kind, the
declarations only in A (-), only in B (+) and in both but different (~):
which rows of a table, which faces of a dice, which lets, rolls, tests,
steps and choices of a procedure differ; then the house rules switched on
in one only; then the effects in force in one only, each named by what
it changes ("let threshold of procedure bottle_check: overridden by house
rule aa.reinforcements_count = gang.eligible_models").

Like diff(1) it prints a header, then the differences or "no differences";
unlike it, the exit code is 0 either way (1: the rules have errors; 2: a
usage error).`,
		Example: `  munda rules diff core-2023 core-2023+aa
  munda rules diff core-2023+aa core-2023+aa,-aa.single_lasting_injury
  munda rules diff core-2023 legacy-2017+n17 --json
  munda rules diff none none+mine --with house/mine.munda`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("diff takes two stacks of rules, A and B (e.g. core-2023 core-2023+aa), not %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			rf := ruleFlags{with: with}
			common, err := rf.selection()
			if err != nil {
				return err
			}
			packs, err := housePacks(cmd, common)
			if err != nil {
				return err
			}
			var sels [2]rulesets.Selection
			for i, arg := range args {
				if sels[i], err = parseStack(arg); err != nil {
					return err
				}
				sels[i].With = common.With
				if _, err := checkToggles(packs, sels[i].Houses, stackName(i, arg)); err != nil {
					return err
				}
			}
			var sides [2]*dsl.Rules
			for i, arg := range args {
				if sides[i], err = loadRules(cmd, sels[i], stackName(i, arg)); err != nil {
					return err
				}
			}
			d := ruledoc.Diff(sides[0], sides[1])
			if jsonOut {
				return writeJSON(cmd.OutOrStdout(), struct {
					A    string `json:"a"`
					B    string `json:"b"`
					Same bool   `json:"same"`
					*ruledoc.RulesDiff
				}{args[0], args[1], d.Empty(), d})
			}
			writeDiff(cmd.OutOrStdout(), args[0], args[1], d)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&with, "with", nil, "extra rule files or directories to load on both sides (repeatable)")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON for tools")
	return cmd
}

// stackName prefixes messages about one side: "B (core-2023+aa): ".
func stackName(i int, arg string) string {
	return string("AB"[i]) + " (" + arg + "): "
}

// parseStack reads BASE[+TOGGLES] (see rulesets.ParseStack); an unknown
// base fails, as in every verb.
func parseStack(s string) (rulesets.Selection, error) {
	sel, err := rulesets.ParseStack(s)
	if err != nil {
		return sel, usagef("%v", err)
	}
	if sel.Base != rulesets.None {
		if _, ok := rulesets.Resolve(sel.Base); !ok {
			return sel, failed("%v", rulesets.UnknownBase(sel.Base))
		}
	}
	return sel, nil
}

// diffSections name the kinds of declaration, as headings.
var diffSections = map[string]string{
	"ruleset": "rulesets", "kind": "kinds of model", "enum": "enums", "dice": "dice", "characteristic": "characteristics", "table": "tables",
	"procedure": "procedures", "function": "functions", "event": "events", "skill": "skills",
	"trait": "traits", "power": "powers", "action": "actions", "condition": "conditions",
	"rule": "standing rules",
}

var changeMark = map[string]string{ruledoc.Removed: "-", ruledoc.Added: "+", ruledoc.Changed: "~"}

// writeDiff prints a diff as text: a header, then by section the changes
// marked - (only in A), + (only in B) and ~ (different).
func writeDiff(w io.Writer, a, b string, d *ruledoc.RulesDiff) {
	fmt.Fprintf(w, "--- %s\n+++ %s\n", a, b)
	if d.Empty() {
		fmt.Fprintln(w, "no differences")
		return
	}
	if len(d.HouseRules) > 0 {
		fmt.Fprintln(w, "house rules switched on:")
		var rows [][]string
		for _, h := range d.HouseRules {
			rows = append(rows, []string{changeMark[h.Change] + " " + h.ID, h.Title})
		}
		writeColumns(w, "  ", rows)
	}
	in := func(by, side string) string { return by + " in " + side }
	for _, kind := range ruledoc.DiffKinds {
		first := true
		for _, c := range d.Declarations {
			if c.Kind != kind {
				continue
			}
			if first {
				fmt.Fprintf(w, "%s:\n", diffSections[kind])
				first = false
			}
			line := fmt.Sprintf("  %s %s  %s", changeMark[c.Change], c.ID, c.Title)
			var by []string
			switch {
			case c.ReplacedByA != "" && c.ReplacedByA == c.ReplacedByB:
				by = append(by, c.ReplacedByA)
			default:
				if c.ReplacedByA != "" {
					by = append(by, in(c.ReplacedByA, a))
				}
				if c.ReplacedByB != "" {
					by = append(by, in(c.ReplacedByB, b))
				}
			}
			if len(by) > 0 {
				line += "  (replaced by " + strings.Join(by, "; by ") + ")"
			}
			fmt.Fprintln(w, line)
			for _, x := range c.Details {
				fmt.Fprintf(w, "      %s\n", detailLine(x, a, b))
			}
		}
	}
	if len(d.Effects) > 0 {
		fmt.Fprintln(w, "effects in force:")
		for _, e := range d.Effects {
			line := fmt.Sprintf("  %s %s", changeMark[e.Change], e.Text)
			if e.Change == ruledoc.Changed {
				line += "  (its body differs)"
			}
			fmt.Fprintln(w, line)
		}
	}
}

// detailLine is one part of a changed declaration: "~ row memorable_death:
// 66 "Memorable Death" → 66 "Memorable Death (A&A)" (row of house rule
// aa.memorable_death in core-2023+aa)".
func detailLine(x ruledoc.Detail, a, b string) string {
	s := changeMark[x.Change] + " " + x.What
	if x.What == "statements" {
		s = changeMark[x.Change] + " other statements"
	}
	if x.ID != "" {
		s += " " + x.ID
	}
	switch {
	case x.A != "" && x.A == x.B:
		s += ": " + x.A + " (its body differs)"
	case x.A != "" && x.B != "":
		s += ": " + x.A + " → " + x.B
	case x.A != "":
		s += ": " + x.A
	case x.B != "":
		s += ": " + x.B
	}
	var by []string
	switch {
	case x.ByA != "" && x.ByA == x.ByB:
		by = append(by, "of "+x.ByA)
	default:
		if x.ByA != "" {
			by = append(by, "of "+x.ByA+" in "+a)
		}
		if x.ByB != "" {
			by = append(by, "of "+x.ByB+" in "+b)
		}
	}
	if len(by) > 0 {
		s += " (" + x.What + " " + strings.Join(by, ", ") + ")"
	}
	return s
}
