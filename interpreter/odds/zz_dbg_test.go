package odds_test

import (
	"context"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

func TestDbgEnd(t *testing.T) {
	p := program(t)
	q := odds.Question{Program: p, State: decodeState(t, smallGang(4)), Procedure: "end_phase", Of: query(t, p, `gang("g").bottled`)}
	r, err := odds.Exact(context.Background(), q, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("configs %d ends %d runs %d %v", r.Configs, r.Paths, r.Runs, keys(r))
	for _, o := range r.Outcomes {
		t.Logf("%s %s", o.Key, o.P.RatString())
	}
}
