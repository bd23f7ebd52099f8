package odds_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// Merging by the live hash (variables nothing later reads left out)
// gives the same fractions as merging by every variable in scope, on the
// shipped procedures the other tests compare; and every merge it makes
// that the scope hash would not is checked: both runs are continued, and
// their next steps give the same configurations and outcomes with the
// same chances.
func TestLiveHashAgreesWithScopeHash(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		name, state, proc string
		args              map[string]string
		of                string
		focus             []string
		long              bool // only with MUNDA_LONG=1
	}{
		{"bottle check", fmt.Sprintf(bottleState, ""), "bottle_check", map[string]string{"gang": "g"}, "", nil, false},
		{"bottle check iron will", fmt.Sprintf(bottleState, "skills: [iron_will],"), "bottle_check", map[string]string{"gang": "g"}, `gang("g").bottled`, nil, false},
		{"nerve test", smallGang(5), "nerve_test", map[string]string{"model": "m0"}, "", nil, false},
		{"lasting injury", loneFighter, "go_out_of_action", map[string]string{"fighter": "m", "attacker": "m"}, "", nil, false},
		{"resolve hit W2", duel(3, 2), "resolve_hit", map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, "", []string{"target"}, false},
		{"resolve hit W1", duel(3, 1), "resolve_hit", map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, "", []string{"target"}, true},
		{"activation", duel(4, 2), "activation", map[string]string{"model": "shooter"}, "", nil, false},
		{"resolve hit W2 status", duel(3, 2), "resolve_hit", map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, `model("target").status`, nil, false},
		{"lasting injury status", loneFighter, "go_out_of_action", map[string]string{"fighter": "m", "attacker": "m"}, `model("m").status`, nil, false},
		{"end phase 2", smallGang(2), "end_phase", nil, "", nil, true},
		{"end phase 2 bottled", smallGang(2), "end_phase", nil, `gang("g").bottled`, nil, true},
		{"end phase 4 bottled", smallGang(4), "end_phase", nil, `gang("g").bottled`, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && os.Getenv("MUNDA_LONG") == "" {
				t.Skip("tens of seconds: MUNDA_LONG=1 runs it")
			}
			q := odds.Question{Program: p, State: decodeState(t, c.state), Procedure: c.proc, Args: c.args, Focus: c.focus}
			if c.of != "" {
				q.Of = query(t, p, c.of)
			}
			want, got := liveAgainstScope(t, q, 1_000_000)
			if got.Configs > want.Configs {
				t.Errorf("%d configurations by the live hash, more than %d by scope", got.Configs, want.Configs)
			}
			t.Logf("by scope: %d configurations, %d ends, %d runs; live: %d, %d, %d", want.Configs, want.Paths, want.Runs, got.Configs, got.Paths, got.Runs)
		})
	}
}

// sameOutcomes fails unless got has want's outcomes with the same
// probabilities to the last digit, and its mean. (Outcomes as likely as
// one another may come in another order: merging changes which run
// reaches an outcome first.)
func sameOutcomes(t *testing.T, got, want *odds.Result) {
	t.Helper()
	if len(got.Outcomes) != len(want.Outcomes) {
		t.Fatalf("%d outcomes, want %d:\n%v\n%v", len(got.Outcomes), len(want.Outcomes), keys(got), keys(want))
	}
	for _, o := range want.Outcomes {
		if g := prob(got, o.Key); g.Cmp(o.P) != 0 {
			t.Errorf("P(%s) = %s, want %s", o.Key, g.RatString(), o.P.RatString())
		}
	}
	if (want.Mean == nil) != (got.Mean == nil) || want.Mean != nil && want.Mean.Cmp(got.Mean) != 0 {
		t.Errorf("mean %v, want %v", got.Mean, want.Mean)
	}
}

