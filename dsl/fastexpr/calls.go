package fastexpr

import (
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"
)

// call is f(…) of a function expr was configured with (munda's stdlib,
// the rules' declared functions and lookup tables, the bounded string
// builders): its Func runs with the arguments, as the VM's OpCall does.
func (c *compiler) call(n *ast.CallNode) (eval, error) {
	if f, ok, err := c.fillCall(n); ok {
		return f, err
	}
	ident, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return nil, unsupported("call of %T", n.Callee)
	}
	fn, ok := c.functions[ident.Value]
	if !ok || fn.Func == nil {
		return nil, unsupported("call of %s", ident.Value)
	}
	args, err := c.compileAll(n.Arguments)
	if err != nil {
		return nil, err
	}
	if ft := n.Callee.Type(); ft != nil && ft.Kind() == reflect.Func {
		for i, arg := range n.Arguments {
			var in reflect.Type
			switch {
			case ft.IsVariadic() && i >= ft.NumIn()-1:
				in = ft.In(ft.NumIn() - 1).Elem()
			case i < ft.NumIn():
				in = ft.In(i)
			default:
				return nil, unsupported("call of %s with %d arguments", ident.Value, len(n.Arguments))
			}
			if derefsParam(in, arg) {
				return nil, unsupported("pointer argument %d of %s dereferenced", i, ident.Value)
			}
		}
	}
	if ident.Value == listConcat.name && listConcat.name != "" && reflect.ValueOf(fn.Func).Pointer() == listConcat.fn && len(n.Arguments) > 0 {
		return c.concatFunction(n)
	}
	if text, ok := c.concatText(n); ok {
		return text, nil
	}
	if direct, ok := boolFuncs[ident.Value]; ok && len(args) == 3 {
		var reads [3]argRead
		for i := range reads {
			reads[i] = c.argReadOf(n.Arguments[i], args[i])
		}
		return c.boolAsAny(n, callBool3(direct, reads)), nil
	}
	if direct, ok := directFuncs[ident.Value]; ok && len(args) == 3 {
		return callDirect3(direct, args), nil
	}
	return callWithStack(fn.Func, args), nil
}

// listConcat is the function the rules' concat(a, b, …) of lists calls
// (SetListConcat) and the most items it may return.
var listConcat struct {
	name string
	fn   uintptr // the function's code
	max  int
}

// SetListConcat declares f, configured as name, a function of lists that
// returns their items in one []any, in order (nil for no items at all),
// and fails for an argument that is not a list or past maxItems items: a
// call of it makes its list from the frame's slabs, not a new one per
// call. A function configured under that name that is not f is called as
// any other. Call it from an init function, before any expression is
// compiled.
func SetListConcat(name string, f func(...any) (any, error), maxItems int) {
	listConcat.name, listConcat.fn, listConcat.max = name, reflect.ValueOf(f).Pointer(), maxItems
}

// concatFunction is a call of the function SetListConcat names, as
// concatLists, but bounded as the function is and not counted against
// the memory budget (the VM counts the lists of built-ins, not of
// functions). Where the function fails (an argument not a list, too many
// items), the VM runs and says why.
func (c *compiler) concatFunction(n *ast.CallNode) (eval, error) {
	return c.concatOf(n.Arguments, listConcat.max, false)
}

// concatOf is the list of the items of each of args in turn (nil for no
// items at all), made once at its final length from the frame's slabs:
// errFailed past maxItems items (< 0: no bound), and the items counted
// against the memory budget where budget says so. Anything but a list is
// the VM's error.
func (c *compiler) concatOf(args []ast.Node, maxItems int, budget bool) (eval, error) {
	lists := make([]listEval, len(args))
	for i, a := range args {
		var err error
		if lists[i], err = c.listOperand(a); err != nil {
			return nil, err
		}
	}
	return func(fr *frame) (any, error) {
		var parts [4]items
		all := parts[:0]
		size := 0
		for _, l := range lists {
			it, err := l(fr)
			if err != nil {
				return nil, err // errFailed for a value that is not a list: the VM says so
			}
			all = append(all, it)
			size += it.len
		}
		if maxItems >= 0 && size > maxItems {
			return nil, errFailed
		}
		if budget {
			if err := fr.grow(size); err != nil {
				return nil, err
			}
		}
		if size == 0 {
			return []any(nil), nil
		}
		arr := fr.list(size)[:0]
		for i := range all {
			for j := 0; j < all[i].len; j++ {
				arr = append(arr, all[i].at(fr, j))
			}
		}
		return fr.boxList(arr), nil
	}, nil
}

