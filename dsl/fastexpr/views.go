package fastexpr

import (
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/ast"
)

// List views: friends(m) makes a new list of the other models of m's
// gang, which a predicate (count(friends(m), …)) only loops over. A
// function registered with RegisterListView is, where a predicate loops
// over its result, not called: the predicate loops over the list it
// names, leaving one item out.

type listView struct {
	result reflect.Type // the function's result, a slice of pointers
	// view gives the list's first element and length, and the item to
	// leave out (nil for none).
	view func(arg any) (data unsafe.Pointer, n int, skip unsafe.Pointer)
}

var listViews = map[string]listView{}

// RegisterListView declares that name(x), a function of one argument
// returning []*T, is the list view(x) returns with every item equal to
// skip left out (skip nil: none). view must not fail or change anything,
// as the function must not. Call it from an init function, before any
// expression is compiled.
func RegisterListView[T any](name string, view func(arg any) (list []*T, skip *T)) {
	listViews[name] = listView{
		result: reflect.TypeFor[[]*T](),
		view: func(arg any) (unsafe.Pointer, int, unsafe.Pointer) {
			list, skip := view(arg)
			return unsafe.Pointer(unsafe.SliceData(list)), len(list), unsafe.Pointer(skip)
		},
	}
}

// viewOperand is a predicate's list where it is a registered view's call
// of the checked type t; ok is false for any other node.
func (c *compiler) viewOperand(n ast.Node, t reflect.Type) (listEval, bool, error) {
	name, call := c.oneArgCall(n)
	lv, registered := listViews[name]
	if call == nil || !registered || lv.result != t {
		return nil, false, nil
	}
	arg, err := c.compile(call.Arguments[0])
	if err != nil {
		return nil, true, err
	}
	elem := typeWord(t.Elem())
	return func(fr *frame) (items, error) {
		v, err := arg(fr)
		if err != nil {
			return items{}, err
		}
		data, n, skip := lv.view(v)
		if n == 0 {
			return items{}, nil
		}
		it := items{len: n, ptrs: data, elem: elem}
		if skip == nil {
			return it, nil
		}
		for i, p := range unsafe.Slice((*unsafe.Pointer)(data), n) {
			if p != skip {
				continue
			}
			if it.skip > 0 {
				return items{}, errFailed // left out twice: the VM's call decides
			}
			it.skip = i + 1
		}
		if it.skip > 0 {
			it.len--
		}
		return it, nil
	}, true, nil
}

// List fills: models(state) makes a new list of every gang's models,
// which a predicate (filter(models(), …)) only loops over. A function
// registered with RegisterListFill is, where a predicate loops over its
// result, not called: its items are appended to a list the frame keeps
// for the predicate's depth, reused from one run to the next (a nested
// predicate has a depth, and a list, of its own).

type listFill struct {
	result reflect.Type // the function's result, a slice of pointers
	fill   func(arg any, dst []unsafe.Pointer) ([]unsafe.Pointer, bool)
}

var listFills = map[string]listFill{}

// RegisterListFill declares that name(x), a function of one argument
// returning []*T, returns the items fill(x, dst) appends to dst; fill
// says false where the function would fail (the VM then runs it). fill
// must not change anything, as the function must not. Call it from an
// init function, before any expression is compiled.
func RegisterListFill[T any](name string, fill func(arg any, dst []*T) ([]*T, bool)) {
	listFills[name] = listFill{
		result: reflect.TypeFor[[]*T](),
		fill: func(arg any, dst []unsafe.Pointer) ([]unsafe.Pointer, bool) {
			out, ok := fill(arg, *(*[]*T)(unsafe.Pointer(&dst)))
			return *(*[]unsafe.Pointer)(unsafe.Pointer(&out)), ok
		},
	}
}

// fillOperand is a predicate's list at depth at where it is a registered
// fill's call of the checked type t; ok is false for any other node.
func (c *compiler) fillOperand(n ast.Node, at int) (listEval, bool, error) {
	t := n.Type()
	name, call := c.oneArgCall(n)
	lf, registered := listFills[name]
	if call == nil || !registered || at >= maxPredicateDepth || t == nil || lf.result != t {
		return nil, false, nil
	}
	arg, err := c.compile(call.Arguments[0])
	if err != nil {
		return nil, true, err
	}
	elem := typeWord(t.Elem())
	return func(fr *frame) (items, error) {
		v, err := arg(fr)
		if err != nil {
			return items{}, err
		}
		list, ok := lf.fill(v, fr.fills[at][:0])
		if !ok {
			return items{}, errFailed
		}
		fr.fills[at] = list
		if len(list) == 0 {
			return items{}, nil
		}
		return items{len: len(list), ptrs: unsafe.Pointer(unsafe.SliceData(list)), elem: elem}, nil
	}, true, nil
}

// fillCall is a registered fill's call where its list is the value, not
// looped over by a predicate (`for each m in models()`): the items are
// appended to a list the frame keeps, and copied to one cut from its
// slab, so that the call allocates nothing, where the function makes a
// new list each time. ok is false for any other node.
func (c *compiler) fillCall(n ast.Node) (f eval, ok bool, err error) {
	t := n.Type()
	name, call := c.oneArgCall(n)
	lf, registered := listFills[name]
	if call == nil || !registered || t == nil || lf.result != t {
		return nil, false, nil
	}
	arg, err := c.compile(call.Arguments[0])
	if err != nil {
		return nil, true, err
	}
	typ := typeWord(t)
	none := reflect.Zero(t).Interface() // the function's list of nothing: nil
	return func(fr *frame) (any, error) {
		v, err := arg(fr)
		if err != nil {
			return nil, err
		}
		list, ok := lf.fill(v, fr.filled[:0])
		if !ok {
			return nil, errFailed
		}
		fr.filled = list
		if len(list) == 0 {
			return none, nil
		}
		out := fr.ptrs.Make(len(list))
		copy(out, list)
		clear(list) // the frame keeps no item alive
		// out is boxed as the []*T it holds: the same layout.
		b := fr.ptrLists.Box(out)
		(*eface)(unsafe.Pointer(&b)).typ = typ
		return b, nil
	}, true, nil
}

// oneArgCall is n where it calls a configured function of one parameter
// by its name (as views and fills are registered): the name and the call,
// or a nil call for any other node.
func (c *compiler) oneArgCall(n ast.Node) (string, *ast.CallNode) {
	call, isCall := n.(*ast.CallNode)
	if !isCall || len(call.Arguments) != 1 {
		return "", nil
	}
	ident, isIdent := call.Callee.(*ast.IdentifierNode)
	if !isIdent {
		return "", nil
	}
	if fn, configured := c.functions[ident.Value]; !configured || fn.Func == nil {
		return "", nil
	}
	if ft := call.Callee.Type(); ft == nil || ft.Kind() != reflect.Func || ft.NumIn() != 1 || derefsParam(ft.In(0), call.Arguments[0]) {
		return "", nil
	}
	return ident.Value, call
}
