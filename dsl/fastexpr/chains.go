package fastexpr

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/expr-lang/expr/ast"
)

// Condition chains: once the rules' functions are inlined, the body of a
// predicate is a tree of and, or, not and aliasing lets: `let m = #;
// m.kind == "fighter" and let m2 = #; not m2.absent and not (let m3 =
// m2; m3.kind == "vehicle" and m3.secondary == "wrecked") and …`. Each
// let and each not was a closure of its own around the next, and each
// let cut an and-chain in two. Here a chain is laid out flat: the
// aliasing lets are read at compile time (they cost nothing at run
// time), nested and-chains join their parent, and a not is pushed down
// to the tests (not (a and b) is (not a) or (not b); not of a test of a
// field of the item is the test with its outcome flipped). What runs is
// one loop over the chain's operands, each a typed closure.
//
// The operands run in the order the VM runs them, stop where it stops,
// and fail where its closures fail (booleans.go): flattening and De
// Morgan's laws change neither.

// chainable is whether n is a condition a chain lays out (else it is one
// operand, compiled by condition).
func (c *compiler) chainable(n ast.Node) bool {
	if !isKind(n, reflect.Bool) {
		return false
	}
	switch n := n.(type) {
	case *ast.PredicateNode:
		return true
	case *ast.UnaryNode:
		return n.Operator == "not" || n.Operator == "!"
	case *ast.BinaryNode:
		return isLogical(n.Operator)
	case *ast.VariableDeclaratorNode:
		return isKind(n.Expr, reflect.Bool) && c.aliasable(n.Value)
	}
	return false
}

// chain compiles n, a logical operator or a not (the caller says so,
// typed bool or not), as a flat chain.
func (c *compiler) chain(n ast.Node) (boolEval, error) {
	return c.chainShape(n, false)
}

// chainOf compiles n consumed as a bool (derefed first where deref says,
// as condition), negated where negate says.
func (c *compiler) chainOf(n ast.Node, deref, negate bool) (boolEval, error) {
	if c.chainable(n) {
		if p, ok := n.(*ast.PredicateNode); ok {
			return c.chainOf(p.Node, deref, negate)
		}
		return c.chainShape(n, negate)
	}
	if t, ok := c.itemTest(n, negate); ok {
		return t, nil
	}
	b, err := c.condition(n, deref)
	if err != nil || !negate {
		return b, err
	}
	return func(fr *frame) (bool, error) {
		v, err := b(fr)
		return !v, err
	}, nil
}

// chainShape lays out a logical operator, not or aliasing let.
func (c *compiler) chainShape(n ast.Node, negate bool) (boolEval, error) {
	switch n := n.(type) {
	case *ast.UnaryNode: // not x
		return c.chainOf(n.Node, true, !negate)
	case *ast.VariableDeclaratorNode: // as letBool's alias
		value, err := c.compile(n.Value)
		if err != nil {
			return nil, err
		}
		c.lets = append(c.lets, c.aliasVar(n, value))
		defer func() { c.lets = c.lets[:len(c.lets)-1] }()
		return c.chainOf(n.Expr, false, negate)
	case *ast.BinaryNode:
		// not (a and b) is (not a) or (not b): the chain stops at the
		// operand it stopped at before, with the outcome flipped.
		or := (n.Operator == "or" || n.Operator == "||") != negate
		var conds []boolEval
		for _, side := range [2]ast.Node{n.Left, n.Right} {
			if err := c.chainOperands(side, n.Operator, negate, &conds); err != nil {
				return nil, err
			}
		}
		if len(conds) == 2 {
			l, r := conds[0], conds[1]
			return func(fr *frame) (bool, error) {
				a, err := l(fr)
				if err != nil || a == or {
					return a, err
				}
				return r(fr)
			}, nil
		}
		// The first operand settles most runs (the item is not a
		// fighter, not on the battlefield): it is called before the loop.
		first, rest := conds[0], conds[1:]
		return func(fr *frame) (bool, error) {
			if a, err := first(fr); err != nil || a == or {
				return a, err
			}
			for _, cond := range rest {
				if a, err := cond(fr); err != nil || a == or {
					return a, err
				}
			}
			return !or, nil
		}, nil
	}
	return nil, unsupported("chain of %T", n)
}

// chainOperands appends the operands of the logical operator op, in
// order, to conds: an operand that is op again (however deep behind
// aliasing lets and, with negate, a not of the other operator) joins the
// list. The operands are derefed, as booleanBinary's.
func (c *compiler) chainOperands(n ast.Node, op string, negate bool, conds *[]boolEval) error {
	switch x := n.(type) {
	case *ast.PredicateNode:
		if c.chainable(x) {
			return c.chainOperands(x.Node, op, negate, conds)
		}
	case *ast.BinaryNode:
		if isLogical(x.Operator) && sameLogical(x.Operator, op) && c.chainable(x) {
			if err := c.chainOperands(x.Left, op, negate, conds); err != nil {
				return err
			}
			return c.chainOperands(x.Right, op, negate, conds)
		}
	case *ast.VariableDeclaratorNode:
		if c.chainable(x) {
			value, err := c.compile(x.Value)
			if err != nil {
				return err
			}
			c.lets = append(c.lets, c.aliasVar(x, value))
			err = c.chainOperands(x.Expr, op, negate, conds)
			c.lets = c.lets[:len(c.lets)-1]
			return err
		}
	}
	b, err := c.chainOf(n, true, negate)
	if err != nil {
		return err
	}
	*conds = append(*conds, b)
	return nil
}

