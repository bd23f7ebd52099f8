package odds

import (
	"fmt"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// runOnce runs the question once with the given dice on a fresh copy of
// the state, made in buf when there is one (Monte Carlo: a buffer per
// worker, rather than a Clone per sample), and returns the outcome's key
// and value.
func runOnce(q *Question, dice interpreter.DiceSource, buf *state.Buffer) (string, any, error) {
	key, value, _, err := runUntil(q, dice, nil, buf)
	return key, value, err
}

// runUntil is runOnce with a checkpoint hook: paused says the hook paused
// the run (there is then no outcome).
func runUntil(q *Question, dice interpreter.DiceSource, hook func(interpreter.Checkpoint) bool, buf *state.Buffer) (key string, value any, paused bool, err error) {
	if hook != nil {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(pickPause); !ok && !interpreter.IsPause(v) {
					panic(v)
				}
				key, value, paused, err = "", nil, true, nil
			}
		}()
	}
	var st *state.State
	if buf != nil {
		st = q.State.CopyInto(buf)
	} else {
		st = q.State.Clone()
	}
	// A procedure, or else an action declared with parameters (its
	// availability must hold, as for `munda run`).
	proc, err := q.Program.Procedure(q.Procedure)
	what, isAction := "procedure ", false
	if err != nil {
		action, aerr := q.Program.Action(q.Procedure)
		if aerr != nil {
			return "", nil, false, err
		}
		proc, what, isAction = action.Procedure(), "action ", true
	}
	args, err := interpreter.BindArgs(st, proc.Params, what+proc.ID, q.Args)
	if err != nil {
		return "", nil, false, err
	}
	opts := interpreter.Options{Dice: dice, Choices: q.Choices, Limits: q.Limits, Checkpoint: hook}
	if isAction {
		err = q.Program.RunAction(st, proc.ID, args, opts)
	} else {
		err = q.Program.Run(st, q.Procedure, args, opts)
	}
	if err != nil {
		return "", nil, false, err
	}
	if q.Of == nil {
		return Summary(q.State, st, q.Focus...), nil, false, nil
	}
	v, err := q.Of.Eval(st)
	if err != nil {
		return "", nil, false, fmt.Errorf("%s: %v", q.Of.Text(), err)
	}
	return keyOf(v), v, false, nil
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
