package rulesets_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// Every shipped pack checks without a diagnostic, warnings included.
func TestShippedPacksCheck(t *testing.T) {
	for _, dir := range rulesets.Dirs() {
		t.Run(dir, func(t *testing.T) {
			// Shared with runShippedTests, which runs the same selection.
			_, diags := rulesets.LoadShared(selectionFor(dir))
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%v", diags)
			}
		})
	}
}

// The test blocks written next to the shipped rules all pass. This is
// what `munda test` runs; here it runs under `go test ./...`.
func TestShippedRuleTests(t *testing.T) {
	runs, err := shippedTestRuns()
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		if len(run.results) == 0 && !strings.HasPrefix(run.dir, "house/") {
			t.Errorf("%s has no tests", run.dir)
		}
		for _, res := range run.results {
			t.Run(run.dir+"/"+res.Name, func(t *testing.T) {
				if !res.Passed {
					var b strings.Builder
					_ = interpreter.WriteText(&b, res.Events)
					t.Errorf("%s\n%s\nevents:\n%s", res.At, strings.Join(res.Failures, "\n"), b.String())
				}
			})
		}
	}
}

// packTestRun is what running one shipped pack's test blocks gave.
type packTestRun struct {
	dir     string
	tests   []*dsl.TestInfo
	results []interpreter.TestResult // results[i] is tests[i]'s
	// held[i]: the features ("kind id") tests[i]'s state gives at the start
	held []map[string]bool
	// to run a test again
	prog       *interpreter.Program
	programFor interpreter.ProgramFor
}

var (
	shippedRunsOnce sync.Once
	shippedRuns     []packTestRun
	shippedRunsErr  error
)

// shippedTestRuns runs every shipped pack's test blocks once for all the
// tests that look at them (they pass; which features they exercise).
func shippedTestRuns() ([]packTestRun, error) {
	shippedRunsOnce.Do(func() { shippedRuns, shippedRunsErr = runShippedTests() })
	return shippedRuns, shippedRunsErr
}

func runShippedTests() ([]packTestRun, error) {
	var runs []packTestRun
	for _, dir := range rulesets.Dirs() {
		sel := selectionFor(dir)
		rules, diags := rulesets.LoadShared(sel)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s: %v", dir, diags)
		}
		prog, err := interpreter.Compile(rules)
		if err != nil {
			return nil, err
		}
		var tests []*dsl.TestInfo
		for _, ti := range rules.Index.Tests {
			if strings.HasPrefix(ti.Pack.Pack.Display, "rulesets/"+dir) {
				tests = append(tests, ti)
			}
		}
		programFor := func(base string, houses []string) (*interpreter.Program, error) {
			s := sel
			if base != "" {
				s.Base = base
			}
			s.Houses = append(append([]string(nil), s.Houses...), houses...)
			s.SkipTests = true // to run tests already checked
			return sharedProgram(s)
		}
		held := map[*dsl.TestInfo]map[string]bool{}
		record := func(ti *dsl.TestInfo, st *state.State) { held[ti] = featuresOf(st) }
		run := packTestRun{dir: dir, tests: tests, prog: prog, programFor: programFor,
			results: interpreter.RunTestsWith(prog, tests, programFor, interpreter.TestOptions{Prepare: record, States: testStates})}
		for _, ti := range tests {
			run.held = append(run.held, held[ti])
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// testStates keeps the states the shipped tests decode, for all their
// runs: TestFeaturesHaveTests runs hundreds of them again. Each run gets
// a copy of its own.
var testStates = &interpreter.StateCache{}

var programs struct {
	sync.Mutex
	bySelection map[string]*interpreter.Program
}

// sharedProgram compiles a selection of shipped packs once for every
// pack's tests that name it (`rules core_2023`, `house -aa.brute_xp`)
// and for their runs again; the rules are loaded once per process
// (rulesets.LoadShared). Programs are only read by a run.
func sharedProgram(s rulesets.Selection) (*interpreter.Program, error) {
	pack := ""
	if s.Pack != nil {
		pack = s.Pack.Root
	}
	key := fmt.Sprint(s.Base, "\x00", pack, "\x00", strings.Join(s.Houses, ","), "\x00", s.SkipTests)
	programs.Lock()
	defer programs.Unlock()
	if p, ok := programs.bySelection[key]; ok {
		return p, nil
	}
	r, ds := rulesets.LoadShared(s)
	if ds.HasErrors() {
		return nil, ds.Err()
	}
	p, err := interpreter.Compile(r)
	if err != nil {
		return nil, err
	}
	if programs.bySelection == nil {
		programs.bySelection = map[string]*interpreter.Program{}
	}
	programs.bySelection[key] = p
	return p, nil
}

// selectionFor checks a shipped pack as `munda check` does: a base on its
// own, a house pack on top of the default base with its rules on.
func selectionFor(dir string) rulesets.Selection {
	if strings.HasPrefix(dir, "house/") {
		return rulesets.Selection{Pack: rulesets.Pack(dir)}
	}
	return rulesets.Selection{Base: dir}
}