func sameLogical(a, b string) bool {
	return (a == "or" || a == "||") == (b == "or" || b == "||")
}

// itemTest is n as one closure testing a field of a predicate's item (a
// string against a literal, a bool, a literal in a list of strings, an
// int against a literal), negated where negate says; ok is false for any
// other n. It fails where the field's getter fails (the item nil, or not
// of the checked type: the VM decides).
func (c *compiler) itemTest(n ast.Node, negate bool) (boolEval, bool) {
	if p, isPred := n.(*ast.PredicateNode); isPred && isKind(n, reflect.Bool) {
		return c.itemTest(p.Node, negate)
	}
	if !isKind(n, reflect.Bool) {
		return nil, false
	}
	switch n := n.(type) {
	case *ast.MemberNode:
		if at, want, off, ok := c.itemField(n, reflect.TypeFor[bool]()); ok {
			return func(fr *frame) (bool, error) {
				e := (*eface)(unsafe.Pointer(&fr.items[at]))
				if e.typ != want || e.data == nil {
					return false, errFailed
				}
				return *(*bool)(unsafe.Add(e.data, off)) != negate, nil
			}, true
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "==", "!=":
			if !isKind(n.Left, reflect.String) || !isKind(n.Right, reflect.String) {
				break
			}
			for _, sides := range [2][2]ast.Node{{n.Left, n.Right}, {n.Right, n.Left}} {
				lit, isLit := sides[1].(*ast.StringNode)
				if !isLit {
					continue
				}
				if at, want, off, ok := c.itemField(sides[0], reflect.TypeFor[string]()); ok {
					s := newTextLiteral(lit.Value)
					flip := negate != (n.Operator == "!=")
					return func(fr *frame) (bool, error) {
						e := (*eface)(unsafe.Pointer(&fr.items[at]))
						if e.typ != want || e.data == nil {
							return false, errFailed
						}
						return s.equals(*(*string)(unsafe.Add(e.data, off))) != flip, nil
					}, true
				}
			}
		case "in":
			lit, isLit := n.Left.(*ast.StringNode)
			if !isLit || !isKind(n.Left, reflect.String) {
				break
			}
			if at, want, off, ok := c.itemField(n.Right, reflect.TypeFor[[]string]()); ok {
				s := lit.Value
				return func(fr *frame) (bool, error) {
					e := (*eface)(unsafe.Pointer(&fr.items[at]))
					if e.typ != want || e.data == nil {
						return false, errFailed
					}
					return slices.Contains(*(*[]string)(unsafe.Add(e.data, off)), s) != negate, nil
				}, true
			}
		}
		cmp, isCmp := intCmps[n.Operator]
		if !isCmp || !isKind(n.Left, reflect.Int) || !isKind(n.Right, reflect.Int) {
			break
		}
		for i, sides := range [2][2]ast.Node{{n.Left, n.Right}, {n.Right, n.Left}} {
			lit, isLit := sides[1].(*ast.IntegerNode)
			if !isLit || (lit.Type() != nil && lit.Type().Kind() != reflect.Int) {
				continue
			}
			if at, want, off, ok := c.itemField(sides[0], reflect.TypeFor[int]()); ok {
				if i == 1 {
					cmp = cmp.flip()
				}
				k := lit.Value
				if negate {
					cmp = cmp.negate()
				}
				return func(fr *frame) (bool, error) {
					e := (*eface)(unsafe.Pointer(&fr.items[at]))
					if e.typ != want || e.data == nil {
						return false, errFailed
					}
					return cmp.test(*(*int)(unsafe.Add(e.data, off)), k), nil
				}, true
			}
		}
	}
	return nil, false
}

// intCmp is an int comparison, by operator.
type intCmp uint8

const (
	cmpEq intCmp = iota
	cmpNe
	cmpLt
	cmpGt
	cmpLe
	cmpGe
)

var intCmps = map[string]intCmp{"==": cmpEq, "!=": cmpNe, "<": cmpLt, ">": cmpGt, "<=": cmpLe, ">=": cmpGe}

// flip is the comparison with its sides swapped: 0 < x is x > 0.
func (c intCmp) flip() intCmp {
	switch c {
	case cmpLt:
		return cmpGt
	case cmpGt:
		return cmpLt
	case cmpLe:
		return cmpGe
	case cmpGe:
		return cmpLe
	}
	return c
}

func (c intCmp) test(a, b int) bool {
	switch c {
	case cmpEq:
		return a == b
	case cmpNe:
		return a != b
	case cmpLt:
		return a < b
	case cmpGt:
		return a > b
	case cmpLe:
		return a <= b
	}
	return a >= b
}

// negate is the comparison true exactly where c is false.
func (c intCmp) negate() intCmp {
	switch c {
	case cmpEq:
		return cmpNe
	case cmpNe:
		return cmpEq
	case cmpLt:
		return cmpGe
	case cmpGt:
		return cmpLe
	case cmpLe:
		return cmpGt
	}
	return cmpLt
}
