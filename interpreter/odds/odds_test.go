package odds_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

var (
	progOnce sync.Once
	prog     *interpreter.Program
	progErr  error
)

func program(t testing.TB) *interpreter.Program {
	t.Helper()
	progOnce.Do(func() {
		rules, diags := rulesets.Load(rulesets.Selection{})
		if diags.HasErrors() {
			progErr = diags.Err()
			return
		}
		prog, progErr = interpreter.Compile(rules)
	})
	if progErr != nil {
		t.Fatal(progErr)
	}
	return prog
}

// looseProgram compiles one rule file on its own, with no base ruleset:
// a small pack made for a test.
func looseProgram(t testing.TB, name, src string) *interpreter.Program {
	t.Helper()
	pack := &dsl.Pack{FS: fstest.MapFS{name + ".munda": {Data: []byte(src)}}, Root: ".", Display: name}
	rules, diags := rulesets.Load(rulesets.Selection{Base: rulesets.None, Pack: pack, SkipTests: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func decodeState(t testing.TB, yaml string) *state.State {
	t.Helper()
	st, err := state.Decode("state.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func query(t testing.TB, p *interpreter.Program, text string) *dsl.Query {
	t.Helper()
	q, diags := p.Rules.Index.CompileQuery("--of", text)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return q
}

// probability of the outcome whose key is key (0 if none).
func prob(r *odds.Result, key string) *big.Rat {
	for _, o := range r.Outcomes {
		if o.Key == key {
			return o.P
		}
	}
	return new(big.Rat)
}

func exact(t testing.TB, q odds.Question) *odds.Result {
	t.Helper()
	r, err := odds.Exact(context.Background(), q, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const bottleState = `
gangs:
  - id: g
    name: Gang
    starting_crew: 6
    models:
      - {id: boss, name: Boss, kind: fighter, %s status: standing, secondary: active, x: 0, y: 0, base: 25}
      - {id: a, name: A, kind: fighter, status: out_of_action, x: 5, y: 0, base: 25}
      - {id: b, name: B, kind: fighter, status: prone, secondary: seriously_injured, x: 9, y: 0, base: 25}
`

// A Bottle check bottles out on the D6 faces that exceed the threshold:
// with two casualties and a starting crew of 6, a 5 or a 6 (2/6); with
// Iron Will's -1, only a 6.
func TestBottleCheckClosedForm(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		skills string
		want   *big.Rat
	}{
		{"", big.NewRat(2, 6)},
		{"skills: [iron_will],", big.NewRat(1, 6)},
	} {
		r := exact(t, odds.Question{Program: p, State: decodeState(t, fmt.Sprintf(bottleState, c.skills)),
			Procedure: "bottle_check", Args: map[string]string{"gang": "g"}, Of: query(t, p, `gang("g").bottled`)})
		if got := prob(r, "true"); got.Cmp(c.want) != 0 {
			t.Errorf("%q: P(bottled) = %s, want %s", c.skills, got, c.want)
		}
		if !r.Exact || r.Paths != 6 {
			t.Errorf("%q: exact %v with %d paths, want 6 (one per face of the D6)", c.skills, r.Exact, r.Paths)
		}
	}
}

// A Cool test passes with the 2D6 chance of rolling the target or more,
// for every target from 2+ to 12+; the test is one branch of pass and fail.
func TestCoolTestClosedForm(t *testing.T) {
	p := program(t)
	ways := map[int]int64{} // 2D6 totals
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			ways[a+b]++
		}
	}
	for target := 2; target <= 12; target++ {
		var pass int64
		for total, n := range ways {
			if total >= target {
				pass += n
			}
		}
		st := decodeState(t, fmt.Sprintf(`
gangs:
  - id: g
    name: Gang
    models:
      - {id: m, name: M, kind: fighter, status: standing, secondary: active, x: 0, y: 0, base: 25, stats: {cl: %d+}}
`, target))
		r := exact(t, odds.Question{Program: p, State: st, Procedure: "nerve_test",
			Args: map[string]string{"model": "m"}, Of: query(t, p, `broken(model("m"))`)})
		want := big.NewRat(pass, 36)
		if got := prob(r, "false"); got.Cmp(want) != 0 {
			t.Errorf("Cool %d+: P(pass) = %s, want %s", target, got, want)
		}
		if r.Paths > 2 {
			t.Errorf("Cool %d+: %d paths, want the test decided in at most 2", target, r.Paths)
		}
	}
}

const loneFighter = `
gangs:
  - id: g
    name: Gang
    models:
      - {id: m, name: M, kind: fighter, status: standing, secondary: active, x: 0, y: 0, base: 25, stats: {m: 5, ws: 4+, bs: 4+, s: 3, t: 3, w: 1, i: 4+, a: 1, ld: 7+, cl: 7+, wil: 7+, int: 7+}}
`

// The Lasting Injury table: Memorable Death is 1/36 (Multiple Injuries
// re-rolls it), Out Cold 8/36 on the first roll (and re-rolled after), and
// Multiple Injuries (1/36) always adds D3 further results.
func TestLastingInjuryDistribution(t *testing.T) {
	p := program(t)
	// attacker has no default and nil is not an --arg: the fighter is its
	// own attacker, which only Bitter Enmity and Memorable Death's XP read.
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Procedure: "go_out_of_action",
		Args: map[string]string{"fighter": "m", "attacker": "m"}}
	q.Of = query(t, p, `model("m").dead`)
	if got := prob(exact(t, q), "true"); got.Cmp(big.NewRat(1, 36)) != 0 {
		t.Errorf("P(Memorable Death) = %s, want 1/36", got)
	}
	q.Of = query(t, p, `len(model("m").lasting_injuries) == 0`)
	if got := prob(exact(t, q), "true"); got.Cmp(big.NewRat(8, 36)) != 0 {
		t.Errorf("P(Out Cold) = %s, want 8/36", got)
	}
	// Multiple Injuries re-rolls Captured, Critical Injury and Memorable
	// Death, so those come only from the first roll: exactly their own
	// share of the D66, however Multiple Injuries goes.
	for _, c := range []struct {
		row  string
		want *big.Rat
	}{
		{"multiple_injuries", big.NewRat(1, 36)},
		{"captured", big.NewRat(2, 36)},
		{"critical_injury", big.NewRat(5, 36)},
		{"memorable_death", big.NewRat(1, 36)},
	} {
		q.Of = query(t, p, fmt.Sprintf(`%q in model("m").lasting_injuries`, c.row))
		r := exact(t, q)
		if got := prob(r, "true"); got.Cmp(c.want) != 0 {
			t.Errorf("P(%s) = %s, want %s", c.row, got, c.want)
		}
		total := new(big.Rat)
		for _, o := range r.Outcomes {
			total.Add(total, o.P)
		}
		if total.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: the probabilities add up to %s", c.row, total)
		}
	}
}

// Rally tests of fighters far apart are independent: the number that
// rally is binomial, and the exact distribution says so to the fraction.
func TestIndependentRallyTests(t *testing.T) {
	p := program(t)
	var b strings.Builder
	b.WriteString("gangs:\n  - id: g\n    name: Gang\n    models:\n")
	const n = 4
	for i := range n {
		fmt.Fprintf(&b, "      - {id: m%d, name: M%d, kind: fighter, status: standing, secondary: active, conditions: [broken], x: %d, y: 0, base: 25, stats: {cl: 8+}}\n", i, i, i*10)
	}
	r := exact(t, odds.Question{Program: p, State: decodeState(t, b.String()), Procedure: "rally_tests",
		Args: map[string]string{"gang": "g"}, Of: query(t, p, `count(gang("g").models, not broken(#))`)})
	pass := big.NewRat(15, 36) // 2D6 of 8 or more
	fail := new(big.Rat).Sub(big.NewRat(1, 1), pass)
	choose := []int64{1, 4, 6, 4, 1}
	for k := 0; k <= n; k++ {
		want := new(big.Rat).SetInt64(choose[k])
		for i := 0; i < k; i++ {
			want.Mul(want, pass)
		}
		for i := k; i < n; i++ {
			want.Mul(want, fail)
		}
		if got := prob(r, fmt.Sprint(k)); got.Cmp(want) != 0 {
			t.Errorf("P(%d rally) = %s, want %s", k, got, want)
		}
	}
	if !r.Numeric || r.Mean.Cmp(new(big.Rat).Mul(big.NewRat(n, 1), pass)) != 0 {
		t.Errorf("mean %v, want %s", r.Mean, new(big.Rat).Mul(big.NewRat(n, 1), pass))
	}
	if cum := r.Cumulative(); cum[len(cum)-1].Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("the cumulative probabilities end at %s, not 1", cum[len(cum)-1])
	}
}

