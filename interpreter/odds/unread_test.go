package odds_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// A roll whose result nothing later reads (interpreter.Checkpoint.
// UnreadRoll) is followed on one face: fewer runs, the same fractions as
// following every face. Each case that must follow every face fails when
// the condition it stands for is taken away: the runs drop, or the
// answer changes.
func TestUnreadRolls(t *testing.T) {
	const src = `dice d3 "D3" { faces 1, 2, 3 }
dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
procedure p(m: model) "P" {
  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }
  call q(m)
  roll b = d6
  if b == 6 { set m.wounds_lost = 1 }
}
procedure q(m: model) "Q" {
  roll x = d3
  %s
}
%s
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	const kills = `model("m").kills + 10 * model("m").wounds_lost`
	for _, c := range []struct {
		name, after, rules, of string
		forced                 bool // the roll of x is followed on one face
	}{
		{"experience nothing reads", `set m.xp = m.xp + x
  emit "{m.name} gains {x} XP"`, ``, kills, true},
		{"nothing at all", `emit "{x} rolled"
  set m.convalescence = true`, ``, kills, true},
		{"a summary (experience is a detail)", `set m.xp = m.xp + x
  set m.convalescence = true`, ``, "", true},
		{"read by the question", `set m.xp = m.xp + x`, ``, `model("m").xp + ` + kills, false},
		{"read later", `set m.xp = m.xp + x
  if m.xp > 2 { set m.kills = m.kills + 10 }`, ``, kills, false},
		{"read by a later call", `set m.xp = m.xp + x
  call r(m)`, `procedure r(m: model) "R" {
  if m.xp > 2 { set m.kills = m.kills + 10 }
}`, kills, false},
		{"read by name", `if x == 3 { set m.kills = m.kills + 10 }`, ``, kills, false},
		{"read as natural", `if natural.x == 3 { set m.kills = m.kills + 10 }`, ``, kills, false},
		{"into a field the summary reads", `set m.flesh_wounds = m.flesh_wounds + x`, ``, "", false},
		{"not an increment", `set m.xp = x`, ``, kills, false},
		{"a re-roll of it", `set m.xp = m.xp + x`, `rule lucky "Lucky" {
  reroll q.x when x == 1
}`, kills, false},
		// Past the block's last statement come the hooks of the
		// procedure that holds it, which roll dice of their own before
		// the next checkpoint: they must not be taken on one face.
		{"the last statement, with an after hook", `// nothing`, `rule late "Late" {
  after q {
    roll y = d6
    if y == 6 { set m.kills = m.kills + 100 }
  }
}`, kills, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := looseProgram(t, "p", fmt.Sprintf(src, c.after, c.rules))
			q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"}}
			if c.of != "" {
				q.Of = query(t, prog, c.of)
			}
			want, err := odds.ExactEveryFace(context.Background(), q, 10_000)
			if err != nil {
				t.Fatal(err)
			}
			got, err := odds.ExactCheckingUnread(context.Background(), q, 10_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, got, want)
			replay, err := odds.ExactReplay(context.Background(), q, 10_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, got, replay)
			if forced := got.Runs < want.Runs; forced != c.forced {
				t.Errorf("%d runs, %d following every face: want the roll followed on one face %v", got.Runs, want.Runs, c.forced)
			}
			t.Logf("runs: %d, every face: %d", got.Runs, want.Runs)
		})
	}
}

// A value that fails on some faces only is read: were it taken on one
// face, the run would miss the failure the others meet.
func TestUnreadRollFailsOnSomeFaces(t *testing.T) {
	const src = `dice d3 "D3" { faces 1, 2, 3 }
dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
procedure p(m: model) "P" {
  roll a = d6
  if a >= 4 { set m.kills = m.kills + 1 }
  roll x = d3
  set m.xp = m.xp + [1, 2][x - 1]
  roll b = d6
  if b == 6 { set m.wounds_lost = 1 }
}
`
	const state = "gangs:\n  - {id: g, name: G, models: [{id: m, name: M, kind: fighter, status: standing, x: 0, y: 0, base: 25}]}\n"
	prog := looseProgram(t, "p", src)
	q := odds.Question{Program: prog, State: decodeState(t, state), Procedure: "p", Args: map[string]string{"m": "m"},
		Of: query(t, prog, `model("m").kills`)}
	if _, err := odds.ExactReplay(context.Background(), q, 10_000); err == nil {
		t.Fatal("the first engine does not fail: the case tests nothing")
	}
	// Followed to its end: the question (kills) is decided before the
	// roll, and a run taken as decided reports no error after it.
	if r, err := odds.ExactToEnd(context.Background(), q, 10_000); err == nil {
		t.Errorf("no error (%d runs): a face that fails was not followed", r.Runs)
	}
	if _, err := odds.Exact(context.Background(), q, 10_000); err != nil {
		t.Errorf("taken as decided before the roll, the question fails: %v", err)
	}
}

// The questions of the benchmarks: the hit on a W1 fighter (whose
// Lasting Injuries may roll Lesson Learned's D3 of experience, which a
// summary does not show) and the End Phase of ten models asking whether
// the gang bottles. Going through that D3 on one face gives the same
// fractions as following every face, in fewer runs and configurations,
// and every roll so followed is checked against all its faces.
func TestUnreadRollsShipped(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		name string
		q    odds.Question
	}{
		{"resolve hit W1", odds.Question{Program: p, State: decodeState(t, duel(3, 1)), Procedure: "resolve_hit",
			Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Focus: []string{"target"}}},
		{"end phase 10 bottled", odds.Question{Program: p, State: tenModels(t), Procedure: "end_phase", Of: query(t, p, `gang("g").bottled`)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := odds.ExactEveryFace(context.Background(), c.q, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			got, err := odds.ExactCheckingUnread(context.Background(), c.q, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcomes(t, got, want)
			if got.Runs >= want.Runs {
				t.Errorf("%d runs, want fewer than the %d following every face", got.Runs, want.Runs)
			}
			// The run goes through the roll: no configuration waits at
			// it (one did, for each way to reach it).
			if got.Configs >= want.Configs {
				t.Errorf("%d configurations, want fewer than the %d following every face", got.Configs, want.Configs)
			}
			t.Logf("every face: %d configurations, %d ends, %d runs; unread rolls on one face: %d, %d, %d",
				want.Configs, want.Paths, want.Runs, got.Configs, got.Paths, got.Runs)
		})
	}
}

// The benchmarks of merge_test.go and odds_test.go following every face
// of every roll, as before UnreadRoll: the ratio.
func BenchmarkExactResolveHitEveryFace(b *testing.B) { benchHit(b, odds.ExactEveryFace) }
func BenchmarkExactEndPhase10EveryFace(b *testing.B) {
	p := program(b)
	q := odds.Question{Program: p, State: tenModels(b), Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, odds.ExactEveryFace, q)
}
