package dsl

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// Query is an expression over a battle state, asked of each outcome of an
// odds question: `gang("goliaths").bottled`. It sees what every rule
// expression sees (the state, its gangs, the declared and built-in
// functions) and nothing of any procedure.
type Query struct {
	expr *syntax.Expr
}

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
	if diags := idx.compileQuery(e); diags.HasErrors() {
		return nil, diags
	}
	return &Query{expr: e}, nil
}

// Text is the query as written.
func (q *Query) Text() string { return q.expr.Text }

// Eval asks the query of a state.
func (q *Query) Eval(st *state.State) (any, error) {
	v, err := runProgram(q.expr.Program, BaseEnv(st))
	if err != nil {
		msg, _ := ExprError(q.expr, err)
		return nil, errors.New(msg)
	}
	return v, nil
}

// queryCompiler returns the function CompileQuery uses: the checker that
// checked the rules, compiling in the global scope. It keeps the checker
// (its declarations, for did-you-means) alive with the index.
func (c *checker) queryCompiler() func(e *syntax.Expr) diag.Diagnostics {
	return func(e *syntax.Expr) diag.Diagnostics {
		saved := c.diags
		c.diags = diagnostics{}
		c.compile(e, globalScope(), nil, "")
		out := c.diags.list
		c.diags = saved
		return out
	}
}
