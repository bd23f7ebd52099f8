package fastexpr

import (
	"reflect"
	"slices"
	"time"
	"unsafe"

	"github.com/expr-lang/expr/vm/runtime"

	"github.com/expr-lang/expr/ast"
)

// Typed operands: where the checker proved both sides of == or != strings
// (m.status == "standing", the most common condition in the rules), they
// are compared without boxing either side into an interface, which
// allocates for every string read from the state.

type stringEval func(fr *frame) (string, error)

// stringOperand compiles a node the checker typed string.
func (c *compiler) stringOperand(n ast.Node) (stringEval, error) {
	switch n := n.(type) {
	case *ast.StringNode:
		s := n.Value
		return func(*frame) (string, error) { return s, nil }, nil
	case *ast.MemberNode:
		if get, ok, err := fieldOf[string](c, n); ok || err != nil {
			return get, err
		}
	}
	f, err := c.compile(n)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (string, error) {
		v, err := f(fr)
		if err != nil {
			return "", err
		}
		s, ok := v.(string)
		if !ok {
			return "", errFailed // the VM's OpEqualString asserts strings
		}
		return s, nil
	}, nil
}

// stringEquality is a == b or a != b between strings.
func (c *compiler) stringEquality(n *ast.BinaryNode) (eval, error) {
	b, err := c.stringEqualityBool(n)
	if err != nil {
		return nil, err
	}
	return c.boolAsAny(n, b), nil
}

// stringEqualityBool is stringEquality typed bool.
func (c *compiler) stringEqualityBool(n *ast.BinaryNode) (boolEval, error) {
	if eq, ok, err := c.concatEquality(n); ok || err != nil {
		return eq, err
	}
	l, err := c.stringOperand(n.Left)
	if err != nil {
		return nil, err
	}
	negate := n.Operator == "!="
	if lit, ok := n.Right.(*ast.StringNode); ok {
		if at, want, offset, ok := c.itemField(n.Left, reflect.TypeFor[string]()); ok {
			// m.status == "standing", m the item: one closure.
			s := newTextLiteral(lit.Value)
			return func(fr *frame) (bool, error) {
				e := (*eface)(unsafe.Pointer(&fr.items[at]))
				if e.typ != want || e.data == nil {
					return false, errFailed // as the field's getter: the VM decides
				}
				return s.equals(*(*string)(unsafe.Add(e.data, offset))) != negate, nil
			}, nil
		}
		// m.status == "standing": the literal is not a closure to call.
		s := newTextLiteral(lit.Value)
		return func(fr *frame) (bool, error) {
			a, err := l(fr)
			if err != nil {
				return false, err
			}
			return s.equals(a) != negate, nil
		}, nil
	}
	r, err := c.stringOperand(n.Right)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (bool, error) {
		a, err := l(fr)
		if err != nil {
			return false, err
		}
		b, err := r(fr)
		if err != nil {
			return false, err
		}
		return (a == b) != negate, nil
	}, nil
}

// stringAnyEquality is == or != between a string and a value the checker
// could not type (a parameter of an inlined function: .id == id). The VM
// dereferences the untyped side and runs runtime.Equal, which is true
// only for a string equal to the other (DeepEqual of other types is
// false); the string side is read here without boxing it.
func (c *compiler) stringAnyEquality(n *ast.BinaryNode) (eval, error) {
	stringLeft := isKind(n.Left, reflect.String)
	strNode, anyNode := n.Left, n.Right
	if !stringLeft {
		strNode, anyNode = n.Right, n.Left
	}
	str, err := c.stringOperand(strNode)
	if err != nil {
		return nil, err
	}
	other, err := c.compile(anyNode)
	if err != nil {
		return nil, err
	}
	negate := n.Operator == "!="
	return func(fr *frame) (any, error) {
		var s string
		var v any
		var err error
		if stringLeft { // the VM's order: left, then right
			if s, err = str(fr); err != nil {
				return nil, err
			}
			if v, err = other(fr); err != nil {
				return nil, err
			}
		} else {
			if v, err = other(fr); err != nil {
				return nil, err
			}
			if s, err = str(fr); err != nil {
				return nil, err
			}
		}
		vs, ok := v.(string)
		if !ok {
			d, err := derefValue(v)
			if err != nil {
				return nil, err
			}
			vs, ok = d.(string)
		}
		return (ok && vs == s) != negate, nil
	}, nil
}

