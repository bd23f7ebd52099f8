package odds_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// The call memo (memo.go): callers at one call that differ only in what
// the callee never reads or writes have the callee run once for all.
// In each case six callers reach the call (m's kills 1 to 6), and what
// follows reads both models. Where the callee touches only its argument
// (o), the memo serves five of them; where it reads or writes m too (by
// id, through a hook, through an argument not a variable), or the
// question counts signals, it serves none. Each case must give the first
// engine's fractions and the merging engine's without the memo, with
// each caller the memo served continued alone too (the checking mode);
// served, it takes fewer runs.
func TestCallMemoPacks(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
event scarred(x: model) "Scarred"
procedure scar(x: model) "Scar" {
  roll c = d6
  if c >= 3 { set x.kills = x.kills + 1 }
  roll e = d6
  if e >= 4 {
    set x.xp = x.xp + c
    add scarred to x.marks
  }
}
procedure marked(x: model) "Marked" {
  roll c = d6
  if c >= 3 { set x.kills = x.kills + 1 }
  roll e = d6
  if e >= 4 { set x.xp = x.xp + c }
}
procedure shout(x: model) "Shout" {
  roll c = d6
  if c >= 3 { set x.kills = x.kills + 1 }
  roll e = d6
  if e >= 4 { signal scarred(x) }
}
procedure peek(x: model) "Peek" {
  roll c = d6
  if c >= 3 and model("m").kills > 3 { set x.kills = x.kills + 1 }
  roll e = d6
  if e >= 4 { set x.xp = x.xp + c }
}
procedure poke(x: model) "Poke" {
  roll c = d6
  if c >= 3 { set x.kills = x.kills + 1 }
  roll e = d6
  if e >= 4 {
    let v = model("m")
    set v.kills = c
  }
}
procedure leave(x: model) "Leave" {
  roll c = d6
  if c == 6 { stop p }
  roll e = d6
  if e >= 4 { set x.xp = x.xp + c }
}
table wound(x: model) "Wound" {
  roll d6
  1-3 graze "Graze" { set x.xp = x.xp + 1 }
  4-5 cut "Cut" {
    roll e = d6
    if e >= 4 { set x.kills = x.kills + 1 }
  }
  6 gash "Gash" {
    roll e = d6
    set x.xp = x.xp + e
  }
}
skill grudge "Grudge" {
  after marked as x {
    if model("m").kills > 4 { set x.xp = x.xp + 1 }
  }
}
procedure p(m: model, o: model) "P" {
  roll a = d6
  set m.kills = m.kills + a
%s
  roll z = d6
  if z >= 4 { set m.xp = m.xp + o.kills }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25, skills: [%s]}]}\n"
	const both = `model("m").kills * 10000 + model("m").xp * 100 + model("o").kills * 10 + model("o").xp + len(model("o").marks) * 1000000`
	for _, c := range []struct {
		name, call, skills, of string
		served                 int
		// stops: the callee may stop its caller: each run of the group
		// that does has every caller continued alone (no gain)
		stops bool
	}{
		{"a callee of its argument alone", "  call scar(o)", "", both, 5, false},
		{"a table of its argument alone", "  apply wound(o)", "", both, 5, false},
		{"a callee of its argument, in a loop", "  for each y in [o] {\n    call scar(y)\n  }", "", both, 5, false},
		{"a callee that may stop its caller", "  call leave(o)", "", both, 5, true},
		{"a callee reading the other model by id", "  call peek(o)", "", both, 0, false},
		{"a callee writing the other model found by id", "  call poke(o)", "", both, 0, false},
		{"a callee given what is not a variable", "  call scar(model(\"o\"))", "", both, 0, false},
		{"a hook on the callee reading the other model", "  call marked(o)", "grudge", both, 0, false},
		{"a hook on the callee no model holds reading the other model", "  call marked(o)", "", both, 0, false},
		{"a callee that signals", "  call shout(o)", "", both, 5, false},
		{"a question of what happened", "  call scar(o)\n  call shout(o)", "", both + ` + 10000000 * signalled.scarred`, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.call))
			q := odds.Question{Program: prog, State: decodeState(t, fmt.Sprintf(state, c.skills)), Procedure: "p",
				Args: map[string]string{"m": "m", "o": "o"}, Of: query(t, prog, c.of)}
			checkMemoCase(t, q, c.served, !c.stops)
		})
	}
}

// checkMemoCase asks q of the first engine, of the merging one without
// the call memo, with it, and checking it: all must give the same
// fractions, the memo serving served callers (and then, with gain, in
// fewer runs), each checked.
func checkMemoCase(t *testing.T, q odds.Question, served int, gain bool) {
	t.Helper()
	ctx := context.Background()
	want, err := odds.ExactReplay(ctx, q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := odds.ExactNoMemo(ctx, q, 100_000, true)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, plain, want)
	got, err := odds.ExactToEnd(ctx, q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, got, want)
	checking, checked, err := odds.ExactCheckingMemo(ctx, q, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, checking, want)
	if got.Calls != served {
		t.Errorf("the memo served %d callers, want %d", got.Calls, served)
	}
	if served > 0 {
		if checked != served+1 {
			t.Errorf("%d callers checked, want %d", checked, served+1)
		}
		if gain && got.Runs >= plain.Runs {
			t.Errorf("%d runs with the memo, %d without", got.Runs, plain.Runs)
		}
	}
	t.Logf("runs: %d without the memo, %d with it (%d configurations, %d)", plain.Runs, got.Runs, plain.Configs, got.Configs)
}

// The shipped End Phase with two fighters Seriously Injured
// (BenchmarkExactEndPhase10TwoDownToEnd): the second's Lasting Injuries
// are reached from 64 configurations that differ in the first's, which
// the callee never reads; the memo runs them once for 62 of them. The
// first engine cannot finish it: the merging engine without the memo is
// the reference, and each caller is checked alone (MUNDA_LONG=1).
func TestCallMemoShipped(t *testing.T) {
	if os.Getenv("MUNDA_LONG") == "" {
		t.Skip("the End Phase with two fighters down, each caller checked: MUNDA_LONG=1 runs it")
	}
	p := program(t)
	for _, of := range []string{`gang("g").bottled`, `model("m3").stats.cl + 10 * model("m2").stats.t`} {
		t.Run(of, func(t *testing.T) {
			q := odds.Question{Program: p, State: tenModelsDown(t, 2, 3), Procedure: "end_phase", Of: query(t, p, of)}
			ctx := context.Background()
			want, err := odds.ExactNoMemo(ctx, q, 100_000, true)
			if err != nil {
				t.Fatal(err)
			}
			got, checked, err := odds.ExactCheckingMemo(ctx, q, 100_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, got, want)
			decided, err := odds.Exact(ctx, q, 100_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, decided, want)
			if checked < 60 || got.Calls < 60 {
				t.Errorf("the memo served %d callers, %d checked: want 61 and 62", got.Calls, checked)
			}
			t.Logf("runs: %d without the memo, %d with it; %d callers served", want.Runs, got.Runs, got.Calls)
		})
	}
}
