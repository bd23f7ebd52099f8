// Package playground is what the web playground asks of munda, as JSON in
// and JSON out: list the rulesets, house rules, procedures and example
// states; load and check a selection of rules (with a rule file edited in
// the page); import a Yaktribe gang export as a state; run a procedure on
// a state with seeded dice; give exact or Monte Carlo odds, of one
// selection or two side by side.
//
// It is plain Go over the library (rulesets.Load, interpreter,
// interpreter/odds, stdlib/state), so it is tested natively; web/wasm
// only hands its calls to JavaScript. Every call is bounded (the sizes of
// inputs, the branches enumerated, the Monte Carlo runs, each run's
// limits) and every failure comes back as a value, {"error": …}, never a
// panic.
package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/munda-rules/munda/dsl/diag"
)

// Bounds of what one call may ask.
const (
	// MaxRuleFileBytes is the most text an edited rule file may hold.
	MaxRuleFileBytes = 1 << 20
	// MaxStateBytes is the most text a pasted or uploaded state may hold.
	MaxStateBytes = 4 << 20
	// MaxPaths is the most branches of the dice an exact answer may take.
	MaxPaths = 20_000
	// DefaultMaxPaths is what an exact answer takes when not told.
	DefaultMaxPaths = 2_000
	// MaxSamples is the most Monte Carlo runs one answer may take.
	MaxSamples = 20_000
	// DefaultSamples is the Monte Carlo runs when not told.
	DefaultSamples = 2_000
	// CallTimeout stops an odds call that is still running (the page's
	// worker would otherwise be busy for good).
	CallTimeout = 60 * time.Second
)

// Error is a failed call's answer: a message for people, and the
// diagnostics behind it (positioned in a rule file, the state or the
// --of expression) when there are some.
type Error struct {
	Message     string           `json:"message"`
	Diagnostics diag.Diagnostics `json:"diagnostics,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// fail makes an Error of a message.
func fail(format string, args ...any) *Error { return &Error{Message: fmt.Sprintf(format, args...)} }

// failWith makes an Error of a message and the diagnostics of err, if it
// holds some.
func failWith(msg string, err error) *Error {
	e := &Error{Message: msg}
	var ds diag.Diagnostics
	var d *diag.Diagnostic
	switch {
	case errors.As(err, &ds):
		e.Diagnostics = ds
	case errors.As(err, &d):
		e.Diagnostics = diag.Diagnostics{d}
	}
	if e.Message == "" {
		e.Message = err.Error()
	}
	return e
}

// Playground answers calls, keeping the rules of the last few selections
// compiled. It is not safe for concurrent use (a page's worker calls it
// one call at a time).
type Playground struct {
	programs programCache
}

// New returns a playground.
func New() *Playground { return &Playground{} }

// Call answers one call: method names what to do, request is its JSON.
// The answer is JSON: the method's result, or {"error": {...}}.
func (p *Playground) Call(method string, request []byte) (answer []byte) {
	defer func() {
		if r := recover(); r != nil { // a bug must show as a message, not a dead page
			answer = encode(nil, fail("internal error in %s: %v\n%s", method, r, debug.Stack()))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	var (
		res any
		err *Error
	)
	switch method {
	case "catalog":
		res, err = p.catalog()
	case "file":
		res, err = call(request, p.file)
	case "load":
		res, err = call(request, p.load)
	case "check":
		res, err = call(request, p.check)
	case "run":
		res, err = call(request, p.run)
	case "odds":
		res, err = call(request, func(q OddsRequest) (*OddsAnswer, *Error) { return p.odds(ctx, q) })
	case "ids":
		res, err = call(request, p.ids)
	case "import":
		res, err = call(request, p.importYaktribe)
	case "compare":
		res, err = call(request, func(q CompareRequest) (*CompareAnswer, *Error) { return p.compare(ctx, q) })
	default:
		err = fail("unknown method %q", method)
	}
	return encode(res, err)
}

// call decodes a request strictly and hands it to f.
func call[Req, Res any](request []byte, f func(Req) (Res, *Error)) (any, *Error) {
	var req Req
	if err := decodeStrict(request, &req); err != nil {
		return nil, fail("bad request: %v", err)
	}
	return f(req)
}

func encode(res any, err *Error) []byte {
	var v any = res
	if err != nil {
		v = map[string]any{"error": err}
	}
	out, merr := json.Marshal(v)
	if merr != nil {
		out, _ = json.Marshal(map[string]any{"error": fail("cannot encode the answer: %v", merr)})
	}
	return out
}