// stringIn is s in list, s in a map's keys (as the optimizer turns a
// literal list into a set): for []string and map[string]struct{} without
// boxing each item as runtime.In does; anything else through runtime.In.
func (c *compiler) stringIn(n *ast.BinaryNode) (eval, error) {
	b, err := c.stringInBool(n)
	if err != nil {
		return nil, err
	}
	return c.boolAsAny(n, b), nil
}

// stringInBool is stringIn typed bool.
func (c *compiler) stringInBool(n *ast.BinaryNode) (boolEval, error) {
	if m, ok := n.Right.(*ast.MemberNode); ok {
		if root, addr, ft, ok := fieldAddress(m); ok && ft == reflect.TypeFor[[]string]() {
			if head, tail, ok := c.concatParts(n.Left); ok {
				return c.concatIn(head, tail, root, addr)
			}
			if lit, isLit := n.Left.(*ast.StringNode); isLit {
				if at, want, offset, ok := c.itemField(m, ft); ok {
					// "broken" in m.conditions, m the item: one closure.
					s := lit.Value
					return func(fr *frame) (bool, error) {
						e := (*eface)(unsafe.Pointer(&fr.items[at]))
						if e.typ != want || e.data == nil {
							return false, errFailed
						}
						return slices.Contains(*(*[]string)(unsafe.Add(e.data, offset)), s), nil
					}, nil
				}
			}
			// s in m.conditions: the list is read at its offset, not boxed.
			l, err := c.stringOperand(n.Left)
			if err != nil {
				return nil, err
			}
			ptr, _, err := c.fieldPointer(m, ft)
			if err != nil {
				return nil, err
			}
			return func(fr *frame) (bool, error) {
				s, err := l(fr)
				if err != nil {
					return false, err
				}
				p, err := ptr(fr)
				if err != nil {
					return false, err
				}
				return slices.Contains(*(*[]string)(p), s), nil
			}, nil
		}
	}
	l, err := c.stringOperand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.operand(n.Right)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (bool, error) {
		s, err := l(fr)
		if err != nil {
			return false, err
		}
		v, err := r(fr)
		if err != nil {
			return false, err
		}
		switch list := v.(type) {
		case []string:
			return slices.Contains(list, s), nil
		case map[string]struct{}:
			_, ok := list[s]
			return ok, nil
		case []any:
			// runtime.In's Equal of each item and s: true only for a
			// string item equal to s (DeepEqual of other types is false).
			for _, item := range list {
				if is, ok := item.(string); ok && is == s {
					return true, nil
				}
			}
			return false, nil
		}
		return runtime.In(s, v), nil
	}, nil
}

// structPointers is whether == between a and b compares two pointers to
// structs of one type (m == target), or one with nil (target == nil).
func structPointers(a, b ast.Node) bool {
	ta, tb := a.Type(), b.Type()
	isStructPtr := func(t reflect.Type) bool {
		return t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && t.Elem() != reflect.TypeFor[time.Time]()
	}
	switch {
	case a.Nature().Nil:
		return isStructPtr(tb)
	case b.Nature().Nil:
		return isStructPtr(ta)
	}
	return isStructPtr(ta) && ta == tb
}