// directFuncs are functions of three arguments registered to be called
// without an argument list (RegisterDirect3).
var directFuncs = map[string]func(a, b, c any) (any, error){}

// RegisterDirect3 declares f the same function as name's Func for a call
// with three arguments, called with them directly: within(m, #, 3) runs
// for every model of a filter, and its arguments on the frame's stack
// were most of its cost. Call it from an init function, before any
// expression is compiled.
func RegisterDirect3(name string, f func(a, b, c any) (any, error)) { directFuncs[name] = f }

// callDirect3 is callWithStack for a function registered with
// RegisterDirect3: the arguments in order, then the call.
func callDirect3(f func(a, b, c any) (any, error), args []eval) eval {
	ea, eb, ec := args[0], args[1], args[2]
	return func(fr *frame) (any, error) {
		a, err := ea(fr)
		if err != nil {
			return nil, err
		}
		b, err := eb(fr)
		if err != nil {
			return nil, err
		}
		c, err := ec(fr)
		if err != nil {
			return nil, err
		}
		out, err := f(a, b, c)
		if err != nil {
			return nil, errFailed
		}
		return out, nil
	}
}

// boolFuncs are functions of three arguments that return a bool and
// never fail, registered to be called without an argument list
// (RegisterBool3).
var boolFuncs = map[string]func(a, b, c any) bool{}

// RegisterBool3 is RegisterDirect3 for a function that always returns a
// bool and never an error: a condition runs it typed (within(m, #, 3) in
// a chain), without boxing its outcome and asserting it back. Call it
// from an init function, before any expression is compiled.
func RegisterBool3(name string, f func(a, b, c any) bool) { boolFuncs[name] = f }

// callBool3 is callDirect3 for a function registered with RegisterBool3.
func callBool3(f func(a, b, c any) bool, args [3]argRead) boolEval {
	ea, eb, ec := args[0], args[1], args[2]
	return func(fr *frame) (bool, error) {
		a, err := ea.read(fr)
		if err != nil {
			return false, err
		}
		b, err := eb.read(fr)
		if err != nil {
			return false, err
		}
		c, err := ec.read(fr)
		if err != nil {
			return false, err
		}
		return f(a, b, c), nil
	}
}

// argRead reads an argument of a direct call: a literal, a predicate's
// item (#) or a name of the frame's slots where the argument is one (as
// their closures would read them, without a call), else by its closure.
type argRead struct {
	kind argKind
	i    int // the item's or the slot's index
	v    any // the literal
	f    eval
}

type argKind uint8

const (
	argEval argKind = iota
	argLiteral
	argItem
	argSlot
)

// argReadOf is how to read argument n, whose closure is f.
func (c *compiler) argReadOf(n ast.Node, f eval) argRead {
	switch n.(type) {
	case *ast.NilNode, *ast.BoolNode, *ast.StringNode, *ast.IntegerNode, *ast.FloatNode:
		v, _ := f(nil) // a literal's closure reads no frame
		return argRead{kind: argLiteral, v: v}
	}
	if at, ok := c.itemOf(n); ok {
		return argRead{kind: argItem, i: at}
	}
	if id, ok := n.(*ast.IdentifierNode); ok && c.slotOf != nil && id.Value != "$env" && !c.isLet(id.Value) {
		if i, ok := c.slotOf(id.Value); ok {
			return argRead{kind: argSlot, i: i}
		}
	}
	return argRead{kind: argEval, f: f}
}

