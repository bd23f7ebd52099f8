package odds

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// runOnce runs the question once with the given dice on a fresh copy of
// the state, made in rm's memory when there is one (Monte Carlo: a buffer
// and a run per worker, rather than a Clone and a runner per sample), and
// returns the outcome's key and value.
func runOnce(q *Question, dice interpreter.DiceSource, rm *interpreter.Resumer) (string, any, error) {
	key, value, _, err := runUntil(q, dice, nil, rm, nil, false)
	return key, value, err
}

// runUntil is runOnce with a checkpoint hook: paused says the hook paused
// the run (there is then no outcome). signals, if not nil, counts what the
// run signals when the question asks it (the hook may read it); nil makes
// a count of its own. callEnds: as runResumed's.
func runUntil(q *Question, dice interpreter.DiceSource, hook func(interpreter.Checkpoint) bool, rm *interpreter.Resumer, signals signalCounts, callEnds bool) (key string, value any, paused bool, err error) {
	if hook != nil {
		// A run paused, by its checkpoint hook or by the dice source at a
		// decision after a checkpoint, returns interpreter.ErrPaused.
		defer func() {
			if interpreter.IsPause(err) {
				key, value, paused, err = "", nil, true, nil
			}
		}()
	}
	var st *state.State
	if rm != nil {
		st = q.State.CopyInto(&rm.Buf)
	} else {
		st = q.State.Clone()
	}
	opts := interpreter.Options{Dice: dice, Choices: q.Choices, Limits: q.Limits, Checkpoint: hook, CallEnds: callEnds, Memory: rm}
	if q.Of != nil && q.Of.Signals() {
		// Only a query of what happened counts signals.
		if signals == nil {
			signals = signalCounts{}
		}
		opts.Signalled = signals.add
	} else {
		signals = nil
	}
	if q.Table != "" {
		return runTable(q, st, opts, signals)
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
	var args map[string]any
	if rm != nil {
		args, err = rm.BindArgs(st, proc.Params, what, proc.ID, q.Args) // the worker's map, emptied
	} else {
		args, err = interpreter.BindArgs(st, proc.Params, what+proc.ID, q.Args)
	}
	if err != nil {
		return "", nil, false, err
	}
	if isAction {
		err = q.Program.RunAction(st, proc.ID, args, opts)
	} else {
		err = q.Program.Run(st, q.Procedure, args, opts)
	}
	if err != nil {
		return "", nil, false, err
	}
	if q.Of == nil {
		return summaryIn(q.keys, q.State, st, q.Focus), nil, false, nil
	}
	return outcomeOf(q, st, signals, rm)
}

// runResumed is runUntil for a run continued from a snapshot (see
// interpreter.Snapshot), with its own copy of the signals so far, in
// rm's memory (the copy of the state, and the run).
//
// callEnds: the run is also paused where a call completes
// (interpreter.Options.CallEnds), as a run of the call memo's is.
func runResumed(q *Question, snap *interpreter.Snapshot, dice interpreter.DiceSource, hook func(interpreter.Checkpoint) bool, rm *interpreter.Resumer, signals signalCounts, callEnds bool) (key string, value any, paused bool, err error) {
	defer func() {
		if interpreter.IsPause(err) {
			key, value, paused, err = "", nil, true, nil
		}
	}()
	opts := interpreter.Options{Dice: dice, Choices: q.Choices, Limits: q.Limits, Checkpoint: hook, CallEnds: callEnds}
	if signals != nil {
		opts.Signalled = signals.add
	}
	st, err := q.Program.ResumeWith(snap, opts, rm)
	if err != nil {
		return "", nil, false, err
	}
	if q.Of == nil {
		if q.Table != "" {
			// A question of the row alone runs no row: it has no
			// checkpoint to resume from.
			return "", nil, false, fmt.Errorf("internal: a table's row resumed")
		}
		return summaryIn(q.keys, q.State, st, q.Focus), nil, false, nil
	}
	return outcomeOf(q, st, signals, nil) // exact odds: the shared frames
}

// signalCounts counts the events signalled, by id: what a query of what
// happened reads (dsl.QuerySignalled).
type signalCounts map[string]int

func (s signalCounts) add(event string) { s[event]++ }

func (s signalCounts) clone() signalCounts {
	if s == nil {
		return nil
	}
	return maps.Clone(s)
}

// appendKey appends the counts to a configuration's key, in order: runs
// that signalled differently on their way must not merge.
func (s signalCounts) appendKey(b []byte) []byte {
	ids := make([]string, 0, len(s))
	for id := range s {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		b = append(b, id...)
		b = append(b, 0)
		b = binary.AppendUvarint(b, uint64(s[id]))
	}
	return b
}

// runTable rolls on the question's table once: the outcome is the row it
// lands on (the row is then not run), or Of of the state after the row has
// done what it says.
func runTable(q *Question, st *state.State, opts interpreter.Options, signals signalCounts) (string, any, bool, error) {
	rm := opts.Memory
	t, err := q.Program.Table(q.Table)
	if err != nil {
		return "", nil, false, err
	}
	args, err := interpreter.BindTableArgs(st, t, q.Args)
	if err != nil {
		return "", nil, false, err
	}
	if q.Of == nil {
		// Only the row is asked: what it does is not run.
		row, err := q.Program.RollRow(st, t.ID, args, opts)
		if err != nil {
			return "", nil, false, err
		}
		return row, row, false, nil
	}
	if _, err := q.Program.ApplyRow(st, t.ID, args, nil, opts); err != nil {
		return "", nil, false, err
	}
	return outcomeOf(q, st, signals, rm)
}

// outcomeOf is the question's Of of a run's final state, asked in rm's
// memory when there is one (its value is then rm's: see
// interpreter.Resumer.Recycle).
func outcomeOf(q *Question, st *state.State, signals signalCounts, rm *interpreter.Resumer) (string, any, bool, error) {
	var v any
	var err error
	if rm != nil {
		v, err = rm.EvalQuery(q.Of, st, signals)
	} else {
		v, err = q.Of.EvalRun(st, signals)
	}
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
	case bool: // as fmt.Sprint says it, without allocating
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
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
