package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

type oddsFlags struct {
	rf       ruleFlags
	state    string
	args     []string
	choose   []string
	of       string
	exact    bool
	samples  int
	seed     uint64
	maxPaths int
	compare  string
	jsonOut  bool
	model    string // a table's model
	// allowUnknown: as for run.
	allowUnknown bool
}

func newOddsCmd() *cobra.Command {
	var f oddsFlags
	cmd := &cobra.Command{
		Use:   "odds PROCEDURE|TABLE --state FILE",
		Short: "Exact odds (or Monte Carlo estimates) of a procedure's outcomes",
		Long: `Odds runs a procedure down every branch of the dice, through the same
interpreter as munda run, and gives the exact probability of each outcome
as a fraction: a characteristic test is one branch of pass and fail, a
table roll one branch per row, and runs that reach the same point of the
rules in the same state (and with the same values in scope) are merged
there and continued once.

By default an outcome is what the run changed in the state; --of EXPR asks
an expression of the final state instead (a number or yes/no gets a mean
and cumulative probabilities); in it, signalled is how many times each
event was signalled on the way ('"taken_out_of_action" in signalled').
When there are more distinct
configurations of the run than --max-paths, munda estimates by Monte Carlo instead and says so (--exact
makes that an error); --samples N asks for Monte Carlo directly. Monte
Carlo runs on every core, is repeatable with --seed, and gives 95%
intervals.

A table (one that is rolled on, not a lookup) asks which row a roll lands
on: munda odds lasting-injury gives the chance of each row, exactly, as
munda roll would roll it (the row the dice chose, whatever it does in
turn; --of asks of the state after it instead). As for munda roll, the
table's first model parameter is the model it applies to (--model or
--arg), and
without --state the ruleset's stand-in is the state and its model. A
procedure or action of the same name is asked first.

--compare A,B runs the question under each variant stack (BASE[+TOGGLES],
as for munda rules diff) and prints them side by side.`,
		Example: `  munda odds bottle-check --state battle.yaml --arg gang=goliaths --of 'gang("goliaths").bottled'
  munda odds end-phase --state battle.yaml --of 'count(gang("goliaths").models, .status == "out_of_action")'
  munda odds resolve-hit --state battle.yaml --arg attacker=grukk --arg target=sabine --arg weapon=power_hammer
  munda odds end-phase --state battle.yaml --samples 20000 --seed 7
  munda odds lasting-injury
  munda odds lasting-injury --state battle.yaml --model vex
  munda odds go-out-of-action --state battle.yaml --arg fighter=vex --arg attacker=vorst --compare core-2023,core-2023+aa`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, dsl.NormalizeID(args[0]))
		},
	}
	f.rf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.state, "state", "", "the battle state (YAML or JSON); required")
	fl.StringArrayVar(&f.args, "arg", nil, "a parameter of the procedure, name=value (repeatable)")
	fl.StringArrayVar(&f.choose, "choose", nil, "answer a choice, name=value (repeatable); the others take their defaults")
	fl.StringVar(&f.of, "of", "", "an expression of the final state to give the distribution of")
	fl.BoolVar(&f.exact, "exact", false, "fail rather than fall back to Monte Carlo")
	fl.IntVar(&f.samples, "samples", 0, "estimate by Monte Carlo with this many runs")
	fl.Uint64Var(&f.seed, "seed", 1, "the seed of Monte Carlo runs")
	fl.IntVar(&f.maxPaths, "max-paths", odds.DefaultMaxPaths, "the most distinct configurations of the run to enumerate")
	fl.StringVar(&f.compare, "compare", "", "variant stacks to compare, e.g. core-2023,core-2023+aa")
	fl.BoolVar(&f.jsonOut, "json", false, "print JSON")
	fl.StringVar(&f.model, "model", "", "for a table: the model it applies to (its first model parameter)")
	fl.BoolVar(&f.allowUnknown, "allow-unknown", false, "accept skills, conditions and traits the rules do not declare, with a warning")
	cmd.ValidArgsFunction = completeQuestions(&f.rf)
	registerRunCompletions(cmd, &f.rf, &f.state, procedureParams)
	return cmd
}

