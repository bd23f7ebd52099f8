package odds_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/stdlib/state"
)

// Writes by object (interpreter/writesbymodel.go): a write through a
// variable whose model or gang the checkpoint knows is a write of that
// one alone, so a question of another is decided before it. Where the
// object is not known (a list, model(id) found later, a variable set
// later, by a hook, a callee given something else than a plain variable,
// two calls down) the run is followed on. Each case is asked of the
// merging engine checking every run it takes as decided against the
// run's end, and must give the first engine's fractions; decided: fewer
// runs than following every run to its end (in each case but by object,
// nothing is decided before the last roll).
func TestDecidedByModelPacks(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
characteristic cl "Cool" {
  check d6 at_least
  target
}
procedure writer(x: model) "Writer" {
  roll c = d6
  if c >= 3 { set x.kills = x.kills + 10 }
}
procedure relay(z: model) "Relay" {
  roll r = d6
  if r > 0 { call writer(z) }
}
procedure relay_named(z: model) "Relay by name" {
  roll r = d6
  if r > 0 { call writer(x: z) }
}
procedure relay_found(z: model) "Relay to a model found" {
  roll r = d6
  if r > 0 { call writer(model("m")) }
}
procedure finder(x: model) "Finder" {
  let w = model("m")
  roll c = d6
  if c >= 3 { set w.kills = w.kills + 10 }
}
procedure relay_finder(z: model) "Relay to a finder" {
  roll r = d6
  if r > 0 { call finder(z) }
}
procedure relay_shadowed(z: model) "Relay of a name taken" {
  roll r = d6
  for each z in [model("m")] {
    call writer(z)
  }
}
procedure setter(x: model) "Setter" {
  roll c = d6
  for each x in [model("m")] {
    if c >= 3 { set x.kills = x.kills + 10 }
  }
}
procedure bottler(h: gang) "Bottler" {
  roll c = d6
  if c >= 3 { set h.bottled = true }
}
procedure p(m: model, o: model, g: gang, k: gang) "P" {
%s
}
%s`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25}]}\n" +
		"  - {id: k, name: K, models: [{id: n, name: N, kind: fighter, status: standing, x: 9, y: 0, base: 25}]}\n"
	const first = `  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }`
	for _, c := range []struct {
		name, body, of string
		decided        bool
	}{
		{"another model through a parameter", first + "\n  call writer(o)", `model("m").kills`, true},
		{"the model through a parameter", first + "\n  call writer(m)", `model("m").kills`, false},
		{"another model two calls down", first + "\n  call relay(o)", `model("m").kills`, true},
		{"the model two calls down", first + "\n  call relay(m)", `model("m").kills`, false},
		{"the model two calls down, by name", first + "\n  call relay_named(m)", `model("m").kills`, false},
		{"a model found two calls down", first + "\n  call relay_found(o)", `model("m").kills`, false},
		{"a callee's callee writes a model it finds", first + "\n  call relay_finder(o)", `model("m").kills`, false},
		{"a callee whose loop takes its parameter's name", first + "\n  call setter(o)", `model("m").kills`, false},
		{"a callee given a loop's variable of its caller's parameter's name", first + "\n  call relay_shadowed(o)", `model("m").kills`, false},
		{"a callee given what is not a variable", first + "\n  call writer(model(\"m\"))", `model("m").kills`, false},
		{"another model through a variable", "  let y = o\n" + first + `
  roll e = d6
  if e >= 3 { set y.kills = y.kills + 10 }`, `model("m").kills`, true},
		{"another model found by id before", "  let y = model(\"o\")\n" + first + `
  roll e = d6
  if e >= 3 { set y.kills = y.kills + 10 }`, `model("m").kills`, true},
		{"a model found by id later", first + `
  let y = model("m")
  roll e = d6
  if e >= 3 { set y.kills = y.kills + 10 }`, `model("m").kills`, false},
		{"a variable set later", "  let y = o\n" + first + `
  set y = m
  roll e = d6
  if e >= 3 { set y.kills = y.kills + 10 }`, `model("m").kills`, false},
		{"a variable set by a hook", "  let y = o\n" + first + `
  step s "S" {
    roll e = d6
  }
  roll f = d6
  if f >= 3 { set y.kills = y.kills + 10 }`, `model("m").kills`, false},
		{"a list", first + `
  for each y in [o, m] {
    roll e = d6
    if e >= 3 { set y.kills = y.kills + 10 }
  }`, `model("m").kills`, false},
		{"a loop past the model", `  for each y in [m, o] {
    roll e = d6
    if e >= 3 { set y.kills = y.kills + 10 }
  }`, `model("m").kills`, true},
		{"a loop before the model", `  for each y in [o, m] {
    roll e = d6
    if e >= 3 { set y.kills = y.kills + 10 }
  }`, `model("m").kills`, false},
		{"another model's characteristics", first + `
  roll e = d6
  if e >= 3 { set o.stats.cl = 9 }`, `model("m").kills * 100 + model("m").stats.cl`, true},
		{"the model's characteristics", first + `
  roll e = d6
  if e >= 3 { improve cl of m }`, `model("m").kills * 100 + model("m").stats.cl`, false},
		{"another gang through a parameter", `  roll a = d6
  if a >= 4 { set g.bottled = true }
  call bottler(k)`, `gang("g").bottled`, true},
		{"the gang through a parameter", `  roll a = d6
  if a >= 4 { set g.bottled = true }
  call bottler(g)`, `gang("g").bottled`, false},
		{"the gang through its model", `  roll a = d6
  if a >= 4 { set g.bottled = true }
  roll e = d6
  if e >= 3 { set o.gang.bottled = true }`, `gang("g").bottled`, false},
		{"a field of any model asked", first + "\n  call writer(o)", `model("m").kills + gang("g").models[1].kills`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rule := ""
			if strings.Contains(c.body, "step s") {
				rule = "rule swap \"Swap\" {\n  after p.s {\n    set y = m\n  }\n}\n"
			}
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.body, rule))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p",
				Args: map[string]string{"m": "m", "o": "o", "g": "g", "k": "k"}, Of: query(t, prog, c.of)}
			checkDecidedCase(t, q, c.decided)
		})
	}
}

// The effects of a skill no model holds, where nothing later may give it
// to one, fire nowhere: what they would write does not keep a question
// open (writes.firing). Nor does the branch of an if the battle decides
// that the run will not take (guards.go). Each case as in
// TestDecidedByModelPacks: decided, fewer runs than following every run
// to its end.
func TestDecidedGatedPacks(t *testing.T) {
	const src = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
procedure quiet(x: model) "Quiet" {
  roll c = d6
  if c > 0 { set x.xp = x.xp + c }
}
procedure p(m: model, o: model) "P" {
  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }
%s
}
skill grudge "Grudge" {
  after quiet as x {
    let victim = model("m")
    set victim.kills = victim.kills + 10
  }
}
procedure strike(x: model, weapon: weapon) "Strike" {
  roll c = d6
  if c > 0 { set x.xp = x.xp + c }
}
trait jolt "Jolt" {
  after strike {
    let victim = model("m")
    set victim.kills = victim.kills + 10
  }
}
`
	const state = "battle: {rules: [%s]}\ngangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25, skills: [%s], " +
		"weapons: [{id: knife, name: Knife, s: 3, d: 1, traits: [%s]}]}]}\n"
	for _, c := range []struct {
		name, body, rules, skills, traits string
		decided                           bool
	}{
		{"a skill no model holds", "  call quiet(o)", "", "", "", true},
		{"a skill a model holds", "  call quiet(o)", "", "grudge", "", false},
		// Decided once the skill is not given (fewer runs), not before.
		{"a skill given later", "  roll e = d6\n  if e >= 3 { add grudge to o.skills }\n  call quiet(o)", "", "", "", true},
		{"a skill given by a callee", "  call giver(o)\n  call quiet(o)", "", "", "", true},
		{"a branch the battle leaves out", "  roll e = d6\n  if \"flood\" in battle.rules { set m.kills = m.kills + e }", "", "", "", true},
		{"a branch the battle takes", "  roll e = d6\n  if \"flood\" in battle.rules { set m.kills = m.kills + e }", "flood", "", "", false},
		{"a trait no weapon has", "  call strike(o, o.weapons[0])", "", "", "", true},
		{"a trait a weapon has", "  call strike(o, o.weapons[0])", "", "", "jolt", false},
		{"a trait weapon_of gives from a list made", "  call strike(o, weapon_of({id: \"bolt\", name: \"Bolt\", s: 3, d: 1, traits: map([o.name], \"jolt\")}))", "", "", "", false},
		{"a trait weapon_of gives", "  call strike(o, weapon_of({id: \"bolt\", name: \"Bolt\", s: 3, d: 1, traits: [\"jolt\"]}))", "", "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			extra := "procedure giver(y: model) \"Giver\" {\n  roll g = d6\n  if g >= 3 { add grudge to y.skills }\n}\n"
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.body)+extra)
			q := odds.Question{Program: prog, State: decodeState(t, fmt.Sprintf(state, c.rules, c.skills, c.traits)), Procedure: "p",
				Args: map[string]string{"m": "m", "o": "o"}, Of: query(t, prog, `model("m").kills`)}
			checkDecidedCase(t, q, c.decided)
		})
	}
}

