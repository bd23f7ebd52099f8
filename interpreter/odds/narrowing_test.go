package odds_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/stdlib/state"
)

// An if of the rest of a run whose test the checkpoint decides (it reads
// the battle alone, nothing before it writes what it reads, it runs at
// most once more: interpreter/guards.go) has the branch the run will not
// take left out of what is live. Here only a sweep over every model
// reads the marks: where the checkpoint decides the sweep is not run, the
// runs that differ in a mark merge (fewer configurations than without the
// narrowing); where it runs, or may, they do not. Every case gives the
// fractions of merging by every variable in scope, with every merge
// checked (liveAgainstScope).
func TestLiveGuardsPacks(t *testing.T) {
	const head = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure late(m: model) "Late" {
  if "lucky" in m.marks { set m.kills = m.kills + 10 }
}
procedure sweep() "Sweep" {
  for each x in models() { call late(x) }
}
procedure flood() "Flood" {
  add flood to battle.rules
}
procedure quiet() "Quiet" {
  emit "Quiet"
}
rule wet "Wet" {
  after quiet {
    add flood to battle.rules
  }
}
`
	const body = `procedure p(m: model) "P" {
  roll c = d6
  if c >= 4 { add lucky to m.marks }
  roll d = d6
  if d == 6 { set m.kills = m.kills + 1 }
  %s
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	for _, c := range []struct {
		name, rest string
		fewer      bool
		extra      string // more declarations
	}{
		{"not taken", `if "flood" in battle.rules { call sweep() }`, true, ""},
		{"in a step", `step s "S" {
    if "flood" in battle.rules { call sweep() }
  }`, true, ""},
		{"taken", `if not ("flood" in battle.rules) { call sweep() }`, false, ""},
		{"else taken", `if "flood" in battle.rules { set m.xp = m.xp } else { call sweep() }`, false, ""},
		// An edit of another item of the list the test asks.
		{"another item written before", `add dry to battle.rules
  if "flood" in battle.rules { call sweep() }`, true, ""},
		{"written before", `add flood to battle.rules
  if "flood" in battle.rules { call sweep() }`, false, ""},
		{"written by a call before", `call flood()
  if "flood" in battle.rules { call sweep() }`, false, ""},
		{"written by a hook of a call before", `call quiet()
  if "flood" in battle.rules { call sweep() }`, false, ""},
		{"written by a hook on a step before", `step soak "Soak" { set m.xp = m.xp }
  if "flood" in battle.rules { call sweep() }`, false, "rule soaked \"Soaked\" {\n  after p.soak {\n    add flood to battle.rules\n  }\n}\n"},
		// Not decided: the test names a variable.
		{"a test of a variable", `let f = "flood"
  if f in battle.rules { call sweep() }`, false, ""},
		// A loop runs its if again after its body wrote the battle's
		// rules: the first pass does not sweep, the second does.
		{"in a loop", `for each i in [1, 2] {
    if "flood" in battle.rules { call sweep() }
    add flood to battle.rules
  }`, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", head+fmt.Sprintf(body, c.rest)+c.extra)
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
				Of: query(t, prog, `model("m").kills`)}
			narrowedAgainstUnnarrowed(t, q, c.fewer)
		})
	}
}

// The loop case above with its checkpoints inside the loop: the first
// pass does not sweep, but the second, after the body wrote the battle's
// rules, does, so the marks are live at the first pass. (At the second,
// its last item, the rolls of the first pass die: fewer configurations.)
func TestLiveGuardsInALoop(t *testing.T) {
	const src = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure late(m: model) "Late" {
  if "lucky" in m.marks { set m.kills = m.kills + 10 }
}
procedure sweep() "Sweep" {
  for each x in models() { call late(x) }
}
procedure p(m: model) "P" {
  for each i in [1, 2] {
    roll c = d6
    if c >= 4 and i == 1 { add lucky to m.marks }
    roll d = d6
    if d == 6 { set m.kills = m.kills + 1 }
    if "flood" in battle.rules { call sweep() }
    add flood to battle.rules
  }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	prog := looseProgram(t, "p", src)
	q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
		Of: query(t, prog, `model("m").kills`)}
	narrowedAgainstUnnarrowed(t, q, true)
}

// narrowedAgainstUnnarrowed answers q merging by every variable in scope
// (the reference), by the live hash with every merge checked, and by the
// live hash without the narrowings that depend on values at the
// checkpoint: all three must give the same outcomes, and the narrowed
// fewer configurations than the unnarrowed if and only if fewer.
func narrowedAgainstUnnarrowed(t *testing.T, q odds.Question, fewer bool) {
	t.Helper()
	want, got := liveAgainstScope(t, q, 10_000)
	plain, err := odds.ExactUnnarrowed(context.Background(), q, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, plain, want)
	if fewer != (got.Configs < plain.Configs) {
		t.Errorf("%d configurations narrowed, %d without: want fewer %v", got.Configs, plain.Configs, fewer)
	}
	t.Logf("by scope: %d configurations; live without narrowing: %d; narrowed: %d", want.Configs, plain.Configs, got.Configs)
}

