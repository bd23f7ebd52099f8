package fastexpr

import (
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/vm/runtime"

	"github.com/expr-lang/expr/ast"
)

// predicate compiles any/all/none/one/filter/map/count: the list, then the
// body with # bound to each item in turn, one predicate deeper.
func (c *compiler) predicate(n *ast.BuiltinNode) (eval, error) {
	if len(n.Arguments) != 2 && !((n.Name == "count" || n.Name == "sum") && len(n.Arguments) == 1) {
		return nil, unsupported("%s with %d arguments", n.Name, len(n.Arguments))
	}
	if n.Map != nil && n.Name != "filter" && n.Name != "find" {
		return nil, unsupported("%s with a folded map", n.Name)
	}
	if n.Threshold != nil && n.Name != "count" {
		return nil, unsupported("%s with a threshold", n.Name)
	}
	list, err := c.listOperand(n.Arguments[0])
	if err != nil {
		return nil, err
	}
	if c.depth >= maxPredicateDepth {
		return nil, unsupported("predicates nested deeper than %d", maxPredicateDepth)
	}
	c.depth++
	c.maxDepth = max(c.maxDepth, c.depth)
	defer func() { c.depth-- }()
	at := c.depth - 1
	var body, mapped eval
	if len(n.Arguments) == 2 {
		if body, err = c.compile(n.Arguments[1]); err != nil {
			return nil, err
		}
	} else {
		body = func(fr *frame) (any, error) { return fr.items[at], nil } // count(list): the items are the bools
	}
	if n.Map != nil {
		if mapped, err = c.compile(n.Map); err != nil {
			return nil, err
		}
	}
	name, threshold, throws := n.Name, -1, n.Throws
	if n.Threshold != nil {
		threshold = *n.Threshold
	}
	return func(fr *frame) (any, error) {
		items, err := list(fr)
		if err != nil {
			return nil, err
		}
		var out []any
		count := 0
		var acc any = 0
		for i := 0; i < items.len; i++ {
			item := items.at(i)
			fr.items[at] = item
			v, err := body(fr)
			if err != nil {
				return nil, err
			}
			switch name {
			case "map":
				if out == nil {
					out = make([]any, 0, items.len) // one list, of its final length
				}
				out = append(out, v)
				continue
			case "sum":
				acc = runtime.Add(v, acc) // the VM's OpAdd of the item and the sum so far
				continue
			}
			b, ok := v.(bool)
			if !ok {
				return nil, errFailed // the VM's jump asserts a bool
			}
			switch name {
			case "any":
				if b {
					return true, nil
				}
			case "all":
				if !b {
					return false, nil
				}
			case "none":
				if b {
					return false, nil
				}
			case "one":
				if b {
					count++
				}
			case "count":
				if b {
					count++
					if threshold >= 0 && count >= threshold {
						return count, nil
					}
				}
			case "find":
				if b {
					if mapped != nil {
						return mapped(fr)
					}
					return item, nil
				}
			case "findIndex":
				if b {
					return i, nil
				}
			case "filter":
				if b {
					if out == nil {
						// Room for a few at once: growing one by one
						// was most of a run's lists.
						out = make([]any, 0, min(items.len-i, 8))
					}
					count++
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
		}
		switch name {
		case "any":
			return false, nil
		case "all", "none":
			return true, nil
		case "one":
			return count == 1, nil
		case "count":
			return count, nil
		case "sum":
			return acc, nil
		case "find", "findIndex":
			if throws && name == "find" {
				return nil, errFailed // filter(…)[0] of nothing: the VM's index error
			}
			return nil, nil
		}
		// filter and map build a list, which the VM counts against its
		// memory budget (OpArray).
		if err := fr.grow(len(out)); err != nil {
			return nil, err
		}
		if out == nil {
			out = []any{}
		}
		return out, nil
	}, nil
}

// items is a list the VM can loop over (its OpBegin): the common slices
// directly, a slice of pointers (the state's lists of models, weapons,
// gangs; features()) by the address of its elements, any other slice or
// array by reflection.
type items struct {
	len  int
	anys []any
	// ptrs is the first element of a slice of pointers, elem the type
	// word of its elements: item i is an interface made of the two, as
	// reflect.Value.Interface makes it, without reflection.
	ptrs unsafe.Pointer
	elem unsafe.Pointer
	refl reflect.Value
}

func (it *items) at(i int) any {
	if it.anys != nil {
		return it.anys[i]
	}
	if it.elem != nil {
		var v any
		e := (*eface)(unsafe.Pointer(&v))
		e.typ, e.data = it.elem, *(*unsafe.Pointer)(unsafe.Add(it.ptrs, uintptr(i)*unsafe.Sizeof(uintptr(0))))
		return v
	}
	return it.refl.Index(i).Interface()
}

func itemsOf(v any) (items, error) {
	if a, ok := v.([]any); ok {
		return items{len: len(a), anys: a}, nil
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
