package odds_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// A table as the question: the chance of each row of the Lasting Injury
// table is, in closed form, the share of the 36 (tens, units) rolls of
// the D66 that its range covers, whatever the row then does (Multiple
// Injuries rolls again, Impressive Scars may become Out Cold). Both exact
// engines give it, to the fraction, and Monte Carlo agrees.
func TestTableRowOdds(t *testing.T) {
	p := program(t)
	table, err := p.Table("lasting_injury")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*big.Rat{}
	for tens := 1; tens <= 6; tens++ {
		for units := 1; units <= 6; units++ {
			n := 0
			for _, row := range table.Rows {
				if row.Covers(10*tens + units) {
					n++
					if want[row.ID] == nil {
						want[row.ID] = new(big.Rat)
					}
					want[row.ID].Add(want[row.ID], big.NewRat(1, 36))
				}
			}
			if n != 1 {
				t.Fatalf("D66 %d%d is covered by %d rows", tens, units, n)
			}
		}
	}
	// The rulebook's table, as a check on the check.
	for row, n := range map[string]int64{"out_cold": 8, "convalescence": 6, "captured": 2, "critical_injury": 5, "memorable_death": 1, "lesson_learned": 1} {
		if want[row] == nil || want[row].Cmp(big.NewRat(n, 36)) != 0 {
			t.Errorf("closed form: P(%s) = %v, want %d/36", row, want[row], n)
		}
	}
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Table: "lasting_injury", Args: map[string]string{"fighter": "m"}}
	for name, engine := range map[string]func(context.Context, odds.Question, int) (*odds.Result, error){"Exact": odds.Exact, "ExactReplay": odds.ExactReplay} {
		r, err := engine(context.Background(), q, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.Outcomes) != len(want) {
			t.Errorf("%s: %d outcomes, want %d rows: %+v", name, len(r.Outcomes), len(want), r.Outcomes)
		}
		for row, p := range want {
			if got := prob(r, row); got.Cmp(p) != 0 {
				t.Errorf("%s: P(%s) = %s, want %s", name, row, got, p)
			}
		}
	}
	mc, err := odds.Sample(context.Background(), q, 5000, 11, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for row, p := range want {
		o := odds.Outcome{}
		for _, x := range mc.Outcomes {
			if x.Key == row {
				o = x
			}
		}
		if lo, hi := mc.Interval(o, 3.2905); odds.Float(p) < lo || odds.Float(p) > hi {
			t.Errorf("Monte Carlo: P(%s) = %.4f outside [%.4f, %.4f]", row, odds.Float(p), lo, hi)
		}
	}
}

// With Of, a table's outcomes are what it leaves in the state: a
// Memorable Death is the one row that kills (1/36), and Out Cold (8/36)
// the one that notes nothing.
func TestTableOddsOf(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Table: "lasting_injury",
		Args: map[string]string{"fighter": "m"}, Of: query(t, p, `model("m").dead`)}
	if got := prob(exact(t, q), "true"); got.Cmp(big.NewRat(1, 36)) != 0 {
		t.Errorf("P(dead) = %s, want 1/36", got)
	}
	q.Of = query(t, p, `len(model("m").lasting_injuries) == 0`)
	if got := prob(exact(t, q), "true"); got.Cmp(big.NewRat(8, 36)) != 0 {
		t.Errorf("P(nothing noted) = %s, want 8/36", got)
	}
}

// Bad arguments for a table are errors, not panics.
func TestTableOddsBadArgs(t *testing.T) {
	p := program(t)
	for _, args := range []map[string]string{{"fighter": "nobody"}, {"figter": "m"}, {}} {
		q := odds.Question{Program: p, State: decodeState(t, loneFighter), Table: "lasting_injury", Args: args}
		if _, err := odds.Exact(context.Background(), q, 0); err == nil {
			t.Errorf("args %v: no error", args)
		}
	}
	q := odds.Question{Program: p, State: decodeState(t, loneFighter), Table: "no_such_table"}
	if _, err := odds.Exact(context.Background(), q, 0); err == nil {
		t.Error("an unknown table: no error")
	}
}

// A question of what happened: whether a Seriously Injured fighter was
// taken Out of Action in Recover & Restart, by the event signalled. With
// no friend to assist it rolls one Injury dice, Out of Action on 1 face
// of 6, the same chance as the state says afterwards.
func TestOddsOfSignalled(t *testing.T) {
	p := program(t)
	st := decodeState(t, `
gangs:
  - id: g
    name: Gang
    models:
      - {id: a, name: A, kind: fighter, status: prone, secondary: seriously_injured, x: 0, y: 0, base: 25, stats: {t: 3, w: 1, cl: 7+}}
`)
	q := odds.Question{Program: p, State: st, Procedure: "recover_and_restart", Args: map[string]string{"gang": "g"},
		Of: query(t, p, `signalled.taken_out_of_action ?? 0`)}
	r := exact(t, q)
	for k, want := range []*big.Rat{big.NewRat(5, 6), big.NewRat(1, 6)} {
		if got := prob(r, fmt.Sprint(k)); got.Cmp(want) != 0 {
			t.Errorf("P(%d taken Out of Action) = %s, want %s; outcomes %+v", k, got, want, r.Outcomes)
		}
	}
	q.Of = query(t, p, `model("a").status == "out_of_action"`)
	if got := prob(exact(t, q), "true"); got.Cmp(big.NewRat(1, 6)) != 0 {
		t.Errorf("P(Out of Action in the state) = %s, want 1/6", got)
	}
	// Monte Carlo counts the signals of each sample, not of those before.
	q.Of = query(t, p, `signalled.taken_out_of_action ?? 0`)
	mc, err := odds.Sample(context.Background(), q, 300, 5, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range mc.Outcomes {
		if o.Key != "0" && o.Key != "1" {
			t.Errorf("Monte Carlo outcome %s", o.Key)
		}
	}
}

// Runs that reach the same configuration having signalled differently
// stay apart: here every roll of the alarm's die ends in the same state
// and scope, and only the signal tells a 6 from the rest.
func TestSignalsKeepConfigurationsApart(t *testing.T) {
	src := `
dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
event alarm(gang: gang) "Alarm"
procedure maybe_alarm(gang) "Maybe an alarm" {
  roll a = d6
  if a == 6 {
    signal alarm(gang)
  }
}
procedure watch(gang) "Watch" {
  call maybe_alarm(gang)
  call maybe_alarm(gang)
  roll b = d6
  set gang.credits = b
}
`
	prog := looseProgram(t, "watch", src)
	q := odds.Question{Program: prog, State: decodeState(t, "gangs:\n  - {id: g, name: G, models: []}\n"),
		Procedure: "watch", Args: map[string]string{"gang": "g"}, Of: query(t, prog, `signalled.alarm ?? 0`)}
	for name, engine := range map[string]func(context.Context, odds.Question, int) (*odds.Result, error){"Exact": odds.Exact, "ExactReplay": odds.ExactReplay} {
		r, err := engine(context.Background(), q, 0)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range []*big.Rat{big.NewRat(25, 36), big.NewRat(10, 36), big.NewRat(1, 36)} {
			if got := prob(r, fmt.Sprint(k)); got.Cmp(want) != 0 {
				t.Errorf("%s: P(%d alarms) = %s, want %s", name, k, got, want)
			}
		}
	}
}
