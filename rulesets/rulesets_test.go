package rulesets_test

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

// Every shipped pack checks without a diagnostic, warnings included.
func TestShippedPacksCheck(t *testing.T) {
	for _, dir := range rulesets.Dirs() {
		t.Run(dir, func(t *testing.T) {
			_, diags := rulesets.Load(selectionFor(dir))
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%v", diags)
			}
		})
	}
}

// The test blocks written next to the shipped rules all pass. This is
// what `munda test` runs; here it runs under `go test ./...`.
func TestShippedRuleTests(t *testing.T) {
	for _, dir := range rulesets.Dirs() {
		sel := selectionFor(dir)
		rules, diags := rulesets.Load(sel)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		prog, err := interpreter.Compile(rules)
		if err != nil {
			t.Fatal(err)
		}
		var tests []*dsl.TestInfo
		for _, ti := range rules.Index.Tests {
			if strings.HasPrefix(ti.Pack.Pack.Display, "rulesets/"+dir) {
				tests = append(tests, ti)
			}
		}
		if len(tests) == 0 && !strings.HasPrefix(dir, "house/") {
			t.Errorf("%s has no tests", dir)
		}
		programs := map[string]*interpreter.Program{}
		programFor := func(base string, houses []string) (*interpreter.Program, error) {
			s := sel
			if base != "" {
				s.Base = base
			}
			s.Houses = append(append([]string(nil), s.Houses...), houses...)
			s.SkipTests = true // to run tests already checked
			key := s.Base + "|" + strings.Join(s.Houses, ",")
			if p, ok := programs[key]; ok {
				return p, nil
			}
			r, ds := rulesets.Load(s)
			if ds.HasErrors() {
				return nil, ds.Err()
			}
			p, err := interpreter.Compile(r)
			programs[key] = p
			return p, err
		}
		for _, res := range interpreter.RunTests(prog, tests, programFor) {
			t.Run(dir+"/"+res.Name, func(t *testing.T) {
				if !res.Passed {
					var b strings.Builder
					_ = interpreter.WriteText(&b, res.Events)
					t.Errorf("%s\n%s\nevents:\n%s", res.At, strings.Join(res.Failures, "\n"), b.String())
				}
			})
		}
	}
}

// selectionFor checks a shipped pack as `munda check` does: a base on its
// own, a house pack on top of the default base with its rules on.
func selectionFor(dir string) rulesets.Selection {
	if strings.HasPrefix(dir, "house/") {
		return rulesets.Selection{Pack: rulesets.Pack(dir)}
	}
	return rulesets.Selection{Base: dir}
}
