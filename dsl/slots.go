package dsl

import (
	"errors"
	"fmt"
	"sync"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file runs the expressions whose names are all known before they
// run (a function's body, a lookup table's rows, an action's `available
// when`: the globals and the parameters) with their variables in slots,
// a []any by index, rather than in an environment map built per call.

// globalSlots is the order of the globals at the start of every slot
// layout (fillGlobals fills them).
var globalSlots = [...]string{GlobalState, GlobalBattle, GlobalGangs, GlobalNatural, GlobalRolled}

// firstParamSlot is the slot of the first parameter.
const firstParamSlot = len(globalSlots)

// Outside a procedure nothing has been rolled: one pair of empty tables
// serves every call (expressions only read them).
var (
	noNatural = map[string]int{}
	noRolled  = map[string][]int{}
)

// slotExpr is an expression of a layout: the globals, then parameters.
type slotExpr struct {
	e     *syntax.Expr
	names []string
	fast  fastexpr.SlotFunc // nil: the VM runs it
	// literal is the value of an expression that is a literal of a
	// scalar (nil, a number, a string, true or false), evaluated once: the
	// defaults of the menu's actions' parameters (target: model = nil)
	// are asked for every action of every menu.
	literal    any
	hasLiteral bool
}

// slotLayout is the names of a callable's slots: the globals, then its
// parameters.
func slotLayout(params []ParamInfo) []string {
	names := append([]string(nil), globalSlots[:]...)
	for _, p := range params {
		names = append(names, p.Name)
	}
	return names
}

// newSlotExpr compiles a checked expression for a layout; where fastexpr
// cannot, eval runs the VM on a map built from the slots.
func (c *checker) newSlotExpr(e *syntax.Expr, names []string) *slotExpr {
	s := &slotExpr{e: e, names: names}
	if e == nil || e.Program == nil {
		return s
	}
	// A name listed twice is its last index: a parameter hides a global.
	layout := make(map[string]int, len(names))
	for i, n := range names {
		layout[n] = i
	}
	slotOf := func(name string) (int, bool) { i, ok := layout[name]; return i, ok }
	if f, err := fastexpr.CompileSlots(e.Program.Node(), c.exprc.Functions(), slotOf); err == nil {
		s.fast = f
		switch e.Program.Node().(type) {
		case *ast.NilNode, *ast.IntegerNode, *ast.FloatNode, *ast.StringNode, *ast.BoolNode:
			if v, err := f(nil, nil); err == nil {
				s.literal, s.hasLiteral = v, true
			}
		}
	}
	return s
}

// eval runs the expression with vals in its slots: the closures, or
// (where they fail, or SetVMOnly is on) expr's VM on the same names in a
// map, which is the reference.
func (s *slotExpr) eval(vals []any) (any, error) {
	if s.hasLiteral && !vmOnly.Load() {
		return s.literal, nil
	}
	if s.fast != nil && !vmOnly.Load() {
		if v, err := s.fast(nil, vals); err == nil {
			return v, nil
		}
	}
	if s.e == nil || s.e.Program == nil {
		return nil, errors.New("expression was not compiled (the rules have errors)")
	}
	env := make(map[string]any, len(s.names))
	for i, n := range s.names {
		if i < len(vals) {
			env[n] = vals[i]
		}
	}
	return runProgram(s.e.Program, env)
}

// fillGlobals puts the globals into the first slots, with empty natural
// and rolled tables.
func fillGlobals(vals []any, st *state.State) {
	var gangs any
	if st != nil {
		if b, ok := st.Effects.(GangsBoxer); ok {
			gangs = BoxGangs(b.BoxedGangs(), st.Gangs)
		} else {
			gangs = st.Gangs
		}
	}
	FillGlobalSlots(vals, st, gangs, noNatural, noRolled)
}

// GangsBoxer is a state's Effects (a run) that keeps its state's gangs
// boxed: a rule function, table or menu called during the run fills its
// globals with that box (where it still holds the state's very list,
// BoxGangs) rather than boxing the list again at every call.
type GangsBoxer interface{ BoxedGangs() any }

// slotBuffers keeps slot slices between calls: a rule function is called
// thousands of times a run.
var slotBuffers = sync.Pool{New: func() any { return new([]any) }}

// getSlots is a cleared slice of n slots; putSlots gives it back.
func getSlots(n int) *[]any {
	p := slotBuffers.Get().(*[]any)
	if cap(*p) < n {
		*p = make([]any, n)
	}
	*p = (*p)[:n]
	return p
}

func putSlots(p *[]any) {
	clear(*p)
	slotBuffers.Put(p)
}

// callSlots runs a callable's expression with the state and args in the
// layout of params (a missing argument is nil, as in a map it is absent).
func callSlots(s *slotExpr, st *state.State, params []ParamInfo, args []any) (any, error) {
	p := getSlots(firstParamSlot + len(params))
	defer putSlots(p)
	vals := *p
	fillGlobals(vals, st)
	copy(vals[firstParamSlot:], args)
	return s.eval(vals)
}

// lookup is a lookup table's key and rows, compiled for its parameters.
type lookup struct {
	t     *TableInfo
	by    *slotExpr
	when  []*slotExpr // by row; nil where a row has no when
	value []*slotExpr
}

func (c *checker) newLookup(t *TableInfo) *lookup {
	names := slotLayout(t.Params)
	lk := &lookup{t: t, when: make([]*slotExpr, len(t.Rows)), value: make([]*slotExpr, len(t.Rows))}
	if t.By != nil {
		lk.by = c.newSlotExpr(t.By, names)
	}
	for i, r := range t.Rows {
		if r.Row.When != nil {
			lk.when[i] = c.newSlotExpr(r.Row.When, names)
		}
		lk.value[i] = c.newSlotExpr(r.Row.Value, names)
	}
	return lk
}

// eval finds the row of the table for the arguments and returns its
// value.
func (lk *lookup) eval(st *state.State, args []any) (any, error) {
	t := lk.t
	p := getSlots(firstParamSlot + len(t.Params))
	defer putSlots(p)
	vals := *p
	fillGlobals(vals, st)
	copy(vals[firstParamSlot:], args)
	if lk.by != nil {
		key, err := lk.by.eval(vals)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.ID, err)
		}
		k, ok := key.(int)
		if !ok {
			return nil, fmt.Errorf("table %s: its key is %v, not a whole number", t.ID, key)
		}
		for i, r := range t.Rows { // the first row covering k, as RowFor
			if r.Covers(k) {
				return lk.value[i].eval(vals)
			}
		}
		return nil, fmt.Errorf("table %s has no row for %d", t.ID, k)
	}
	for i, r := range t.Rows {
		ok, err := lk.when[i].eval(vals)
		if err != nil {
			return nil, fmt.Errorf("table %s, row %s: %w", t.ID, r.ID, err)
		}
		if ok == true {
			return lk.value[i].eval(vals)
		}
	}
	return nil, fmt.Errorf("no row of table %s matches", t.ID)
}
