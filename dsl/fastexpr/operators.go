package fastexpr

import (
	"reflect"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// operand compiles an operator's operand and dereferences it where expr's
// compiler does (derefInNeeded): a pointer or interface value is replaced
// by what it points to, so that == between two models compares them as
// values, exactly as the VM does.
func (c *compiler) operand(n ast.Node) (eval, error) {
	f, err := c.compile(n)
	if err != nil {
		return nil, err
	}
	if !needsDeref(n) {
		return f, nil
	}
	return func(fr *frame) (any, error) {
		v, err := f(fr)
		if err != nil {
			return nil, err
		}
		return derefValue(v)
	}, nil
}

func needsDeref(n ast.Node) bool {
	if n.Nature().Nil {
		return false
	}
	t := n.Type()
	if t == nil {
		return false // expr's compiler would panic on t.Kind(); the checker never leaves one
	}
	return t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface
}

// derefValue is expr's internal deref.Interface, which the VM's OpDeref
// runs.
func derefValue(p any) (any, error) {
	if p == nil {
		return nil, nil
	}
	v := reflect.ValueOf(p)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, nil
		}
		v = v.Elem()
	}
	if v.IsValid() {
		return v.Interface(), nil
	}
	return nil, errFailed
}

func isKind(n ast.Node, k reflect.Kind) bool {
	t := n.Type()
	return t != nil && t.Kind() == k && t.PkgPath() == ""
}

func (c *compiler) unary(n *ast.UnaryNode) (eval, error) {
	if n.Operator == "!" || n.Operator == "not" {
		b, _, err := c.boolean(n)
		if err != nil {
			return nil, err
		}
		return c.boolAsAny(n, b), nil
	}
	x, err := c.operand(n.Node)
	if err != nil {
		return nil, err
	}
	switch n.Operator {
	case "!", "not":
		return func(fr *frame) (any, error) {
			v, err := x(fr)
			if err != nil {
				return nil, err
			}
			b, ok := v.(bool)
			if !ok {
				return nil, errFailed
			}
			return !b, nil
		}, nil
	case "+":
		return x, nil
	case "-":
		return func(fr *frame) (any, error) {
			v, err := x(fr)
			if err != nil {
				return nil, err
			}
			switch v := v.(type) {
			case int:
				return boxInt(-v), nil
			case float64:
				return -v, nil
			}
			return runtime.Negate(v), nil
		}, nil
	}
	return nil, unsupported("unary %s", n.Operator)
}

// negativeInts are -256 to -1 boxed once: Go boxes 0 to 255 without
// allocating, and the rules' ints below 0 (-hierarchy_range(m), a
// modifier) are mostly small.
var negativeInts = func() (boxes [256]any) {
	for i := range boxes {
		boxes[i] = -1 - i
	}
	return boxes
}()

// boxInt is any(v), from negativeInts where it is one of them.
func boxInt(v int) any {
	if v < 0 && v >= -len(negativeInts) {
		return negativeInts[-1-v]
	}
	return v
}

// generic operators run expr's own runtime helpers, so their semantics
// (int and float mixing, what may be compared) are the VM's.
var generic = map[string]func(a, b any) any{
	"<":  func(a, b any) any { return runtime.Less(a, b) },
	">":  func(a, b any) any { return runtime.More(a, b) },
	"<=": func(a, b any) any { return runtime.LessOrEqual(a, b) },
	">=": func(a, b any) any { return runtime.MoreOrEqual(a, b) },
	"+":  runtime.Add,
	"-":  runtime.Subtract,
	"*":  runtime.Multiply,
	"/":  func(a, b any) any { return runtime.Divide(a, b) },
	"%":  func(a, b any) any { return runtime.Modulo(a, b) },
	"in": func(a, b any) any { return runtime.In(a, b) },
	"**": func(a, b any) any { return runtime.Exponent(a, b) },
	"^":  func(a, b any) any { return runtime.Exponent(a, b) },
}

// intOps are the same operators where the checker proved both sides int.
var intOps = map[string]func(a, b int) (any, bool){
	"<":  func(a, b int) (any, bool) { return a < b, true },
	">":  func(a, b int) (any, bool) { return a > b, true },
	"<=": func(a, b int) (any, bool) { return a <= b, true },
	">=": func(a, b int) (any, bool) { return a >= b, true },
	"+":  func(a, b int) (any, bool) { return boxInt(a + b), true },
	"-":  func(a, b int) (any, bool) { return boxInt(a - b), true },
	"*":  func(a, b int) (any, bool) { return boxInt(a * b), true },
	"/":  func(a, b int) (any, bool) { return float64(a) / float64(b), true },
	"%": func(a, b int) (any, bool) {
		if b == 0 {
			return nil, false // the VM panics: integer divide by zero
		}
		return a % b, true
	},
	"==": func(a, b int) (any, bool) { return a == b, true },
	"!=": func(a, b int) (any, bool) { return a != b, true },
}

