package fastexpr

import (
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/ast"
)

// Typed conditions: where the checker typed a node bool (the conditions
// of predicates, and/or/not, comparisons), it compiles to a closure that
// returns a bool, not an interface, so a chain like
// `on_battlefield(#) and not broken(#) and within(m, #, 3)` runs without
// boxing and asserting at every step. Where a typed closure meets a value
// that is not a bool after all (a name the checker could not type), it
// fails, and the caller runs the VM, as the untyped closures do.

type boolEval func(fr *frame) (bool, error)

type intEval func(fr *frame) (int, error)

// asAny is a typed condition where an untyped closure is wanted.
func (b boolEval) asAny() eval {
	return func(fr *frame) (any, error) {
		v, err := b(fr)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}

// boolAsAny is b where compile must return an untyped closure for n; it
// remembers b, so that condition, consuming n as a bool, runs b itself.
func (c *compiler) boolAsAny(n ast.Node, b boolEval) eval {
	if c.typedBools == nil {
		c.typedBools = map[ast.Node]boolEval{}
	}
	c.typedBools[n] = b
	return b.asAny()
}

// condition compiles a node consumed as a bool (a predicate's body, the
// operand of not, and, or, ?:): derefed first where the VM derefs it
// (deref says so: an operator's operand), then asserted a bool.
func (c *compiler) condition(n ast.Node, deref bool) (boolEval, error) {
	if isKind(n, reflect.Bool) {
		if b, ok, err := c.boolean(n); ok || err != nil {
			return b, err
		}
	}
	// The node compiled last for inner is the one compiled here (a node
	// shared by two inlined calls is compiled once for each).
	inner := n
	for p, ok := inner.(*ast.PredicateNode); ok; p, ok = inner.(*ast.PredicateNode) {
		inner = p.Node
	}
	delete(c.typedBools, inner)
	var f eval
	var err error
	if deref {
		f, err = c.operand(n)
	} else {
		f, err = c.compile(n)
	}
	if err != nil {
		return nil, err
	}
	// Typed bool after all (an and/or whose right side is, a quantifier,
	// a comparison of ints or strings): its value is a bool, never
	// derefed, so the typed closure is the same condition, unboxed.
	if b, ok := c.typedBools[inner]; ok {
		return b, nil
	}
	return func(fr *frame) (bool, error) {
		v, err := f(fr)
		if err != nil {
			return false, err
		}
		b, ok := v.(bool)
		if !ok {
			return false, errFailed // the VM's jumps and OpNot assert a bool
		}
		return b, nil
	}, nil
}

// boolean compiles a node the checker typed bool to a typed closure,
// where it knows its form (ok is false for any other, which the caller
// compiles as usual).
func (c *compiler) boolean(n ast.Node) (b boolEval, ok bool, err error) {
	switch n := n.(type) {
	case *ast.PredicateNode:
		return c.boolean(n.Node)
	case *ast.BoolNode:
		v := n.Value
		return func(*frame) (bool, error) { return v, nil }, true, nil
	case *ast.UnaryNode:
		if n.Operator != "not" && n.Operator != "!" {
			return nil, false, nil
		}
		b, err := c.chain(n) // pushed down to the tests (chains.go)
		return b, true, err
	case *ast.BinaryNode:
		return c.booleanBinary(n)
	case *ast.MemberNode:
		if at, want, offset, ok := c.itemField(n, reflect.TypeFor[bool]()); ok {
			return func(fr *frame) (bool, error) {
				e := (*eface)(unsafe.Pointer(&fr.items[at]))
				if e.typ != want || e.data == nil {
					return false, errFailed // as the field's getter: the VM decides
				}
				return *(*bool)(unsafe.Add(e.data, offset)), nil
			}, true, nil
		}
		get, ok, err := fieldOf[bool](c, n)
		return get, ok, err
	case *ast.VariableDeclaratorNode:
		if !isKind(n.Expr, reflect.Bool) {
			return nil, false, nil
		}
		return c.letBool(n)
	case *ast.ConditionalNode:
		if !isKind(n.Exp1, reflect.Bool) || !isKind(n.Exp2, reflect.Bool) {
			return nil, false, nil
		}
		cond, err := c.condition(n.Cond, true)
		if err != nil {
			return nil, true, err
		}
		yes, err := c.condition(n.Exp1, false)
		if err != nil {
			return nil, true, err
		}
		no, err := c.condition(n.Exp2, false)
		if err != nil {
			return nil, true, err
		}
		return func(fr *frame) (bool, error) {
			v, err := cond(fr)
			if err != nil {
				return false, err
			}
			if v {
				return yes(fr)
			}
			return no(fr)
		}, true, nil
	case *ast.BuiltinNode:
		switch n.Name {
		case "any", "all", "none", "one":
			if n.Map != nil || n.Threshold != nil || len(n.Arguments) != 2 {
				return nil, false, nil
			}
			b, err := c.quantifier(n)
			return b, true, err
		}
	}
	return nil, false, nil
}

// booleanBinary is and, or and the comparisons the checker typed.
func (c *compiler) booleanBinary(n *ast.BinaryNode) (boolEval, bool, error) {
	switch n.Operator {
	case "and", "&&", "or", "||":
		// The operands, however deep, run as one chain (chains.go).
		b, err := c.chain(n)
		return b, true, err
	case "==", "!=":
		if isKind(n.Left, reflect.String) && isKind(n.Right, reflect.String) {
			b, err := c.stringEqualityBool(n)
			return b, true, err
		}
	case "in":
		if isKind(n.Left, reflect.String) {
			b, err := c.stringInBool(n)
			return b, true, err
		}
	}
	switch n.Operator {
	case "==", "!=", "<", ">", "<=", ">=":
		if isKind(n.Left, reflect.Int) && isKind(n.Right, reflect.Int) {
			b, err := c.intComparison(n)
			return b, true, err
		}
	}
	return nil, false, nil
}

// intComparison compares two ints the checker typed int.
func (c *compiler) intComparison(n *ast.BinaryNode) (boolEval, error) {
	l, err := c.intOperand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.intOperand(n.Right)
	if err != nil {
		return nil, err
	}
	var cmp func(a, b int) bool
	switch n.Operator {
	case "==":
		cmp = func(a, b int) bool { return a == b }
	case "!=":
		cmp = func(a, b int) bool { return a != b }
	case "<":
		cmp = func(a, b int) bool { return a < b }
	case ">":
		cmp = func(a, b int) bool { return a > b }
	case "<=":
		cmp = func(a, b int) bool { return a <= b }
	default:
		cmp = func(a, b int) bool { return a >= b }
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
		return cmp(a, b), nil
	}, nil
}

// intOperand is an operand the checker typed int: a literal, a field read
// at its offset, anything else asserted an int (else the VM runs).
func (c *compiler) intOperand(n ast.Node) (intEval, error) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		if t := n.Type(); t == nil || t.Kind() == reflect.Int {
			v := n.Value
			return func(*frame) (int, error) { return v, nil }, nil
		}
	case *ast.MemberNode:
		if get, ok, err := fieldOf[int](c, n); ok || err != nil {
			return get, err
		}
	}
	f, err := c.operand(n)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (int, error) {
		v, err := f(fr)
		if err != nil {
			return 0, err
		}
		i, ok := v.(int)
		if !ok {
			return 0, errFailed // as intOps: the VM decides
		}
		return i, nil
	}, nil
}