// A droppable field read through a variable is read of the model the
// variable holds alone (interpreter/bymodel.go). Here the runs differ in
// o's marks, which only late reads: where the rest reads them of m alone,
// the runs merge (fewer configurations than reading by name); where it
// may read them of o (the parameter given o, friends(), a list, model(id),
// a variable set later, a predicate, an inlined function of o), they do
// not, and the fractions are those of merging by scope either way.
func TestLiveByModelPacks(t *testing.T) {
	const head = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `function charmed(x: model) "Charmed" = "lucky" in x.marks
procedure late(x: model) "Late" {
  if "lucky" in x.marks { set x.kills = x.kills + 10 }
}
procedure later(who: model) "Later" {
  call late(who)
}
procedure swap(x: model, other: model) "Swap" {
  for each x in [other] {
    if "lucky" in x.marks { set x.kills = x.kills + 10 }
  }
}
procedure swap_call(x: model, other: model) "Swap and call" {
  for each x in [other] { call late(x) }
}
procedure anyone(x: model) "Anyone" {
  if any(models(), "lucky" in .marks) { set x.kills = x.kills + 5 }
}
procedure through(who: model) "Through" {
  call anyone(who)
}
`
	const body = `procedure p(m: model, o: model) "P" {
  let y = m
  roll c = d6
  if c >= 4 { add lucky to o.marks }
  roll d = d6
  if d == 6 { set m.kills = m.kills + 1 }
  %s
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n"
	for _, c := range []struct {
		name, rest string
		fewer      bool
	}{
		{"the parameter given another", `call late(m)`, true},
		{"through two calls", `call later(m)`, true},
		{"by name", `call late(x: m)`, true},
		{"an inlined function of another", `if charmed(m) { set m.kills = m.kills + 5 }`, true},
		{"a variable never set again", `call late(y)`, true},
		{"the parameter given it", `call late(o)`, false},
		{"through two calls given it", `call later(o)`, false},
		{"by name given it", `call late(x: o)`, false},
		{"an inlined function of it", `if charmed(o) { set m.kills = m.kills + 5 }`, false},
		{"friends", `for each x in friends(m) { call late(x) }`, false},
		{"a list", `for each x in [m, o] { call late(x) }`, false},
		{"model(id)", `call late(model("o"))`, false},
		{"a variable set later", `set y = o
  call late(y)`, false},
		{"a parameter's name taken by a loop in the callee", `call swap(m, o)`, false},
		{"a parameter's name taken by a loop calling", `call swap_call(m, o)`, false},
		{"a predicate", `if any(models(), "lucky" in .marks) { set m.kills = m.kills + 5 }`, false},
		// A callee given another reads every model's marks: so does its
		// caller, called with arguments too.
		{"a predicate in a callee", `call anyone(m)`, false},
		{"a predicate two calls down", `call through(m)`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", head+fmt.Sprintf(body, c.rest))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m", "o": "o"},
				Of: query(t, prog, `model("m").kills * 100 + model("o").kills`)}
			narrowedAgainstUnnarrowed(t, q, c.fewer)
		})
	}
}

// The variable of a for each running reaches the items left and the
// value it had before the loop (restored when it ends): o's marks, set
// before the loop, stay live while a later pass or the restored value may
// read them (merging them would fail the checking and the fractions).
func TestLiveByModelLoops(t *testing.T) {
	const head = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure late(x: model) "Late" {
  if "lucky" in x.marks { set x.kills = x.kills + 10 }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n"
	for _, c := range []struct {
		name, body string
		fewer      bool
	}{
		// At m's pass, o is left: late(o) reads its marks.
		{"an item left", `roll c = d6
  if c >= 4 { add lucky to o.marks }
  for each x in [m, o] {
    roll d = d6
    if d == 6 { set m.kills = m.kills + 1 }
    call late(x)
  }`, false},
		// At m's pass, the last, o's marks are read no more (but o's
		// kills, which the question reads, hold what late found).
		{"the last item", `roll c = d6
  if c >= 4 { add lucky to o.marks }
  for each x in [o, m] {
    roll d = d6
    if d == 6 { set m.kills = m.kills + 1 }
    call late(x)
  }`, false},
		// After the if's block, x is o again.
		{"a name hidden by a block", `let x = o
  roll c = d6
  if c >= 4 { add lucky to o.marks }
  if c > 0 {
    let x = m
    roll d = d6
    if d == 6 { set x.kills = x.kills + 1 }
  }
  call late(x)`, false},
		// After the loop, x is o again.
		{"the value before", `let x = o
  roll c = d6
  if c >= 4 { add lucky to o.marks }
  for each x in [m] {
    roll d = d6
    if d == 6 { set m.kills = m.kills + 1 }
  }
  call late(x)`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + "procedure p(m: model, o: model) \"P\" {\n  " + c.body + "\n}\n"
			prog := looseProgram(t, "p", src)
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m", "o": "o"},
				Of: query(t, prog, `model("m").kills * 100 + model("o").kills`)}
			narrowedAgainstUnnarrowed(t, q, c.fewer)
		})
	}
}

// A hook that sets a variable of the frame it runs in makes it hold
// another model: reads through it are of any model.
func TestLiveByModelSetByAHook(t *testing.T) {
	const src = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure late(x: model) "Late" {
  if "lucky" in x.marks { set x.kills = x.kills + 10 }
}
procedure p(m: model, o: model) "P" {
  let y = m
  roll c = d6
  if c >= 4 { add lucky to o.marks }
  step s "S" {
    roll d = d6
    if d == 6 { set m.kills = m.kills + 1 }
  }
  call late(y)
}
rule swap "Swap" {
  after p.s {
    set y = o
  }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n"
	prog := looseProgram(t, "p", src)
	q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m", "o": "o"},
		Of: query(t, prog, `model("m").kills * 100 + model("o").kills`)}
	narrowedAgainstUnnarrowed(t, q, false)
}

// A hook before (or instead of) a procedure's body has run in any frame
// of it whose body runs: what it reads is dead there, unless a later call
// runs it again. An after hook reads where it runs, at the end.
func TestLiveStartHooks(t *testing.T) {
	const src = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure q(m: model, o: model) "Q" {
  roll c = d6
  if c >= 4 { add lucky to o.marks }
  roll d = d6
  if d == 6 { set m.kills = m.kills + 1 }
}
procedure p(m: model, o: model) "P" {
  %s
}
rule watch "Watch" {
  %s q {
    if "lucky" in o.marks { set m.kills = m.kills + 10 }
  }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n"
	for _, c := range []struct {
		name, body, timing string
		fewer              bool
	}{
		{"before, called once", `call q(m, o)`, "before", true},
		// Fewer too (nothing reads the marks in the second call), but
		// the first call's marks stay apart: the second reads them.
		{"before, called again", `call q(m, o)
  call q(m, o)`, "before", true},
		{"after", `call q(m, o)`, "after", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.body, c.timing))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m", "o": "o"},
				Of: query(t, prog, `model("m").kills`)}
			leaveOutFields(t, q, c.fewer)
		})
	}
}

// tenModelsDown is tenModels (a 10-model gang at the End phase, one Out
// of Action, one Broken) with the fighters si Seriously Injured.
func tenModelsDown(t testing.TB, si ...int) *state.State {
	var b strings.Builder
	b.WriteString("gangs:\n  - id: g\n    name: Gang\n    starting_crew: 10\n    models:\n")
	for i := range 10 {
		status := "status: standing, secondary: active"
		switch {
		case slices.Contains(si, i):
			status = "status: prone, secondary: seriously_injured"
		case i == 7:
			status = "status: out_of_action"
		case i == 5:
			status = "status: standing, secondary: active, conditions: [broken]"
		}
		fmt.Fprintf(&b, "      - {id: m%d, name: M%d, kind: fighter, %s, x: %d, y: 0, base: 25, stats: {t: 3, cl: 7+, i: 4+}}\n", i, i, status, i*5)
	}
	return decodeState(t, b.String())
}

// The shipped End Phase followed to its end: with one fighter Seriously
// Injured, the Flooded Passage step the battle does not have is not read
// (guards.go), so the runs that differ in the fighter's Lasting Injuries
// merge at the Rally tests; with two (MUNDA_LONG=1), the first's Lasting
// Injuries are not read while the second's are rolled (bymodel.go). The
// same fractions as without the narrowings, in fewer configurations; with
// two, every merge is checked too.
func TestNarrowingShipped(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		name string
		si   []int
		long bool
	}{
		{"one down", []int{3}, false},
		{"two down", []int{2, 3}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && os.Getenv("MUNDA_LONG") == "" {
				t.Skip("tens of seconds: MUNDA_LONG=1 runs it")
			}
			q := odds.Question{Program: p, State: tenModelsDown(t, c.si...), Procedure: "end_phase", Of: query(t, p, `gang("g").bottled`)}
			plain, err := odds.ExactUnnarrowed(context.Background(), q, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			engine := odds.ExactToEnd
			if c.long {
				engine = odds.ExactCheckingLive
			}
			got, err := engine(context.Background(), q, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, got, plain)
			if got.Configs >= plain.Configs {
				t.Errorf("%d configurations narrowed, want fewer than the %d without", got.Configs, plain.Configs)
			}
			t.Logf("without the narrowings: %d configurations, %d runs; narrowed: %d, %d", plain.Configs, plain.Runs, got.Configs, got.Runs)
		})
	}
}

// BenchmarkExactEndPhase10TwoDownToEnd is BenchmarkExactEndPhase10ToEnd
// with two fighters Seriously Injured: their Lasting Injuries, rolled one
// after the other, are what the narrowing by model merges.
func BenchmarkExactEndPhase10TwoDownToEnd(b *testing.B) {
	p := program(b)
	q := odds.Question{Program: p, State: tenModelsDown(b, 2, 3), Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, odds.ExactToEnd, q)
}
