package odds

import (
	"fmt"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// runOnce runs the question once with the given dice on a fresh copy of
// the state, and returns the outcome's key and value.
func runOnce(q *Question, dice interpreter.DiceSource) (string, any, error) {
	st := q.State.Clone()
	// A procedure, or else an action declared with parameters (its
	// availability must hold, as for `munda run`).
	proc, err := q.Program.Procedure(q.Procedure)
	what, isAction := "procedure ", false
	if err != nil {
		action, aerr := q.Program.Action(q.Procedure)
		if aerr != nil {
			return "", nil, err
		}
		proc, what, isAction = action.Procedure(), "action ", true
	}
	args, err := interpreter.BindArgs(st, proc.Params, what+proc.ID, q.Args)
	if err != nil {
		return "", nil, err
	}
	opts := interpreter.Options{Dice: dice, Choices: q.Choices, Limits: q.Limits}
	if isAction {
		err = q.Program.RunAction(st, proc.ID, args, opts)
	} else {
		err = q.Program.Run(st, q.Procedure, args, opts)
	}
	if err != nil {
		return "", nil, err
	}
	if q.Of == nil {
		return Summary(q.State, st, q.Focus...), nil, nil
	}
	v, err := q.Of.Eval(st)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %v", q.Of.Text(), err)
	}
	return keyOf(v), v, nil
}

// keyOf is a value as text, the key outcomes are merged by.
func keyOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		return v
	case *state.Model:
		if v == nil {
			return "none"
		}
		return v.ID
	case *state.Gang:
		if v == nil {
			return "none"
		}
		return v.ID
	}
	return fmt.Sprint(v)
}
