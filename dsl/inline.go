package dsl

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// inliner replaces calls of function declarations by their bodies, with
// the arguments bound by expr's `let`:
//
//	casualty(#)  →  let m = #; (is_fighter(m) and …) or is_wrecked(m)
//
// Rules call small functions everywhere (on_battlefield, casualty), often
// inside filters over every model; a real call costs an environment and a
// VM run each time, an inlined body costs nothing. `let` keeps the
// meaning of a call: each argument is evaluated once, in the caller's
// scope, and a `#` passed in stays the caller's element.
type inliner struct {
	bodies map[string]*inlineBody // by function name, filled as functions are checked
	serial int                    // numbers the names of inlined parameters
	// left is how many nodes inlining may still add to the expression
	// being compiled (see startExpression).
	left int
	// args are the arguments of the calls inlined in the expression
	// being compiled, as written in it, with their parameters' types:
	// expr's checker never sees the calls, only the lets binding them,
	// so the checker checks these (checkInlinedArgs).
	args []inlinedArg
	// env is the environment of the expression being compiled: a name
	// in it (a let, a parameter) hides a function of the same name, and
	// a call of it is not one of the function.
	env types.Map
}

// inlinedArg is one argument of an inlined call.
type inlinedArg struct {
	node     ast.Node
	from, to int // where it is in the expression
	fn       string
	param    string
	want     reflect.Type
}

type inlineBody struct {
	params []string
	types  []reflect.Type // the parameters'
	text   string
	// parse is the configuration the body was checked under, as far as
	// parsing sees it: which names it calls are functions (or
	// parameters) rather than expr's built-ins of the same names (a
	// declared `upper`, munda's bounded `repeat`). Parsed without it, an
	// inlined body would call expr's built-ins instead.
	parse *conf.Config
	// tree is the body's parse under it, only read (for the keys of the
	// shared cache, sharedprograms.go, and the names a body reads).
	tree *exprparser.Tree
	// size is the nodes of the body as inlining parses it (0 until it
	// first is): a call past the budget is refused without parsing.
	size int
}

// newInlineBody keeps a checked body for inlining: cfg is the compiler's
// configuration and env the body's environment when it was checked.
func newInlineBody(text string, params []ParamInfo, cfg *conf.Config, env types.Map) (*inlineBody, error) {
	checked := *cfg
	checked.WithEnv(env)
	tree, err := exprparser.ParseWithConfig(text, &checked)
	if err != nil {
		return nil, err
	}
	// What the parser asks of a configuration: whether each name called
	// is overridden, the disabled built-ins and its bounds. A small
	// configuration holding just that parses the body the same, whatever
	// is declared later (rules keep their bodies: no copy of every
	// function for each).
	parse := &conf.Config{Functions: map[string]*builtin.Function{}, Disabled: cfg.Disabled,
		MaxNodes: cfg.MaxNodes, DisableIfOperator: cfg.DisableIfOperator}
	for _, name := range parsedCalls(tree.Node) {
		if checked.IsOverridden(name) {
			parse.Functions[name] = &builtin.Function{Name: name}
		}
	}
	parse.WithEnv(types.Map{})
	body := &inlineBody{text: text, parse: parse, tree: tree}
	for _, p := range params {
		body.params = append(body.params, p.Name)
		body.types = append(body.types, p.Type)
	}
	return body, nil
}

// maxInlineDepth bounds inlining, whatever the declarations (a function
// calling itself is reported by the checker, but must not hang it).
const maxInlineDepth = 32

// maxInlinedNodes bounds the nodes inlining adds to one expression. Past
// it, calls stay calls: they mean the same, only slower. Without it, ten
// functions that each call the one before twice would inline into 2^10
// copies, and twenty into a million.
const maxInlinedNodes = 4 * MaxExprNodes

// startExpression gives the next expression compiled its own budget.
// Parameters are numbered from 1 in each expression, so that a text
// compiles the same whatever was compiled before it (in this check or
// another: sharedprograms.go).
func (in *inliner) startExpression(env types.Map) {
	in.left, in.args, in.serial, in.env = maxInlinedNodes, in.args[:0], 0, env
}