// itemField is fieldAt where the root is the current item of a
// predicate (itemOf): the field is then read in one closure, from the
// frame's items, by the commonest conditions (m.status == "standing",
// not m.fled, "broken" in m.conditions, with m the item).
func (c *compiler) itemField(n ast.Node, ft reflect.Type) (at int, want unsafe.Pointer, offset uintptr, ok bool) {
	m, isMember := n.(*ast.MemberNode)
	if !isMember {
		return 0, nil, 0, false
	}
	root, want, offset, ok := c.fieldAt(m, ft)
	if !ok {
		return 0, nil, 0, false
	}
	at, ok = c.itemOf(root)
	return at, want, offset, ok
}

// fieldOf reads a field of n's type T at its offset (see fieldPointer):
// ok false where n is not such a field, and the caller compiles it
// another way.
func fieldOf[T any](c *compiler, n *ast.MemberNode) (get func(fr *frame) (T, error), ok bool, err error) {
	ptr, ok, err := c.fieldPointer(n, reflect.TypeFor[T]())
	if !ok || err != nil {
		return nil, ok, err
	}
	return func(fr *frame) (T, error) {
		p, err := ptr(fr)
		if err != nil {
			var zero T
			return zero, err
		}
		return *(*T)(p), nil
	}, true, nil
}

