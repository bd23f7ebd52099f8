package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

func newTestCmd() *cobra.Command {
	var (
		rf      ruleFlags
		run     string
		verbose bool
	)
	cmd := &cobra.Command{
		Use:   "test [PATH]...",
		Short: "Run the test blocks written next to the rules",
		Long: `Test runs the "test" blocks of rule packs: each runs a procedure on a state
with scripted dice and choices, then checks its expectations. It prints
PASS or FAIL for each, and a last line "N passed, N failed". With no PATH,
the shipped packs' tests run.

Exit code 0: every test passed; 1: a test failed or the rules have errors.`,
		Example: `  munda test
  munda test rulesets/core-2023 --run bottle
  munda test mymod/ -v`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var filter *regexp.Regexp
			if run != "" {
				var err error
				if filter, err = regexp.Compile(run); err != nil {
					return usagef("--run: %v", err)
				}
			}
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			selections, unread := selectionsFor(args, sel)
			_ = diag.WriteText(cmd.ErrOrStderr(), unread, nil)
			out := cmd.OutOrStdout()
			passed, failedN, broken := 0, 0, len(unread)
			for _, s := range selections {
				s.OwnTests = true
				rules, diags := rulesets.LoadShared(s)
				if diags.HasErrors() {
					var src diag.Sources
					if rules != nil {
						src = rules.Sources()
					}
					_ = diag.WriteText(cmd.ErrOrStderr(), errorsOnly(diags), src)
					broken++
					continue
				}
				prog, err := interpreter.Compile(rules)
				if err != nil {
					return err
				}
				var tests []*dsl.TestInfo
				// The index holds only the tests of the packs under test
				// (OwnTests), not of the base under them.
				for _, t := range rules.Index.Tests {
					if filter == nil || filter.MatchString(t.Name) {
						tests = append(tests, t)
					}
				}
				cache := map[string]*interpreter.Program{}
				programFor := func(base string, houses []string) (*interpreter.Program, error) {
					sub := s
					if base != "" {
						sub.Base = strings.ReplaceAll(base, "_", "-")
						if packIsBase(rules, s.Pack) {
							sub.Pack = nil // a test's `rules` replaces the pack's own base
						}
					}
					sub.Houses = append(append([]string(nil), s.Houses...), houses...)
					// Only to run this pack's tests: the other packs' test
					// blocks need not be checked again.
					sub.SkipTests = true
					key := sub.Base + "|" + strings.Join(sub.Houses, ",")
					if p, ok := cache[key]; ok {
						return p, nil
					}
					r, ds := rulesets.LoadShared(sub)
					if ds.HasErrors() {
						return nil, ds.Err()
					}
					p, err := interpreter.Compile(r)
					cache[key] = p
					return p, err
				}
				for _, res := range interpreter.RunTests(prog, tests, programFor) {
					if res.Passed {
						passed++
						if verbose {
							fmt.Fprintf(out, "PASS %s (%s)\n", res.Name, res.At)
						}
						continue
					}
					failedN++
					fmt.Fprintf(out, "FAIL %s (%s)\n", res.Name, res.At)
					for _, f := range res.Failures {
						fmt.Fprintf(out, "    %s\n", f)
					}
					if verbose {
						var b strings.Builder
						_ = interpreter.WriteText(&b, res.Events)
						for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
							fmt.Fprintf(out, "      | %s\n", line)
						}
					}
				}
			}
			fmt.Fprintf(out, "%d passed, %d failed\n", passed, failedN+broken)
			if failedN+broken > 0 {
				return &failure{}
			}
			return nil
		},
	}
	rf.register(cmd)
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose names match this regular expression")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print passing tests too, and the events of failing ones")
	return cmd
}

// packIsBase reports whether the loaded pack p is the base of the rules
// (it has a ruleset header) rather than layered on one.
func packIsBase(rules *dsl.Rules, p *dsl.Pack) bool {
	for _, lp := range rules.Packs {
		if lp.Pack == p {
			return lp.Header != nil
		}
	}
	return false
}
