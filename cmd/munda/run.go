package main

import (
	"bufio"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// runFlags are the flags of the verbs that run rules: run and roll.
type runFlags struct {
	rf      ruleFlags
	state   string
	args    []string
	seed    string
	dice    string
	choose  []string
	out     string
	inPlace bool
	jsonOut bool
	lang    string
	// translation narrates in --lang (nil: English); set by checkFlags.
	translation *i18n.Catalog
	maxSteps    int
	// allowUnknown demotes ids of the state the rules do not declare
	// (skills, conditions, traits) from errors to warnings.
	allowUnknown bool

	// vocabulary is the loaded rules' (set by program), which the states
	// read and written are checked against.
	vocabulary *state.Vocabulary
}

func (f *runFlags) register(cmd *cobra.Command) {
	f.rf.register(cmd)
	cmd.Flags().StringVar(&f.state, "state", "", "the battle state file (YAML or JSON)")
	cmd.Flags().StringArrayVar(&f.args, "arg", nil, "a parameter, name=value: ids for gangs, models and weapons (repeatable)")
	cmd.Flags().StringVar(&f.seed, "seed", "", "roll seeded dice: the same seed gives the same rolls")
	cmd.Flags().StringVar(&f.dice, "dice", "", `scripted dice ("6,3,1" or "6 out_of_action"), or "prompt" to type in real rolls`)
	cmd.Flags().StringArrayVar(&f.choose, "choose", nil, "answer a choice, name=value (repeatable); others take the rules' default")
	cmd.Flags().StringVarP(&f.out, "output", "o", "", "write the new state to this file (atomically)")
	cmd.Flags().BoolVar(&f.inPlace, "in-place", false, "write the new state over the state file (atomically)")
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print events as JSON lines instead of a narration")
	cmd.Flags().StringVar(&f.lang, "lang", "", `narrate in this language (e.g. "cs"; default $MUNDA_LANG, else English): titles, messages and munda's own words, where the rules' i18n overlay translates them`)
	cmd.Flags().IntVar(&f.maxSteps, "max-steps", interpreter.DefaultLimits.Steps, "stop a run after this many statements")
	cmd.Flags().BoolVar(&f.allowUnknown, "allow-unknown", false, "accept skills, conditions and traits the rules do not declare, with a warning")
}

// parseArgs reads --arg name=value pairs.
func parseArgs(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pairs {
		name, value, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, usagef("--arg %q: want name=value", p)
		}
		out[dsl.NormalizeID(strings.TrimSpace(name))] = strings.TrimSpace(value)
	}
	return out, nil
}

// program checks the flags that need no rules, loads and compiles the
// rules, then checks the flags against them.
func (f *runFlags) program(cmd *cobra.Command) (*interpreter.Program, error) {
	if f.out != "" && f.inPlace {
		return nil, usagef("give -o or --in-place, not both")
	}
	prog, err := loadProgram(cmd, &f.rf)
	if err != nil {
		return nil, err
	}
	if err := f.checkFlags(prog); err != nil {
		return nil, err
	}
	f.vocabulary = stateVocabulary(prog, f.allowUnknown)
	return prog, nil
}

// checkFlags rejects what the flags cannot mean for these rules: a
// --choose naming no choice of theirs (a typo would otherwise be ignored
// silently), a step limit below one.
func (f *runFlags) checkFlags(prog *interpreter.Program) error {
	if f.maxSteps < 1 {
		return usagef("--max-steps must be at least 1")
	}
	// The rules' own titles are English; other languages come from the
	// packs' overlays (i18n/LANG.i18n) and munda's own words.
	f.lang = narrationLang(f.lang)
	if err := checkLang(f.lang, prog.Rules); err != nil {
		return err
	}
	if f.lang != "" && f.lang != "en" {
		cat, diags := translation(prog.Rules, f.lang, i18n.Untranslated{}, nil)
		if diags.HasErrors() {
			return failed("%v", diags)
		}
		f.translation = cat
	}
	known := prog.Index().Choices
	var names []string
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, pair := range f.choose {
		name, _, _ := strings.Cut(pair, "=")
		// NAME.KEY answers one occurrence of a keyed choice.
		name = interpreter.ChoiceName(strings.TrimSpace(name))
		if name != "" && !known[name] {
			return failed("%s", diag.Suggest(fmt.Sprintf("--choose %s: the rules have no choice %q", pair, name), name, names))
		}
	}
	return nil
}

