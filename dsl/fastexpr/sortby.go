package fastexpr

import (
	"sort"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// sortBy is sortBy(list, key) and sortBy(list, key, "asc"|"desc"): the
// VM's own runtime.SortBy and sort.Sort (not stable) on the same items in
// the same order, so equal keys end in the same order as the VM leaves
// them. The sorted list counts against the memory budget.
func (c *compiler) sortBy(n *ast.BuiltinNode) (eval, error) {
	if len(n.Arguments) != 2 && len(n.Arguments) != 3 {
		return nil, unsupported("sortBy with %d arguments", len(n.Arguments))
	}
	list, err := c.operand(n.Arguments[0])
	if err != nil {
		return nil, err
	}
	order := constant("asc")
	if len(n.Arguments) == 3 {
		if order, err = c.compile(n.Arguments[2]); err != nil {
			return nil, err
		}
	}
	if c.depth >= maxPredicateDepth {
		return nil, unsupported("predicates nested deeper than %d", maxPredicateDepth)
	}
	c.depth++
	c.maxDepth = max(c.maxDepth, c.depth)
	at := c.depth - 1
	key, err := c.compile(n.Arguments[1])
	c.depth--
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		lv, err := list(fr)
		if err != nil {
			return nil, err
		}
		items, err := itemsOf(lv)
		if err != nil {
			return nil, err
		}
		o, err := order(fr)
		if err != nil {
			return nil, err
		}
		var desc bool
		switch o {
		case "asc":
		case "desc":
			desc = true
		default:
			return nil, errFailed // the VM panics: unknown order
		}
		// the list sorted and its keys, cut from the frame's slab
		s := runtime.SortBy{Desc: desc, Array: fr.list(items.len)[:0], Values: fr.list(items.len)[:0]}
		for i := 0; i < items.len; i++ {
			item := items.at(fr, i)
			fr.items[at] = item
			v, err := key(fr)
			if err != nil {
				return nil, err
			}
			s.Array = append(s.Array, item)
			s.Values = append(s.Values, v)
		}
		// Sorted in the frame's sorter, which sort.Sort may keep without
		// a new one per call; nothing sorting calls runs an expression.
		fr.sorter = s
		sort.Sort(&fr.sorter)
		s, fr.sorter = fr.sorter, runtime.SortBy{}
		if err := fr.grow(items.len); err != nil {
			return nil, err
		}
		return fr.boxList(s.Array), nil
	}, nil
}
