package playground

import (
	"bytes"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// StateName is how diagnostics name the page's state.
const StateName = "state"

// Question is a procedure to ask of a state: the part a run and an odds
// call share.
type Question struct {
	State     string            `json:"state"` // YAML or JSON text
	Procedure string            `json:"procedure"`
	Args      map[string]string `json:"args,omitempty"`
	Choose    []string          `json:"choose,omitempty"` // name=value, as --choose
	// AllowUnknown accepts skills, conditions and traits the rules do not
	// declare, with a warning (as --allow-unknown).
	AllowUnknown bool `json:"allow_unknown,omitempty"`
}

// RunRequest asks for one run with seeded dice.
type RunRequest struct {
	Selection
	Question
	Seed uint64 `json:"seed"`
}

// RunAnswer is a run's narration and events, and the state it left. A
// run that stopped has Error set, with the events up to where it stopped.
type RunAnswer struct {
	Rules     string               `json:"rules"`
	Narration string               `json:"narration"`
	Events    []*interpreter.Event `json:"events"`
	State     string               `json:"state,omitempty"` // the new state, YAML
	Warnings  diag.Diagnostics     `json:"warnings"`
	Error     *Error               `json:"error_in_run,omitempty"`
}

// prepared is a question made ready to run under one selection's rules.
type prepared struct {
	rules    *loaded
	state    *state.State
	proc     *dsl.ProcInfo
	action   bool
	what     string // "procedure end_phase" or "action shoot", for messages
	given    map[string]string
	choices  interpreter.Choices
	warnings diag.Diagnostics
}

// prepare loads the rules, reads the state against them and binds the
// arguments, so that everything the page got wrong is said before a run.
func (p *Playground) prepare(s Selection, q Question) (*prepared, *Error) {
	l, err := p.runnable(s)
	if err != nil {
		return nil, err
	}
	prog := l.program
	pr := &prepared{rules: l, given: map[string]string{}}
	proc, perr := prog.Procedure(q.Procedure)
	if perr != nil {
		action, aerr := prog.Action(q.Procedure)
		if aerr != nil {
			return nil, fail("%v", perr)
		}
		proc, pr.action = action.Procedure(), true
	}
	pr.proc = proc
	st, serr := p.readState(prog, q)
	if serr != nil {
		return nil, serr
	}
	pr.state = st
	voc := prog.Index().Vocabulary
	if q.AllowUnknown && voc != nil {
		pr.warnings = append(pr.warnings, state.UnknownIDs(st, voc)...)
	}
	pr.warnings = append(pr.warnings, prog.StateWarnings(st)...)
	state.Locate(StateName, []byte(q.State), pr.warnings)
	for k, v := range q.Args {
		pr.given[dsl.NormalizeID(k)] = v
	}
	pr.what = "procedure " + proc.ID
	if pr.action {
		pr.what = "action " + proc.ID
	}
	if _, err := interpreter.BindArgs(st.Clone(), proc.Params, pr.what, pr.given); err != nil {
		return nil, failWith("", err)
	}
	choices, cerr := interpreter.ParseChoices(q.Choose)
	if cerr != nil {
		return nil, fail("%v", cerr)
	}
	known := prog.Index().Choices
	for name := range choices {
		if n := interpreter.ChoiceName(name); !known[n] {
			return nil, fail("the rules have no choice %q", n)
		}
	}
	pr.choices = choices
	return pr, nil
}

// readState decodes the page's state against the rules' vocabulary.
func (p *Playground) readState(prog *interpreter.Program, q Question) (*state.State, *Error) {
	if len(q.State) > MaxStateBytes {
		return nil, fail("the state is %d bytes; the playground takes at most %d", len(q.State), MaxStateBytes)
	}
	voc := prog.Index().Vocabulary
	if q.AllowUnknown {
		voc = voc.Lenient()
	}
	st, err := state.DecodeWith(StateName, []byte(q.State), voc)
	if err != nil {
		return nil, failWith("the state is not valid", err)
	}
	return st, nil
}

func (p *Playground) run(req RunRequest) (*RunAnswer, *Error) {
	pr, err := p.prepare(req.Selection, req.Question)
	if err != nil {
		return nil, err
	}
	prog := pr.rules.program
	st := pr.state
	bound, berr := interpreter.BindArgs(st, pr.proc.Params, pr.what, pr.given)
	if berr != nil {
		return nil, failWith("", berr)
	}
	var events interpreter.Events
	opts := interpreter.Options{Dice: interpreter.NewSeeded(req.Seed), Choices: pr.choices, Log: &events}
	var runErr error
	if pr.action {
		runErr = prog.RunAction(st, pr.proc.ID, bound, opts)
	} else {
		runErr = prog.Run(st, pr.proc.ID, bound, opts)
	}
	a := &RunAnswer{Rules: pr.rules.name, Events: events, Warnings: orEmpty(pr.warnings)}
	if a.Events == nil {
		a.Events = []*interpreter.Event{}
	}
	var text bytes.Buffer
	_ = interpreter.WriteText(&text, events)
	a.Narration = text.String()
	if runErr != nil {
		a.Error = failWith(runErr.Error(), runErr)
		return a, nil
	}
	data, eerr := state.Encode(st, "yaml")
	if eerr != nil {
		a.Error = fail("cannot write the new state: %v", eerr)
		return a, nil
	}
	a.State = string(data)
	return a, nil
}