// sources builds the dice and choice sources the flags ask for. Without
// --seed or --dice, a random seed is drawn and reported, so the run can be
// repeated.
func (f *runFlags) sources(cmd *cobra.Command) (interpreter.DiceSource, interpreter.ChoiceSource, error) {
	choices, err := interpreter.ParseChoices(f.choose)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if f.seed != "" && f.dice != "" {
		return nil, nil, usagef("give --seed or --dice, not both")
	}
	switch {
	case f.dice == "" && cmd.Flags().Changed("dice"):
		// --dice "": a run that must roll nothing; any roll is an error.
		return &interpreter.Scripted{}, choices, nil
	case f.dice == "prompt":
		in := bufio.NewReader(cmd.InOrStdin())
		return interpreter.NewPrompt(in, cmd.ErrOrStderr()),
			interpreter.ChoiceChain{choices, interpreter.NewChoicePrompt(in, cmd.ErrOrStderr())}, nil
	case f.dice != "":
		script, err := interpreter.ParseScript(f.dice)
		if err != nil {
			return nil, nil, usagef("--dice: %v", err)
		}
		return script, choices, nil
	}
	seed := uint64(0)
	if f.seed != "" {
		n, err := strconv.ParseUint(f.seed, 10, 64)
		if err != nil {
			return nil, nil, usagef("--seed %q: want a whole number", f.seed)
		}
		seed = n
	} else {
		var b [8]byte
		_, _ = crand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) % 1_000_000
		fmt.Fprintf(cmd.ErrOrStderr(), "munda: rolling with --seed %d\n", seed)
	}
	return interpreter.NewSeeded(seed), choices, nil
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run PROCEDURE --state FILE",
		Short: "Run a procedure (the End Phase, a Bottle check…) against a battle state",
		Long: `Run runs a procedure of the rules against a battle state and narrates every
roll, test, choice and change of state, with the rule that caused it. An
action declared with parameters runs the same way (its availability must
hold).

The state file is never changed unless --in-place is given; -o writes the
new state to another file. Both writes are atomic, and nothing is written
if the run fails.`,
		Example: `  munda run end-phase --state testdata/states/goliaths-vs-eschers.yaml --seed 1
  munda run bottle-check --state battle.yaml --arg gang=goliaths --dice 6
  munda run bottle-check --state battle.yaml --arg gang=goliaths --dice 6 --lang cs
  munda run end-phase --state battle.yaml --house aa --dice prompt -o after.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			prog, err := f.program(cmd)
			if err != nil {
				return err
			}
			// A procedure, or else an action declared with parameters.
			proc, err := prog.Procedure(args[0])
			what := "procedure "
			if err != nil {
				action, aerr := prog.Action(args[0])
				if aerr != nil {
					return unknownName(err, "procedures")
				}
				proc, what = action.Procedure(), "action "
			}
			st, err := readState(cmd, f.state, prog, f.allowUnknown)
			if err != nil {
				return err
			}
			given, err := parseArgs(f.args)
			if err != nil {
				return err
			}
			bound, err := interpreter.BindArgs(st, proc.Params, what+proc.ID, given)
			if err != nil {
				return failed("%v", err)
			}
			dice, choices, err := f.sources(cmd)
			if err != nil {
				return err
			}
			events := &printer{w: cmd.OutOrStdout(), json: f.jsonOut}
			limits := interpreter.DefaultLimits
			limits.Steps = f.maxSteps
			opts := interpreter.Options{Dice: dice, Choices: choices, Log: events, Limits: limits, Lang: f.lang, Translation: f.translation}
			var runErr error
			if what == "action " {
				runErr = prog.RunAction(st, proc.ID, bound, opts)
			} else {
				runErr = prog.Run(st, proc.ID, bound, opts)
			}
			return f.finish(cmd, prog, st, dice, events, runErr)
		},
	}
	f.register(cmd)
	cmd.ValidArgsFunction = completeProcedures(&f.rf)
	registerRunCompletions(cmd, &f.rf, &f.state, procedureParams)
	return cmd
}

// finish reports how a run ended and writes the new state. A run that
// stopped is printed with the line of the rule file where it stopped (and
// ends the JSON log with an error event); scripted dice left over are
// worth a warning: the script may not be the one meant.
func (f *runFlags) finish(cmd *cobra.Command, prog *interpreter.Program, st *state.State, dice interpreter.DiceSource, events *printer, runErr error) error {
	if events.err != nil {
		return events.err
	}
	if runErr != nil {
		if f.jsonOut {
			events.Event(interpreter.ErrorEvent(runErr, events.seq+1))
		}
		return failedWith("", runErr, prog.Rules.Sources())
	}
	if s, ok := dice.(*interpreter.Scripted); ok && s.Remaining() > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "munda: warning: %s of the --dice script not used\n", plural(s.Remaining(), "die was", "dice were"))
	}
	return f.writeState(st)
}

// plural writes "1 die was" or "3 dice were".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// writeState writes the new state where the flags say, atomically.
func (f *runFlags) writeState(st *state.State) error {
	path := f.out
	if f.inPlace {
		path = f.state
	}
	if path == "" {
		return nil
	}
	// The rules must not leave a state munda would refuse to read.
	if err := state.ValidateWith(st, f.vocabulary); err != nil {
		return failedWith("the run left the state invalid, so it was not written:", err, nil)
	}
	data, err := state.Encode(st, state.FormatOf(path))
	if err != nil {
		return failed("%v", err)
	}
	if err := writeFileAtomic(path, data); err != nil {
		return failed("cannot write %s: %v", path, unwrapPath(err))
	}
	return nil
}

// printer writes events as they come: a narration, or JSON lines.
type printer struct {
	w    io.Writer
	json bool
	seq  int // of the last event
	err  error
}

func (p *printer) Event(e *interpreter.Event) {
	if p.err != nil {
		return
	}
	p.seq = e.Seq
	events := []*interpreter.Event{e}
	if p.json {
		p.err = interpreter.WriteJSON(p.w, events)
	} else {
		p.err = interpreter.WriteText(p.w, events)
	}
}
