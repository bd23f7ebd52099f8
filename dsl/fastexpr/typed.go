package fastexpr

import (
	"reflect"
	"slices"

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
		if root, addr, ft, ok := fieldAddress(n); ok && ft == reflect.TypeFor[string]() {
			base, err := c.compile(root)
			if err != nil {
				return nil, err
			}
			return func(fr *frame) (string, error) {
				v, err := base(fr)
				if err != nil {
					return "", err
				}
				p := addr(v)
				if p == nil {
					return "", errFailed
				}
				return *(*string)(p), nil
			}, nil
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
	l, err := c.stringOperand(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := c.stringOperand(n.Right)
	if err != nil {
		return nil, err
	}
	negate := n.Operator == "!="
	return func(fr *frame) (any, error) {
		a, err := l(fr)
		if err != nil {
			return nil, err
		}
		b, err := r(fr)
		if err != nil {
			return nil, err
		}
		return (a == b) != negate, nil
	}, nil
}

// stringIn is s in list, s in a map's keys (as the optimizer turns a
// literal list into a set): for []string and map[string]struct{} without
// boxing each item as runtime.In does; anything else through runtime.In.
func (c *compiler) stringIn(n *ast.BinaryNode) (eval, error) {
	l, err := c.stringOperand(n.Left)
	if err != nil {
		return nil, err
	}
	if m, ok := n.Right.(*ast.MemberNode); ok {
		if root, addr, ft, ok := fieldAddress(m); ok && ft == reflect.TypeFor[[]string]() {
			// s in m.conditions: the list is read at its offset, not boxed.
			base, err := c.compile(root)
			if err != nil {
				return nil, err
			}
			return func(fr *frame) (any, error) {
				s, err := l(fr)
				if err != nil {
					return nil, err
				}
				v, err := base(fr)
				if err != nil {
					return nil, err
				}
				p := addr(v)
				if p == nil {
					return nil, errFailed // as the field's getter: the VM decides
				}
				return slices.Contains(*(*[]string)(p), s), nil
			}, nil
		}
	}
	r, err := c.operand(n.Right)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		s, err := l(fr)
		if err != nil {
			return nil, err
		}
		v, err := r(fr)
		if err != nil {
			return nil, err
		}
		switch list := v.(type) {
		case []string:
			for _, item := range list {
				if item == s {
					return true, nil
				}
			}
			return false, nil
		case map[string]struct{}:
			_, ok := list[s]
			return ok, nil
		}
		return runtime.In(s, v), nil
	}, nil
}
