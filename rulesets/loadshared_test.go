package rulesets_test

import (
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
)

// TestLoadSharedConcurrent: selections asked for at once load side by
// side, each once, and every caller of one gets the same rules.
func TestLoadSharedConcurrent(t *testing.T) {
	sels := []rulesets.Selection{
		{SkipTests: true, Houses: []string{"n17"}},
		{SkipTests: true, Base: "legacy-2017"},
	}
	got := make([][]*dsl.Rules, len(sels))
	for i := range got {
		got[i] = make([]*dsl.Rules, 3)
	}
	var wg sync.WaitGroup
	for i, sel := range sels {
		for j := range got[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rules, diags := rulesets.LoadShared(sel)
				if diags.HasErrors() {
					t.Error(diags[:1])
				}
				got[i][j] = rules
			}()
		}
	}
	wg.Wait()
	for i, rs := range got {
		for _, r := range rs {
			if r == nil || r != rs[0] {
				t.Fatalf("selection %d: the callers got different rules", i)
			}
		}
	}
	if got[0][0] == got[1][0] {
		t.Fatal("two selections got the same rules")
	}
}
