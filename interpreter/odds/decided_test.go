package odds_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// A run whose rest writes nothing the question reads is an outcome at
// once (interpreter.Checkpoint.Decided); where a later hook, a handler of
// a later signal, a period's end, a procedure called later or the next
// pass of a loop may still change it, the run is followed on. Each case
// is asked of the merging engine checking every run it takes as decided
// against the run's end, and must give the first engine's fractions;
// taken as decided too early, it would not.
func TestDecidedPacks(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
event told(m: model) "Told"
event round_ended() "The round ends" ends round
procedure quiet(m: model) "Quiet" {
  roll c = d6
}
procedure writer(m: model) "Writer" {
  roll c = d6
  if c >= 3 { set m.kills = m.kills + 10 }
}
procedure p(m: model) "P" {
%s
  roll b = d6
  roll d = d6
  if b + d == 12 { set m.xp = m.xp + 1 }
}
rule watch "Watch" {
  after quiet {
    set m.kills = m.kills + 100
  }
  on told {
    set m.kills = m.kills + 1000
  }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	const first = `  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }`
	for _, c := range []struct {
		name, body, of string
		// decided: fewer runs than following every run to its end (each
		// case but the first is still decided, but after the write, and
		// the last never)
		decided bool
	}{
		{"nothing writes it later", first, `model("m").kills`, true},
		{"a later hook writes it", first + "\n  call quiet(m)", `model("m").kills`, true},
		{"a handler of a later signal writes it", first + "\n  signal told(m)", `model("m").kills`, true},
		{"a procedure called later writes it", first + "\n  call writer(m)", `model("m").kills`, true},
		{"a period ends later", `  roll a = d6
  if a >= 4 { add blessed to m.marks until end of round }
  roll e = d6
  signal round_ended()`, `"blessed" in model("m").marks`, true},
		{"the next pass of a loop writes it", `  for each i in [1, 2] {
    roll a = d6
    if a >= 4 { set m.kills = m.kills + 1 }
    roll e = d6
    if e == 6 { set m.xp = m.xp + 1 }
  }`, `model("m").kills`, true},
		{"a question of what was signalled", first + "\n  signal told(m)", `signalled["told"]`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.body))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
				Of: query(t, prog, c.of)}
			checkDecidedCase(t, q, c.decided)
		})
	}
}

// checkDecidedCase asks q of the engine that checks every run it takes
// as decided against the run's end, of the merging engine and of it
// following every run to its end: all three give the first engine's
// fractions, and runs are taken as decided (fewer runs than to the end)
// exactly when decided says.
func checkDecidedCase(t *testing.T, q odds.Question, decided bool) {
	t.Helper()
	want, err := odds.ExactReplay(context.Background(), q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := odds.ExactCheckingDecided(context.Background(), q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, got, want)
	fast, err := odds.Exact(context.Background(), q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, fast, want)
	toEnd, err := odds.ExactToEnd(context.Background(), q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, toEnd, want)
	if got := fast.Runs < toEnd.Runs; got != decided {
		t.Errorf("%d runs, %d following every run to its end: want runs taken as decided %v", fast.Runs, toEnd.Runs, decided)
	}
	t.Logf("runs: %d, to the end: %d", fast.Runs, toEnd.Runs)
}

// A rule's error in the part of a run no longer followed is not seen:
// the answer is decided before it (munda run and munda test report it).
func TestDecidedMissesLaterErrors(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
procedure p(m: model) "P" {
  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }
  roll b = d6
  require b < 6 else "a six"
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	prog := looseProgram(t, "p", src)
	q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
		Of: query(t, prog, `model("m").kills`)}
	if _, err := odds.ExactToEnd(context.Background(), q, 10_000); err == nil {
		t.Fatal("followed to its end, the question does not fail: the case tests nothing")
	}
	r, err := odds.Exact(context.Background(), q, 10_000)
	if err != nil {
		t.Fatalf("decided before the require, the question fails: %v", err)
	}
	if len(r.Outcomes) != 2 {
		t.Errorf("outcomes %v, want kills 0 and 1", r.Outcomes)
	}
}

// The benchmarks' End Phase of ten models asking whether the gang
// bottles is decided at the Bottle check: the same fractions as
// following every run to its end, in far fewer runs, every run taken as
// decided checked against its end. And shipped questions that writes by
// object decide earlier (decidedByModelShipped).
func TestDecidedShipped(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: tenModels(t), Procedure: "end_phase", Of: query(t, p, `gang("g").bottled`)}
	want, err := odds.ExactToEnd(context.Background(), q, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	got, checked, err := odds.ExactCheckingDecided(context.Background(), q, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, got, want)
	if checked == 0 {
		t.Error("no run taken as decided was checked")
	}
	if got.Runs*10 > want.Runs {
		t.Errorf("%d runs, %d following every run to its end: want a tenth or fewer", got.Runs, want.Runs)
	}
	t.Logf("to the end: %d configurations, %d ends, %d runs; decided: %d, %d, %d",
		want.Configs, want.Paths, want.Runs, got.Configs, got.Paths, got.Runs)
	t.Run("by object", decidedByModelShipped)
}

// Only a question whose reads of the final state are all known can be
// decided early: fields by name (and gangs and models found by id), a
// plain answer.
func TestDecidedQuestions(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
event told(m: model) "Told"
function hurt(m: model) "Hurt" = m.wounds_lost > 0
procedure p(m: model) "P" {
  roll a = d6
}
`
	prog := looseProgram(t, "p", src)
	for _, c := range []struct {
		of      string
		watched bool
	}{
		{`model("m").kills`, true},
		{`gang("g").bottled`, true},
		{`"blessed" in model("m").marks`, true},
		{`model("m").stats.ws + 1`, true},
		{`model("m")`, false},               // a model: it points into the state
		{`model("m") == model("m")`, false}, // compared whole
		{`model("m").stats == model("m").stats`, false},
		{`string(model("m"))`, false},    // shown whole
		{`len(gang("g").models)`, false}, // a list of models handed to a built-in
		{`hurt(model("m"))`, false},      // a function of the rules
		{`signalled["told"]`, false},     // what was signalled
		{`model("m").name`, false},       // a field Go code writes (goWrittenFields)
	} {
		if got := prog.Watch(query(t, prog, c.of)) != nil; got != c.watched {
			t.Errorf("%s: watched %v, want %v", c.of, got, c.watched)
		}
	}
}

// The hit on a W1 fighter asking its status (decided once the rest
// cannot change it), and followed to its end: the ratio, and the cost of
// asking at each checkpoint whether the run is decided.
func BenchmarkExactResolveHitStatus(b *testing.B)      { benchHitStatus(b, odds.Exact) }
func BenchmarkExactResolveHitStatusToEnd(b *testing.B) { benchHitStatus(b, odds.ExactToEnd) }

func benchHitStatus(b *testing.B, engine func(context.Context, odds.Question, int) (*odds.Result, error)) {
	p := program(b)
	q := odds.Question{Program: p, State: decodeState(b, duel(3, 1)), Procedure: "resolve_hit",
		Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Of: query(b, p, `model("target").status`)}
	benchQuestion(b, engine, q)
}