// Small packs where liveness decides: a roll never read again merges
// (configurations drop), and a value that looks dead in the rest of its
// block but is read by the loop's next pass or by an after hook does not
// (the fractions stay those of merging by scope, and every merge the
// live hash makes is checked).
func TestLiveHashPacks(t *testing.T) {
	const dice = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n"
	for _, c := range []struct {
		name, src string
		fewer     bool // the live hash must make fewer configurations
		atMost    int  // and at most this many, when not 0
	}{
		{"dead roll", `procedure p(gang) "P" {
  roll a = d6
  if a >= 4 { set gang.credits = gang.credits + 1 }
  roll b = d6
  if b >= 4 { set gang.credits = gang.credits + 1 }
}`, true, 0},
		{"read by the next pass", `procedure p(gang) "P" {
  roll first = d6
  for each i in [1, 2] {
    if i == 2 and first >= 4 { set gang.credits = gang.credits + 10 }
    roll r = d6
    if r == 6 { set gang.credits = gang.credits + 1 }
  }
}`, false, 0},
		{"read by a while's test", `procedure p(gang) "P" {
  roll first = d6
  let n = 0
  while n < first and n < 3 {
    set n = n + 1
    roll r = d6
    if r == 6 { set gang.credits = gang.credits + 1 }
  }
}`, false, 0},
		{"read by an after hook", `procedure p(gang) "P" {
  roll a = d6
  roll b = d6
  if b == 6 { set gang.credits = gang.credits + 1 }
}
rule late "Late" {
  after p {
    if a >= 4 { set gang.credits = gang.credits + 10 }
  }
}`, false, 0},
		{"read as natural", `procedure p(gang) "P" {
  roll a = d6 + 1
  roll b = d6
  if natural.a == 6 { set gang.credits = gang.credits + 10 }
  if b == 6 { set gang.credits = gang.credits + 1 }
}`, false, 0},
		// An effect on a roll reads a only as b is rolled: past it, a is
		// dead (were the effect's reads live everywhere in p, the six
		// values of a would stay apart until the end).
		{"read by an effect on a roll already made", `procedure p(gang) "P" {
  roll a = d6
  roll b = d6
  if b == 6 { set gang.credits = gang.credits + 1 }
  roll c = d6
  if c == 6 { set gang.credits = gang.credits + 1 }
}
rule early "Early" {
  modify p.b by -1 when a == 1
}`, true, 8},
		// The same effect on a roll inside a loop fires at every pass: a
		// stays live until the loop ends.
		{"read by an effect on a roll in a loop", `procedure p(gang) "P" {
  roll a = d6
  for each i in [1, 2] {
    roll b = d6
    if b == 6 { set gang.credits = gang.credits + 1 }
  }
  roll c = d6
  if c == 6 { set gang.credits = gang.credits + 1 }
}
rule early "Early" {
  modify p.b by -1 when a == 1
}`, false, 0},
		// Passes of a for each with as many items left merge when its
		// variable is not read: the second pass of 1..3 and the first of
		// 1..2, with the same credits (6 configurations, from 10).
		{"passes with as many left", `procedure p(gang) "P" {
  roll d = d6
  let n = d <= 2 ? 1 : (d <= 4 ? 2 : 3)
  for each _ in 1..n {
    roll r = d6
    if r == 6 { set gang.credits = gang.credits + 1 }
  }
}`, true, 7},
		// Read, the items left are what differs: with credits, the
		// second pass of [1, 2, 5] and, without, the first of [2, 2] run
		// the same item with the same credits, then not.
		{"passes whose items are read", `procedure p(gang) "P" {
  roll d = d6
  if d >= 4 { set gang.credits = 100 }
  for each i in (gang.credits == 100 ? [1, 2, 5] : [2, 2]) {
    set gang.credits = 0
    roll r = d6
    if r + i >= 7 { set gang.reputation = gang.reputation + 1 }
  }
}`, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", dice+c.src+"\n")
			q := odds.Question{Program: prog, State: decodeState(t, "gangs:\n  - {id: g, name: G, models: []}\n"),
				Procedure: "p", Args: map[string]string{"gang": "g"}, Of: query(t, prog, `gang("g").credits * 100 + gang("g").reputation`)}
			want, got := liveAgainstScope(t, q, 10_000)
			if c.fewer && got.Configs >= want.Configs {
				t.Errorf("%d configurations by the live hash, want fewer than %d by scope", got.Configs, want.Configs)
			}
			if c.atMost > 0 && got.Configs > c.atMost {
				t.Errorf("%d configurations by the live hash, want at most %d", got.Configs, c.atMost)
			}
			t.Logf("by scope: %d configurations; live: %d", want.Configs, got.Configs)
		})
	}
}

