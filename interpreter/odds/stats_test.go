package odds_test

import (
	"fmt"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// A characteristic or the skills nothing later reads are left out of a
// configuration's hash like the fields only the rules read
// (interpreter/stats.go). Here the runs differ in o's Cool and Toughness
// and whether o has the skill steady: where nothing later reads them,
// or reads them of m alone, the runs merge (fewer configurations than
// hashing the whole state); where a later test, built-in, change or
// effect of the skill reads them of o, they do not, and the fractions are
// those of merging by scope either way (ExactCheckingLive continues
// runs merged and fails if they end differently).
func TestLiveStatsPacks(t *testing.T) {
	const head = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
dice d2x6 "2D6" { faces 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }
characteristic cl "Cool" {
  check d2x6 at_least
  target
}
characteristic t "Toughness" {
  check d6 at_most
}
characteristic ws "Weapon Skill" {
  check d6 at_least
  target
}
procedure late(x: model) "Late" {
  roll r = d6
  if r == 6 { set x.kills = x.kills + 100 }
}
procedure hardy(x: model) "Hardy" {
  if x.stats.t > 3 { set x.kills = x.kills + 10 }
}
skill steady "Steady" {
  after late as x { set x.kills = x.kills + 7 }
}
skill unused "Unused" {
  text "Nothing."
}
characteristic wil "Willpower" {
  check d2x6 at_least
  target
}
rule watch "Watch" {
  after ws { if model.stats.t > 3 { set model.kills = model.kills + 50 } }
}
rule will "Will" {
  modify model.wil by 1 when model.stats.t > 3
}
rule seasoned "Seasoned" {
  modify model.ws by 1 when model.xp > 5
}
kind fighter "Fighter" {
  status standing "Standing"
  warn "{model.name} has more wounds than it may" when model.stats.w > 3
}
`
	const body = `procedure p(m: model, o: model) "P" {
  roll c = d6
  if c >= 4 { %s }
  roll d = d6
  if d == 6 { set m.kills = m.kills + 1 }
  %s
}
`
	const cl, tough, skill, wounds = `set o.stats.cl = 9`, `set o.stats.t = 4`, `add steady to o.skills`, `set o.stats.w = 4`
	const xp = `set o.xp = 9`
	const state = "gangs:\n  - {id: g, name: G, models: [" +
		"{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25, stats: {cl: 7, t: 3, ws: 4, wil: 7}}, " +
		"{id: o, name: O, kind: fighter, status: standing, x: 5, y: 0, base: 25, stats: {cl: 7, t: 3, ws: 4, wil: 7}}]}\n"
	for _, c := range []struct {
		name, vary, rest string
		fewer            bool
	}{
		{"never read again", cl, ``, true},
		{"a test of another characteristic", cl, `test w = ws(o)
  if w { set o.kills = o.kills + 1 }`, true},
		{"a test of another model", cl, `test r = cl(m)
  if r { set m.kills = m.kills + 1 }`, true},
		{"a test of cl", cl, `test r = cl(o)
  if r { set o.kills = o.kills + 1 }`, false},
		{"a test of the characteristic of a list", cl, `for each x in [m, o] {
    test r = cl(x)
    if r { set x.kills = x.kills + 1 }
  }`, false},
		{"stat of t", tough, `if stat(o, "t") > 3 { set o.kills = o.kills + 1 }`, false},
		{"a characteristic nothing reads", skill, `if stat(o, "t") > 3 and o.stats.cl > 8 { set o.kills = o.kills + 1 }`, true},
		{"stat of another model", tough, `if stat(m, "t") > 3 { set m.kills = m.kills + 1 }`, true},
		{"stat by a name", tough, `let f = "t"
  if stat(o, f) > 3 { set o.kills = o.kills + 1 }`, false},
		{"a field of stats", cl, `if o.stats.cl > 8 { set o.kills = o.kills + 1 }`, false},
		{"stats whole", cl, `if o.stats != m.stats { set o.kills = o.kills + 1 }`, false},
		{"a callee reads t", tough, `call hardy(o)`, false},
		{"a callee reads t of another", tough, `call hardy(m)`, true},
		// An effect on every test of a characteristic reads at its tests.
		{"an effect on the tests of ws", tough, `test w = ws(o)
  if w { set o.kills = o.kills + 1 }`, false},
		{"an effect on the tests of ws of another", tough, `test w = ws(m)
  if w { set m.kills = m.kills + 1 }`, true},
		{"an effect on the tests of ws of a list", tough, `for each x in [m, o] {
    test w = ws(x)
    if w { set x.kills = x.kills + 1 }
  }`, false},
		{"an effect on the tests of another", tough, `test r = cl(m)
  if r { set m.kills = m.kills + 1 }`, true},
		// An effect on the value of a field reads where stat reads it.
		{"an effect on the value read by stat", tough, `if stat(m, "wil") > 7 { set m.kills = m.kills + 1 }`, false},
		{"an effect on the value read by a test", tough, `test r = wil(o)
  if r { set o.kills = o.kills + 1 }`, false},
		{"an effect on the value read by a test of another", tough, `test r = wil(m)
  if r { set m.kills = m.kills + 1 }`, true},
		{"an effect on a value read by stat of a name", xp, `let f = "ws"
  if stat(m, f) > 3 { set m.kills = m.kills + 1 }`, false},
		{"an effect on another value", tough, `if stat(m, "ws") > 3 { set m.kills = m.kills + 1 }`, true},
		// A kind's warnings are checked when a state is loaded, not in a run.
		{"a kind's warning", wounds, ``, true},
		{"improve", tough, `improve t of o
  if d == 1 { set o.kills = o.kills + 1 }`, false},
		{"can_improve", cl, `if can_improve(o, "cl") { set o.kills = o.kills + 1 }`, false},
		{"has_skill", skill, `if has_skill(o, "steady") { set o.kills = o.kills + 1 }`, false},
		{"has_skill of another skill", skill, `if has_skill(o, "unused") { set o.kills = o.kills + 1 }`, true},
		{"the skill's effect", skill, `call late(o)`, false},
		// An effect of a skill asks whether its holder holds it: any
		// model's skills are read, not by model.
		{"the skill's effect of another", skill, `call late(m)`, false},
		{"the skills", skill, `if len(o.skills) > 0 { set o.kills = o.kills + 1 }`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", head+fmt.Sprintf(body, c.vary, c.rest))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m", "o": "o"},
				Of: query(t, prog, `model("m").kills * 1000 + model("o").kills`)}
			leaveOutFields(t, q, c.fewer)
		})
	}
}
