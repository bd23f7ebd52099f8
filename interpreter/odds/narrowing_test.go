package odds_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
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
// rules, does, so the marks are live at the first pass.
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
	narrowedAgainstUnnarrowed(t, q, false)
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
