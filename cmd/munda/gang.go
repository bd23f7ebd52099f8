package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// The procedure and event of the rules that say whether a gang keeps to
// its composition rules (rulesets/core-2023/founding.munda): each rule
// that finds a breach signals the event; the procedure then fails once.
// The verb asks the rules; it decides nothing itself.
const (
	gangCheckProcedure = "gang_check"
	gangBreachEvent    = "composition_breach"
)

func newGangCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "gang",
		Short:   "Check gangs against the rules for founding and composition",
		Example: `  munda gang check rulesets/core-2023/tests/states/campaign.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown gang verb %q (check)", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newGangCheckCmd())
	return cmd
}

func newGangCheckCmd() *cobra.Command {
	var (
		rf           ruleFlags
		founding     string
		allowUnknown bool
	)
	cmd := &cobra.Command{
		Use:   "check ROSTER",
		Short: "Report every breach of the gang composition rules in a roster",
		Long: `Check runs the rules' gang check (procedure gang_check) on every gang of a
roster or battle state and reports every breach of the composition rules,
each with the field at fault, its line in the file and the rule that found
it. --founding campaign or skirmish also checks the rules for founding a
gang (the budget, the starting Reputation, …). The rules are the ruleset's
and can be changed by house rules (--house) like any other.

Exit code 0: every gang keeps to the rules; 1: a breach, or a bad roster.`,
		Example: `  munda gang check rulesets/core-2023/tests/states/campaign.yaml
  munda gang check rulesets/core-2023/tests/states/skirmish.yaml --founding skirmish   # two breaches: exit 1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains([]string{"", "campaign", "skirmish"}, founding) {
				return usagef("--founding is campaign or skirmish, not %q", founding)
			}
			prog, err := loadProgram(cmd, &rf)
			if err != nil {
				return err
			}
			proc, err := prog.Procedure(gangCheckProcedure)
			if err != nil {
				return failed("these rules have no gang check (procedure %s)", gangCheckProcedure)
			}
			path := args[0]
			st, err := readState(cmd, path, prog, allowUnknown)
			if err != nil {
				return err
			}
			var breaches diag.Diagnostics
			for gi, g := range st.Gangs {
				given := map[string]string{"gang": g.ID}
				if founding != "" {
					given["founding"] = founding
				}
				bound, err := interpreter.BindArgs(st.Clone(), proc.Params, "procedure "+proc.ID, given)
				if err != nil {
					return failed("%v", err)
				}
				var events interpreter.Events
				runErr := prog.Run(st.Clone(), proc.ID, bound, interpreter.Options{Dice: &interpreter.Scripted{}, Log: &events})
				found := breachesOf(events, st, gi)
				breaches = append(breaches, found...)
				if runErr != nil && len(found) == 0 {
					return failedWith("", runErr, prog.Rules.Sources())
				}
			}
			if len(breaches) == 0 {
				return nil
			}
			if data, err := readInput(path, state.MaxStateBytes); err == nil {
				state.Locate(path, data, breaches)
				_ = diag.WriteText(cmd.OutOrStdout(), breaches, diag.Sources{path: data})
			} else {
				_ = diag.WriteText(cmd.OutOrStdout(), breaches, nil)
			}
			return failed("%d breaches of the gang composition rules", len(breaches))
		},
	}
	rf.register(cmd)
	cmd.Flags().StringVar(&founding, "founding", "", "also check the rules for founding a gang: campaign or skirmish")
	cmd.Flags().BoolVar(&allowUnknown, "allow-unknown", false, "accept skills, conditions and traits the rules do not declare, with a warning")
	return cmd
}

// breachesOf turns the breach events of gang gi's check into diagnostics
// with the field at fault: the model's (gangs[i].models[j].FIELD) or the
// gang's (gangs[i].FIELD).
func breachesOf(events interpreter.Events, st *state.State, gi int) diag.Diagnostics {
	var out diag.Diagnostics
	for _, e := range events {
		if e.Kind != interpreter.EventSignal || e.Name != gangBreachEvent {
			continue
		}
		arg := func(name string) string {
			for _, a := range e.Args {
				if v, ok := strings.CutPrefix(a, name+": "); ok {
					return v
				}
			}
			return ""
		}
		path := fmt.Sprintf("gangs[%d]", gi)
		if model := arg("model"); model != "" && model != "—" && model != "none" {
			for mi, m := range st.Gangs[gi].Models {
				if m.ID == model {
					path += fmt.Sprintf(".models[%d]", mi)
				}
			}
		}
		if field := arg("field"); field != "" {
			path += "." + field
		}
		out = append(out, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeGangBreach, Path: path,
			Summary: arg("message"), Rule: e.Rule, Source: e.Source})
	}
	return out
}
