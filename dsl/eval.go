package dsl

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/file"

	"github.com/expr-lang/expr/vm"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// VMs are reused: running a compiled program on a fresh VM allocates; a
// pooled one does not.
var vmPool = sync.Pool{New: func() any { return new(vm.VM) }}

// vmRuns counts the runs of expr's VM (VMRuns).
var vmRuns atomic.Int64

// VMRuns is how many times expr's VM has run an expression in this
// process: where a closure failed (and the VM gives the error), could not
// be built, or SetVMOnly is on. A test keeps the hot paths at none.
func VMRuns() int64 { return vmRuns.Load() }

// runProgram runs a compiled expression against an environment.
func runProgram(p *vm.Program, env map[string]any) (any, error) {
	if p == nil {
		return nil, errors.New("expression was not compiled (the rules have errors)")
	}
	vmRuns.Add(1)
	v := vmPool.Get().(*vm.VM)
	defer vmPool.Put(v)
	return v.Run(p, env)
}

// Eval runs a checked expression against an environment built on
// BaseEnv: as closures where it was compiled to them, else (and whenever
// the closures fail) with expr's VM, so the error, if any, is expr's
// runtime error.
func Eval(e *syntax.Expr, env map[string]any) (any, error) {
	if e.Fast != nil && !vmOnly.Load() {
		if v, err := e.Fast(env); err == nil {
			return v, nil
		}
	}
	return runProgram(e.Program, env)
}

// EvalVM runs a checked expression with expr's VM only: the reference
// the closures are tested against.
func EvalVM(e *syntax.Expr, env map[string]any) (any, error) {
	return runProgram(e.Program, env)
}

// Call runs a function declaration or lookup table by name.
func (idx *Index) Call(st *state.State, name string, args ...any) (any, error) {
	f, ok := idx.Functions[name]
	if !ok || f.eval == nil {
		return nil, fmt.Errorf("no function %s", name)
	}
	return f.eval(st, args)
}

// ExprError turns an expr run-time error into a plain message and the
// place in the rule file where it happened (expr reports places inside
// the expression, with its own snippet).
func ExprError(e *syntax.Expr, err error) (string, lexer.Position) {
	var ferr *file.Error
	if !errors.As(err, &ferr) {
		return err.Error(), e.Pos
	}
	msg := ferr.Message
	switch {
	case strings.Contains(msg, "memory budget exceeded"):
		msg = "the expression builds too large a value (expr's memory budget is the limit)"
	case strings.Contains(msg, "on zero Value"), strings.Contains(msg, "invalid memory address or nil pointer"):
		msg = "a field of nothing was read: a value here is empty (a model, gang or weapon not given?)"
	}
	if ferr.Prev != nil && ferr.Prev.Error() != ferr.Message && !strings.Contains(msg, ferr.Prev.Error()) {
		msg += ": " + ferr.Prev.Error()
	}
	return msg, exprPosition(e, ferr.From)
}
