package fastexpr

import (
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/vm/runtime"

	"github.com/expr-lang/expr/ast"
)

// predicateKind is a predicate's name, resolved when it is compiled.
type predicateKind int

const (
	predAny predicateKind = iota
	predAll
	predNone
	predOne
	predCount
	predFind
	predFindIndex
	predFilter
	predMap
	predSum
)

var predicateKinds = map[string]predicateKind{
	"any": predAny, "all": predAll, "none": predNone, "one": predOne, "count": predCount,
	"find": predFind, "findIndex": predFindIndex, "filter": predFilter, "map": predMap, "sum": predSum,
}

// compiledPredicate is a predicate's parts, compiled.
type compiledPredicate struct {
	kind      predicateKind
	list      listEval
	at        int      // the item's index in the frame
	test      boolEval // the body, where it is a condition (not map, sum)
	body      eval     // the body, for map and sum
	mapped    eval     // filter's or find's folded map, or nil
	match     *keyMatch
	threshold int
	throws    bool
}

// predicateParts compiles any/all/none/one/filter/map/count/…: the list,
// then the body with # bound to each item in turn, one predicate deeper.
func (c *compiler) predicateParts(n *ast.BuiltinNode) (*compiledPredicate, error) {
	kind, known := predicateKinds[n.Name]
	if !known {
		return nil, unsupported("predicate %s", n.Name)
	}
	if len(n.Arguments) != 2 && !((kind == predCount || kind == predSum) && len(n.Arguments) == 1) {
		return nil, unsupported("%s with %d arguments", n.Name, len(n.Arguments))
	}
	if n.Map != nil && kind != predFilter && kind != predFind {
		return nil, unsupported("%s with a folded map", n.Name)
	}
	if n.Threshold != nil && kind != predCount {
		return nil, unsupported("%s with a threshold", n.Name)
	}
	list, filled, err := c.fillOperand(n.Arguments[0], c.depth)
	if !filled && err == nil {
		list, err = c.listOperand(n.Arguments[0])
	}
	if err != nil {
		return nil, err
	}
	if c.depth >= maxPredicateDepth {
		return nil, unsupported("predicates nested deeper than %d", maxPredicateDepth)
	}
	c.depth++
	c.maxDepth = max(c.maxDepth, c.depth)
	defer func() { c.depth-- }()
	p := &compiledPredicate{kind: kind, list: list, at: c.depth - 1, threshold: -1, throws: n.Throws}
	at := p.at
	switch {
	case len(n.Arguments) == 1 && kind == predCount: // count(list): the items are the bools
		p.test = func(fr *frame) (bool, error) {
			b, ok := fr.items[at].(bool)
			if !ok {
				return false, errFailed // the VM's jump asserts a bool
			}
			return b, nil
		}
	case len(n.Arguments) == 1: // sum(list)
		p.body = func(fr *frame) (any, error) { return fr.items[at], nil }
	case kind == predMap || kind == predSum:
		if p.body, err = c.compile(n.Arguments[1]); err != nil {
			return nil, err
		}
	default:
		if p.test, err = c.condition(n.Arguments[1], false); err != nil {
			return nil, err
		}
		p.match = c.keyMatchOf(n.Arguments[1])
	}
	if n.Map != nil {
		if p.mapped, err = c.compile(n.Map); err != nil {
			return nil, err
		}
	}
	if n.Threshold != nil {
		p.threshold = *n.Threshold
	}
	return p, nil
}

