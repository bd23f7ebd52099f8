package main

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/interpreter"
)

func newRollCmd() *cobra.Command {
	var (
		f     runFlags
		model string
		using string
	)
	cmd := &cobra.Command{
		Use:   "roll TABLE",
		Short: "Roll on a table: \"roll me a Lasting Injury\"",
		Long: `Roll rolls on a table of the rules and runs the row it lands on, narrating
what it does. --model (or --arg) names the model it applies to; without
--state, the ruleset's stand-in is used (for the core rules, a typical
Ganger), so "munda roll lasting-injury" works with no files. Parameters of a model type that are not given are left
empty (an attacker, say). --result applies a given result instead of
rolling.`,
		Example: `  munda roll lasting-injury
  munda roll lasting-injury --state battle.yaml --model vorst --seed 7
  munda roll body-damage --state testdata/states/vehicles.yaml --arg vehicle=quad --dice penetrating,4,4
  munda roll lasting-injury --result 54 --dice 2,3,1,4,4`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			prog, err := f.program(cmd)
			if err != nil {
				return err
			}
			table, err := prog.Table(args[0])
			if err != nil {
				return unknownName(err, "tables")
			}
			if table.Lookup {
				return usagef("table %s gives a value; it is not rolled on", table.ID)
			}
			given, err := parseArgs(f.args)
			if err != nil {
				return err
			}
			if f.state == "" && (f.out != "" || f.inPlace) {
				return usagef("-o and --in-place need --state")
			}
			st, err := tableState(cmd, prog, table, f.state, model, given, f.allowUnknown)
			if err != nil {
				return err
			}
			bound, err := interpreter.BindTableArgs(st, table, given)
			if err != nil {
				return failed("%v", err)
			}
			var result any
			if using != "" {
				if table.Dice == nil || table.Dice.Symbolic() {
					result = using
				} else {
					n, err := strconv.Atoi(using)
					if err != nil {
						return usagef("--result %q: want a whole number", using)
					}
					result = n
				}
			}
			dice, choices, err := f.sources(cmd)
			if err != nil {
				return err
			}
			events := &printer{w: cmd.OutOrStdout(), json: f.jsonOut}
			limits := interpreter.DefaultLimits
			limits.Steps = f.maxSteps
			runErr := prog.Apply(st, table.ID, bound, result, interpreter.Options{Dice: dice, Choices: choices, Log: events, Limits: limits, Lang: f.lang, Translation: f.translation})
			return f.finish(cmd, prog, st, dice, events, runErr)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&model, "model", "", "the model the table applies to (its first model parameter)")
	cmd.Flags().StringVar(&using, "result", "", "apply this result instead of rolling")
	cmd.ValidArgsFunction = completeTables(&f.rf)
	registerRunCompletions(cmd, &f.rf, &f.state, tableParams)
	return cmd
}
