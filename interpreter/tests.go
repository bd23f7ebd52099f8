package interpreter

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/stdlib/state"
)

// TestResult is the outcome of one `test` block.
type TestResult struct {
	Name     string
	At       string // file:line of the test
	Passed   bool
	Failures []string
	Events   []*Event
	// State is the state after the run (nil if the test could not start).
	State *state.State
}

// ProgramFor gives the program a test runs under when it names a ruleset
// or house rules of its own (see RunTests).
type ProgramFor func(base string, houses []string) (*Program, error)

// RunTests runs test blocks. A test that names `rules` or `house` runs
// under the program programFor returns for them; the others under p.
func RunTests(p *Program, tests []*dsl.TestInfo, programFor ProgramFor) []TestResult {
	return RunTestsWith(p, tests, programFor, TestOptions{})
}

// TestOptions changes how RunTestsWith runs test blocks.
type TestOptions struct {
	// Prepare, when set, changes each test's state after it is decoded
	// and before the run: to take a feature away, say, and see whether
	// the test still passes without it.
	Prepare func(*dsl.TestInfo, *state.State)
	// States, when set, keeps decoded states across calls (a test run
	// again); without it each call keeps its own (see StateCache).
	States *StateCache
}

// RunTestsWith is RunTests with options.
func RunTestsWith(p *Program, tests []*dsl.TestInfo, programFor ProgramFor, o TestOptions) []TestResult {
	if o.States == nil {
		o.States = &StateCache{}
	}
	var out []TestResult
	for _, t := range tests {
		out = append(out, runTest(p, t, programFor, o))
	}
	return out
}