// Exact and Monte Carlo agree: every exact probability lies inside the
// Monte Carlo 99.9% interval. With MUNDA_LONG=1 at 10^6 samples (the
// count the README's Speed section cites; a few minutes); otherwise at 20,000.
func TestExactAndMonteCarloAgree(t *testing.T) {
	p := program(t)
	samples := 20_000
	if os.Getenv("MUNDA_LONG") != "" {
		samples = 1_000_000
	}
	raw, err := os.ReadFile("../../rulesets/core-2023/tests/states/end_phase.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Decode("end_phase.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ proc, gang, of string }{
		{"bottle_check", "goliaths", `gang("goliaths").bottled`},
		{"recover_and_restart", "goliaths", `model("bully").status`},
		{"rally_tests", "goliaths", `count(gang("goliaths").models, broken(#))`},
	} {
		q := odds.Question{Program: p, State: st, Procedure: c.proc, Args: map[string]string{"gang": c.gang}, Of: query(t, p, c.of)}
		ex := exact(t, q)
		mc, err := odds.Sample(context.Background(), q, samples, 7, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range ex.Outcomes {
			var found *odds.Outcome
			for i := range mc.Outcomes {
				if mc.Outcomes[i].Key == o.Key {
					found = &mc.Outcomes[i]
				}
			}
			lo, hi := 0.0, 1.0
			if found != nil {
				lo, hi = mc.Interval(*found, 3.2905)
			} else {
				lo, hi = mc.Interval(odds.Outcome{}, 3.2905)
			}
			if p := odds.Float(o.P); p < lo || p > hi {
				t.Errorf("%s %s = %s: exact %.5f outside the Monte Carlo 99.9%% interval [%.5f, %.5f]", c.proc, c.of, o.Key, p, lo, hi)
			}
		}
	}
}

// Monte Carlo is deterministic for a seed, whatever the number of workers.
func TestSampleDeterministic(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, fmt.Sprintf(bottleState, "")), Procedure: "bottle_check",
		Args: map[string]string{"gang": "g"}, Of: query(t, p, `gang("g").bottled`)}
	a, err := odds.Sample(context.Background(), q, 3000, 42, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := odds.Sample(context.Background(), q, 3000, 42, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Outcomes {
		if a.Outcomes[i].Key != b.Outcomes[i].Key || a.Outcomes[i].Count != b.Outcomes[i].Count {
			t.Fatalf("1 worker %+v, 4 workers %+v", a.Outcomes, b.Outcomes)
		}
	}
}

// Too many branches: Exact says so, and Monte Carlo still answers.
func TestTooManyPaths(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Procedure: "go_out_of_action",
		Args: map[string]string{"fighter": "m", "attacker": "m"}}
	if _, err := odds.Exact(context.Background(), q, 10); err == nil || !strings.Contains(err.Error(), "too many branches") {
		t.Fatalf("err = %v", err)
	}
}