// oddsAnswer is one variant's answer, for printing.
type oddsAnswer struct {
	Variant string
	Result  *odds.Result
}

func (f *oddsFlags) run(cmd *cobra.Command, proc string) error {
	if f.samples < 0 || f.maxPaths < 1 {
		return usagef("--samples must be 0 or more, --max-paths 1 or more")
	}
	if f.exact && f.samples > 0 {
		return usagef("give --exact or --samples, not both")
	}
	given, err := parseArgs(f.args)
	if err != nil {
		return err
	}
	choices, err := interpreter.ParseChoices(f.choose)
	if err != nil {
		return usagef("%v", err)
	}
	variants := []string{""}
	if f.compare != "" {
		variants = strings.Split(f.compare, ",")
		if len(variants) < 2 {
			return usagef("--compare wants two or more variant stacks, e.g. core-2023,core-2023+aa")
		}
	}
	var (
		answers []oddsAnswer
		table   *dsl.TableInfo
		asked   map[string]string // the arguments, with a table's model
	)
	for _, v := range variants {
		prog, name, err := f.variantProgram(cmd, strings.TrimSpace(v))
		if err != nil {
			return err
		}
		table = rolledTable(prog, proc)
		asked = maps.Clone(given)
		// Each variant's rules say what the state's words may be.
		var st *state.State
		switch {
		case table != nil:
			if table.Lookup {
				return usagef("table %s gives a value; it is not rolled on", table.ID)
			}
			st, err = tableState(cmd, prog, table, f.state, f.model, asked, f.allowUnknown)
		case !askable(prog, proc):
			// The nearest name of either kind is the one suggested.
			idx := prog.Index()
			var names []string
			for id := range idx.Procedures {
				names = append(names, strings.ReplaceAll(id, "_", "-"))
			}
			for id, t := range idx.Tables {
				if !t.Lookup {
					names = append(names, strings.ReplaceAll(id, "_", "-"))
				}
			}
			slices.Sort(names)
			typed := strings.ReplaceAll(proc, "_", "-")
			msg := diag.Suggest(fmt.Sprintf("no procedure or table %s", typed), typed, names)
			return failed("%s (munda rules list procedures and munda rules list tables list what odds asks of)", msg)
		case f.model != "":
			return usagef("--model is for a table; give a procedure's models with --arg NAME=ID")
		case f.state == "":
			return usagef("--state FILE is required")
		default:
			st, err = readState(cmd, f.state, prog, f.allowUnknown)
		}
		if err != nil {
			return err
		}
		res, err := f.ask(cmd, prog, st, proc, table, asked, choices)
		if err != nil {
			return err
		}
		answers = append(answers, oddsAnswer{Variant: name, Result: res})
	}
	out := cmd.OutOrStdout()
	if f.jsonOut {
		rep := oddsJSON(proc, f.of, answers)
		if table != nil {
			rep.Procedure, rep.Table = "", proc
		}
		return writeJSON(out, rep)
	}
	what := proc
	if table != nil {
		what = "table " + proc
	}
	writeOdds(out, what, asked, f.of, answers)
	return nil
}

// askable reports whether name is a procedure or an action.
func askable(prog *interpreter.Program, name string) bool {
	if _, err := prog.Procedure(name); err == nil {
		return true
	}
	_, err := prog.Action(name)
	return err == nil
}

// rolledTable is the table a question names, when it names no procedure
// or action (those are asked first): nil when there is none.
func rolledTable(prog *interpreter.Program, name string) *dsl.TableInfo {
	if askable(prog, name) {
		return nil
	}
	t, err := prog.Table(name)
	if err != nil {
		return nil
	}
	return t
}

