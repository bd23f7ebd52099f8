package interpreter

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file writes the fields of the state the way hand-written Go does:
// the field a `set`, `add` or `remove` names is resolved once per
// statement to an offset from the object its path starts at, and each run
// checks that object's dynamic type with one comparison and stores with a
// typed store. Paths that go through a pointer (a.b.c where b is one),
// fields of other types and values that need converting take the
// reflection path (fieldOf, convertTo), which stays the reference.

// eface is the layout of an interface value with no methods (any).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// setterKind is the type of a field a typed setter writes.
type setterKind uint8

const (
	setInt setterKind = iota + 1
	setString
	setBool
	setFloat
	setStrings // []string: the lists add and remove edit
)

// fieldSetter is a resolved path: the root object's pointer type (its
// type word), the field's offset from it, and its type.
type fieldSetter struct {
	root   unsafe.Pointer
	offset uintptr
	kind   setterKind
	row    bool // a list of rows (munda:"row"): add keeps repeats
}

// addr is the field's address in obj, nil when obj is not of the type
// the setter was resolved for (or is nil): then reflection decides.
func (fs *fieldSetter) addr(obj any) unsafe.Pointer {
	e := (*eface)(unsafe.Pointer(&obj))
	if fs == nil || e.typ != fs.root || e.data == nil {
		return nil
	}
	return unsafe.Add(e.data, fs.offset)
}

// setters caches the resolved path of each statement that writes a
// field, by the path's syntax node; a nil entry means the path has no
// typed setter. Programs are shared between goroutines (odds run on
// every core), hence the sync.Map.
type setters struct{ m sync.Map } // *syntax.Path → *fieldSetter

// setterKinds are the field types with typed stores.
var setterKinds = map[reflect.Type]setterKind{
	reflect.TypeOf(0):          setInt,
	reflect.TypeOf(""):         setString,
	reflect.TypeOf(false):      setBool,
	reflect.TypeOf(0.0):        setFloat,
	reflect.TypeOf([]string{}): setStrings,
}

// setterFor is the typed setter of path (whose first part names obj), or
// nil when it has none. It is resolved on first use, for obj's type.
func (s *setters) setterFor(path *syntax.Path, obj any) *fieldSetter {
	if v, ok := s.m.Load(path); ok {
		fs, _ := v.(*fieldSetter)
		return fs
	}
	if obj == nil {
		return nil // no type to resolve for yet
	}
	fs := resolveSetter(path.Parts[1:], obj)
	s.m.Store(path, fs)
	return fs
}

// resolveSetter follows fields by their expr names from a pointer to a
// struct through structs held by value, to a field of a setter kind.
func resolveSetter(parts []*syntax.Ident, obj any) *fieldSetter {
	t := reflect.TypeOf(obj)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || len(parts) == 0 {
		return nil
	}
	fs := &fieldSetter{root: (*eface)(unsafe.Pointer(&obj)).typ}
	st := t.Elem()
	for i, p := range parts {
		if st.Kind() != reflect.Struct {
			return nil
		}
		idx, ok := fieldIndex(st, p.Name)
		if !ok || len(idx) != 1 {
			return nil
		}
		f := st.Field(idx[0])
		fs.offset += f.Offset
		if i == len(parts)-1 {
			kind, ok := setterKinds[f.Type]
			if !ok {
				return nil
			}
			// As listEdit asks of the holder, which is obj here.
			fs.kind, fs.row = kind, isRowList(obj, p.Name)
			return fs
		}
		st = f.Type
	}
	return nil
}

// setTyped does a `set` of a field with its typed setter, reporting
// whether it did: false leaves it to the reflection path (no setter, an
// object of another type, a value that needs converting or is wrong,
// whose error that path gives).
func (r *runner) setTyped(f *frame, s *syntax.Set, pl *stmtPlan, obj, v any) (bool, error) {
	fs := r.setterOf(pl, s.Target, obj)
	p := fs.addr(obj)
	if p == nil {
		return false, nil
	}
	var old, nv any
	// A replaced string is boxed only where it is used (a marker's
	// restore, the log): a run without a log sets strings without garbage.
	var oldString string
	boxOld := false
	switch fs.kind {
	case setInt:
		n, ok := v.(int)
		if !ok {
			return false, nil
		}
		o := (*int)(p)
		if *o == n {
			return true, nil
		}
		old, nv, *o = *o, n, n
	case setString:
		x, ok := v.(string)
		if !ok {
			return false, nil
		}
		o := (*string)(p)
		if *o == x {
			return true, nil
		}
		if err := r.spend(len(x)); err != nil {
			return true, err
		}
		oldString, nv, *o = *o, v, x
		boxOld = true
	case setBool:
		x, ok := v.(bool)
		if !ok {
			return false, nil
		}
		o := (*bool)(p)
		if *o == x {
			return true, nil
		}
		old, nv, *o = *o, x, x
	case setFloat:
		x, ok := v.(float64)
		if !ok {
			return false, nil
		}
		o := (*float64)(p)
		if *o == x {
			return true, nil
		}
		old, nv, *o = *o, x, x
	case setStrings:
		return r.setStrings(obj, (*[]string)(p), v)
	default:
		return false, nil
	}
	if boxOld {
		if _, marker := obj.(*state.Marker); marker || r.logging() {
			old = oldString
		}
	}
	if _, ok := obj.(*state.Marker); ok {
		if err := markersError(r.st); err != nil {
			restore(fs.kind, p, old)
			return true, r.errorAt(f, diag.CodeRunState, spanOf(s), fmt.Errorf("set %s: %v", s.Target, err))
		}
	}
	if !r.logging() {
		return true, r.count()
	}
	return true, r.logSet(f, s, obj, old, nv)
}

// setStrings is setTyped of a list of text (model.marks = filter(…)):
// as the reflective set converts it (a list of text as it is, any other
// list item by item, in the run's slab as a list edit's), where nothing
// is logged and no marker is checked; false leaves anything else to it.
func (r *runner) setStrings(obj any, o *[]string, v any) (bool, error) {
	if _, marker := obj.(*state.Marker); marker || r.logging() {
		return false, nil
	}
	var list []string
	switch x := v.(type) {
	case nil:
	case []string:
		list = x
	case []any:
		list = r.mem.strsOf(len(x))
		for i, item := range x {
			s, ok := item.(string)
			if !ok {
				return false, nil // the reflective set says why
			}
			list[i] = s
		}
	default:
		return false, nil
	}
	if slices.Equal(*o, list) {
		return true, nil // nothing changes (two empty lists, nil or not, too)
	}
	size := 0
	for _, s := range list {
		size += len(s)
	}
	if err := r.spend(size); err != nil {
		return true, err
	}
	*o = list
	return true, r.count()
}

// restore puts back the value a typed store replaced.
func restore(kind setterKind, p unsafe.Pointer, old any) {
	switch kind {
	case setInt:
		*(*int)(p) = old.(int)
	case setString:
		*(*string)(p) = old.(string)
	case setBool:
		*(*bool)(p) = old.(bool)
	case setFloat:
		*(*float64)(p) = old.(float64)
	}
}