// Without Of, outcomes are summaries of what changed.
func TestSummaryOutcomes(t *testing.T) {
	p := program(t)
	r := exact(t, odds.Question{Program: p, State: decodeState(t, fmt.Sprintf(bottleState, "")), Procedure: "bottle_check",
		Args: map[string]string{"gang": "g"}})
	if got := prob(r, "g.bottled: true"); got.Cmp(big.NewRat(1, 3)) != 0 {
		t.Errorf("P(g.bottled: true) = %s; outcomes %+v", got, r.Outcomes)
	}
	if got := prob(r, "no change"); got.Cmp(big.NewRat(2, 3)) != 0 {
		t.Errorf("P(no change) = %s", got)
	}
}

// A summary says what a list of ids gained and lost whatever its order:
// gains then losses, each alphabetical, repeats counted.
func TestSummaryListsInAnyOrder(t *testing.T) {
	before := decodeState(t, "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25, lasting_injuries: [old, gone]}]}\n")
	for _, c := range []struct {
		after []string
		want  string
	}{
		{[]string{"old", "gone", "b", "a"}, "m.lasting_injuries: +a +b"},
		{[]string{"a", "old", "b", "gone"}, "m.lasting_injuries: +a +b"},
		{[]string{"old", "z", "z"}, "m.lasting_injuries: +z +z -gone"},
		{[]string{"gone", "old"}, "no change"},
	} {
		after := before.Clone()
		after.Model("m").LastingInjuries = c.after
		if got := odds.Summary(before, after); got != c.want {
			t.Errorf("%v: %q, want %q", c.after, got, c.want)
		}
	}
}

// Benchmarks: exact odds of the End Phase of a 10-model gang, and Monte
// Carlo End Phases, beside the Go baseline End Phase of
// interpreter/baseline_test.go (BenchmarkEndPhaseNative) for the ratio.
func BenchmarkExactEndPhase10(b *testing.B) {
	p := program(b)
	st := tenModels(b)
	q := odds.Question{Program: p, State: st, Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, odds.Exact, q)
}