// variantProgram loads the rules of a variant stack ("" is the flags').
func (f *oddsFlags) variantProgram(cmd *cobra.Command, stack string) (*interpreter.Program, string, error) {
	sel, err := f.rf.selection()
	if err != nil {
		return nil, "", err
	}
	name := sel.Base
	if name == "" {
		name = rulesets.DefaultBase
	}
	if len(sel.Houses) > 0 {
		name += "+" + strings.Join(sel.Houses, ",")
	}
	if stack != "" {
		s, err := parseStack(stack)
		if err != nil {
			return nil, "", err
		}
		s.With = sel.With
		sel, name = s, stack
	}
	rules, err := loadRules(cmd, sel, name+": ")
	if err != nil {
		return nil, "", err
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		return nil, "", failed("%v", err)
	}
	return prog, name, nil
}

// ask answers the question under one program: exactly when the branches
// allow, by Monte Carlo otherwise.
func (f *oddsFlags) ask(cmd *cobra.Command, prog *interpreter.Program, st *state.State, proc string, table *dsl.TableInfo, given map[string]string, choices interpreter.Choices) (*odds.Result, error) {
	q := odds.Question{Program: prog, State: st, Args: given, Choices: choices, Progress: exactProgress(cmd.ErrOrStderr())}
	if table != nil {
		// Bad arguments are found once, before thousands of runs.
		if _, err := interpreter.BindTableArgs(st.Clone(), table, given); err != nil {
			return nil, failed("%v", err)
		}
		q.Table = table.ID
	} else {
		// A procedure, or else an action declared with parameters.
		p, err := prog.Procedure(proc)
		what := "procedure "
		if err != nil {
			action, aerr := prog.Action(proc)
			if aerr != nil {
				return nil, unknownName(err, "procedures")
			}
			p, what = action.Procedure(), "action "
		}
		if _, err := interpreter.BindArgs(st.Clone(), p.Params, what+p.ID, given); err != nil {
			return nil, failed("%v", err)
		}
		q.Procedure, q.Focus = p.ID, focusModels(p, given)
	}
	if f.of != "" {
		of, diags := prog.Rules.Index.CompileQuery("--of", f.of)
		if diags.HasErrors() {
			_ = diag.WriteText(cmd.ErrOrStderr(), diags, diag.Sources{"--of": []byte(f.of)})
			return nil, failed("--of does not compile")
		}
		q.Of = of
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	note, samples := "", f.samples
	if samples == 0 {
		res, err := odds.Exact(ctx, q, f.maxPaths)
		if q.Progress != nil {
			fmt.Fprint(cmd.ErrOrStderr(), "\r\033[K") // the progress line goes
		}
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, odds.ErrTooManyPaths) {
			return nil, failed("%v", err)
		}
		if f.exact {
			return nil, failed("%v (raise --max-paths, or drop --exact for a Monte Carlo estimate)", err)
		}
		note = fmt.Sprintf("more than %d distinct configurations of the run: estimated by Monte Carlo", f.maxPaths)
		samples = 50_000
	}
	res, err := odds.Sample(ctx, q, samples, f.seed, 0, progressBar(cmd.ErrOrStderr(), samples))
	if err != nil {
		return nil, failed("%v", err)
	}
	res.Note = note
	return res, nil
}

// writeRest sums up the outcomes a listing does not show.
func writeRest(w io.Writer, rest []odds.Outcome) {
	total := new(big.Rat)
	for _, o := range rest {
		if o.P != nil {
			total.Add(total, o.P)
		}
	}
	fmt.Fprintf(w, "  %s  … %d more outcomes, less likely (--json lists them all)\n", percent(odds.Float(total)), len(rest))
}

// focusModels are the models a question names (its model parameters):
// what befalls them is the outcome, not every change of the battle (an
// attacker's experience, a rule's bookkeeping).
func focusModels(p *dsl.ProcInfo, given map[string]string) []string {
	var out []string
	for _, prm := range p.Params {
		if v, ok := given[prm.Name]; ok && dsl.TypeName(prm.Type) == "model" {
			out = append(out, v)
		}
	}
	return out
}