// pointerEquality is == or != where structPointers holds. expr compares
// what the pointers point to (OpDeref, then runtime.Equal: DeepEqual of
// two copies of the structs, a model copied for every m == target); here
// nil is settled without a copy and two different pointers are compared
// by DeepEqual of the pointers, which for different addresses is DeepEqual
// of what they point to. The same pointer on both sides, or a value not
// of the checked type, goes the VM's way (a struct holding NaN is not
// equal to itself).
func (c *compiler) pointerEquality(n *ast.BinaryNode) (eval, error) {
	t := n.Left.Type()
	if n.Left.Nature().Nil {
		t = n.Right.Type()
	}
	want := typeWord(t)
	l, err := c.compile(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(n.Right)
	if err != nil {
		return nil, err
	}
	negate := n.Operator == "!="
	floats, reflexive := selfEqualPlan(t.Elem(), 0)
	// pointer is v's pointer, if v is nil or a pointer of the checked type.
	pointer := func(v any) (unsafe.Pointer, bool) {
		e := (*eface)(unsafe.Pointer(&v))
		if e.typ == nil {
			return nil, true
		}
		return e.data, e.typ == want
	}
	return func(fr *frame) (any, error) {
		a, err := l(fr)
		if err != nil {
			return nil, err
		}
		b, err := r(fr)
		if err != nil {
			return nil, err
		}
		pa, okA := pointer(a)
		pb, okB := pointer(b)
		var eq bool
		switch {
		case okA && okB && pa == pb && pa != nil && reflexive:
			eq = !anyNaN(pa, floats) // DeepEqual of a struct with itself
		case !okA || !okB || (pa == pb && pa != nil):
			da, err := derefValue(a)
			if err != nil {
				return nil, err
			}
			db, err := derefValue(b)
			if err != nil {
				return nil, err
			}
			eq = runtime.Equal(da, db)
		case pa == nil || pb == nil:
			eq = pa == nil && pb == nil // nil and nil are equal, nil and a struct not
		default:
			eq = reflect.DeepEqual(a, b)
		}
		return eq != negate, nil
	}, nil
}

// concatenation is the function string + string compiles to (the
// checker's bounded one, SetConcat) and the longest text it may make.
var concatenation struct {
	name string
	max  int
}

// SetConcat names the function string + string compiles to and the most
// bytes it may return (it fails past them), so that ("spent:" + w.id) in
// m.marks is asked without making the text. Call it from an init
// function, before any expression is compiled.
func SetConcat(name string, maxBytes int) {
	concatenation.name, concatenation.max = name, maxBytes
}

// concatParts are the two strings of a + b compiled to the concatenation.
func (c *compiler) concatParts(n ast.Node) (head, tail stringEval, ok bool) {
	call, isCall := n.(*ast.CallNode)
	if !isCall || concatenation.name == "" || len(call.Arguments) != 2 {
		return nil, nil, false
	}
	if id, isIdent := call.Callee.(*ast.IdentifierNode); !isIdent || id.Value != concatenation.name {
		return nil, nil, false
	}
	if !isKind(call.Arguments[0], reflect.String) || !isKind(call.Arguments[1], reflect.String) {
		return nil, nil, false
	}
	head, err := c.stringOperand(call.Arguments[0])
	if err != nil {
		return nil, nil, false
	}
	tail, err = c.stringOperand(call.Arguments[1])
	if err != nil {
		return nil, nil, false
	}
	return head, tail, true
}

// concatText is string + string (a + b + c, all of its parts at once)
// where its text is the value: made in the frame's slab, and boxed there,
// not allocated. Past the concatenation's bound (every partial text is
// no longer than the whole) the VM runs and fails as it does. ok is false
// for any other node.
func (c *compiler) concatText(n ast.Node) (eval, bool) {
	parts, ok := c.concatLeaves(n, nil)
	if !ok {
		return nil, false
	}
	limit := concatenation.max
	return func(fr *frame) (any, error) {
		var small [8]string
		texts := small[:0]
		size := 0
		for _, part := range parts {
			s, err := part(fr)
			if err != nil {
				return nil, err
			}
			texts = append(texts, s)
			size += len(s)
		}
		if size > limit {
			return nil, errFailed
		}
		if size == 0 {
			return "", nil // boxed in no memory
		}
		b := fr.bytes.Make(size)[:0]
		for _, s := range texts {
			b = append(b, s...)
		}
		return fr.boxString(unsafe.String(unsafe.SliceData(b), size)), nil
	}, true
}

// concatLeaves appends to parts the texts a concatenation is made of, in
// order, its operands that are concatenations themselves opened up.
func (c *compiler) concatLeaves(n ast.Node, parts []stringEval) ([]stringEval, bool) {
	call, isCall := n.(*ast.CallNode)
	if !isCall || concatenation.name == "" || len(call.Arguments) != 2 {
		return nil, false
	}
	if id, isIdent := call.Callee.(*ast.IdentifierNode); !isIdent || id.Value != concatenation.name {
		return nil, false
	}
	for _, arg := range call.Arguments {
		if !isKind(arg, reflect.String) {
			return nil, false
		}
		if more, ok := c.concatLeaves(arg, parts); ok {
			parts = more
			continue
		}
		part, err := c.stringOperand(arg)
		if err != nil {
			return nil, false
		}
		parts = append(parts, part)
	}
	return parts, true
}

// concatIn is (head + tail) in a []string field: an item equal to the
// concatenation is one of its length that starts with head and ends with
// tail. Past the concatenation's bound the VM runs (and fails as it
// does).
func (c *compiler) concatIn(head, tail stringEval, root ast.Node, addr func(any) unsafe.Pointer) (boolEval, error) {
	base, err := c.compile(root)
	if err != nil {
		return nil, err
	}
	limit := concatenation.max
	return func(fr *frame) (bool, error) {
		a, err := head(fr)
		if err != nil {
			return false, err
		}
		b, err := tail(fr)
		if err != nil {
			return false, err
		}
		if len(a)+len(b) > limit {
			return false, errFailed
		}
		v, err := base(fr)
		if err != nil {
			return false, err
		}
		p := addr(v)
		if p == nil {
			return false, errFailed // as the field's getter: the VM decides
		}
		for _, item := range *(*[]string)(p) {
			if len(item) == len(a)+len(b) && item[:len(a)] == a && item[len(a):] == b {
				return true, nil
			}
		}
		return false, nil
	}, nil
}

// concatEquality is s == head + tail (or head + tail == s, or !=) where
// the concatenation is string + string: compared piecewise, the text not
// made. The operands run in the VM's order; past the concatenation's
// bound the VM runs (and fails as it does). ok is false where neither
// side is such a concatenation.
func (c *compiler) concatEquality(n *ast.BinaryNode) (eq boolEval, ok bool, err error) {
	concat, other := n.Right, n.Left
	head, tail, ok := c.concatParts(concat)
	if !ok {
		concat, other = n.Left, n.Right
		if head, tail, ok = c.concatParts(concat); !ok {
			return nil, false, nil
		}
	}
	s, err := c.stringOperand(other)
	if err != nil {
		return nil, true, err
	}
	otherFirst := other == n.Left
	negate := n.Operator == "!="
	limit := concatenation.max
	return func(fr *frame) (bool, error) {
		var x, a, b string
		var err error
		if otherFirst {
			if x, err = s(fr); err != nil {
				return false, err
			}
		}
		if a, err = head(fr); err != nil {
			return false, err
		}
		if b, err = tail(fr); err != nil {
			return false, err
		}
		if len(a)+len(b) > limit {
			return false, errFailed
		}
		if !otherFirst {
			if x, err = s(fr); err != nil {
				return false, err
			}
		}
		equal := len(x) == len(a)+len(b) && x[:len(a)] == a && x[len(a):] == b
		return equal != negate, nil
	}, true, nil
}

// floatField is a float held by value in a struct, at offset from it.
type floatField struct {
	offset uintptr
	bits32 bool
}

// selfEqualPlan says when DeepEqual finds a struct of type t equal to
// itself: always, but for a NaN among the floats it holds by value
// (pointers, slices and maps are the same ones, which DeepEqual takes as
// equal). ok is false where it cannot say without reflection: a complex
// number, a func or an interface held by value.
func selfEqualPlan(t reflect.Type, base uintptr) (floats []floatField, ok bool) {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return []floatField{{offset: base, bits32: t.Kind() == reflect.Float32}}, true
	case reflect.Complex64, reflect.Complex128, reflect.Func, reflect.Interface:
		return nil, false
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			more, ok := selfEqualPlan(f.Type, base+f.Offset)
			if !ok {
				return nil, false
			}
			floats = append(floats, more...)
		}
		return floats, true
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			more, ok := selfEqualPlan(t.Elem(), base+uintptr(i)*t.Elem().Size())
			if !ok {
				return nil, false
			}
			floats = append(floats, more...)
		}
		return floats, true
	}
	return nil, true
}

// anyNaN is whether a float of the plan is NaN in the struct at p.
func anyNaN(p unsafe.Pointer, floats []floatField) bool {
	for _, f := range floats {
		at := unsafe.Add(p, f.offset)
		if f.bits32 {
			if x := *(*float32)(at); x != x {
				return true
			}
		} else if x := *(*float64)(at); x != x {
			return true
		}
	}
	return false
}
