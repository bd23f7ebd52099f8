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
		var ops []chainOperand
		for _, side := range [2]ast.Node{n.Left, n.Right} {
			if err := c.chainOperands(side, n.Operator, negate, &ops); err != nil {
				return nil, err
			}
		}
		if ops[0].test != nil {
			if lead, k := leadGroup(ops, or); k < len(ops) {
				return leadThenRest(lead, groupTests(ops[k:], or), or), nil
			}
		}
		conds := groupTests(ops, or)
		if len(conds) == 1 {
			return conds[0], nil
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

// chainOperand is an operand of a chain: a test of a field of an item,
// or any other condition's closure.
type chainOperand struct {
	test *fieldTest
	cond boolEval
}

// chainOperands appends the operands of the logical operator op, in
// order, to ops: an operand that is op again (however deep behind
// aliasing lets and, with negate, a not of the other operator) joins the
// list. The operands are derefed, as booleanBinary's.
func (c *compiler) chainOperands(n ast.Node, op string, negate bool, ops *[]chainOperand) error {
	switch x := n.(type) {
	case *ast.PredicateNode:
		if c.chainable(x) {
			return c.chainOperands(x.Node, op, negate, ops)
		}
	case *ast.BinaryNode:
		if isLogical(x.Operator) && sameLogical(x.Operator, op) && c.chainable(x) {
			if err := c.chainOperands(x.Left, op, negate, ops); err != nil {
				return err
			}
			return c.chainOperands(x.Right, op, negate, ops)
		}
	case *ast.VariableDeclaratorNode:
		if c.chainable(x) {
			value, err := c.compile(x.Value)
			if err != nil {
				return err
			}
			c.lets = append(c.lets, c.aliasVar(x, value))
			err = c.chainOperands(x.Expr, op, negate, ops)
			c.lets = c.lets[:len(c.lets)-1]
			return err
		}
	}
	if !c.chainable(n) {
		if t, ok := c.fieldTestOf(n, negate); ok {
			*ops = append(*ops, chainOperand{test: &t})
			return nil
		}
	} else if t, ok, err := c.subgroupOf(n, negate); ok || err != nil {
		if err != nil {
			return err
		}
		*ops = append(*ops, chainOperand{test: &t})
		return nil
	}
	b, err := c.chainOf(n, true, negate)
	if err != nil {
		return err
	}
	*ops = append(*ops, chainOperand{cond: b})
	return nil
}

// subgroupOf is a chainable n that is a test of a field of an item
// behind nots and aliasing lets (`not out_of_action(#)`), or whose chain
// is of such tests of one item alone (`not is_wrecked(#)`: `#.kind !=
// "vehicle" or #.secondary != "wrecked"`), as one test (for a chain, of
// kind testSub). In a chain, it joins the group of the tests of the same
// item around it instead of cutting it in two. ok is false for any
// other n.
func (c *compiler) subgroupOf(n ast.Node, negate bool) (fieldTest, bool, error) {
	if !c.chainable(n) {
		t, ok := c.fieldTestOf(n, negate)
		return t, ok, nil
	}
	switch x := n.(type) {
	case *ast.PredicateNode:
		return c.subgroupOf(x.Node, negate)
	case *ast.UnaryNode: // as chainShape
		return c.subgroupOf(x.Node, !negate)
	case *ast.VariableDeclaratorNode:
		value, err := c.compile(x.Value)
		if err != nil {
			return fieldTest{}, false, err
		}
		c.lets = append(c.lets, c.aliasVar(x, value))
		defer func() { c.lets = c.lets[:len(c.lets)-1] }()
		return c.subgroupOf(x.Expr, negate)
	case *ast.BinaryNode:
		or := (x.Operator == "or" || x.Operator == "||") != negate
		var ops []chainOperand
		for _, side := range [2]ast.Node{x.Left, x.Right} {
			if err := c.chainOperands(side, x.Operator, negate, &ops); err != nil {
				return fieldTest{}, false, err
			}
		}
		sub := &testSubgroup{or: or}
		for _, op := range ops {
			if op.test == nil || op.test.at != ops[0].test.at || op.test.want != ops[0].test.want {
				return fieldTest{}, false, nil
			}
			sub.tests = append(sub.tests, *op.test)
		}
		first := ops[0].test
		return fieldTest{kind: testSub, at: first.at, want: first.want, sub: sub}, true, nil
	}
	return fieldTest{}, false, nil
}

// testSubgroup is a testSub's tests, and whether they are or-ed (else
// and-ed).
type testSubgroup struct {
	tests []fieldTest
	or    bool
}

// groupTests makes the closures of a chain's operands: a run of tests of
// fields of one item is one closure, which checks the item once (where
// the first of them would fail, the group fails: they all read it).
func groupTests(ops []chainOperand, or bool) []boolEval {
	var conds []boolEval
	for i := 0; i < len(ops); {
		if ops[i].test == nil {
			conds = append(conds, ops[i].cond)
			i++
			continue
		}
		tests, n := leadGroup(ops[i:], or)
		i += n
		if len(tests) == 1 {
			conds = append(conds, tests[0].closure())
			continue
		}
		conds = append(conds, testGroup(tests, or))
	}
	return conds
}

// leadGroup is the tests of one item that ops start with (ops[0] is a
// test), less those dropImplied leaves out, and how many operands they
// were.
func leadGroup(ops []chainOperand, or bool) (tests []fieldTest, n int) {
	first := ops[0].test
	for ; n < len(ops) && ops[n].test != nil && ops[n].test.at == first.at && ops[n].test.want == first.want; n++ {
		tests = append(tests, *ops[n].test)
	}
	if !or {
		tests = dropImplied(tests)
	}
	return tests, n
}

// leadThenRest is a chain that starts with tests of one item, run in
// the chain's own closure (testGroup's, written out: the chain runs for
// every item of a predicate, and the group's call was a tenth of it),
// then the rest of its operands.
func leadThenRest(lead []fieldTest, rest []boolEval, or bool) boolEval {
	at, want := lead[0].at, lead[0].want
	lead = slices.Clip(lead)
	return func(fr *frame) (bool, error) {
		e := (*eface)(unsafe.Pointer(&fr.items[at]))
		if e.typ != want || e.data == nil {
			return false, errFailed // as the field's getter: the VM decides
		}
		if runTests(lead, e.data, or) == or {
			return or, nil
		}
		for _, cond := range rest {
			if a, err := cond(fr); err != nil || a == or {
				return a, err
			}
		}
		return !or, nil
	}
}

// dropImplied leaves out of an and-ed group of tests of one item those
// the tests before them decide true: once `#.status == "standing"` has
// held, `#.status != "out_of_action"` holds too, and once `#.kind ==
// "fighter"` has, so does `not is_wrecked(#)` (`#.kind != "vehicle" or
// …`). Inlined functions repeat such tests (is_fighter(#) and
// on_battlefield(#)). A test is reached only where all before it held,
// and tests read the item and nothing else, so what is left gives the
// same outcome; the first test, which no test precedes, stays, and the
// group still checks its item.
func dropImplied(tests []fieldTest) []fieldTest {
	equal := map[uintptr]string{} // the text fields known equal to a literal, by offset
	// holds is whether the facts so far decide t true.
	var holds func(t *fieldTest) bool
	holds = func(t *fieldTest) bool {
		switch t.kind {
		case testStrEq:
			s, known := equal[t.off]
			return known && (s == t.lit.s) != t.negate
		case testSub:
			if !t.sub.or || t.negate {
				return false
			}
			for i := range t.sub.tests {
				if holds(&t.sub.tests[i]) {
					return true // one or-ed test holds
				}
			}
		}
		return false
	}
	out := tests[:0:0]
	for i := range tests {
		t := &tests[i]
		if i > 0 && holds(t) {
			continue
		}
		out = append(out, *t)
		if t.kind == testStrEq && !t.negate {
			if _, known := equal[t.off]; !known {
				equal[t.off] = t.lit.s
			}
		}
	}
	return out
}

// testGroup runs tests of fields of one item in order until one settles
// the chain (a false one for and, a true one for or).
func testGroup(tests []fieldTest, or bool) boolEval {
	at, want := tests[0].at, tests[0].want
	tests = slices.Clip(tests)
	return func(fr *frame) (bool, error) {
		e := (*eface)(unsafe.Pointer(&fr.items[at]))
		if e.typ != want || e.data == nil {
			return false, errFailed // as the field's getter: the VM decides
		}
		return runTests(tests, e.data, or), nil
	}
}

// runTests is the outcome of tests, and-ed or or-ed, of the item at
// data, which is of their type and not nil.
func runTests(tests []fieldTest, data unsafe.Pointer, or bool) bool {
	for i := range tests {
		// fieldTest.on, written out: a call per test was a third of a
		// group's instructions.
		t := &tests[i]
		p := unsafe.Add(data, t.off)
		var v bool
		switch t.kind {
		case testStrEq:
			v = t.lit.equals(*(*string)(p))
		case testBool:
			v = *(*bool)(p)
		case testStrIn:
			v = slices.Contains(*(*[]string)(p), t.lit.s)
		case testSub:
			v = runTests(t.sub.tests, data, t.sub.or)
		default:
			v = t.cmp.test(*(*int)(p), t.n)
		}
		if v != t.negate == or {
			return or
		}
	}
	return !or
}

func sameLogical(a, b string) bool {
	return (a == "or" || a == "||") == (b == "or" || b == "||")
}

// fieldTest is a test of a field of a predicate's item: a string
// against a literal, a bool, a literal in a list of strings, an int
// against a literal.
type fieldTest struct {
	kind   fieldTestKind
	at     int            // the item's index in the frame's items
	want   unsafe.Pointer // the item's type word
	off    uintptr        // the field's offset in the item
	lit    textLiteral
	n      int
	cmp    intCmp
	negate bool // the test is true where the field's is false
	sub    *testSubgroup
}

type fieldTestKind uint8

const (
	testStrEq fieldTestKind = iota
	testBool
	testStrIn
	testIntCmp
	testSub // the outcome of sub's tests of the same item (off 0)
)

// on is the test of the item at p.
func (t *fieldTest) on(p unsafe.Pointer) bool {
	if t.kind == testSub {
		return runTests(t.sub.tests, p, t.sub.or) != t.negate
	}
	p = unsafe.Add(p, t.off)
	var v bool
	switch t.kind {
	case testStrEq:
		v = t.lit.equals(*(*string)(p))
	case testBool:
		v = *(*bool)(p)
	case testStrIn:
		v = slices.Contains(*(*[]string)(p), t.lit.s)
	default:
		v = t.cmp.test(*(*int)(p), t.n)
	}
	return v != t.negate
}

// closure is the test as a closure of its own. It fails where the
// field's getter fails (the item nil, or not of the checked type: the VM
// decides).
func (t fieldTest) closure() boolEval {
	at, want, off, negate := t.at, t.want, t.off, t.negate
	switch t.kind {
	case testStrEq:
		lit := t.lit
		return func(fr *frame) (bool, error) {
			e := (*eface)(unsafe.Pointer(&fr.items[at]))
			if e.typ != want || e.data == nil {
				return false, errFailed
			}
			return lit.equals(*(*string)(unsafe.Add(e.data, off))) != negate, nil
		}
	case testBool:
		return func(fr *frame) (bool, error) {
			e := (*eface)(unsafe.Pointer(&fr.items[at]))
			if e.typ != want || e.data == nil {
				return false, errFailed
			}
			return *(*bool)(unsafe.Add(e.data, off)) != negate, nil
		}
	}
	return func(fr *frame) (bool, error) {
		e := (*eface)(unsafe.Pointer(&fr.items[at]))
		if e.typ != want || e.data == nil {
			return false, errFailed
		}
		return t.on(e.data), nil
	}
}

// itemTest is n as one closure testing a field of a predicate's item,
// negated where negate says (fieldTestOf); ok is false for any other n.
func (c *compiler) itemTest(n ast.Node, negate bool) (boolEval, bool) {
	t, ok := c.fieldTestOf(n, negate)
	if !ok {
		return nil, false
	}
	return t.closure(), true
}

// fieldTestOf is n as a fieldTest, negated where negate says; ok is
// false where n is not one.
func (c *compiler) fieldTestOf(n ast.Node, negate bool) (fieldTest, bool) {
	if p, isPred := n.(*ast.PredicateNode); isPred && isKind(n, reflect.Bool) {
		return c.fieldTestOf(p.Node, negate)
	}
	if !isKind(n, reflect.Bool) {
		return fieldTest{}, false
	}
	switch n := n.(type) {
	case *ast.MemberNode:
		if at, want, off, ok := c.itemField(n, reflect.TypeFor[bool]()); ok {
			return fieldTest{kind: testBool, at: at, want: want, off: off, negate: negate}, true
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
					return fieldTest{kind: testStrEq, at: at, want: want, off: off, lit: newTextLiteral(lit.Value),
						negate: negate != (n.Operator == "!=")}, true
				}
			}
		case "in":
			lit, isLit := n.Left.(*ast.StringNode)
			if !isLit || !isKind(n.Left, reflect.String) {
				break
			}
			if at, want, off, ok := c.itemField(n.Right, reflect.TypeFor[[]string]()); ok {
				return fieldTest{kind: testStrIn, at: at, want: want, off: off, lit: textLiteral{s: lit.Value}, negate: negate}, true
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
				return fieldTest{kind: testIntCmp, at: at, want: want, off: off, n: lit.Value, cmp: cmp, negate: negate}, true
			}
		}
	}
	return fieldTest{}, false
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
