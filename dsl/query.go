package dsl

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// Query is an expression over a battle state, asked of each outcome of an
// odds question: `gang("goliaths").bottled`. It sees what every rule
// expression sees (the state, its gangs, the declared and built-in
// functions) and nothing of any procedure; and, of the run that led to
// the state, what happened: QuerySignalled.
type Query struct {
	expr    *syntax.Expr
	signals bool // it reads QuerySignalled
	// fast is the expression's closure run in given frames (EvalRunIn),
	// nil where only the VM runs it.
	fast fastexpr.FuncIn
}

// QuerySignalled is the name a query reads what the run signalled by:
// how many times each event was signalled, by event id, as a test's
// `expect signal EVENT` sees it:
// `"became_seriously_injured" in signalled`, `signalled.taken_out_of_action >= 2`.
const QuerySignalled = "signalled"

// querySignalledType is its type: event id → times signalled.
var querySignalledType = reflect.TypeOf(map[string]int(nil))

// CompileQuery compiles text as a Query. name is how the text is shown in
// diagnostics ("--of"); positions are columns of text. The rules must have
// been checked.
func (idx *Index) CompileQuery(name, text string) (*Query, diag.Diagnostics) {
	start := lexer.Position{Filename: name, Line: 1, Column: 1}
	if idx == nil || idx.compileQuery == nil {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeInternal, Subject: diag.RangeOf(start, start),
			Summary: "the rules have not been checked"}}
	}
	if strings.TrimSpace(text) == "" {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeExprMissing, Subject: diag.RangeOf(start, start),
			Summary: "the expression is empty"}}
	}
	e := &syntax.Expr{Text: text, Pos: start, EndPos: start}
	e.EndPos.Advance(text)
	fast, diags := idx.compileQuery(e)
	if diags.HasErrors() {
		return nil, diags
	}
	q := &Query{expr: e, fast: fast}
	if diags := q.checkSignalled(idx); diags.HasErrors() {
		return nil, diags
	}
	return q, nil
}

// checkSignalled notes whether the query reads QuerySignalled, and checks
// that each event it names there (`"x" in signalled`, `signalled.x`,
// `signalled["x"]`) is declared: a misspelt event would be never signalled.
func (q *Query) checkSignalled(idx *Index) diag.Diagnostics {
	var diags diag.Diagnostics
	isSignalled := func(n ast.Node) bool {
		id, ok := n.(*ast.IdentifierNode)
		return ok && id.Value == QuerySignalled
	}
	checkEvent := func(n ast.Node) {
		s, ok := n.(*ast.StringNode)
		if !ok || idx.Events[s.Value] != nil {
			return
		}
		names := make([]string, 0, len(idx.Events))
		for id := range idx.Events {
			names = append(names, id)
		}
		sort.Strings(names)
		diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnknownRef,
			Subject: diag.RangeOf(q.expr.Pos, q.expr.EndPos),
			Summary: diag.Suggest(fmt.Sprintf("%s names no declared event %q", QuerySignalled, s.Value), s.Value, names)})
	}
	ast.Find(q.expr.Program.Node(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IdentifierNode:
			if n.Value == QuerySignalled {
				q.signals = true
			}
		case *ast.BinaryNode:
			if n.Operator == "in" && isSignalled(n.Right) {
				checkEvent(n.Left)
			}
		case *ast.MemberNode:
			if isSignalled(n.Node) {
				checkEvent(n.Property)
			}
		}
		return false
	})
	return diags
}

// Signals reports whether the query reads what the run signalled
// (QuerySignalled): the run must then count its signals (EvalRun).
func (q *Query) Signals() bool { return q.signals }

// Text is the query as written.
func (q *Query) Text() string { return q.expr.Text }

// Expr is the query's checked expression (what it reads: exact odds
// leave out of a run's configuration what no one reads).
func (q *Query) Expr() *syntax.Expr { return q.expr }

// Eval asks the query of a state (a query that reads what was signalled
// sees nothing signalled: use EvalRun).
func (q *Query) Eval(st *state.State) (any, error) {
	return q.EvalRun(st, nil)
}