// quantifier is any, all, none or one, typed bool.
func (c *compiler) quantifier(n *ast.BuiltinNode) (boolEval, error) {
	p, err := c.predicateParts(n)
	if err != nil {
		return nil, err
	}
	list, test, at, kind := p.list, p.test, p.at, p.kind
	// stopOn is the body's value that settles the answer at once.
	stopOn := kind == predAny || kind == predNone
	match := p.match
	return func(fr *frame) (bool, error) {
		items, err := list(fr)
		if err != nil {
			return false, err
		}
		key := keyState{match: match}
		count := 0
		for i := 0; i < items.len; i++ {
			var item any
			if items.elem != nil {
				item = items.ptrAt(i)
			} else {
				item = items.other(fr, i)
			}
			fr.items[at] = item
			var b, ok bool
			if match != nil { // the check is a call: most predicates have none
				if b, ok, err = key.test(fr, item); err != nil {
					return false, err
				}
			}
			if !ok {
				if b, err = test(fr); err != nil {
					return false, err
				}
			}
			switch kind {
			case predOne:
				if b {
					count++
				}
			default:
				if b == stopOn {
					return kind == predAny, nil // any: true; all, none: false
				}
			}
		}
		if kind == predOne {
			return count == 1, nil
		}
		return kind != predAny, nil
	}, nil
}