func runTest(p *Program, t *dsl.TestInfo, programFor ProgramFor, o TestOptions) TestResult {
	res := TestResult{Name: t.Name, At: at(t.Decl.Pos)}
	fail := func(format string, args ...any) TestResult {
		res.Failures = append(res.Failures, fmt.Sprintf(format, args...))
		return res
	}
	if t.Rules != "" || len(t.Houses) > 0 {
		if programFor == nil {
			return fail("this test names rules or house rules, which cannot be loaded here")
		}
		var err error
		if p, err = programFor(t.Rules, t.Houses); err != nil {
			return fail("cannot load its rules: %v", err)
		}
	}
	st, err := testState(t, p.idx.Vocabulary, o.States)
	if err != nil {
		return fail("%v", err)
	}
	if o.Prepare != nil {
		o.Prepare(t, st)
	}
	// A test runs a procedure, or applies a table.
	var params []dsl.ParamInfo
	var what string
	var table *dsl.TableInfo
	isAction := false
	if proc, err := p.Procedure(t.Run.Proc.Name); err == nil {
		params, what = proc.Params, "procedure "+proc.ID
	} else if table, err = p.Table(t.Run.Proc.Name); err == nil {
		params, what = table.Params, "table "+table.ID
	} else if action, aerr := p.Action(t.Run.Proc.Name); aerr == nil {
		params, what, isAction = action.Params, "action "+action.ID, true
	} else {
		return fail("%v", err)
	}
	env := dsl.BaseEnv(st)
	args := map[string]any{}
	for i, a := range t.Run.Args {
		name := ""
		if a.Name != nil {
			name = a.Name.Name
		} else if i < len(params) {
			name = params[i].Name
		}
		v, err := dsl.Eval(a.Value, env)
		if err != nil {
			return fail("argument %s: %v", name, err)
		}
		for _, prm := range params {
			if prm.Name == name {
				if s, ok := v.(string); ok && prm.Type != reflect.TypeOf("") {
					bound, err := BindArgs(st, []dsl.ParamInfo{prm}, what, map[string]string{name: s})
					if err != nil {
						return fail("%v", err)
					}
					v = bound[name]
				}
			}
		}
		args[name] = v
	}
	var dice DiceSource
	var script *Scripted
	switch {
	case t.Seed != nil:
		dice = NewSeeded(uint64(*t.Seed))
	default:
		script = &Scripted{}
		for _, d := range t.Dice {
			if d.Face != nil {
				script.values = append(script.values, d.Face.Name)
			} else {
				script.values = append(script.values, strconv.Itoa(d.Number.Value()))
			}
		}
		dice = script
	}
	choices := testChoices{}
	for name, e := range t.Choices {
		v, err := dsl.Eval(e, env)
		if err != nil {
			return fail("choice %s: %v", name, err)
		}
		choices[name] = v
	}
	var events Events
	opts := Options{Dice: dice, Choices: choices, Log: &events}
	var runErr error
	if table != nil {
		runErr = p.Apply(st, table.ID, args, nil, opts)
	} else if isAction {
		runErr = p.RunAction(st, t.Run.Proc.Name, args, opts)
	} else {
		runErr = p.Run(st, t.Run.Proc.Name, args, opts)
	}
	res.Events, res.State = events, st
	switch {
	case len(t.ExpectError) > 0 && runErr == nil:
		res.Failures = append(res.Failures, fmt.Sprintf("expected an error containing %q, but the run succeeded", t.ExpectError[0]))
	case len(t.ExpectError) > 0:
		for _, want := range t.ExpectError {
			if !strings.Contains(runErr.Error(), want) {
				res.Failures = append(res.Failures, fmt.Sprintf("expected an error containing %q, got: %v", want, runErr))
			}
		}
	case runErr != nil:
		res.Failures = append(res.Failures, fmt.Sprintf("the run failed: %v", runErr))
	}
	if runErr == nil && script != nil && script.Remaining() > 0 {
		n := script.Remaining()
		verb := "dice were"
		if n == 1 {
			verb = "die was"
		}
		res.Failures = append(res.Failures, fmt.Sprintf("%d scripted %s not used", n, verb))
	}
	for _, want := range t.ExpectEmit {
		found := false
		for _, e := range events {
			if e.Kind == EventEmit && strings.Contains(e.Text, want) {
				found = true
				break
			}
		}
		if !found {
			res.Failures = append(res.Failures, fmt.Sprintf("expected a message containing %q", want))
		}
	}
	for _, unwanted := range t.ExpectNoEmit {
		for _, e := range events {
			if e.Kind == EventEmit && strings.Contains(e.Text, unwanted) {
				res.Failures = append(res.Failures, fmt.Sprintf("expected no message containing %q, got %q", unwanted, e.Text))
				break
			}
		}
	}
	for _, x := range t.ExpectSignals {
		signalled := false
		for _, e := range events {
			if e.Kind == EventSignal && e.Name == x.Event {
				signalled = true
				break
			}
		}
		switch {
		case x.Not && signalled:
			res.Failures = append(res.Failures, fmt.Sprintf("expected %s not to be signalled", x.Event))
		case !x.Not && !signalled:
			res.Failures = append(res.Failures, fmt.Sprintf("expected %s to be signalled", x.Event))
		}
	}
	if runErr == nil {
		after := dsl.BaseEnv(st)
		for _, e := range t.Expects {
			v, err := dsl.Eval(e, after)
			switch {
			case err != nil:
				res.Failures = append(res.Failures, fmt.Sprintf("%s: expect %s: %v", at(e.Pos), e.Text, err))
			case v != true:
				res.Failures = append(res.Failures, fmt.Sprintf("%s: expected %s", at(e.Pos), e.Text))
			}
		}
	}
	res.Passed = len(res.Failures) == 0
	return res
}

// testState decodes a test's state, from its file or inline, and checks
// it against the vocabulary of the rules it runs under.
func testState(t *dsl.TestInfo, voc *state.Vocabulary, cache *StateCache) (*state.State, error) {
	if t.InlineState != "" {
		st, err := cache.decode(at(t.Decl.Pos)+" (inline state)", []byte(t.InlineState), voc)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	data, err := t.Pack.Pack.ReadFile(t.StatePath, state.MaxStateBytes)
	if err != nil {
		return nil, err
	}
	return cache.decode(t.Pack.Pack.DisplayPath(t.StatePath), data, voc)
}

// testChoices answers a test's `choose` lines with their values.
type testChoices map[string]any

// Choose implements ChoiceSource.
func (c testChoices) Choose(req *ChoiceRequest) (any, bool, error) {
	v, ok := c[req.Answers()]
	if !ok {
		if v, ok = c[req.Name]; !ok {
			return nil, false, nil
		}
	}
	if req.Multi != "" {
		got, err := multiAnswer(req, v)
		if err != nil {
			return nil, false, fmt.Errorf("choose %s = %s: %v", req.Answers(), display(v), err)
		}
		return got, true, nil
	}
	if req.Options == nil {
		return v, true, nil
	}
	for _, o := range req.Options {
		if reflect.DeepEqual(o, v) || identify(o) != "" && identify(o) == fmt.Sprint(v) {
			return o, true, nil
		}
	}
	return nil, false, fmt.Errorf("choose %s = %s: not one of the options %s", req.Answers(), display(v), display(req.Options))
}