// exactProgress reports how far an exact enumeration has got, on stderr
// when it is a terminal: the branches run, the share of the odds they
// cover, and from that the time left.
func exactProgress(w io.Writer) func(int, float64) {
	if !isTerminal(w) {
		return nil
	}
	start := time.Now()
	last := time.Time{}
	return func(branches int, covered float64) {
		now := time.Now()
		if now.Sub(last) < 200*time.Millisecond || covered <= 0 {
			return
		}
		last = now
		elapsed := now.Sub(start)
		left := time.Duration(float64(elapsed) * (1 - covered) / covered).Round(time.Second)
		fmt.Fprintf(w, "\r\033[Kexact: %d branches, %.1f%% of the odds covered, about %v left", branches, 100*covered, left)
		if covered >= 1 {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	file, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := file.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressBar reports Monte Carlo progress on stderr when it is a
// terminal; nil otherwise.
func progressBar(w io.Writer, total int) func(int) {
	if !isTerminal(w) {
		return nil
	}
	last := -1
	return func(done int) {
		pct := done * 100 / total
		if pct == last {
			return
		}
		last = pct
		fmt.Fprintf(w, "\r%s %3d%% (%d/%d runs)", bar(float64(done)/float64(total), 30), pct, done, total)
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

func bar(p float64, width int) string {
	n := int(p*float64(width) + 0.5)
	return strings.Repeat("█", n) + strings.Repeat("·", width-n)
}

func percent(p float64) string { return fmt.Sprintf("%6.2f%%", 100*p) }

// writeOdds prints the answers for people: each outcome with its
// probability, as a fraction when exact, a bar, and for numbers the
// cumulative probability and the mean; variants side by side.
func writeOdds(w io.Writer, proc string, given map[string]string, of string, answers []oddsAnswer) {
	what := strings.ReplaceAll(proc, "_", "-")
	if len(given) > 0 {
		var parts []string
		for _, k := range sortedKeys(given) {
			parts = append(parts, k+"="+given[k])
		}
		what += " (" + strings.Join(parts, ", ") + ")"
	}
	if of != "" {
		what += ", of " + of
	}
	fmt.Fprintf(w, "Odds of %s\n", what)
	for _, a := range answers {
		fmt.Fprintf(w, "  %s: %s\n", a.Variant, method(a.Result))
		if a.Result.Note != "" {
			fmt.Fprintf(w, "    note: %s\n", a.Result.Note)
		}
	}
	if len(answers) == 1 {
		writeDistribution(w, answers[0].Result)
		return
	}
	writeComparison(w, answers)
}

func method(r *odds.Result) string {
	if r.Exact {
		return fmt.Sprintf("exact, %d branches of the dice", r.Paths)
	}
	return fmt.Sprintf("Monte Carlo, %d runs (seed %d), 95%% intervals", r.Samples, r.Seed)
}

// maxShown is how many outcomes a listing shows before it sums up the
// rest (a number's distribution is shown whole; --json lists everything).
const maxShown = 20

func writeDistribution(w io.Writer, r *odds.Result) {
	cum := r.Cumulative()
	fmt.Fprintln(w)
	for i, o := range r.Outcomes {
		if !r.Numeric && i == maxShown {
			writeRest(w, r.Outcomes[i:])
			break
		}
		p := odds.Float(o.P)
		line := "  " + percent(p)
		if r.Exact {
			line += fmt.Sprintf("  %-11s", odds.RatString(o.P))
		} else {
			line += fmt.Sprintf("  [%s, %s]", strings.TrimSpace(percent(o.Low)), strings.TrimSpace(percent(o.High)))
		}
		if cum != nil {
			line += fmt.Sprintf("  ≤ %s", percent(odds.Float(cum[i])))
		}
		line += "  " + bar(p, 20) + "  " + o.Key
		fmt.Fprintln(w, line)
	}
	if r.Numeric && r.Mean != nil {
		if r.Exact {
			fmt.Fprintf(w, "\n  mean %s (%.4f)\n", odds.RatString(r.Mean), odds.Float(r.Mean))
		} else {
			fmt.Fprintf(w, "\n  mean %.4f\n", odds.Float(r.Mean))
		}
	}
}

// writeComparison prints each outcome's probability under each variant,
// and the difference of each from the first.
func writeComparison(w io.Writer, answers []oddsAnswer) {
	var keys []string
	seen := map[string]bool{}
	for _, a := range answers {
		for _, o := range a.Result.Outcomes {
			if !seen[o.Key] {
				seen[o.Key] = true
				keys = append(keys, o.Key)
			}
		}
	}
	fmt.Fprintln(w)
	header := "  "
	for i, a := range answers {
		header += fmt.Sprintf("%-22s", string(rune('A'+i))+" "+a.Variant)
		if i > 0 {
			header += fmt.Sprintf("%-10s", "B-A")
		}
	}
	fmt.Fprintln(w, strings.TrimRight(header, " ")+"  outcome")
	// The likeliest outcomes first (by their most likely variant), the rest
	// summed up: a comparison of two stacks must stay readable.
	if !answers[0].Result.Numeric {
		top := func(k string) float64 {
			best := 0.0
			for _, a := range answers {
				best = max(best, odds.Float(probOf(a.Result, k)))
			}
			return best
		}
		sort.SliceStable(keys, func(i, j int) bool { return top(keys[i]) > top(keys[j]) })
	}
	for n, k := range keys {
		if !answers[0].Result.Numeric && n == maxShown {
			fmt.Fprintf(w, "  … %d more outcomes, less likely (--json lists them all)\n", len(keys)-n)
			break
		}
		line := "  "
		var first float64
		for i, a := range answers {
			p := probOf(a.Result, k)
			cell := percent(odds.Float(p))
			if a.Result.Exact {
				cell += " " + odds.RatString(p)
			}
			line += fmt.Sprintf("%-22s", cell)
			if i == 0 {
				first = odds.Float(p)
			} else {
				line += fmt.Sprintf("%-10s", fmt.Sprintf("%+.2f%%", 100*(odds.Float(p)-first)))
			}
		}
		fmt.Fprintln(w, line+"  "+k)
	}
	for i, a := range answers {
		if a.Result.Numeric && a.Result.Mean != nil {
			fmt.Fprintf(w, "  mean %s: %.4f\n", string(rune('A'+i)), odds.Float(a.Result.Mean))
		}
	}
}

func probOf(r *odds.Result, key string) *big.Rat {
	for _, o := range r.Outcomes {
		if o.Key == key {
			return o.P
		}
	}
	return new(big.Rat)
}

// The JSON form, for tools.
// oddsVariantJSON is one variant's answer in --json.
type oddsVariantJSON struct {
	Variant string `json:"variant"`
	odds.ResultJSON
}

type oddsReportJSON struct {
	Procedure string            `json:"procedure,omitempty"`
	Table     string            `json:"table,omitempty"` // a table's rows are the question`
	Of        string            `json:"of,omitempty"`
	Variants  []oddsVariantJSON `json:"variants"`
}

func oddsJSON(proc, of string, answers []oddsAnswer) oddsReportJSON {
	rep := oddsReportJSON{Procedure: proc, Of: of}
	for _, a := range answers {
		v := oddsVariantJSON{Variant: a.Variant, ResultJSON: a.Result.JSON()}
		rep.Variants = append(rep.Variants, v)
	}
	return rep
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// completeQuestions completes what munda odds asks of: procedures and the
// tables that are rolled on.
func completeQuestions(rf *ruleFlags) cobra.CompletionFunc {
	procs, tables := completeProcedures(rf), completeTables(rf)
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		a, dir := procs(cmd, args, typed)
		b, _ := tables(cmd, args, typed)
		return append(a, b...), dir
	}
}
