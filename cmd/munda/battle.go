package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// takesPart is the function of the rules that says whether a model of a
// roster takes part in a battle (rulesets/core-2023/roster.munda); rules
// without it send every model.
const takesPart = "takes_part"

func newBattleCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "battle",
		Short: "Set up a battle state from gang files",
		Long: `Battle sets up battles: "new" lines gangs up from their rosters (state
files, such as munda import writes) into one battle state.`,
		Example: `  munda battle new --gangs testdata/yaktribe/iron-sons.golden.yaml,testdata/yaktribe/venom-sisters.golden.yaml --allow-unknown`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown battle verb %q (new)", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newBattleNewCmd())
	return cmd
}

func newBattleNewCmd() *cobra.Command {
	var (
		rf       ruleFlags
		gangs    []string
		out      string
		priority string
		// allowUnknown: as for run (an imported gang may keep names the
		// rules lack, which the import warned about).
		allowUnknown bool
	)
	cmd := &cobra.Command{
		Use:   "new --gangs A,B [-o FILE]",
		Short: "Line gangs up for a battle: one battle state from gang files",
		Long: `New reads state files holding gangs (as munda import writes them) and
writes one battle state: round 1, every gang's models, and each gang's
starting crew and eligible models counted from its roster. Who sits the
battle out is the rules' to say: models for which the rules' function
takes_part(m) is false are left out and listed (in the 2023 rules, the
dead, those in Recovery and the Captured). Models keep their positions
(0, 0 when imported). Priority is undecided unless --priority names a gang.

Gang ids and model ids must differ across the files. The battle is written
to -o FILE (atomically; JSON for a .json path) or to standard output. It
runs with munda run end-phase; a whole battle round (munda run round)
waits for the Action phase, which munda does not run yet.`,
		Example: `  munda battle new --gangs testdata/yaktribe/iron-sons.golden.yaml,testdata/yaktribe/venom-sisters.golden.yaml -o showdown.yaml --allow-unknown
  munda battle new --gangs testdata/yaktribe/iron-sons.golden.yaml,testdata/yaktribe/venom-sisters.golden.yaml --priority 51907 --allow-unknown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(gangs) < 2 {
				return usagef("--gangs needs at least two gang files, separated by commas: --gangs a.yaml,b.yaml")
			}
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			rules, err := loadRules(cmd, sel, "")
			if err != nil {
				return err
			}
			prog, err := interpreter.Compile(rules)
			if err != nil {
				return err
			}
			st := &state.State{Battle: state.Battle{Round: 1}}
			gangFile := map[string]string{}  // gang id → the file it came from
			modelFile := map[string]string{} // model id → the file it came from
			for _, path := range gangs {
				one, err := readState(cmd, path, prog, allowUnknown)
				if err != nil {
					return err
				}
				if len(one.Gangs) == 0 {
					return failed("%s: holds no gang", path)
				}
				for _, g := range one.Gangs {
					if first, dup := gangFile[g.ID]; dup {
						return failed("%s: gang id %q is also in %s: each gang of a battle needs its own id", path, g.ID, first)
					}
					gangFile[g.ID] = path
					for _, m := range g.Models {
						if first, dup := modelFile[m.ID]; dup {
							return failed("%s: model id %q (%s) is also in %s: each model of a battle needs its own id", path, m.ID, m.Name, first)
						}
						modelFile[m.ID] = path
					}
					st.Gangs = append(st.Gangs, g)
				}
			}
			st = st.Clone() // sets the back-pointers for the rules to read
			benched, err := sitOut(rules, st)
			if err != nil {
				return err
			}
			for _, m := range benched {
				fmt.Fprintf(cmd.ErrOrStderr(), "munda: %s (%s) of %s sits the battle out (%s is false)\n", m.Name, m.ID, m.Gang.Name, takesPart)
			}
			for _, g := range st.Gangs {
				g.Models = slices.DeleteFunc(g.Models, func(m *state.Model) bool { return slices.Contains(benched, m) })
				g.StartingCrew = len(g.Models)
				g.EligibleModels = len(g.Models)
			}
			if priority != "" {
				if _, ok := gangFile[priority]; !ok {
					var ids []string
					for id := range gangFile {
						ids = append(ids, id)
					}
					slices.Sort(ids)
					return failed("--priority %s: no gang has that id (the gangs are %s)", priority, strings.Join(ids, ", "))
				}
				st.Battle.Priority = priority
			}
			return writeNewState(cmd, st, stateVocabulary(prog, allowUnknown), out)
		},
	}
	rf.register(cmd)
	cmd.Flags().StringSliceVar(&gangs, "gangs", nil, "the gang files (state files), separated by commas")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the battle state to this file (atomically) instead of standard output")
	cmd.Flags().StringVar(&priority, "priority", "", "the id of the gang that holds Priority in the first round")
	cmd.Flags().BoolVar(&allowUnknown, "allow-unknown", false, "accept skills, conditions and traits the rules do not declare, with a warning")
	return cmd
}

// sitOut asks the rules who of the gangs does not take part in the
// battle: the models for which takes_part(m) is false. Rules without the
// function leave no one out.
func sitOut(rules *dsl.Rules, st *state.State) ([]*state.Model, error) {
	if _, ok := rules.Index.Functions[takesPart]; !ok {
		return nil, nil
	}
	q, diags := rules.Index.CompileQuery(takesPart, "map(filter(models(), not "+takesPart+"(#)), .id)")
	if diags.HasErrors() {
		return nil, failedWith("the rules' "+takesPart+" cannot be asked of a model:", diags, rules.Sources())
	}
	v, err := q.Eval(st)
	if err != nil {
		return nil, failed("asking the rules who takes part: %v", err)
	}
	ids, ok := v.([]any)
	if !ok {
		return nil, failed("asking the rules who takes part: got %T, not a list", v)
	}
	var out []*state.Model
	for _, id := range ids {
		if s, ok := id.(string); ok {
			if m := st.Model(s); m != nil {
				out = append(out, m)
			}
		}
	}
	return out, nil
}
