package odds_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// duel is two gangs of one fighter each, six inches apart in the open:
// the shooter with a lasgun, the target with mesh armour, Toughness t
// and w Wounds (interpreter/testdata/duel.yaml.tmpl, shared with the
// interpreter's resume tests).
func duel(t, w int) string {
	b, err := os.ReadFile("../testdata/duel.yaml.tmpl")
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf(string(b), t, w)
}

// smallGang is a gang of n at the End phase: one down, one Broken.
func smallGang(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gangs:\n  - id: g\n    name: Gang\n    starting_crew: %d\n    models:\n", n)
	for i := range n {
		status := "status: standing, secondary: active"
		switch i {
		case 1:
			status = "status: prone, secondary: seriously_injured"
		case 2:
			status = "status: standing, secondary: active, conditions: [broken]"
		case 3:
			status = "status: out_of_action"
		}
		fmt.Fprintf(&b, "      - {id: m%d, name: M%d, kind: fighter, %s, x: %d, y: 0, base: 25, stats: {t: 3, w: 1, cl: 7+, i: 4+, ld: 7+, wil: 7+, int: 7+}}\n", i, i, status, i*5)
	}
	return b.String()
}

// The merging engine gives the same fractions as the first engine (a
// whole run per branch) on shipped procedures of every kind: the
// outcomes, their probabilities to the last digit, and the mean.
func TestExactMatchesReplay(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		name, state, proc string
		args              map[string]string
		of                string // "" for summaries
		focus             []string
		long              bool // tens of seconds: only with MUNDA_LONG=1
	}{
		{"bottle check", fmt.Sprintf(bottleState, ""), "bottle_check", map[string]string{"gang": "g"}, "", nil, false},
		{"bottle check iron will", fmt.Sprintf(bottleState, "skills: [iron_will],"), "bottle_check", map[string]string{"gang": "g"}, `gang("g").bottled`, nil, false},
		{"nerve test", smallGang(5), "nerve_test", map[string]string{"model": "m0"}, "", nil, false},
		{"lasting injury", loneFighter, "go_out_of_action", map[string]string{"fighter": "m", "attacker": "m"}, "", nil, false},
		{"end phase 2", smallGang(2), "end_phase", nil, "", nil, true},
		{"end phase 2 bottled", smallGang(2), "end_phase", nil, `gang("g").bottled`, nil, true},
		{"resolve hit W2", duel(3, 2), "resolve_hit", map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, "", []string{"target"}, false},
		{"activation", duel(4, 2), "activation", map[string]string{"model": "shooter"}, "", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && os.Getenv("MUNDA_LONG") == "" {
				t.Skip("slow with the first engine: MUNDA_LONG=1 runs it")
			}
			q := odds.Question{Program: p, State: decodeState(t, c.state), Procedure: c.proc, Args: c.args, Focus: c.focus}
			if c.of != "" {
				q.Of = query(t, p, c.of)
			}
			want, err := odds.ExactReplay(context.Background(), q, 200_000)
			if err != nil {
				t.Fatal(err)
			}
			got := exact(t, q)
			sameOutcomes(t, got, want)
			t.Logf("%d branches in the first engine; %d runs, %d configurations, %d ends", want.Paths, got.Runs, got.Configs, got.Paths)
		})
	}
}

func keys(r *odds.Result) []string {
	var out []string
	for _, o := range r.Outcomes {
		out = append(out, o.Key)
	}
	return out
}

// BenchmarkExactResolveHit: the exact odds of one lasgun hit on a W1
// fighter in mesh armour, Lasting Injuries included (the first engine
// enumerated about 88,000 branches).
func BenchmarkExactResolveHit(b *testing.B)       { benchHit(b, odds.Exact) }
func BenchmarkExactReplayResolveHit(b *testing.B) { benchHit(b, odds.ExactReplay) }

func benchHit(b *testing.B, engine func(context.Context, odds.Question, int) (*odds.Result, error)) {
	p := program(b)
	q := odds.Question{Program: p, State: decodeState(b, duel(3, 1)), Procedure: "resolve_hit",
		Args: map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, Focus: []string{"target"}}
	benchQuestion(b, engine, q)
}

// The first engine on the same questions, for the ratio.
func BenchmarkExactReplayEndPhase4(b *testing.B) { benchEnd(b, odds.ExactReplay, 4) }
func BenchmarkExactEndPhase4(b *testing.B)       { benchEnd(b, odds.Exact, 4) }
func BenchmarkExactReplayEndPhase10(b *testing.B) {
	p := program(b)
	q := odds.Question{Program: p, State: tenModels(b), Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	for range b.N {
		r, err := odds.ExactReplay(context.Background(), q, 1_000_000)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Paths), "paths")
	}
}

