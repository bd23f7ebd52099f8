package interpreter

import (
	"slices"
	"testing"
)

// rowsOf keeps, for each table and modifier, the rows the roll lands on
// and their ways: for every shipped table and modifiers about it, they
// are what going through the dice's outcomes one by one gives (each
// outcome's row, grouped in the order rows first appear), asked twice
// (the second from what was kept).
func TestRowsOfGroupsEveryOutcome(t *testing.T) {
	p := shippedProgram(t)
	tables := 0
	for _, tab := range p.idx.Tables {
		if tab.Dice == nil || len(tab.Dice.Outcomes) == 0 {
			continue
		}
		tables++
		mods := []int{0}
		if !tab.Dice.Symbolic() {
			mods = append(mods, -3, -1, 1, 2, 6)
		}
		for _, mod := range mods {
			var want tableRowsOf
			for _, o := range tab.Dice.Outcomes {
				var value any = o.Value + mod
				if tab.Dice.Symbolic() {
					value = o.Face
				}
				row, err := findRow(tab, value)
				if err != nil {
					want = tableRowsOf{missing: true}
					break
				}
				i := slices.IndexFunc(want.rows, func(rw rowWays) bool { return rw.row == row })
				if i < 0 {
					want.rows = append(want.rows, rowWays{row: row})
					i = len(want.rows) - 1
				}
				want.rows[i].ways += o.Ways
			}
			for range 2 {
				got := p.rowsOf(tab, mod)
				if got.missing != want.missing || !slices.Equal(got.rows, want.rows) {
					t.Errorf("table %s, modifier %d: rows %+v (missing %v), want %+v (missing %v)", tab.ID, mod, got.rows, got.missing, want.rows, want.missing)
				}
			}
		}
	}
	if tables < 10 {
		t.Errorf("only %d tables with dice", tables)
	}
}