// decidedByModelShipped (TestDecidedShipped's "by object") asks shipped
// questions that writes by object decide earlier: the Bottle
// checks of both gangs of the End Phase tests' battle asking whether the
// first bottles (decided once its check is made, though the second's
// still writes a gang's bottled: 18 runs with writes by name), and the
// Fleeing tests of a bottled gang asking whether its Leader flees
// (decided at once: the tests write through the loop's variable, which
// reaches the Leader only in its own pass, and the Leader tests first:
// 28 runs by name), and the hit on a W1 fighter asking the wounds it
// loses (the effects of the traits the lasgun lacks, which write a
// target's wounds, are left out; 1,295 runs before). Every run taken as decided is checked against its
// end, and the fractions are those of following every run to its end.
func decidedByModelShipped(t *testing.T) {
	p := program(t)
	read := func(name string) *state.State {
		b, err := os.ReadFile("../../rulesets/core-2023/tests/states/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return decodeState(t, string(b))
	}
	for _, c := range []struct {
		name, proc, state, of string
		args                  map[string]string
		most                  int
	}{
		{"bottle checks", "bottle_checks", "end_phase.yaml", `gang("goliaths").bottled`, nil, 6},
		{"flee tests", "flee_tests", "bottled.yaml", `model("tyrant").status`, map[string]string{"gang": "goliaths"}, 2},
		{"the W1 hit", "resolve_hit", "", `model("target").wounds_lost`, map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, 24},
	} {
		t.Run(c.name, func(t *testing.T) {
			var st *state.State
			if c.state == "" {
				st = decodeState(t, duel(3, 1))
			} else {
				st = read(c.state)
			}
			q := odds.Question{Program: p, State: st, Procedure: c.proc, Args: c.args, Of: query(t, p, c.of)}
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
			fast, err := odds.Exact(context.Background(), q, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, fast, want)
			if fast.Runs > c.most {
				t.Errorf("%d runs (%d following every run to its end), want at most %d", fast.Runs, want.Runs, c.most)
			}
			t.Logf("to the end: %d runs; decided: %d", want.Runs, fast.Runs)
		})
	}
}

// The hit on a W1 fighter asking the wounds its target loses, decided
// once no later rule can write them (writes by object, the effects of
// traits no weapon has left out), and followed to its end: the ratio.
func BenchmarkExactResolveHitWounds(b *testing.B)      { benchHitWounds(b, odds.Exact) }
func BenchmarkExactResolveHitWoundsToEnd(b *testing.B) { benchHitWounds(b, odds.ExactToEnd) }

func benchHitWounds(b *testing.B, engine func(context.Context, odds.Question, int) (*odds.Result, error)) {
	p := program(b)
	q := odds.Question{Program: p, State: decodeState(b, duel(3, 1)), Procedure: "resolve_hit",
		Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Of: query(b, p, `model("target").wounds_lost`)}
	benchQuestion(b, engine, q)
}