// isLet is whether name is a let variable in scope.
func (c *compiler) isLet(name string) bool {
	for _, l := range c.lets {
		if l.name == name {
			return true
		}
	}
	return false
}

func (a *argRead) read(fr *frame) (any, error) {
	switch a.kind {
	case argLiteral:
		return a.v, nil
	case argItem:
		return fr.items[a.i], nil
	case argSlot:
		if a.i < len(fr.slots) {
			return fr.slots[a.i], nil
		}
		return nil, nil // unset: nil, as identifier reads it
	}
	return a.f(fr)
}

// callWithStack is callFunc for the functions munda configures, none of
// which keeps its argument slice: the arguments go on the frame's stack
// instead of a new slice per call.
func callWithStack(f func(...any) (any, error), args []eval) eval {
	return func(fr *frame) (any, error) {
		base := len(fr.args)
		for _, a := range args {
			v, err := a(fr)
			if err != nil {
				fr.popArgs(base)
				return nil, err
			}
			fr.args = append(fr.args, v)
		}
		out, err := f(fr.args[base:]...)
		fr.popArgs(base)
		if err != nil {
			return nil, errFailed
		}
		return out, nil
	}
}

// derefsParam is expr's compiler's derefParam: a pointer passed where the
// function wants a value.
func derefsParam(in reflect.Type, param ast.Node) bool {
	if param.Nature().Nil {
		return false
	}
	pt := param.Type()
	if pt == nil || pt.AssignableTo(in) {
		return false
	}
	return in.Kind() != reflect.Pointer && pt.Kind() == reflect.Pointer
}

// builtin is one of expr's built-ins: the predicates (any, all, none, one,
// filter, map, count) loop here; the others (len, abs, upper, …) call
// expr's own implementation.
func (c *compiler) builtin(n *ast.BuiltinNode) (eval, error) {
	switch n.Name {
	case "any", "all", "none", "one", "filter", "map", "count", "find", "findIndex", "sum":
		return c.predicate(n)
	case "sortBy":
		return c.sortBy(n)
	case "concat":
		if len(n.Arguments) > 0 {
			return c.concatLists(n)
		}
	case "len":
		if u, ok := n.Arguments[0].(*ast.BuiltinNode); ok && len(n.Arguments) == 1 && u.Name == "uniq" && len(u.Arguments) == 1 {
			if t := u.Arguments[0].Type(); t != nil && t.Kind() == reflect.Slice {
				return c.uniqLen(u)
			}
		}
	case "uniq":
		if len(n.Arguments) == 1 {
			if t := n.Arguments[0].Type(); t != nil && t.Kind() == reflect.Slice {
				return c.uniq(n)
			}
		}
	}
	id, ok := builtin.Index[n.Name]
	if !ok {
		return nil, unsupported("built-in %s", n.Name)
	}
	f := builtin.Builtins[id]
	if f.Safe == nil && f.Fast == nil && f.Func == nil {
		return nil, unsupported("built-in %s", n.Name)
	}
	args, err := c.compileAll(n.Arguments)
	if err != nil {
		return nil, err
	}
	for i, arg := range n.Arguments {
		t := arg.Type()
		if t == nil && !arg.Nature().Nil {
			return nil, unsupported("built-in %s of an untyped argument", n.Name)
		}
		if t == nil {
			continue
		}
		unknown := t.Kind() == reflect.Interface && t.NumMethod() == 0
		if t.Kind() == reflect.Pointer || unknown {
			if f.Deref == nil || f.Deref(i, t) {
				a := args[i]
				args[i] = func(fr *frame) (any, error) {
					v, err := a(fr)
					if err != nil {
						return nil, err
					}
					return derefValue(v)
				}
			}
		}
	}
	if f.Safe != nil {
		return callSafe(f.Safe, args), nil
	}
	if f.Fast != nil {
		if len(args) != 1 {
			return nil, unsupported("built-in %s with %d arguments", n.Name, len(args))
		}
		fast, arg := f.Fast, args[0]
		return func(fr *frame) (any, error) {
			v, err := arg(fr)
			if err != nil {
				return nil, err
			}
			return fast(v), nil
		}, nil
	}
	// None of expr's built-ins keeps its argument slice either (they
	// return a value made from the items, or an item): the arguments go
	// on the frame's stack, not in a new slice per call.
	return callWithStack(f.Func, args), nil
}