// Fields of models that nothing later reads are left out too: a field
// written and never read again merges (configurations drop), unless the
// question reads it, a later statement or a function it calls does, or
// the question is a summary (which reads the whole state).
func TestLiveFieldsPacks(t *testing.T) {
	const head = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" +
		"function seasoned(m: model) \"Seasoned\" = m.xp > 1 or len(m.name) > 40\n"
	const body = `procedure p(m: model) "P" {
  roll a = d6
  if a >= 4 { set m.xp = m.xp + a }
  roll b = d6
  if b >= 4 { set m.kills = m.kills + 1 }
  roll c = d6
  %s
}`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n"
	configs := map[string]int{}
	for _, c := range []struct {
		name, last, of string
		fewer          bool
		focus          []string
	}{
		{"never read again", `if c == 6 { set m.wounds_lost = 1 }`, `model("m").kills`, true, nil},
		{"read by the question", `if c == 6 { set m.wounds_lost = 1 }`, `model("m").xp * 100 + model("m").kills`, false, nil},
		{"read later", `if c == 6 and m.xp > 4 { set m.kills = m.kills + 10 }`, `model("m").kills`, false, nil},
		{"read by a function", `if c == 6 and seasoned(m) { set m.kills = m.kills + 10 }`, `model("m").kills`, false, nil},
		// A summary reads every field but the details (xp, kills).
		{"summary", `if c == 6 { set m.wounds_lost = 1 }`, "", true, nil},
		{"summary reads the rest", `if c >= 4 { set m.flesh_wounds = m.flesh_wounds + 1 }
  roll d = d6
  if d == 6 { set m.wounds_lost = 1 }`, "", true, nil},
		// With focus, of the focus models only.
		{"summary of the focus", `let o = model("o")
  if c >= 4 { set o.flesh_wounds = o.flesh_wounds + 1 } else { set m.flesh_wounds = m.flesh_wounds + 1 }
  roll d = d6
  if d == 6 { set m.wounds_lost = 1 }`, "", true, []string{"m"}},
		// A list asked only whether it holds an item is hashed as the
		// count of that item: marks [scarred] and [] merge, [lucky] not.
		{"asked whether it holds", `if c == 1 { add lucky to m.marks } else if c == 2 { add scarred to m.marks }
  roll d = d6
  if "lucky" in m.marks and d == 6 { set m.kills = m.kills + 10 }`, `model("m").kills`, true, nil},
		{"read whole", `if c == 1 { add lucky to m.marks } else if c == 2 { add scarred to m.marks }
  roll d = d6
  if len(m.marks) > 0 and d == 6 { set m.kills = m.kills + 10 }`, `model("m").kills`, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", head+fmt.Sprintf(body, c.last)+"\n")
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"}, Focus: c.focus}
			if c.of != "" {
				q.Of = query(t, prog, c.of)
			}
			want, vars, got := leaveOutFields(t, q, c.fewer)
			t.Logf("by scope: %d configurations; live variables: %d; and fields: %d", want.Configs, vars.Configs, got.Configs)
			configs[c.name] = got.Configs
		})
	}
	if asked, whole := configs["asked whether it holds"], configs["read whole"]; asked >= whole {
		t.Errorf("a list asked whether it holds an item: %d configurations, want fewer than the %d of one read whole", asked, whole)
	}
}