// BenchmarkExactEndPhase10ToEnd is BenchmarkExactEndPhase10 following
// every run to its end, as before runs were taken as decided: the ratio.
func BenchmarkExactEndPhase10ToEnd(b *testing.B) {
	p := program(b)
	st := tenModels(b)
	q := odds.Question{Program: p, State: st, Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, odds.ExactToEnd, q)
}

func BenchmarkMonteCarloEndPhase10(b *testing.B) {
	p := program(b)
	st := tenModels(b)
	q := odds.Question{Program: p, State: st, Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	b.ResetTimer()
	if _, err := odds.Sample(context.Background(), q, b.N, 1, 1, nil); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMonteCarloResolveHit samples one lasgun hit on a W1 fighter
// in mesh armour, Lasting Injuries included, on one worker: the time and
// the allocations of a sample (TestRecycledSampleAllocations bounds them).
func BenchmarkMonteCarloResolveHit(b *testing.B) {
	p := program(b)
	q := odds.Question{Program: p, State: decodeState(b, duel(3, 1)), Procedure: "resolve_hit",
		Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Of: query(b, p, `model("target").status`)}
	// What the program works out once (what each procedure reads and
	// writes) is worked out before the timing.
	if _, err := odds.Sample(context.Background(), q, 100, 1, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := odds.Sample(context.Background(), q, b.N, 1, 1, nil); err != nil {
		b.Fatal(err)
	}
}

// tenModels is a 10-model gang at the End phase: two down, one Broken.
func tenModels(t testing.TB) *state.State {
	var b strings.Builder
	b.WriteString("gangs:\n  - id: g\n    name: Gang\n    starting_crew: 10\n    models:\n")
	for i := range 10 {
		status := "status: standing, secondary: active"
		switch i {
		case 3:
			status = "status: prone, secondary: seriously_injured"
		case 7:
			status = "status: out_of_action"
		case 5:
			status = "status: standing, secondary: active, conditions: [broken]"
		}
		fmt.Fprintf(&b, "      - {id: m%d, name: M%d, kind: fighter, %s, x: %d, y: 0, base: 25, stats: {t: 3, cl: 7+, i: 4+}}\n", i, i, status, i*5)
	}
	return decodeState(t, b.String())
}

// A failing branch is named by its first and last decisions, not all of
// them: a re-roll loop could make the message as long as the path.
func TestFailingBranchIsNamedBriefly(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Procedure: "go_out_of_action",
		Args: map[string]string{"fighter": "m", "attacker": "m"}, Limits: interpreter.Limits{Steps: 20, Depth: 64, DicePerRoll: 100, Rerolls: 1000, Events: 100_000}}
	_, err := odds.Exact(context.Background(), q, 0)
	if err == nil || !strings.Contains(err.Error(), "on the branch") {
		t.Fatalf("err = %v, want a step limit hit on some branch", err)
	}
	if n := strings.Count(err.Error(), " of "); n > 12 {
		t.Errorf("the branch is described in %d decisions: %v", n, err)
	}
}

// Monte Carlo copies each sample into one buffer per worker: an outcome
// whose value points into a copy (a model) keeps that copy, so later
// samples do not change it under the answer. The value of the outcome is
// the first sample's, as a run of one sample shows.
func TestSampleKeepsValuesWhole(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Procedure: "go_out_of_action",
		Args: map[string]string{"fighter": "m", "attacker": "m"}, Of: query(t, p, `model("m")`)}
	injuries := func(n int) string {
		r, err := odds.Sample(context.Background(), q, n, 3, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Outcomes) != 1 {
			t.Fatalf("outcomes %+v", r.Outcomes)
		}
		return fmt.Sprint(r.Outcomes[0].Value.(*state.Model).LastingInjuries)
	}
	first := injuries(1)
	if got := injuries(200); got != first {
		t.Errorf("the outcome's model has the lasting injuries %s, want the first sample's %s", got, first)
	}
}

// benchQuestion asks q of engine b.N times, reporting the ends, the
// configurations and the runs of the last answer.
func benchQuestion(b *testing.B, engine func(context.Context, odds.Question, int) (*odds.Result, error), q odds.Question) {
	b.Helper()
	b.ResetTimer()
	cpu := processCPU()
	for range b.N {
		r, err := engine(context.Background(), q, 1_000_000)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Paths), "ends")
		b.ReportMetric(float64(r.Configs), "configs")
		b.ReportMetric(float64(r.Runs), "runs")
		if r.Calls > 0 {
			b.ReportMetric(float64(r.Calls), "calls")
		}
	}
	// The CPU of a question, the collector's on other threads included:
	// on a loaded machine it varies far less than the time.
	b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
}
