package main

import (
	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/catalogue"
	"github.com/munda-rules/munda/stdlib/state"
	"github.com/munda-rules/munda/stdlib/yaktribe"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import a gang roster (a Yaktribe export) as a state file",
		Long: `Import turns a gang kept in a roster manager into a munda state file.
"yaktribe" reads a gang exported from Yaktribe as JSON. Weapon profiles and
armour saves come from the ruleset's equipment catalogue, and your own
(--catalogue FILE). See docs/import.md.`,
		Example: `  munda import yaktribe testdata/yaktribe/venom-sisters.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown import format %q (yaktribe)", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newImportYaktribeCmd())
	return cmd
}

func newImportYaktribeCmd() *cobra.Command {
	var (
		rf         ruleFlags
		out        string
		catalogues []string
	)
	cmd := &cobra.Command{
		Use:   "yaktribe FILE",
		Short: "Import a gang exported from Yaktribe (JSON) as a state file",
		Long: `Yaktribe reads a gang exported from Yaktribe's gang manager
(yaktribe.games/underhive/json/gang/ID.json) and writes it as a munda state
file holding that gang: to -o FILE (atomically; JSON for a .json path), or
to standard output.

Gangers become fighters with their characteristics, experience, kills,
advancements, skills, Lasting Injuries and status (Alive, Recovery, Dead);
equipment gets its profile from the ruleset's equipment catalogue and from
--catalogue files, whose items replace the ruleset's of the same name.
Equipment no catalogue knows is a warning naming the fighter and the item:
the fighter still imports, and the item becomes a weapon marked no_profile,
which rules that need its profile refuse. Skills and injuries the rules do
not know are warnings with a did-you-mean. Warnings go to standard error;
any error in the export names the field, exits 1 and writes nothing.

To fight a battle with imported gangs, line them up with munda battle new.`,
		Example: `  munda import yaktribe testdata/yaktribe/iron-sons.json -o iron-sons.yaml
  munda import yaktribe testdata/yaktribe/venom-sisters.json -o venom-sisters.json
  munda import yaktribe testdata/yaktribe/iron-sons.json --catalogue rulesets/core-2023/catalogue/weapons.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			rules, err := loadRules(cmd, sel, "")
			if err != nil {
				return err
			}
			cfg, err := importConfig(rules, sel.Base, catalogues)
			if err != nil {
				return err
			}
			path := args[0]
			data, err := readInput(path, yaktribe.MaxBytes)
			if err != nil {
				return failed("%v", err)
			}
			gang, diags := yaktribe.Import(path, data, cfg)
			src := diag.Sources{path: data}
			if diags.HasErrors() {
				return failedWith("", diags, src)
			}
			if len(diags) > 0 {
				_ = diag.WriteText(cmd.ErrOrStderr(), diags, src)
			}
			st := &state.State{Gangs: []*state.Gang{gang}}
			// Names the rules lack were warned about and kept: the state
			// is written with them (run it with --allow-unknown, or fix them).
			return writeNewState(cmd, st, rules.Index.Vocabulary.Lenient(), out)
		},
	}
	rf.register(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the state to this file (atomically) instead of standard output")
	cmd.Flags().StringArrayVar(&catalogues, "catalogue", nil, "an equipment catalogue of your own, on top of the ruleset's (repeatable; docs/catalogue.md)")
	return cmd
}

// importConfig assembles what an import needs from the rules in force:
// the ruleset's catalogue with the user's on top, its import mapping, and
// its skills and Lasting Injuries.
func importConfig(rules *dsl.Rules, base string, userCatalogues []string) (yaktribe.Config, error) {
	var cfg yaktribe.Config
	dir := rulesets.CatalogueDir(base)
	shipped, diags := catalogue.ReadFS(rulesets.FS, dir, "rulesets/"+dir)
	if diags.HasErrors() {
		return cfg, failedWith("the ruleset's catalogue has errors:", diags, nil)
	}
	var mine []*catalogue.File
	src := diag.Sources{}
	for _, path := range userCatalogues {
		data, err := readInput(path, catalogue.MaxFileBytes)
		if err != nil {
			return cfg, failed("--catalogue: %v", err)
		}
		src[path] = data
		f, ds := catalogue.Read(path, data)
		if ds.HasErrors() {
			return cfg, failedWith("", ds, src)
		}
		mine = append(mine, f)
	}
	cat, diags := catalogue.Build(shipped, mine)
	if diags.HasErrors() {
		return cfg, failedWith("", diags, src)
	}
	mappingPath := rulesets.ImportMapping(base, "yaktribe")
	m, diags := yaktribe.LoadMapping(rulesets.FS, mappingPath, "rulesets/"+mappingPath)
	if diags.HasErrors() {
		return cfg, failedWith("the ruleset's import mapping has errors:", diags, nil)
	}
	skills, injuries, diags := yaktribe.RuleNames(rules.Index, m)
	if diags.HasErrors() {
		return cfg, failedWith("the import mapping does not fit these rules:", diags, nil)
	}
	return yaktribe.Config{Catalogue: cat, Mapping: m, Skills: skills, Injuries: injuries}, nil
}

// writeNewState checks a state made by a verb against the rules'
// vocabulary and writes it to path (atomically), or to standard output.
func writeNewState(cmd *cobra.Command, st *state.State, voc *state.Vocabulary, path string) error {
	if err := state.ValidateWith(st, voc); err != nil {
		return failedWith("the state made is invalid, so it was not written:", err, nil)
	}
	format := "yaml"
	if path != "" {
		format = state.FormatOf(path)
	}
	data, err := state.Encode(st, format)
	if err != nil {
		return failed("%v", err)
	}
	if path == "" {
		_, err := cmd.OutOrStdout().Write(data)
		return err
	}
	if err := writeFileAtomic(path, data); err != nil {
		return failed("cannot write %s: %v", path, unwrapPath(err))
	}
	return nil
}
