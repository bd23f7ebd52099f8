package dsl_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
)

// The expressions parsed ahead of the checker (preparse.go) must change
// nothing: every parse the checker takes is the tree its own parse would
// give, and the diagnostics are those of a check that parses nothing
// ahead, in the same order.

// preparseCases write expressions whose parse depends on the
// configuration: expr built-ins hidden by a parameter, a let or a
// declared function, munda's own replacing expr's, disabled built-ins,
// and errors.
var preparseCases = []string{
	"procedure p(len: int) \"P\" {\n  let a = len(1)\n  emit \"{a}\"\n}\n",
	"procedure p() \"P\" {\n  let max = 3\n  let a = max(1, 2) + len(\"ab\")\n  emit \"{a} {max}\"\n}\n",
	"function upper(s: string) \"U\" = s + \"!\"\nprocedure p() \"P\" {\n  let a = upper(\"x\") + lower(\"Y\")\n  emit \"{a}\"\n}\n",
	"function g(s: string, n: int) \"G\" = repeat(s, n)\nprocedure p() \"P\" {\n  let a = len(g(\"ab\", 3))\n  emit \"{a}\"\n}\n",
	"procedure p() \"P\" {\n  let a = now()\n  let b = date(\"2020\")\n  emit \"{a} {b}\"\n}\n",
	"procedure p() \"P\" {\n  let a = filter([1, 2], # > 1)\n  let b = count([1, 2], # > 1) + len(a)\n  emit \"{b} {a}\"\n}\n",
	"procedure p(filter: int) \"P\" {\n  let a = filter([1, 2], # > 1)\n  emit \"{a}\"\n}\n",
	"procedure p() \"P\" {\n  let a = 1 +\n  let b = (2\n  emit \"{a} {b} {c(}\"\n}\n",
	"procedure p() \"P\" {\n  let a = 1\n  emit \"{a + } b }} {{ {} } {a}\"\n  emit \"{a\"\n  emit \"\\u00e9 {a \\x41 b} {len(\\\"x\\\")}\"\n}\n",
}

// checkWithPreparse checks what load gives, cold, with parsing ahead on
// or off, and returns the diagnostics.
func checkWithPreparse(t *testing.T, on, wait bool, load func() (*dsl.Rules, diag.Diagnostics)) []string {
	t.Helper()
	dsl.SetPreparse(on, wait)
	defer dsl.SetPreparse(true, false)
	dsl.ResetShared()
	rules, diags := load()
	if rules != nil && rules.Index == nil && !diags.HasErrors() {
		diags = append(diags, dsl.Check(rules)...)
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Error())
	}
	return out
}

func loadSources(srcs ...string) func() (*dsl.Rules, diag.Diagnostics) {
	return func() (*dsl.Rules, diag.Diagnostics) {
		var loaded []*dsl.LoadedPack
		var all diag.Diagnostics
		for i, src := range srcs {
			name := fmt.Sprintf("p%d.munda", i)
			lp, diags := dsl.LoadPack(&dsl.Pack{FS: fstest.MapFS{name: {Data: []byte(src)}}, Root: ".", Display: fmt.Sprint("p", i)})
			all = append(all, diags...)
			loaded = append(loaded, lp)
		}
		rules, diags := dsl.Assemble(loaded[0], loaded[1:], nil)
		return rules, append(all, diags...)
	}
}

func TestPreparseChangesNothing(t *testing.T) {
	defer runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))) // parsing ahead needs two
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	var differ []string
	taken, stop := dsl.AuditPreparse(func(text string) { differ = append(differ, text) })
	defer stop()

	type load struct {
		name string
		load func() (*dsl.Rules, diag.Diagnostics)
	}
	var loads []load
	for _, base := range rulesets.Bases() {
		if base == rulesets.DefaultBase && os.Getenv("MUNDA_LONG") == "" {
			continue // its files are all in "every house rule" below, on this base
		}
		loads = append(loads, load{base, func() (*dsl.Rules, diag.Diagnostics) { return rulesets.Load(rulesets.Selection{Base: base}) }})
	}
	var houses []string
	for _, d := range rulesets.HouseDirs() {
		houses = append(houses, strings.TrimPrefix(d, "house/"))
	}
	loads = append(loads, load{"every house rule", func() (*dsl.Rules, diag.Diagnostics) {
		return rulesets.Load(rulesets.Selection{Houses: houses})
	}})
	loads = append(loads, load{"generated", loadSources(string(dsl.GeneratedPack(300)))})
	for i, src := range preparseCases {
		loads = append(loads, load{fmt.Sprint("case ", i), loadSources(src)})
	}
	for _, l := range loads {
		before := *taken
		off := checkWithPreparse(t, false, false, l.load)
		// As a check runs (some parses ahead taken), and with every parse
		// made before the check starts.
		for _, wait := range []bool{false, true} {
			on := checkWithPreparse(t, true, wait, l.load)
			if !slices.Equal(on, off) {
				t.Errorf("%s: parsing ahead (wait %v), the check said\n%s\nwithout:\n%s", l.name, wait, strings.Join(on, "\n"), strings.Join(off, "\n"))
			}
		}
		if testing.Verbose() {
			t.Logf("%s: %d parses taken; %s", l.name, *taken-before, strings.Join(off, "; "))
		}
	}
	if len(differ) > 0 {
		t.Errorf("parses taken that differ from the checker's own: %q", differ)
	}
	if *taken == 0 {
		t.Error("no parse made ahead was taken")
	}
}