// predicate compiles any predicate as an untyped closure.
func (c *compiler) predicate(n *ast.BuiltinNode) (eval, error) {
	if kind, known := predicateKinds[n.Name]; known && kind <= predOne && n.Map == nil && n.Threshold == nil && len(n.Arguments) == 2 {
		b, err := c.quantifier(n)
		if err != nil {
			return nil, err
		}
		return c.boolAsAny(n, b), nil
	}
	p, err := c.predicateParts(n)
	if err != nil {
		return nil, err
	}
	list, test, body, mapped, at, kind := p.list, p.test, p.body, p.mapped, p.at, p.kind
	threshold, throws, match := p.threshold, p.throws, p.match
	switch kind {
	case predMap:
		return func(fr *frame) (any, error) {
			items, err := list(fr)
			if err != nil {
				return nil, err
			}
			var out []any
			if items.len > 0 {
				out = fr.list(items.len)[:0] // one list, of its final length
			}
			for i := 0; i < items.len; i++ {
				fr.items[at] = items.at(fr, i)
				v, err := body(fr)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			// map builds a list, which the VM counts against its memory
			// budget (OpArray).
			if err := fr.grow(len(out)); err != nil {
				return nil, err
			}
			if out == nil {
				out = []any{}
			}
			return fr.boxList(out), nil
		}, nil
	case predSum:
		return func(fr *frame) (any, error) {
			items, err := list(fr)
			if err != nil {
				return nil, err
			}
			var acc any = 0
			for i := 0; i < items.len; i++ {
				fr.items[at] = items.at(fr, i)
				v, err := body(fr)
				if err != nil {
					return nil, err
				}
				acc = runtime.Add(v, acc) // the VM's OpAdd of the item and the sum so far
			}
			return acc, nil
		}, nil
	}
	return func(fr *frame) (any, error) {
		items, err := list(fr)
		if err != nil {
			return nil, err
		}
		// A filter's items are gathered on the stack, then copied into a
		// list of their number: no list grown, no room left unused.
		var small [16]any
		out := small[:0]
		count := 0
		key := keyState{match: match}
		for i := 0; i < items.len; i++ {
			var item any
			if items.elem != nil {
				item = items.ptrAt(i)
			} else {
				item = items.other(fr, i)
			}
			fr.items[at] = item
			var b, ok bool
			if match != nil { // as in quantifier
				if b, ok, err = key.test(fr, item); err != nil {
					return nil, err
				}
			}
			if !ok {
				if b, err = test(fr); err != nil {
					return nil, err
				}
			}
			if !b {
				continue
			}
			switch kind {
			case predCount:
				count++
				if threshold >= 0 && count >= threshold {
					return count, nil
				}
			case predFind:
				if mapped != nil {
					return mapped(fr)
				}
				return item, nil
			case predFindIndex:
				return i, nil
			case predFilter:
				if mapped != nil {
					m, err := mapped(fr)
					if err != nil {
						return nil, err
					}
					out = append(out, m)
				} else {
					out = append(out, item)
				}
			}
		}
		switch kind {
		case predCount:
			return count, nil
		case predFind, predFindIndex:
			if throws && kind == predFind {
				return nil, errFailed // filter(…)[0] of nothing: the VM's index error
			}
			return nil, nil
		}
		// filter builds a list, which the VM counts against its memory
		// budget (OpArray).
		if err := fr.grow(len(out)); err != nil {
			return nil, err
		}
		list := fr.list(len(out))
		copy(list, out)
		return fr.boxList(list), nil
	}, nil
}

// items is a list the VM can loop over (its OpBegin): the common slices
// directly, a slice of pointers (the state's lists of models, weapons,
// gangs; features()) by the address of its elements, any other slice or
// array by reflection.
type items struct {
	len  int
	anys []any
	// strs is a list of text (a menu, a model's marks), whose items are
	// boxed in the frame's slab rather than by reflection.
	strs []string
	// ptrs is the first element of a slice of pointers, elem the type
	// word of its elements: item i is an interface made of the two, as
	// reflect.Value.Interface makes it, without reflection.
	ptrs unsafe.Pointer
	elem unsafe.Pointer
	// skip, where it is not 0 or less, is one past the index of the
	// element of ptrs left out (a list view's: views.go).
	skip int
	refl reflect.Value
}

func (it *items) at(fr *frame, i int) any {
	if it.elem != nil {
		return it.ptrAt(i)
	}
	return it.other(fr, i)
}

// ptrAt is at for a list of pointers (elem set): small enough to be
// inlined into the predicates' loops, which mostly loop over such lists.
func (it *items) ptrAt(i int) any {
	if uint(i) >= uint(it.skip-1) {
		i++ // at or past the item left out (skip 0, none: uint(-1) is past every i)
	}
	e := eface{it.elem, *(*unsafe.Pointer)(unsafe.Add(it.ptrs, uintptr(i)*unsafe.Sizeof(uintptr(0))))}
	return *(*any)(unsafe.Pointer(&e))
}

// other is at for a list that is not of pointers.
func (it *items) other(fr *frame, i int) any {
	if it.anys != nil {
		return it.anys[i]
	}
	if it.strs != nil {
		return fr.boxString(it.strs[i])
	}
	return it.refl.Index(i).Interface()
}

func itemsOf(v any) (items, error) {
	switch a := v.(type) {
	case []any:
		return items{len: len(a), anys: a}, nil
	case []string:
		if a != nil {
			return items{len: len(a), strs: a}, nil
		}
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return items{}, errFailed // nil or a map: the VM decides
	}
	return items{len: rv.Len(), refl: rv}, nil
}

// listEval gives the items of a predicate's list.
type listEval func(fr *frame) (items, error)

// listOperand compiles a predicate's list. Where the checker typed it a
// slice of pointers, a value of exactly that type is looped over by its
// elements' addresses: a field of the state (gang.models) read at its
// offset, not boxed; a function's result (friends(m), features("action"))
// read from its interface. Anything else is the operand, by itemsOf.
func (c *compiler) listOperand(n ast.Node) (listEval, error) {
	t := n.Type()
	if t != nil && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Pointer && !needsDeref(n) {
		elem := typeWord(t.Elem())
		if view, ok, err := c.viewOperand(n, t); ok || err != nil {
			return view, err
		}
		if m, ok := n.(*ast.MemberNode); ok {
			if root, addr, ft, ok := fieldAddress(m); ok && ft == t {
				base, err := c.compile(root)
				if err != nil {
					return nil, err
				}
				return func(fr *frame) (items, error) {
					v, err := base(fr)
					if err != nil {
						return items{}, err
					}
					p := addr(v)
					if p == nil {
						return items{}, errFailed // as the field's getter: the VM decides
					}
					return pointerItems(p, elem), nil
				}, nil
			}
		}
		f, err := c.compile(n)
		if err != nil {
			return nil, err
		}
		want := typeWord(t)
		return func(fr *frame) (items, error) {
			v, err := f(fr)
			if err != nil {
				return items{}, err
			}
			if e := (*eface)(unsafe.Pointer(&v)); e.typ == want && e.data != nil {
				return pointerItems(e.data, elem), nil
			}
			return itemsOf(v)
		}, nil
	}
	f, err := c.operand(n)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (items, error) {
		v, err := f(fr)
		if err != nil {
			return items{}, err
		}
		return itemsOf(v)
	}, nil
}

// pointerItems are the items of the slice of pointers whose header is at
// p, elem the type word of its elements.
func pointerItems(p unsafe.Pointer, elem unsafe.Pointer) items {
	s := *(*[]unsafe.Pointer)(p)
	if len(s) == 0 {
		return items{}
	}
	return items{len: len(s), ptrs: unsafe.Pointer(unsafe.SliceData(s)), elem: elem}
}

// keyMatch is a predicate whose body is `.f == x` or `.f != x` (either
// way round): a string field of the item against a name (a parameter, a
// let) or a string, as `find(features("action"), .id == id)` looks an
// action up. The name is read once per run of the predicate, not once per
// item (reading a name has no effect and cannot fail), and the field is
// read at its offset in each item of the checked type; any other item
// runs the body.
type keyMatch struct {
	elem   unsafe.Pointer // the type word of the items read directly
	offset uintptr        // of the string field in them
	key    eval           // the name or string
	typed  bool           // key is checked a string (else the VM derefs it)
	negate bool
}

// keyState is a keyMatch during one run of its predicate: the key, read
// at the first item.
type keyState struct {
	match *keyMatch
	read  bool
	s     string
	isStr bool // the key's value is a string (else nothing equals it)
}

// test is the body's value for item: ok is false where the body must run.
func (k *keyState) test(fr *frame, item any) (b bool, ok bool, err error) {
	m := k.match
	if m == nil {
		return false, false, nil
	}
	e := (*eface)(unsafe.Pointer(&item))
	if e.typ != m.elem || e.data == nil {
		return false, false, nil // not the checked type, or nil: the body says (or fails)
	}
	if !k.read {
		v, err := m.key(fr)
		if err != nil {
			return false, false, err
		}
		k.read = true
		k.s, k.isStr = v.(string)
		if !k.isStr && m.typed {
			return false, false, errFailed // as stringOperand: the VM asserts a string
		}
		if !k.isStr {
			// As stringAnyEquality: the VM dereferences the untyped side.
			d, err := derefValue(v)
			if err != nil {
				return false, false, err
			}
			k.s, k.isStr = d.(string)
		}
	}
	field := *(*string)(unsafe.Add(e.data, m.offset))
	return (k.isStr && field == k.s) != m.negate, true, nil
}

// keyMatchOf recognises a keyMatch body, nil for any other.
func (c *compiler) keyMatchOf(body ast.Node) *keyMatch {
	if p, ok := body.(*ast.PredicateNode); ok {
		body = p.Node
	}
	bin, ok := body.(*ast.BinaryNode)
	if !ok || (bin.Operator != "==" && bin.Operator != "!=") {
		return nil
	}
	for _, sides := range [2][2]ast.Node{{bin.Left, bin.Right}, {bin.Right, bin.Left}} {
		member, ok := sides[0].(*ast.MemberNode)
		if !ok {
			continue
		}
		if p, ok := member.Node.(*ast.PointerNode); !ok || p.Name != "" {
			continue
		}
		_, ptr, offset, ft, ok := fieldPath(member)
		if !ok || ft != reflect.TypeFor[string]() || !isKind(member, reflect.String) {
			continue
		}
		other := sides[1]
		switch other.(type) {
		case *ast.IdentifierNode, *ast.StringNode:
		default:
			continue
		}
		typed := isKind(other, reflect.String)
		if !typed && !isKind(other, reflect.Interface) {
			continue
		}
		key, err := c.compile(other)
		if err != nil {
			return nil
		}
		return &keyMatch{elem: typeWord(ptr), offset: offset, key: key, typed: typed, negate: bin.Operator == "!="}
	}
	return nil
}
