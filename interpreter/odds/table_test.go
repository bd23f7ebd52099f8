package odds_test

import (
	"context"
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
