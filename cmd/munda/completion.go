package main

// This file is shell completion: `munda completion bash|zsh|fish|powershell`
// prints a script (cobra's), and the functions below complete what the
// script asks for from the rules and the state named on the command line
// so far: procedures, tables, house rules, parameters, ids of models and
// gangs, choices.

import (
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

const noFiles = cobra.ShellCompDirectiveNoFileComp

// completionRules loads the rules the flags select, quietly: completion
// offers nothing rather than an error.
func completionRules(rf *ruleFlags) *dsl.Rules {
	sel, err := rf.selection()
	if err != nil {
		return nil
	}
	sel.SkipTests = true
	rules, diags := rulesets.LoadShared(sel)
	if diags.HasErrors() {
		return nil
	}
	return rules
}

// completionState reads the --state file, quietly.
func completionState(path string) *state.State {
	if path == "" {
		return nil
	}
	data, err := readInput(path, state.MaxStateBytes)
	if err != nil {
		return nil
	}
	st, err := state.Decode(path, data)
	if err != nil {
		return nil
	}
	return st
}

// kebab is how ids are typed on a command line.
func kebab(id string) string { return strings.ReplaceAll(id, "_", "-") }

// withPrefix keeps the candidates that start with what was typed, sorted.
func withPrefix(cands []string, typed string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, typed) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// completeProcedures completes the first argument of run and odds.
func completeProcedures(rf *ruleFlags) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		rules := completionRules(rf)
		if len(args) > 0 || rules == nil {
			return nil, noFiles
		}
		var ids []string
		for id, p := range rules.Index.Procedures {
			ids = append(ids, kebab(id)+"\t"+p.Title)
		}
		return withPrefix(ids, typed), noFiles
	}
}

// completeTables completes the table `munda roll` rolls on.
func completeTables(rf *ruleFlags) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		rules := completionRules(rf)
		if len(args) > 0 || rules == nil {
			return nil, noFiles
		}
		var ids []string
		for id, t := range rules.Index.Tables {
			if !t.Lookup {
				ids = append(ids, kebab(id)+"\t"+t.Title)
			}
		}
		return withPrefix(ids, typed), noFiles
	}
}

// registerRuleCompletions completes --rules and --house.
func registerRuleCompletions(cmd *cobra.Command, rf *ruleFlags) {
	_ = cmd.RegisterFlagCompletionFunc("rules", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return append(rulesets.Bases(), rulesets.None), noFiles
	})
	_ = cmd.RegisterFlagCompletionFunc("house", func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		sel, err := rf.selection()
		if err != nil {
			return nil, noFiles
		}
		packs, _ := rulesets.HousePacks(sel.With)
		// A list: complete its last item, keep what comes before.
		done, last := "", typed
		if i := strings.LastIndex(typed, ","); i >= 0 {
			done, last = typed[:i+1], typed[i+1:]
		}
		off := strings.HasPrefix(last, "-")
		var cands []string
		for _, p := range packs {
			for _, h := range p.Houses {
				cands = append(cands, kebab(h.ID.Name))
				for _, r := range h.Rules() {
					cands = append(cands, kebab(h.ID.Name+"."+r.ID.Name))
				}
			}
		}
		var out []string
		for _, c := range withPrefix(cands, strings.TrimPrefix(last, "-")) {
			if off {
				c = "-" + c
			}
			out = append(out, done+c)
		}
		return out, noFiles | cobra.ShellCompDirectiveNoSpace
	})
}

// registerRunCompletions completes --arg, --model, --choose and --lang
// from the rules and the --state given so far (flags a verb lacks are
// skipped).
func registerRunCompletions(cmd *cobra.Command, rf *ruleFlags, statePath *string, params func(rules *dsl.Rules, name string) []*syntax.Param) {
	_ = cmd.RegisterFlagCompletionFunc("arg", func(_ *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		rules := completionRules(rf)
		if rules == nil || len(args) == 0 {
			return nil, noFiles
		}
		ps := params(rules, dsl.NormalizeID(args[0]))
		name, _, named := strings.Cut(typed, "=")
		if !named {
			var out []string
			for _, p := range ps {
				out = append(out, kebab(p.Name.Name)+"=")
			}
			return withPrefix(out, typed), noFiles | cobra.ShellCompDirectiveNoSpace
		}
		var kind string
		for _, p := range ps {
			if p.Name.Name == dsl.NormalizeID(name) {
				kind = p.TypeName()
			}
		}
		var out []string
		for _, id := range stateIDs(completionState(*statePath), kind) {
			out = append(out, name+"="+id)
		}
		return withPrefix(out, typed), noFiles
	})
	_ = cmd.RegisterFlagCompletionFunc("model", func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(stateIDs(completionState(*statePath), "model"), typed), noFiles
	})
	_ = cmd.RegisterFlagCompletionFunc("choose", func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		rules := completionRules(rf)
		if rules == nil {
			return nil, noFiles
		}
		var out []string
		for name := range rules.Index.Choices {
			out = append(out, name+"=")
		}
		return withPrefix(out, typed), noFiles | cobra.ShellCompDirectiveNoSpace
	})
	_ = cmd.RegisterFlagCompletionFunc("lang", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return narrationLanguages(completionRules(rf)), noFiles
	})
}

// stateIDs lists the ids of a state's gangs ("gang"), models ("model")
// or weapons ("weapon", as MODEL.WEAPON).
func stateIDs(st *state.State, kind string) []string {
	if st == nil {
		return nil
	}
	var out []string
	for _, g := range st.Gangs {
		if kind == "gang" {
			out = append(out, g.ID)
		}
		for _, m := range g.Models {
			switch kind {
			case "model":
				out = append(out, m.ID)
			case "weapon":
				for _, w := range m.Weapons {
					if w != nil {
						out = append(out, m.ID+"."+w.Name)
					}
				}
			}
		}
	}
	return out
}

// procedureParams and tableParams are the parameters --arg completes.
func procedureParams(rules *dsl.Rules, id string) []*syntax.Param {
	if p := rules.Index.Procedures[id]; p != nil {
		return p.Decl.Params
	}
	return nil
}

func tableParams(rules *dsl.Rules, id string) []*syntax.Param {
	if t := rules.Index.Tables[id]; t != nil && t.Decl != nil {
		return t.Decl.Params
	}
	return nil
}

// languages are the languages the rules' titles are translated into,
// besides the rules' own.
func languages(rules *dsl.Rules) []string {
	seen := map[string]bool{}
	for _, f := range rules.Files() {
		syntax.Inspect(f, func(n any) bool {
			if t, ok := n.(*syntax.TitleItem); ok {
				seen[t.Lang.Name] = true
			}
			return true
		})
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}
