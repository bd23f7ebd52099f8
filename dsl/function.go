package dsl

// This file checks function declarations and lookup tables: the callables expressions can name, compiled in dependency order.

import (
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/expr-lang/expr"
	exprast "github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

type callable struct {
	name  string
	at    *syntax.Ident
	fn    *syntax.Function
	table *TableInfo
	exprs []*syntax.Expr
	deps  []string
}

func (c *checker) checkCallables() {
	c.statePatch = stdlib.StatePatch{Names: stdlib.StateFunctions()}
	// The inliner goes first, so the state patch sees the calls that the
	// inlined bodies make.
	builtins := stdlib.ExprOptions()
	c.exprc.With(builtins...)
	c.globalFuncs = maps.Clone(c.exprc.Functions())
	var own []expr.Option
	own = append(own, c.characteristicFunctions()...)
	own = append(own, c.featureFunctions()...)
	own = append(own, c.actionFunctions()...)
	c.exprc.With(own...)
	c.exprc.Prepatch(c.inline, c.statePatch)
	c.programs.forget()

	var list []*callable
	byName := map[string]*callable{}
	for _, d := range c.all {
		var cl *callable
		switch d := d.(type) {
		case *syntax.Function:
			cl = &callable{name: d.ID.Name, at: d.ID, fn: d, exprs: []*syntax.Expr{d.Body}}
		case *syntax.Table:
			info := c.tableInfo[d]
			if info == nil || !info.Lookup {
				continue
			}
			cl = &callable{name: d.ID.Name, at: d.ID, table: info}
			if info.By != nil {
				cl.exprs = append(cl.exprs, info.By)
			}
			for _, r := range info.Rows {
				cl.exprs = append(cl.exprs, r.Row.When, r.Row.Value)
			}
		default:
			continue
		}
		if c.lookup(nsCore, cl.name) == d {
			byName[cl.name] = cl
		}
		list = append(list, cl)
	}
	for _, cl := range list {
		for _, e := range cl.exprs {
			if e == nil {
				continue
			}
			for _, name := range calledNames(e.Text) {
				if _, ok := byName[name]; ok {
					cl.deps = append(cl.deps, name)
				}
			}
		}
	}
	// Depth-first, in declaration order; a cycle is an error.
	state := map[*callable]int{}
	var visit func(cl *callable, path []string)
	visit = func(cl *callable, path []string) {
		switch state[cl] {
		case 1:
			c.diags.errorf(diag.CodeRecursion, identRange(cl.at), "%s calls itself (%s)", cl.name, strings.Join(append(path, cl.name), " → "))
			return
		case 2:
			return
		}
		state[cl] = 1
		for _, dep := range cl.deps {
			visit(byName[dep], append(path, cl.name))
		}
		state[cl] = 2
		c.compileCallable(cl, byName[cl.name] == cl)
	}
	for _, cl := range list {
		visit(cl, nil)
	}
}

// calledNames lists the functions an expression calls, from expr's parse
// without a configuration: the names of expr's built-ins too, which a
// declaration of the same name (upper) replaces, so it is checked first.
func calledNames(text string) []string {
	tree, err := plainParse(text)
	if err != nil {
		return nil
	}
	var names []string
	v := callCollector{names: &names}
	exprast.Walk(&tree.Node, v)
	return names
}

type callCollector struct{ names *[]string }

func (v callCollector) Visit(node *exprast.Node) {
	switch n := (*node).(type) {
	case *exprast.CallNode:
		if id, ok := n.Callee.(*exprast.IdentifierNode); ok {
			*v.names = append(*v.names, id.Value)
		}
	case *exprast.BuiltinNode:
		*v.names = append(*v.names, n.Name)
	}
}

// compileCallable compiles a callable's expressions and, if it is the one
// in force under its name, makes it callable from later expressions.
func (c *checker) compileCallable(cl *callable, inForce bool) {
	if stdlib.Internal(cl.name) {
		c.diags.errorf(diag.CodeDuplicateID, identRange(cl.at), "%s is the name of a function munda compiles an operator to; give it another name", cl.name)
		return
	}
	info := &FuncInfo{Name: cl.name}
	switch {
	case cl.fn != nil:
		sc := newScope(c.globals)
		info.Params = c.params(cl.fn.Params, sc)
		info.Function = cl.fn
		info.Result = c.compile(cl.fn.Body, sc, nil, "")
		if inForce && cl.fn.Body.Program != nil {
			if body, err := newInlineBody(cl.fn.Body.Text, info.Params, c.exprc.config, sc.exprEnv()); err == nil {
				c.inline.bodies[cl.name] = body
				c.programs.forget()
			}
		}
		body := c.newSlotExpr(cl.fn.Body, slotLayout(info.Params))
		params := info.Params
		info.eval = func(st *state.State, args []any) (any, error) {
			return callSlots(body, st, params, args)
		}
	case cl.table != nil:
		t := cl.table
		info.Params, info.Table = t.Params, t
		sc := t.RollScope
		if t.By != nil {
			c.compile(t.By, sc, typeInt, "the key of a band table")
		}
		for _, r := range t.Rows {
			if r.Row.When != nil {
				c.compile(r.Row.When, sc, typeBool, "a row's condition")
			}
			if r.Row.Value == nil {
				c.diags.errorf(diag.CodeRowDefinition, diag.RangeOf(r.Row.Pos, r.Row.Pos), "row %s of lookup table %s gives no value", r.ID, t.ID)
				continue
			}
			vt := c.compile(r.Row.Value, sc, nil, "")
			switch {
			case vt == nil:
			case info.Result == nil:
				info.Result = vt
			case !assignable(vt, info.Result):
				c.diags.errorf(diag.CodeTypeError, diag.RangeOf(r.Row.Value.Pos, r.Row.Value.EndPos), "row %s gives %s, but earlier rows give %s",
					r.ID, TypeName(vt), TypeName(info.Result))
			}
		}
		t.ValueType = info.Result
		lk := c.newLookup(t)
		info.eval = func(st *state.State, args []any) (any, error) { return lk.eval(st, args) }
	}
	if !inForce {
		return
	}
	c.idx.Functions[cl.name] = info
	in := []reflect.Type{typeState}
	for _, p := range info.Params {
		in = append(in, p.Type)
	}
	out := info.Result
	if out == nil {
		out = typeAny
	}
	sig := reflect.New(reflect.FuncOf(in, []reflect.Type{out}, false)).Interface()
	c.statePatch.Names[cl.name] = true
	fn := expr.Function(cl.name, func(args ...any) (any, error) {
		st, _ := args[0].(*state.State)
		return info.eval(st, args[1:])
	}, sig)
	c.exprc.With(fn)
	c.programs.forget()
}

// characteristicFunctions make the declared limits visible to rules:
// can_improve(model, "ws") and can_worsen(model, "ws") tell whether a
// change by one would stay within them.
func (c *checker) characteristicFunctions() []expr.Option {
	can := func(improve bool) func(args ...any) (any, error) {
		return func(args ...any) (any, error) {
			m, _ := args[0].(*state.Model)
			id, _ := args[1].(string)
			ci := c.idx.Characteristics[id]
			if ci == nil {
				return nil, fmt.Errorf("unknown characteristic %q", id)
			}
			if m == nil {
				return false, nil
			}
			_, ok := ci.Changed(m, improve, 1)
			return ok, nil
		}
	}
	sig := new(func(*state.Model, string) bool)
	return []expr.Option{
		expr.Function("can_improve", can(true), sig),
		expr.Function("can_worsen", can(false), sig),
	}
}

// FeatureData is one feature declaration as `features(kind)` gives it to
// expressions: its id, title and properties ("" or 0 where it has none).
// Rules read the data this way, e.g. the skills of a set with a number,
// for a random skill.
type FeatureData struct {
	ID         string `expr:"id"`
	Title      string `expr:"title"`
	Kind       string `expr:"kind"`
	Set        string `expr:"set"`
	Number     int    `expr:"number"`
	Discipline string `expr:"discipline"`
	Type       string `expr:"type"`
	Continuous bool   `expr:"continuous"`
}

// FeatureKinds are the kinds of feature declaration, as written.
var FeatureKinds = []string{"skill", "trait", "power", "action", "condition"}

// featureFunctions make the features the rules declare readable as data:
// features("skill") lists every skill in force, sorted by id.
func (c *checker) featureFunctions() []expr.Option {
	// Each list is boxed once: features("action") is asked for every
	// action of every menu.
	lists := map[string]any{}
	for _, kind := range FeatureKinds {
		list := []*FeatureData{}
		for _, id := range keys(c.idx.Features[kind]) {
			list = append(list, featureData(c.idx.Features[kind][id]))
		}
		lists[kind] = list
	}
	return []expr.Option{expr.Function("features", func(args ...any) (any, error) {
		kind, _ := args[0].(string)
		list, ok := lists[kind]
		if !ok {
			return nil, fmt.Errorf("features(%q): there is no kind of feature %q (%s)", kind, kind, strings.Join(FeatureKinds, ", "))
		}
		return list, nil
	}, new(func(string) []*FeatureData))}
}

func featureData(f *syntax.Feature) *FeatureData {
	d := &FeatureData{ID: f.ID.Name, Title: f.Title.Value(), Kind: f.Kind}
	for _, it := range f.Items {
		switch it := it.(type) {
		case *syntax.Property:
			value := ""
			if it.Value != nil {
				value = it.Value.Name
			}
			switch it.Name {
			case "set":
				d.Set = value
			case "discipline":
				d.Discipline = value
			case "type":
				d.Type = value
			case "number":
				if it.Number != nil {
					d.Number = it.Number.Value()
				}
			}
		case *syntax.Flag:
			d.Continuous = d.Continuous || it.Name == "continuous"
		}
	}
	return d
}

// FuncInfo is something expressions can call by name: a function
// declaration or a lookup table.
type FuncInfo struct {
	Name     string
	Params   []ParamInfo
	Result   reflect.Type
	Function *syntax.Function // a function declaration
	Table    *TableInfo       // or a lookup table
	eval     evalFunc         // set by the checker; runs the body
}

// evalFunc runs a callable with the state and its arguments.
type evalFunc func(st *state.State, args []any) (any, error)