// callSafe runs a built-in that reports the memory it used (concat,
// flatten, …), which counts against the budget, as the VM's OpCallSafe.
func callSafe(f func(...any) (any, uint, error), args []eval) eval {
	return func(fr *frame) (any, error) {
		vals := make([]any, len(args))
		for i, a := range args {
			v, err := a(fr)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		out, mem, err := f(vals...)
		if err != nil {
			return nil, errFailed
		}
		if err := fr.grow(int(mem)); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// concatLists is expr's concat(a, b, …) of lists, as its built-in makes
// it (the items of each in turn, nil for no items at all, counted against
// the memory budget), with the list made once at its final length and
// the common lists read without reflection. Anything but a list is the
// VM's error.
func (c *compiler) concatLists(n *ast.BuiltinNode) (eval, error) {
	return c.concatOf(n.Arguments, -1, true)
}

// uniq is expr's uniq(list) of a list the checker typed a slice: the
// first of each run of equal items (runtime.Equal), in order, in a new
// []any made once. []any and []string are read without reflection (a
// string is boxed only once it is kept); any other list is the built-in's.
func (c *compiler) uniq(n *ast.BuiltinNode) (eval, error) {
	arg, err := c.compile(n.Arguments[0])
	if err != nil {
		return nil, err
	}
	other := builtin.Builtins[builtin.Index["uniq"]].Func
	return func(fr *frame) (any, error) {
		v, err := arg(fr)
		if err != nil {
			return nil, err
		}
		switch list := v.(type) {
		case []any:
			out := fr.list(len(list))[:0]
			for _, item := range list {
				if !slices.ContainsFunc(out, func(kept any) bool { return sameItem(item, kept) }) {
					out = append(out, item)
				}
			}
			return fr.boxList(out), nil
		case []string:
			out := fr.list(len(list))[:0]
			for i, s := range list {
				if !slices.Contains(list[:i], s) {
					out = append(out, fr.boxString(s))
				}
			}
			return fr.boxList(out), nil
		}
		if other == nil {
			return nil, errFailed
		}
		out, err := other(v)
		if err != nil {
			return nil, errFailed
		}
		return out, nil
	}, nil
}

// uniqLen is len(uniq(list)): the distinct items counted, for []any and
// []string without making the list; any other list as uniq makes it.
func (c *compiler) uniqLen(n *ast.BuiltinNode) (eval, error) {
	list, err := c.uniq(n)
	if err != nil {
		return nil, err
	}
	arg, err := c.compile(n.Arguments[0])
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		v, err := arg(fr)
		if err != nil {
			return nil, err
		}
		count := 0
		switch items := v.(type) {
		case []any:
			// Against the items kept, as uniq asks (runtime.Equal of an
			// int and a float is not transitive).
			var buf [16]any
			kept := buf[:0]
			for _, item := range items {
				if !slices.ContainsFunc(kept, func(k any) bool { return sameItem(item, k) }) {
					kept = append(kept, item)
				}
			}
			return len(kept), nil
		case []string:
			for i, s := range items {
				if !slices.Contains(items[:i], s) {
					count++
				}
			}
			return count, nil
		}
		u, err := list(fr)
		if err != nil {
			return nil, err
		}
		if l, ok := u.([]any); ok {
			return len(l), nil
		}
		return nil, errFailed
	}, nil
}

// sameItem is runtime.Equal(a, b), two strings compared directly.
func sameItem(a, b any) bool {
	if as, ok := a.(string); ok {
		if bs, ok := b.(string); ok {
			return as == bs
		}
	}
	return runtime.Equal(a, b)
}