// Visit implements ast.Visitor.
func (in *inliner) Visit(node *ast.Node) { in.visit(node, 0) }

func (in *inliner) visit(node *ast.Node, depth int) {
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	ident, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return
	}
	body, ok := in.bodies[ident.Value]
	if !ok || len(call.Arguments) != len(body.params) || depth >= maxInlineDepth {
		return
	}
	if _, hidden := in.env[ident.Value]; hidden && depth == 0 {
		return // a call of the let or parameter, which expr's checker reports
	}
	if body.size > 0 && body.size+len(body.params) > in.left {
		return
	}
	tree, err := exprparser.ParseWithConfig(body.text, body.parse)
	if err != nil {
		return
	}
	inlined := tree.Node
	if body.size == 0 {
		body.size = countNodes(inlined)
	}
	size := body.size + len(body.params)
	if size > in.left {
		return
	}
	in.left -= size
	if depth == 0 {
		// An argument as written; those inside bodies were checked with
		// the bodies.
		for i, arg := range call.Arguments {
			loc := arg.Location()
			in.args = append(in.args, inlinedArg{node: arg, from: loc.From, to: loc.To, fn: ident.Value, param: body.params[i], want: body.types[i]})
		}
	}
	// Parameters get names of their own: expr's lets may not shadow one
	// another, and a body inlined into itself's caller would. A rule
	// cannot write them (ʹ is a letter to expr, not to munda), so they
	// never clash with a name of the caller's. Run-time errors inside the
	// body point at the call. Both are done to the body's own nodes
	// before the calls in it are inlined (their arguments are the body's
	// nodes; what they inline is renamed and placed at its own level),
	// so each node is walked once whatever the depth.
	in.serial++
	renamed := make(map[string]string, len(body.params))
	for _, p := range body.params {
		renamed[p] = fmt.Sprintf("%sʹ%d", p, in.serial)
	}
	loc := call.Location()
	ast.Walk(&inlined, visitFunc(func(n *ast.Node) {
		if id, ok := (*n).(*ast.IdentifierNode); ok {
			if to, ok := renamed[id.Value]; ok {
				id.Value = to
			}
		}
		(*n).SetLocation(loc)
	}))
	// Calls inside the body are inlined too, before it goes in.
	ast.Walk(&inlined, visitFunc(func(n *ast.Node) { in.visit(n, depth+1) }))
	for i := len(body.params) - 1; i >= 0; i-- {
		inlined = &ast.VariableDeclaratorNode{Name: renamed[body.params[i]], Value: call.Arguments[i], Expr: inlined}
		inlined.SetLocation(loc)
	}
	if depth == 0 {
		// The arguments as written point at the call too (inside a body
		// they are its nodes, placed already).
		for i := range call.Arguments {
			ast.Walk(&call.Arguments[i], visitFunc(func(n *ast.Node) { (*n).SetLocation(loc) }))
		}
	}
	*node = inlined
}

func countNodes(n ast.Node) int {
	count := 0
	ast.Walk(&n, visitFunc(func(*ast.Node) { count++ }))
	return count
}

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }

// checkInlinedArgs reports the arguments of the calls inlined in e whose
// types are not their parameters': what expr's checker says of a call
// it sees. It runs after expr's checker, which typed the arguments where
// the inliner moved them.
func (c *checker) checkInlinedArgs(e *syntax.Expr) bool {
	ok := true
	for _, a := range c.inline.args {
		t := resultType(a.node)
		if a.want == nil || assignable(t, a.want) || (a.want == typeFloat && isNumber(t)) {
			continue
		}
		end := a.to
		if end <= a.from {
			end = a.from
		}
		c.diags.errorf(diag.CodeArgument, diag.RangeOf(exprPosition(e, a.from), exprPosition(e, end)),
			"the argument %s of %s must be %s, but this is %s", a.param, a.fn, TypeName(a.want), TypeName(t))
		ok = false
	}
	return ok
}