// fieldPointer is the address of n's field, of type ft, in the value of
// its root (ok is false where fieldAt finds none): read from the frame's
// items where the root is the current item (itemOf), else from the root's
// closure. It fails where the field's getter does (a nil or a value not
// of the checked type: the VM decides).
func (c *compiler) fieldPointer(n *ast.MemberNode, ft reflect.Type) (ptr func(fr *frame) (unsafe.Pointer, error), ok bool, err error) {
	root, want, offset, ok := c.fieldAt(n, ft)
	if !ok {
		return nil, false, nil
	}
	if at, isItem := c.itemOf(root); isItem {
		return func(fr *frame) (unsafe.Pointer, error) {
			e := (*eface)(unsafe.Pointer(&fr.items[at]))
			if e.typ != want || e.data == nil {
				return nil, errFailed
			}
			return unsafe.Add(e.data, offset), nil
		}, true, nil
	}
	base, err := c.compile(root)
	if err != nil {
		return nil, true, err
	}
	return func(fr *frame) (unsafe.Pointer, error) {
		v, err := base(fr)
		if err != nil {
			return nil, err
		}
		e := (*eface)(unsafe.Pointer(&v))
		if e.typ != want || e.data == nil {
			return nil, errFailed
		}
		return unsafe.Add(e.data, offset), nil
	}, true, nil
}

// fieldAt is fieldPath for a field of type ft: the root whose value holds
// it, the type word of that value, and the field's offset in it.
func (c *compiler) fieldAt(n *ast.MemberNode, ft reflect.Type) (root ast.Node, want unsafe.Pointer, offset uintptr, ok bool) {
	root, ptr, offset, t, ok := fieldPath(n)
	if !ok || t != ft {
		return nil, nil, 0, false
	}
	return root, typeWord(ptr), offset, true
}

// letBool is let with a bool body (see let).
func (c *compiler) letBool(n *ast.VariableDeclaratorNode) (boolEval, bool, error) {
	value, err := c.compile(n.Value)
	if err != nil {
		return nil, true, err
	}
	if c.aliasable(n.Value) {
		c.lets = append(c.lets, c.aliasVar(n, value))
		body, err := c.condition(n.Expr, false)
		c.lets = c.lets[:len(c.lets)-1]
		return body, true, err
	}
	slot := c.slots
	c.slots++
	c.lets = append(c.lets, letVar{name: n.Name, slot: slot})
	body, err := c.condition(n.Expr, false)
	c.lets = c.lets[:len(c.lets)-1]
	if err != nil {
		return nil, true, err
	}
	return func(fr *frame) (bool, error) {
		v, err := value(fr)
		if err != nil {
			return false, err
		}
		fr.vars[slot] = v
		return body(fr)
	}, true, nil
}

func isLogical(op string) bool { return op == "and" || op == "&&" || op == "or" || op == "||" }