// EvalRun asks the query of the state a run ended in, and what the run
// signalled: event id → times (QuerySignalled).
func (q *Query) EvalRun(st *state.State, signalled map[string]int) (any, error) {
	return q.EvalRunIn(st, signalled, nil)
}

// QueryMemory is where a worker asking a question of sample after sample
// (interpreter.Resumer's EvalQuery) asks it: the frames the query's lists
// and boxes are cut from, and its environment, its own rather than a
// pool's. The zero QueryMemory is ready to use; it is not safe for
// concurrent use.
type QueryMemory struct {
	// Frames are the frames the query runs in: the values it returns
	// are cut from their slabs, until their owner rewinds them.
	Frames fastexpr.Frames
	env    map[string]any
	gangs  any // the last state's gangs, boxed (BoxGangs)
}

// EvalRunIn is EvalRun in mem (nil: frames and an environment shared by
// all goroutines).
func (q *Query) EvalRunIn(st *state.State, signalled map[string]int, mem *QueryMemory) (any, error) {
	// The environment is mem's or a pooled one (odds ask the question of
	// every sample): its natural and rolled tables stay empty, as no
	// expression writes to them, and the names it was filled with are
	// put back.
	var env map[string]any
	var fs *fastexpr.Frames
	var gangs any
	if mem != nil {
		if mem.env == nil {
			mem.env = BaseEnv(nil)
		}
		env, fs = mem.env, &mem.Frames
		if st != nil {
			mem.gangs = BoxGangs(mem.gangs, st.Gangs)
			gangs = mem.gangs
		}
	} else {
		env = queryEnvs.Get().(map[string]any)
		defer queryEnvs.Put(env)
		if st != nil {
			gangs = st.Gangs
		}
	}
	defer func() {
		delete(env, QuerySignalled)
		env[GlobalState], env[GlobalBattle], env[GlobalGangs] = nil, nil, nil
	}()
	FillEnv(env, st, gangs, env[GlobalNatural].(map[string]int), env[GlobalRolled].(map[string][]int))
	if q.signals {
		if signalled == nil {
			signalled = map[string]int{}
		}
		env[QuerySignalled] = signalled
	}
	// As closures, with expr's VM where they fail (Eval): odds ask the
	// question of every sample.
	v, err := q.eval(fs, env)
	if err != nil {
		msg, _ := ExprError(q.expr, err)
		return nil, errors.New(msg)
	}
	return v, nil
}

// eval runs the query as closures in fs, with expr's VM where they fail
// (as Eval does).
func (q *Query) eval(fs *fastexpr.Frames, env map[string]any) (any, error) {
	if q.fast != nil && !vmOnly.Load() {
		if v, err := q.fast(fs, env); err == nil {
			return v, nil
		}
	}
	return runProgram(q.expr.Program, env)
}

// queryEnvs are the environments EvalRun fills (BaseEnv's, reused).
var queryEnvs = sync.Pool{New: func() any { return BaseEnv(nil) }}

// queryCompiler returns the function CompileQuery uses: the checker that
// checked the rules, compiling in the global scope. It keeps the checker
// (its declarations, for did-you-means) alive with the index.
func (c *checker) queryCompiler() func(e *syntax.Expr) (fastexpr.FuncIn, diag.Diagnostics) {
	return func(e *syntax.Expr) (fastexpr.FuncIn, diag.Diagnostics) {
		saved := c.diags
		c.diags = diagnostics{}
		sc := globalScope()
		sc.slots = c.exprc.slots
		sc.define(&symbol{name: QuerySignalled, kind: symGlobal, typ: querySignalledType, used: true})
		c.compile(e, sc, nil, "")
		out := c.diags.list
		c.diags = saved
		var fast fastexpr.FuncIn
		if e.Fast != nil {
			// the same closure, to run in a worker's frames (EvalRunIn)
			fast, _ = fastexpr.CompileIn(e.Program.Node(), c.exprc.Functions())
		}
		return fast, out
	}
}
