package fastexpr

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// framelessTest is frameless for the commonest conditions of a name the
// rules write as statements' conditions and lets: `not assisted`, `kept
// == "out_of_action"`, `helper != "nobody"`, `n > 0` and `len(helpers) >
// 0`. Each runs without a frame where the name's value is of the type it
// reads (a bool, a string, an int, a []any), where the answer is plain;
// with any other value it runs framed, the expression's closures in a
// frame, which decide as they would.
func (c *compiler) framelessTest(node ast.Node, framed SlotFunc) (SlotFunc, bool) {
	slotRead := c.slotRead
	switch n := node.(type) {
	case *ast.UnaryNode:
		if n.Operator != "not" && n.Operator != "!" {
			return nil, false
		}
		i, ok := slotRead(n.Node)
		if !ok {
			return nil, false
		}
		return func(fs *Frames, vals []any) (any, error) {
			if i < len(vals) {
				if b, ok := vals[i].(bool); ok {
					return !b, nil
				}
			}
			return framed(fs, vals)
		}, true
	case *ast.BinaryNode:
		for swapped, sides := range [2][2]ast.Node{{n.Left, n.Right}, {n.Right, n.Left}} {
			if lit, ok := sides[1].(*ast.StringNode); ok {
				i, ok := slotRead(sides[0])
				if !ok || (n.Operator != "==" && n.Operator != "!=") {
					continue
				}
				s, negate := lit.Value, n.Operator == "!="
				return func(fs *Frames, vals []any) (any, error) {
					if i < len(vals) {
						if v, ok := vals[i].(string); ok {
							return (v == s) != negate, nil
						}
					}
					return framed(fs, vals)
				}, true
			}
			lit, ok := sides[1].(*ast.IntegerNode)
			cmp, isCmp := intCmps[n.Operator]
			if !ok || !isCmp || (lit.Type() != nil && lit.Type().Kind() != reflect.Int) {
				continue
			}
			if swapped == 1 {
				cmp = cmp.flip()
			}
			k := lit.Value
			if i, ok := slotRead(sides[0]); ok {
				return func(fs *Frames, vals []any) (any, error) {
					if i < len(vals) {
						if v, ok := vals[i].(int); ok {
							return cmp.test(v, k), nil
						}
					}
					return framed(fs, vals)
				}, true
			}
			if b, ok := sides[0].(*ast.BuiltinNode); ok && b.Name == "len" && len(b.Arguments) == 1 {
				if i, ok := slotRead(b.Arguments[0]); ok {
					return func(fs *Frames, vals []any) (any, error) {
						if i < len(vals) {
							if l, ok := vals[i].([]any); ok {
								return cmp.test(len(l), k), nil
							}
						}
						return framed(fs, vals)
					}, true
				}
			}
		}
	}
	return nil, false
}