func benchEnd(b *testing.B, engine func(context.Context, odds.Question, int) (*odds.Result, error), n int) {
	p := program(b)
	q := odds.Question{Program: p, State: decodeState(b, smallGang(n)), Procedure: "end_phase", Of: query(b, p, `gang("g").bottled`)}
	benchQuestion(b, engine, q)
}

// A pack built to explode the state space: twenty rolls whose values all
// stay in scope, so that no two branches merge (6^20 configurations).
// Exact stops at the bound with ErrTooManyPaths, having kept at most the
// bound of configurations.
func TestExactStopsAtTheBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\nprocedure explode(gang) \"Explode\" {\n")
	sum := "0"
	for i := range 20 {
		fmt.Fprintf(&b, "  roll r%d = d6\n", i)
		sum += fmt.Sprintf(" + r%d", i)
	}
	fmt.Fprintf(&b, "  set gang.credits = %s\n}\n", sum)
	prog := looseProgram(t, "explode", b.String())
	q := odds.Question{Program: prog, State: decodeState(t, "gangs:\n  - {id: g, name: G, models: []}\n"),
		Procedure: "explode", Args: map[string]string{"gang": "g"}, Of: query(t, prog, `gang("g").credits`)}
	_, err := odds.Exact(context.Background(), q, 500)
	if !errors.Is(err, odds.ErrTooManyPaths) || !strings.Contains(err.Error(), "more than 500 distinct configurations") {
		t.Fatalf("err = %v, want the bound of 500 configurations", err)
	}
}

// Exact gives the same result with one worker and with several, whether
// it continues configurations from snapshots or by replaying their dice
// from the start (as where no snapshot can be made), and whether it
// takes configurations as runs pass them or by running them again: the
// same outcomes, fractions and configurations (and runs, but for the
// runs again).
func TestExactWorkersAndSnapshotsAgree(t *testing.T) {
	p := program(t)
	for _, c := range []struct {
		name, state, proc string
		args              map[string]string
		of                string
		focus             []string
		replay            bool // also by replay (slow where many configurations)
	}{
		{"nerve test", smallGang(5), "nerve_test", map[string]string{"model": "m0"}, "", nil, true},
		{"activation", duel(4, 2), "activation", map[string]string{"model": "shooter"}, "", nil, true},
		{"resolve hit W2", duel(3, 2), "resolve_hit", map[string]string{"attacker": "shooter", "target": "target", "weapon": "lasgun"}, "", []string{"target"}, true},
		{"bottle check", fmt.Sprintf(bottleState, ""), "bottle_check", map[string]string{"gang": "g"}, `gang("g").bottled`, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := odds.Question{Program: p, State: decodeState(t, c.state), Procedure: c.proc, Args: c.args, Focus: c.focus}
			if c.of != "" {
				q.Of = query(t, p, c.of)
			}
			want, err := odds.ExactWith(context.Background(), q, 200_000, 1, true, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []struct {
				workers             int
				snapshots, runAgain bool
			}{{4, true, false}, {2, true, true}, {1, false, false}} {
				if !v.snapshots && !c.replay {
					continue
				}
				got, err := odds.ExactWith(context.Background(), q, 200_000, v.workers, v.snapshots, v.runAgain)
				if err != nil {
					t.Fatal(err)
				}
				if got.Configs != want.Configs || got.Runs != want.Runs && !v.runAgain || got.Paths != want.Paths {
					t.Errorf("%d workers, snapshots %v: %d configurations, %d runs, %d ends; want %d, %d, %d", v.workers, v.snapshots,
						got.Configs, got.Runs, got.Paths, want.Configs, want.Runs, want.Paths)
				}
				if v.runAgain && got.Runs < want.Runs {
					// (Activation's pauses are all after statements that
					// do not roll: it runs them again either way.)
					t.Errorf("runs again: %d runs, want at least %d", got.Runs, want.Runs)
				}
				if len(got.Outcomes) != len(want.Outcomes) {
					t.Fatalf("%d workers, snapshots %v: %d outcomes, want %d", v.workers, v.snapshots, len(got.Outcomes), len(want.Outcomes))
				}
				for i, o := range want.Outcomes {
					if g := got.Outcomes[i]; g.Key != o.Key || g.P.Cmp(o.P) != 0 {
						t.Errorf("%d workers, snapshots %v: outcome %d is %s at %s, want %s at %s", v.workers, v.snapshots, i, g.Key, g.P.RatString(), o.Key, o.P.RatString())
					}
				}
			}
		})
	}
}
