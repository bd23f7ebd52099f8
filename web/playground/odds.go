package playground

import (
	"context"
	"errors"
	"fmt"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter/odds"
)

// How odds are found.
const (
	MethodAuto   = "auto"   // exact, or Monte Carlo past the branch limit
	MethodExact  = "exact"  // exact, or an error past the branch limit
	MethodSample = "sample" // Monte Carlo
)

// OddsSettings say what to ask of each outcome and how to find the odds.
type OddsSettings struct {
	Of       string `json:"of,omitempty"`        // an expression of the final state
	Method   string `json:"method,omitempty"`    // auto (default), exact or sample
	MaxPaths int    `json:"max_paths,omitempty"` // 0: DefaultMaxPaths
	Samples  int    `json:"samples,omitempty"`   // 0: DefaultSamples
	Seed     uint64 `json:"seed,omitempty"`      // of Monte Carlo runs
}

// OddsRequest asks for the odds of a question under one selection.
type OddsRequest struct {
	Selection
	Question
	OddsSettings
}

// CompareRequest asks the same question under two selections.
type CompareRequest struct {
	A Selection `json:"a"`
	B Selection `json:"b"`
	Question
	OddsSettings
}

// OddsAnswer is the distribution of a question's outcomes.
type OddsAnswer struct {
	Rules string `json:"rules"`
	odds.ResultJSON
	Numeric bool `json:"numeric"`
	// More is how many outcomes, less likely, are left out of Outcomes,
	// and MoreP their probability together.
	More     int              `json:"more,omitempty"`
	MoreP    float64          `json:"more_probability,omitempty"`
	Warnings diag.Diagnostics `json:"warnings"`
}

// CompareAnswer is a question's odds under two selections.
type CompareAnswer struct {
	A *OddsAnswer `json:"a"`
	B *OddsAnswer `json:"b"`
}

// maxOutcomes is the most outcomes an answer lists (a summary of what
// changed may have thousands); the rest are summed up.
const maxOutcomes = 200

func (p *Playground) odds(ctx context.Context, req OddsRequest) (*OddsAnswer, *Error) {
	if err := req.OddsSettings.check(); err != nil {
		return nil, err
	}
	return p.ask(ctx, req.Selection, req.Question, req.OddsSettings)
}

func (p *Playground) compare(ctx context.Context, req CompareRequest) (*CompareAnswer, *Error) {
	if err := req.OddsSettings.check(); err != nil {
		return nil, err
	}
	a, err := p.ask(ctx, req.A, req.Question, req.OddsSettings)
	if err != nil {
		err.Message = "A: " + err.Message
		return nil, err
	}
	b, err := p.ask(ctx, req.B, req.Question, req.OddsSettings)
	if err != nil {
		err.Message = "B: " + err.Message
		return nil, err
	}
	return &CompareAnswer{A: a, B: b}, nil
}

// check bounds the settings and fills in the defaults.
func (s *OddsSettings) check() *Error {
	switch s.Method {
	case "":
		s.Method = MethodAuto
	case MethodAuto, MethodExact, MethodSample:
	default:
		return fail("unknown method %q: want auto, exact or sample", s.Method)
	}
	if s.MaxPaths == 0 {
		s.MaxPaths = DefaultMaxPaths
	}
	if s.Samples == 0 {
		s.Samples = DefaultSamples
	}
	if s.MaxPaths < 1 || s.MaxPaths > MaxPaths {
		return fail("the branch limit must be between 1 and %d (it is %d)", MaxPaths, s.MaxPaths)
	}
	if s.Samples < 1 || s.Samples > MaxSamples {
		return fail("the Monte Carlo runs must be between 1 and %d (they are %d)", MaxSamples, s.Samples)
	}
	return nil
}

// ask answers one question under one selection.
func (p *Playground) ask(ctx context.Context, s Selection, q Question, set OddsSettings) (*OddsAnswer, *Error) {
	pr, err := p.prepare(s, q)
	if err != nil {
		return nil, err
	}
	prog := pr.rules.program
	oq := odds.Question{Program: prog, State: pr.state, Procedure: pr.proc.ID, Args: pr.given, Choices: pr.choices,
		Focus: focusModels(pr)}
	if set.Of != "" {
		of, diags := prog.Rules.Index.CompileQuery("of", set.Of)
		if diags.HasErrors() {
			return nil, &Error{Message: "the expression to give the odds of does not compile", Diagnostics: errorsOnly(diags)}
		}
		oq.Of = of
	}
	var (
		res  *odds.Result
		rerr error
		note string
	)
	if set.Method != MethodSample {
		res, rerr = odds.Exact(ctx, oq, set.MaxPaths)
		if errors.Is(rerr, odds.ErrTooManyPaths) {
			if set.Method == MethodExact {
				return nil, fail("too many branches to enumerate: %v. Raise the branch limit (at most %d), or ask for a Monte Carlo estimate", rerr, MaxPaths)
			}
			note = fmt.Sprintf("more than %d branches of the dice: estimated by Monte Carlo", set.MaxPaths)
			res, rerr = nil, nil
		}
	}
	if res == nil && rerr == nil {
		// One worker: a page's WebAssembly has one thread.
		res, rerr = odds.Sample(ctx, oq, set.Samples, set.Seed, 1, nil)
	}
	if errors.Is(rerr, context.DeadlineExceeded) {
		return nil, fail("the odds took longer than %v: ask fewer Monte Carlo runs or a lower branch limit", CallTimeout)
	}
	if rerr != nil {
		return nil, failWith("", rerr)
	}
	res.Note = note
	return answerOf(pr.rules.name, res, pr.warnings), nil
}

// focusModels are the models the question names: what befalls them is
// the outcome, as for munda odds.
func focusModels(pr *prepared) []string {
	var out []string
	for _, prm := range pr.proc.Params {
		if v, ok := pr.given[prm.Name]; ok && dsl.TypeName(prm.Type) == "model" {
			out = append(out, v)
		}
	}
	return out
}

func answerOf(rules string, r *odds.Result, warnings diag.Diagnostics) *OddsAnswer {
	a := &OddsAnswer{Rules: rules, ResultJSON: r.JSON(), Numeric: r.Numeric, Warnings: orEmpty(warnings)}
	if len(a.Outcomes) > maxOutcomes && !r.Numeric {
		a.More = len(a.Outcomes) - maxOutcomes
		for _, rest := range r.Outcomes[maxOutcomes:] {
			a.MoreP += odds.Float(rest.P)
		}
		a.Outcomes = a.Outcomes[:maxOutcomes]
	}
	return a
}
