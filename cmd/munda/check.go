package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/rulesets"
)

func newCheckCmd() *cobra.Command {
	var (
		rf          ruleFlags
		format      string
		verbose     bool
		allVariants bool
		lang        string
		noCache     bool
	)
	cmd := &cobra.Command{
		Use:   "check [PATH]...",
		Short: "Check rule files for errors",
		Long: `Check parses and checks rule files: grammar, references, expression
types, table coverage, overlays and tests. PATH is a .munda file or a
directory of them; a directory with no .munda files of its own is searched
for packs (so "munda check rulesets" checks each shipped pack). With no
PATH, the shipped rulesets are checked.

A pack without a "ruleset" header (house rules, a mod, loose files) is
checked on top of --rules (default core-2023; "none" for nothing), with its
house rules switched on.

It prints nothing when all is well. Exit code 0: no errors (warnings may
be printed); 1: errors; 2: a usage error.

The same check of unchanged files replays what it printed from a cache
($MUNDA_CACHE_DIR, by default munda/check in the user's cache directory);
--no-cache or MUNDA_CACHE=off checks afresh.`,
		Example: `  munda check
  munda check rulesets/core-2023
  munda check --format json mymod/
  munda check --format github --rules core-2023 house/mine.munda
  munda check --rules legacy-2017 --house aa,n17
  munda check --all-variants
  munda check --lang cs`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text", "json", "github":
			default:
				return usagef("--format must be text, json or github, not %q", format)
			}
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			var selections []rulesets.Selection
			var all diag.Diagnostics
			if allVariants {
				if len(args) > 0 {
					return usagef("--all-variants checks the shipped rules: give no PATH")
				}
				selections = allVariantSelections(sel)
			} else if len(args) == 0 && rf.base == rulesets.None {
				return usagef("--rules none checks files on their own: give a PATH")
			} else if len(args) == 0 && (rf.base != "" || len(rf.houses) > 0 || len(sel.With) > 0) {
				// One combination asked for by its flags: that one, not
				// every shipped pack with them.
				selections = []rulesets.Selection{sel}
			} else {
				selections, all = selectionsFor(args, sel)
			}
			cache := openCheckCache(noCache)
			return cachedCheck(cmd, args, cache, checkInputs(args, rf.with), verbose, func(stdout, stderr io.Writer) ([]string, error) {
				lang = narrationLang(lang)
				var counts []string // "core-2023: 120 of 900 translated" per selection, with --lang
				src := diag.Sources{}
				seen := map[string]bool{}
				for _, s := range selections {
					if s.Pack != nil || len(s.With) > 0 {
						// A pack checked on a ruleset (a mod, a house pack,
						// --with files) brings its own test blocks; the
						// ruleset's are checked with the ruleset, as `munda
						// test` runs them.
						s.OwnTests = true
					}
					rules, diags := rulesets.LoadShared(s)
					if rules != nil {
						for k, v := range rules.Sources() {
							src[k] = v
						}
					}
					if lang != "" && lang != "en" && rules != nil && !diags.HasErrors() {
						if err := checkLang(lang, rules); err != nil {
							return nil, err
						}
						untr := i18n.Untranslated{List: true}
						if s.Pack != nil { // a mod, house pack or loose file: its own text, not the ruleset's under it
							untr.In = packFiles(rules, s.Pack)
						}
						cat, more := translation(rules, lang, untr, src)
						diags = append(diags, more...)
						if cat != nil {
							name := selectionName(s)
							if s.Pack != nil && len(s.Pack.Files) > 0 && (name == "." || name == "") {
								name = strings.Join(s.Pack.Files, ", ") // loose files
							}
							counts = append(counts, fmt.Sprintf("%s: %d of %d titles and messages translated into %s, %d untranslated",
								name, cat.Translated, cat.Translated+cat.Untranslated, lang, cat.Untranslated))
						}
					}
					for _, d := range diags {
						key := d.Error() + d.Code
						if !seen[key] {
							seen[key] = true
							all = append(all, d)
						}
					}
					if verbose && !diags.HasErrors() && rules != nil {
						fmt.Fprintf(stderr, "ok %s (%d files)\n", selectionName(s), len(rules.Files()))
					}
				}
				all.Sort()
				out := stdout
				switch format {
				case "json":
					err = diag.WriteJSON(out, all)
				case "github":
					err = diag.WriteGitHub(out, all)
				default:
					err = diag.WriteText(out, all, src)
				}
				if err != nil {
					return nil, err
				}
				if format == "text" {
					for _, c := range counts {
						fmt.Fprintln(out, c)
					}
				}
				var read []string
				for name := range src {
					read = append(read, name)
				}
				if all.HasErrors() {
					return read, &failure{}
				}
				return read, nil
			})
		},
	}
	rf.register(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or github (Actions annotations)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "say which packs were checked")
	cmd.Flags().StringVar(&lang, "lang", "", "also check the rules' translation into this language (default $MUNDA_LANG): its overlay's errors, and what is untranslated, as warnings with a count")
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "check again even if the same check is in the cache ($"+cacheEnv+"=off does the same)")
	cmd.Flags().BoolVar(&allVariants, "all-variants", false, "check every shipped base with every combination of shipped house groups")
	return cmd
}

// selectionName says what a selection checks, for -v.
func selectionName(s rulesets.Selection) string {
	if s.Pack != nil {
		return s.Pack.Display
	}
	base := s.Base
	if base == "" {
		base = rulesets.DefaultBase
	}
	name := "rulesets/" + base
	if len(s.Houses) > 0 {
		name += " +" + strings.Join(s.Houses, ",")
	}
	for _, w := range s.With {
		name += " with " + w.Display
	}
	return name
}

// allVariantSelections is every shipped base with every subset of the
// shipped house groups, all their rules on: what a group may switch on.
func allVariantSelections(sel rulesets.Selection) []rulesets.Selection {
	var houses []string
	for _, d := range rulesets.HouseDirs() {
		houses = append(houses, strings.TrimPrefix(d, "house/"))
	}
	var out []rulesets.Selection
	for _, base := range rulesets.Bases() {
		for mask := 0; mask < 1<<len(houses); mask++ {
			s := sel
			s.Base, s.Houses = base, nil
			for i, h := range houses {
				if mask&(1<<i) != 0 {
					s.Houses = append(s.Houses, h)
				}
			}
			out = append(out, s)
		}
	}
	return out
}