func (c *compiler) binary(n *ast.BinaryNode) (eval, error) {
	switch n.Operator {
	case "and", "&&", "or", "||":
		return c.logical(n)
	case "??":
		return c.coalesce(n)
	case "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "in", "**", "^", "..", "startsWith", "endsWith":
	default:
		return nil, unsupported("operator %s", n.Operator)
	}
	if (n.Operator == "==" || n.Operator == "!=") && isKind(n.Left, reflect.String) && isKind(n.Right, reflect.String) {
		return c.stringEquality(n)
	}
	if n.Operator == "in" && isKind(n.Left, reflect.String) {
		return c.stringIn(n)
	}
	if (n.Operator == "==" || n.Operator == "!=") && (isKind(n.Left, reflect.String) && isKind(n.Right, reflect.Interface) ||
		isKind(n.Left, reflect.Interface) && isKind(n.Right, reflect.String)) {
		return c.stringAnyEquality(n)
	}
	if (n.Operator == "==" || n.Operator == "!=") && structPointers(n.Left, n.Right) {
		return c.pointerEquality(n)
	}
	switch n.Operator {
	case "==", "!=", "<", ">", "<=", ">=":
		if isKind(n.Left, reflect.Int) && isKind(n.Right, reflect.Int) {
			b, err := c.intComparison(n)
			if err != nil {
				return nil, err
			}
			return c.boolAsAny(n, b), nil
		}
	}
	l, err := c.operand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.operand(n.Right)
	if err != nil {
		return nil, err
	}
	if isKind(n.Left, reflect.Int) && isKind(n.Right, reflect.Int) {
		if op, ok := intOps[n.Operator]; ok {
			return func(fr *frame) (any, error) {
				a, err := l(fr)
				if err != nil {
					return nil, err
				}
				b, err := r(fr)
				if err != nil {
					return nil, err
				}
				x, ok1 := a.(int)
				y, ok2 := b.(int)
				if !ok1 || !ok2 {
					return nil, errFailed
				}
				v, ok := op(x, y)
				if !ok {
					return nil, errFailed
				}
				return v, nil
			}, nil
		}
	}
	var op func(a, b any) any
	switch n.Operator {
	case "==":
		op = func(a, b any) any { return runtime.Equal(a, b) }
	case "!=":
		op = func(a, b any) any { return !runtime.Equal(a, b) }
	case "startsWith":
		op = func(a, b any) any {
			if runtime.IsNil(a) || runtime.IsNil(b) {
				return false
			}
			return strings.HasPrefix(a.(string), b.(string))
		}
	case "endsWith":
		op = func(a, b any) any {
			if runtime.IsNil(a) || runtime.IsNil(b) {
				return false
			}
			return strings.HasSuffix(a.(string), b.(string))
		}
	case "..":
		return c.rangeOp(l, r), nil
	default:
		op = generic[n.Operator]
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
		return op(a, b), nil // a panic here is the VM's panic: the caller runs the VM
	}, nil
}

// logical is and/or with short-circuit, as the VM jumps: the left side
// must be a bool; the right side's value is the result as it is.
//
// Where the right side is typed bool, the typed closure runs (booleans.go).
func (c *compiler) logical(n *ast.BinaryNode) (eval, error) {
	if isKind(n.Right, reflect.Bool) {
		b, _, err := c.booleanBinary(n)
		if err != nil {
			return nil, err
		}
		return c.boolAsAny(n, b), nil
	}
	l, err := c.operand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.operand(n.Right)
	if err != nil {
		return nil, err
	}
	stopOn := n.Operator == "or" || n.Operator == "||"
	return func(fr *frame) (any, error) {
		a, err := l(fr)
		if err != nil {
			return nil, err
		}
		b, ok := a.(bool)
		if !ok {
			return nil, errFailed
		}
		if b == stopOn {
			return b, nil
		}
		return r(fr)
	}, nil
}

// rangeOp is a..b, a list of ints that counts against the memory budget.
func (c *compiler) rangeOp(l, r eval) eval {
	return func(fr *frame) (any, error) {
		a, err := l(fr)
		if err != nil {
			return nil, err
		}
		b, err := r(fr)
		if err != nil {
			return nil, err
		}
		lo, hi := runtime.ToInt(a), runtime.ToInt(b)
		if size := hi - lo + 1; size > 0 {
			if err := fr.grow(size); err != nil {
				return nil, err
			}
		}
		if hi < lo {
			return runtime.MakeRange(lo, hi), nil // empty
		}
		// runtime.MakeRange's list, cut from the frame's slab
		rng := fr.ints.Make(hi - lo + 1)
		for i := range rng {
			rng[i] = lo + i
		}
		return fr.intLists.Box(rng), nil
	}
}

// coalesce is a ?? b: a unless it is nil (a typed nil too), else b.
func (c *compiler) coalesce(n *ast.BinaryNode) (eval, error) {
	if _, chained := n.Left.(*ast.ChainNode); chained {
		return nil, unsupported("?. before ??")
	}
	l, err := c.operand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.operand(n.Right)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		v, err := l(fr)
		if err != nil {
			return nil, err
		}
		if !runtime.IsNil(v) {
			return v, nil
		}
		return r(fr)
	}, nil
}
