package fastexpr

import (
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// member is x.field or x[i]. A field of a struct behind a pointer is read
// by a getter resolved now (fields.go); anything else (maps such as
// natural.ROLL, list indexes, untyped values) goes through expr's own
// runtime.Fetch, which is what the VM runs.
func (c *compiler) member(n *ast.MemberNode) (eval, error) {
	if n.Optional {
		return nil, unsupported("?.")
	}
	if n.Method {
		return nil, unsupported("method value")
	}
	// A string field is boxed in the frame's slab: names and ids read
	// for lists (map(models, .id)) were most of the boxes made.
	if root, addr, ft, ok := fieldAddress(n); ok && ft == reflect.TypeFor[string]() {
		base, err := c.compile(root)
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (any, error) {
			v, err := base(fr)
			if err != nil {
				return nil, err
			}
			p := addr(v)
			if p == nil {
				return nil, errFailed // as fieldGetter's
			}
			return fr.boxString(*(*string)(p)), nil
		}, nil
	}
	// So is a list field's header (m.conditions, g.models, read as a
	// value): every slice has the layout of a []unsafe.Pointer, which
	// the slab boxes, given the field's type word (as fillCall does).
	if root, addr, ft, ok := fieldAddress(n); ok && ft.Kind() == reflect.Slice {
		base, err := c.compile(root)
		if err != nil {
			return nil, err
		}
		typ := typeWord(ft)
		return func(fr *frame) (any, error) {
			v, err := base(fr)
			if err != nil {
				return nil, err
			}
			p := addr(v)
			if p == nil {
				return nil, errFailed // as fieldGetter's
			}
			b := fr.ptrLists.Box(*(*[]unsafe.Pointer)(p))
			(*eface)(unsafe.Pointer(&b)).typ = typ
			return b, nil
		}, nil
	}
	if root, get, ok := fieldGetter(n); ok {
		base, err := c.compile(root)
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (any, error) {
			v, err := base(fr)
			if err != nil {
				return nil, err
			}
			return get(v)
		}, nil
	}
	base, err := c.compile(n.Node)
	if err != nil {
		return nil, err
	}
	if bt := n.Node.Type(); bt != nil {
		if prop, ok := n.Property.(*ast.StringNode); ok && hasMethod(bt, prop.Value) {
			return nil, unsupported("method %s", prop.Value)
		}
	}
	prop, err := c.compile(n.Property)
	if err != nil {
		return nil, err
	}
	if needsDeref(n.Property) && !mapKeyFits(n) {
		p := prop
		prop = func(fr *frame) (any, error) {
			v, err := p(fr)
			if err != nil {
				return nil, err
			}
			return derefValue(v)
		}
	}
	return func(fr *frame) (any, error) {
		from, err := base(fr)
		if err != nil {
			return nil, err
		}
		i, err := prop(fr)
		if err != nil {
			return nil, err
		}
		if key, ok := i.(string); ok {
			// The maps of the environment (natural, rolled, a frame's
			// tables), read as runtime.Fetch reads them (a missing key is
			// the zero value) without its reflection.
			switch m := from.(type) {
			case map[string]int:
				return m[key], nil
			case map[string][]int:
				return m[key], nil
			case map[string]any:
				return m[key], nil
			}
		}
		return runtime.Fetch(from, i), nil // panics (the VM's errors) are caught by Compile's closure
	}, nil
}

// slice is list[from:to], either bound optional, by expr's runtime.Slice.
func (c *compiler) slice(n *ast.SliceNode) (eval, error) {
	list, err := c.compile(n.Node)
	if err != nil {
		return nil, err
	}
	var from, to eval
	if n.To != nil {
		if to, err = c.operand(n.To); err != nil {
			return nil, err
		}
	}
	if n.From != nil {
		if from, err = c.operand(n.From); err != nil {
			return nil, err
		}
	}
	return func(fr *frame) (any, error) {
		l, err := list(fr)
		if err != nil {
			return nil, err
		}
		var hi, lo any = nil, 0
		if to != nil {
			if hi, err = to(fr); err != nil {
				return nil, err
			}
		} else {
			hi = runtime.Len(l)
		}
		if from != nil {
			if lo, err = from(fr); err != nil {
				return nil, err
			}
		}
		return runtime.Slice(l, lo, hi), nil
	}, nil
}

// mapKeyFits says the property is used as a map key as it is, without
// dereferencing, as expr's compiler decides it.
func mapKeyFits(n *ast.MemberNode) bool {
	bt, pt := n.Node.Type(), n.Property.Type()
	return bt != nil && bt.Kind() == reflect.Map && pt != nil && pt.AssignableTo(bt.Key())
}

func hasMethod(t reflect.Type, name string) bool {
	if _, ok := t.MethodByName(name); ok {
		return true
	}
	if t.Kind() == reflect.Pointer {
		_, ok := t.Elem().MethodByName(name)
		return ok
	}
	return false
}
