package interpreter

// This file runs actions declared with parameters (`perform`), and
// `stop ID`: ending the innermost running procedure, table or action of
// that name from anywhere inside it.

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// stopSignal unwinds the run to the innermost running procedure, table or
// action named target (`stop target`). It travels as an error, so that it
// leaves hooks, handlers and nested calls alike.
type stopSignal struct{ target string }

func (s *stopSignal) Error() string { return "stop " + s.target }

// isStopOf reports whether err is a `stop ID` for this id, which the
// procedure, table or action of that id ends on.
func isStopOf(err error, id string) bool {
	if err == nil || err == ErrPaused {
		return false // most calls, and pauses: nothing to unwrap, and no s to allocate
	}
	var s *stopSignal
	return errors.As(err, &s) && s.target == id
}

// stopTo starts unwinding to a running procedure, table or action, or is
// a run error when none of that name is running.
func (r *runner) stopTo(s *syntax.Stop, f *frame) error {
	id := s.Target.Name
	for i := len(r.active) - 1; i >= 0; i-- {
		if r.active[i] == id {
			return &stopSignal{target: id}
		}
	}
	return r.errorAt(f, diag.CodeRunEffect, stmtSpan(s), fmt.Errorf("stop %s: %s is not running here", id, id))
}

// activate marks a procedure, table or action as running, for `stop ID`;
// deactivate marks it done (no closure: every call does both).
func (r *runner) activate(id string) {
	r.active = append(r.active, id)
}

// Action finds an action declared with parameters by id (kebab-case
// accepted), with a did-you-mean.
func (p *Program) Action(name string) (*dsl.ActionInfo, error) {
	return byID(p.idx.Actions, "action", name)
}

// RunAction performs an action on the state, as `perform` does: its
// availability must hold.
func (p *Program) RunAction(st *state.State, name string, args map[string]any, opts Options) error {
	a, err := p.Action(name)
	if err != nil {
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunArgument, Summary: err.Error()}
	}
	for _, prm := range a.Params {
		if _, ok := args[prm.Name]; !ok && prm.Default == nil {
			return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunArgument, Summary: fmt.Sprintf("action %s needs %s", a.ID, prm.Name)}
		}
	}
	r := newRunner(p, st, opts)
	r.root = a
	defer r.done()
	return r.stopped(r.runAction(a, r.argsFromMap(a.Params, args), nil, a.Feature.Pos, a.Feature.ID.EndPos))
}

// perform runs the action a perform statement names.
func (r *runner) perform(s *syntax.Perform, f *frame) error {
	var a *dsl.ActionInfo
	if s.Dynamic != nil {
		v, err := r.eval(f, s.Dynamic)
		if err != nil {
			return err
		}
		id, ok := v.(string)
		if !ok {
			return r.errorAt(f, diag.CodeRunExpr, spanOf(s.Dynamic), fmt.Errorf("perform needs the id of an action, but this is %s", display(v)))
		}
		if a = r.p.idx.Actions[id]; a == nil {
			names := make([]string, 0, len(r.p.idx.Actions))
			for n := range r.p.idx.Actions {
				names = append(names, n)
			}
			sort.Strings(names)
			return r.errorAt(f, diag.CodeRunArgument, spanOf(s.Dynamic), errors.New(diag.Suggest(fmt.Sprintf("perform: there is no action %q", id), id, names)))
		}
	} else {
		a = r.p.idx.Actions[s.Action.Name]
	}
	args, err := r.args(f, s.Args, a.Params)
	if err != nil {
		return err
	}
	defer r.releaseArgs(args)
	if s.Dynamic != nil {
		if err := checkArgs(a, args); err != nil {
			return r.errorAt(f, diag.CodeRunArgument, stmtSpan(s), err)
		}
	}
	return r.runAction(a, args, f, s.Pos, s.EndPos)
}

// checkArgs checks at run time the arguments of a dynamic perform, as
// the checker does those of a static one.
func checkArgs(a *dsl.ActionInfo, args callArgs) error {
	if args.hasUnknown {
		if args.unknown == "" {
			return fmt.Errorf("perform %s: too many arguments (it takes %d)", a.ID, len(a.Params))
		}
		return fmt.Errorf("perform %s: it has no parameter %s", a.ID, args.unknown)
	}
	for i, p := range a.Params {
		v := args.vals[i]
		if !args.given[i] || v == nil || p.Type == nil || p.Type.Kind() == reflect.Interface {
			continue
		}
		if !reflect.TypeOf(v).AssignableTo(p.Type) {
			return fmt.Errorf("perform %s: %s must be %s, but it is %s", a.ID, p.Name, dsl.TypeName(p.Type), display(v))
		}
	}
	for i, p := range a.Params {
		if !args.given[i] && p.Default == nil {
			return fmt.Errorf("perform %s: it needs %s", a.ID, p.Name)
		}
	}
	return nil
}

// runAction checks an action's availability and runs its body.
func (r *runner) runAction(a *dsl.ActionInfo, args callArgs, caller *frame, from, to lexerPos) error {
	rule := "action " + a.ID
	if err := r.enter(rule); err != nil {
		return r.errorAt(caller, diag.CodeRunLimit, span{from, to}, err)
	}
	defer r.leave()
	r.activate(a.ID)
	defer r.deactivate()
	// The frame is the action's, as a procedure's is its own: effects on
	// ACTION.NAME find the rolls, tests and lets of its body.
	f := r.newFrame(rule, syntax.MetaOf(a.Feature.Items).Source, a.ID)
	defer r.release(f)
	shown, err := r.bindParams(f, a.Params, args)
	if err != nil {
		return err
	}
	if a.Available != nil {
		ok, err := r.evalBool(f, a.Available)
		if err != nil {
			return err
		}
		if !ok {
			at := span{from, to}
			if caller == nil {
				at = spanOf(a.Available)
			}
			why := strings.TrimSpace(a.Available.Text) + " does not hold"
			if u := a.Unavailable; u != nil {
				if why, err = r.template(f, u.Parts); err != nil {
					return err
				}
			}
			return r.errorAt(caller, diag.CodeRunRequireFailed, at, fmt.Errorf("action %s (%s) is not available: %s",
				a.ID, strings.Join(shown, ", "), why))
		}
	}
	text := a.Title
	if len(shown) > 0 {
		text += " (" + strings.Join(shown, ", ") + ")"
	}
	if err := r.logLazy(f, func() *Event {
		return &Event{Kind: EventCall, Name: a.ID, Args: shown, At: at(a.Feature.Pos), Text: text}
	}); err != nil {
		return r.errorAt(f, diag.CodeRunLimit, point(a.Feature.Pos), err)
	}
	if a.Body == nil {
		return nil
	}
	if err := r.hookedBody(r.p.effectsOn(a.ID), r.p.compiledBlock(a.Body, f.proc), f); err != nil && !isStopOf(err, a.ID) {
		return err
	}
	return r.hooks(r.p.after[a.ID], f)
}
