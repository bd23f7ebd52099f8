package dsl

import (
	"errors"
	"sync/atomic"

	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file compiles checked expressions a second time, to Go closures
// (package fastexpr), which Eval runs in place of expr's VM.

// ClosureStats counts how the checked expressions run.
type ClosureStats struct {
	Compiled int // as closures
	Fallback int // by expr's VM only
	// Why counts the fallbacks by the first thing fastexpr does not run.
	Why map[string]int
}

func init() {
	// The state's own field types load without reflection.
	fastexpr.Register[*state.State]()
	fastexpr.Register[*state.Gang]()
	fastexpr.Register[*state.Model]()
	fastexpr.Register[*state.Weapon]()
	fastexpr.Register[[]*state.Gang]()
	fastexpr.Register[[]*state.Model]()
	fastexpr.Register[[]*state.Weapon]()
	fastexpr.Register[[]*state.Armour]()
	fastexpr.Register[[]*state.Marker]()
	fastexpr.Register[[]*state.Duration]()
	fastexpr.Register[map[string]any]()
	fastexpr.SetConcat(stdlib.ConcatFunction, stdlib.MaxStringBytes)
	fastexpr.SetListConcat(stdlib.ListConcatFunction, stdlib.ConcatLists, stdlib.MaxListItems)
	fastexpr.RegisterBool3("within", stdlib.Within)
	// models(state), looped over by a predicate, is every gang's models
	// appended to a list the predicate keeps, not a new list per call.
	fastexpr.RegisterListFill("models", func(arg any, dst []*state.Model) ([]*state.Model, bool) {
		st, _ := arg.(*state.State)
		if st == nil {
			return nil, false
		}
		for _, g := range st.Gangs {
			if g == nil {
				return nil, false
			}
			dst = append(dst, g.Models...)
		}
		return dst, true
	})
	// enemies(m) is the models of every gang but m's (stdlib's enemies),
	// filled the same way.
	fastexpr.RegisterListFill("enemies", func(arg any, dst []*state.Model) ([]*state.Model, bool) {
		m, _ := arg.(*state.Model)
		if m == nil || m.Gang == nil || m.Gang.State == nil {
			return dst, true // no enemies
		}
		for _, g := range m.Gang.State.Gangs {
			if g == nil {
				return nil, false
			}
			if g != m.Gang {
				dst = append(dst, g.Models...)
			}
		}
		return dst, true
	})
	// friends(m) is m's gang's models but m (state.Model.Friends): a
	// predicate loops over those, without a new list per call.
	fastexpr.RegisterListView("friends", func(arg any) ([]*state.Model, *state.Model) {
		m, _ := arg.(*state.Model)
		if m == nil || m.Gang == nil {
			return nil, nil
		}
		return m.Gang.Models, m
	})
}

// vmOnly makes Eval run expr's VM only (SetVMOnly).
var vmOnly atomic.Bool

// SetVMOnly makes every evaluation run expr's VM, not the closures, until
// it is called with false: for benchmarks that compare the two in one
// run, and to rule the closures out when a result is in doubt.
func SetVMOnly(on bool) { vmOnly.Store(on) }

// compileClosure sets e.Fast and e.Slotted from e.Program, or counts why
// it cannot and returns it.
func (c *checker) compileClosure(e *syntax.Expr) (why string) {
	e.Fast, e.Slotted = nil, nil
	f, err := fastexpr.Compile(e.Program.Node(), c.exprc.Functions())
	if err != nil {
		why = err.Error()
		var u *fastexpr.Unsupported
		if errors.As(err, &u) {
			why = u.What
		}
		c.countClosure(false, why)
		return why
	}
	e.Fast = f
	// The same for a frame's slots; it compiles wherever the map form does.
	slots := c.exprc.slots
	e.Slotted, _ = fastexpr.CompileSlots(e.Program.Node(), c.exprc.Functions(), func(name string) (int, bool) { return slots.Of(name), true })
	c.countClosure(true, "")
	return ""
}

// countClosure counts an expression that runs as closures (compiled) or
// by expr's VM only, and why.
func (c *checker) countClosure(compiled bool, why string) {
	st := &c.idx.Closures
	if compiled {
		st.Compiled++
		return
	}
	st.Fallback++
	if st.Why == nil {
		st.Why = map[string]int{}
	}
	st.Why[why]++
}
