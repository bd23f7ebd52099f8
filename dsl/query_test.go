package dsl_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

var (
	queryRulesOnce sync.Once
	queryRules     *dsl.Rules
)

func coreRules(t testing.TB) *dsl.Rules {
	t.Helper()
	queryRulesOnce.Do(func() {
		r, diags := rulesets.Load(rulesets.Selection{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		queryRules = r
	})
	return queryRules
}

func TestCompileQuery(t *testing.T) {
	idx := coreRules(t).Index
	st, err := state.Decode("s.yaml", []byte("gangs:\n  - {id: g, name: G, bottled: true, models: []}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, want, err string
	}{
		{`gang("g").bottled`, "true", ""},
		{`len(models())`, "0", ""},
		{`gang("g").botled`, "", `--of:1:11: error: type gang has no field botled`},
		{`nope + 1`, "", `--of:1:1: error: unknown name nope`},
		{`  `, "", "the expression is empty"},
		{`1 +`, "", "the expression ends too soon"},
	} {
		q, diags := idx.CompileQuery("--of", c.text)
		if c.err != "" {
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.err) {
				t.Errorf("%q: diagnostics %v, want %q", c.text, diags, c.err)
			}
			continue
		}
		if diags.HasErrors() {
			t.Fatalf("%q: %v", c.text, diags)
		}
		v, err := q.Eval(st)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if got := fmt.Sprint(v); got != c.want {
			t.Errorf("%q = %s, want %s", c.text, got, c.want)
		}
	}
}

// FuzzCompileQuery: no --of text makes the compiler or the evaluation panic.
func FuzzCompileQuery(f *testing.F) {
	for _, s := range []string{`gang("g").bottled`, `count(models(), .status == "out_of_action")`, `1 +`, `"`, `{`, `models()[0].stats.cl`, `"taken_out_of_action" in signalled`, `signalled.x`} {
		f.Add(s)
	}
	idx := coreRules(f).Index
	st, _ := state.Decode("s.yaml", []byte("gangs:\n  - {id: g, name: G, models: []}\n"))
	f.Fuzz(func(t *testing.T, text string) {
		q, diags := idx.CompileQuery("--of", text)
		if diags.HasErrors() {
			return
		}
		_, _ = q.Eval(st)
		_, _ = q.EvalRun(st, map[string]int{"taken_out_of_action": 1})
	})
}

// A query can read what the run signalled, by event id; the events it
// names there must be declared.
func TestQuerySignalled(t *testing.T) {
	idx := coreRules(t).Index
	st := &state.State{}
	signalled := map[string]int{"taken_out_of_action": 2}
	for _, c := range []struct {
		text, want, err string
		signals         bool
	}{
		{`"taken_out_of_action" in signalled`, "true", "", true},
		{`"became_seriously_injured" in signalled`, "false", "", true},
		{`signalled.taken_out_of_action`, "2", "", true},
		{`signalled["taken_out_of_action"] >= 2 and len(models()) == 0`, "true", "", true},
		{`len(models())`, "0", "", false},
		{`"taken_out_of_acton" in signalled`, "", `signalled names no declared event "taken_out_of_acton"; did you mean taken_out_of_action?`, true},
		{`signalled.became_seriosly_injured > 0`, "", `no declared event "became_seriosly_injured"`, true},
		{`signalled + 1`, "", `--of:1:`, true},
	} {
		q, diags := idx.CompileQuery("--of", c.text)
		if c.err != "" {
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.err) {
				t.Errorf("%q: diagnostics %v, want %q", c.text, diags, c.err)
			}
			continue
		}
		if diags.HasErrors() {
			t.Fatalf("%q: %v", c.text, diags)
		}
		if q.Signals() != c.signals {
			t.Errorf("%q: Signals() = %v", c.text, q.Signals())
		}
		v, err := q.EvalRun(st, signalled)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if got := fmt.Sprint(v); got != c.want {
			t.Errorf("%q = %s, want %s", c.text, got, c.want)
		}
	}
	// Without a run's signals, nothing was signalled.
	q, _ := idx.CompileQuery("--of", `"taken_out_of_action" in signalled`)
	if v, err := q.Eval(st); err != nil || v != false {
		t.Errorf("Eval = %v, %v", v, err)
	}
}