// The benchmarks of merge_test.go and odds_test.go merging by every
// variable in scope and the whole state, as before liveness: the ratio.
func BenchmarkExactEndPhase4ByScope(b *testing.B)  { benchEnd(b, odds.ExactByScope, 4) }
func BenchmarkExactResolveHitByScope(b *testing.B) { benchHit(b, odds.ExactByScope) }
func BenchmarkExactEndPhase10ByScope(b *testing.B) {
	p := program(b)
	q := odds.Question{Program: p, State: tenModels(b), Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, odds.ExactByScope, q)
}

// An effect reads where it fires: a hook as the procedure it hooks runs,
// an `on` handler at a signal of its event. A field they read is live
// only before a call or a signal that may fire them.
func TestLiveFieldsEffects(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
event told(m: model) "Told"
procedure q(m: model) "Q" {
  let seen = m.wounds_lost
}
procedure p(m: model) "P" {
  roll a = d6
  if a >= 4 { set m.xp = m.xp + a }
  roll b = d6
  %s
  if b == 6 { set m.kills = m.kills + 1 }
}
rule watch "Watch" {
  after q {
    if m.xp > 4 { set m.kills = m.kills + 10 }
  }
  on told {
    if m.xp > 5 { set m.kills = m.kills + 100 }
  }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	for _, c := range []struct {
		name, middle string
		fewer        bool
	}{
		{"nothing fires", ``, true},
		{"a hook of a later call", `call q(m)`, false},
		{"a handler of a later signal", `signal told(m)`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.middle))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
				Of: query(t, prog, `model("m").kills`)}
			leaveOutFields(t, q, c.fewer)
		})
	}
}

// leaveOutFields answers q three ways: hashing all in scope (want), the
// live variables and the whole state (vars), and leaving out fields too
// while checking that what merged ends alike (got). got must give want's
// outcomes, in fewer configurations than vars if and only if fewer.
func leaveOutFields(t *testing.T, q odds.Question, fewer bool) (want, vars, got *odds.Result) {
	t.Helper()
	want, got = liveAgainstScope(t, q, 10_000)
	vars, err := odds.ExactWholeState(context.Background(), q, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	if fewer != (got.Configs < vars.Configs) {
		t.Errorf("%d configurations leaving out fields, %d hashing the whole state: want fewer %v", got.Configs, vars.Configs, fewer)
	}
	return want, vars, got
}

// A list of ids that nothing later reads in order, under a summary
// (which counts what a list gained and lost), is hashed as a multiset:
// runs that add the same two enmities in either order merge, as if they
// added them in one order, and are one outcome.
func TestLiveListsAsMultisets(t *testing.T) {
	const src = "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n" + `procedure p(m: model) "P" {
  roll c = d6
  if c >= 4 {
    add g to m.enmities
    add h to m.enmities
  } else {
    add %s to m.enmities
    add %s to m.enmities
  }
  roll d = d6
  if d == 6 and "g" in m.enmities { set m.wounds_lost = 1 }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n" +
		"  - {id: h, name: H, models: []}\n"
	configs := func(first, second string) *odds.Result {
		prog := looseProgram(t, "p", fmt.Sprintf(src, first, second))
		q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"}}
		_, got := liveAgainstScope(t, q, 10_000)
		return got
	}
	same, swapped := configs("g", "h"), configs("h", "g")
	if swapped.Configs != same.Configs || len(swapped.Outcomes) != len(same.Outcomes) {
		t.Errorf("in either order: %d configurations and %d outcomes, want %d and %d as in one order",
			swapped.Configs, len(swapped.Outcomes), same.Configs, len(same.Outcomes))
	}
}

// liveAgainstScope answers q merging by every variable in scope and the
// whole state (want) and by the live hash, checking as it goes that runs
// merged end alike (got); both must give the same outcomes.
func liveAgainstScope(t *testing.T, q odds.Question, maxConfigs int) (want, got *odds.Result) {
	t.Helper()
	want, err := odds.ExactByScope(context.Background(), q, maxConfigs)
	if err != nil {
		t.Fatal(err)
	}
	got, err = odds.ExactCheckingLive(context.Background(), q, maxConfigs)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, got, want)
	return want, got
}
