package fastexpr

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/expr-lang/expr/ast"
)

// A struct field is read the way hand-written Go reads it: the field's
// offset is found once, when the expression is compiled, and each run
// checks the value's dynamic type with one comparison and loads the field
// with a typed load. expr's VM instead walks the field path by reflection
// on every read (runtime.FetchField), which allocates for every int and
// string it boxes.

// eface is the layout of an interface value with no methods (any).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// typeWord is the type word an `any` holding a value of type t carries.
func typeWord(t reflect.Type) unsafe.Pointer {
	v := reflect.Zero(t).Interface()
	return (*eface)(unsafe.Pointer(&v)).typ
}

// fieldGetter resolves x.field where x's static type is a pointer to a
// struct with a field tagged `expr:"field"` (the state's types all are),
// and x.a.b where a is a struct held by value in such a struct
// (m.stats.ws). ok is false for anything else, which then goes through
// runtime.Fetch. root is the node whose value the getter takes.
func fieldGetter(n *ast.MemberNode) (root ast.Node, get func(v any) (any, error), ok bool) {
	root, addr, ft, ok := fieldAddress(n)
	if !ok {
		return nil, nil, false
	}
	load := loaderFor(ft)
	return root, func(v any) (any, error) {
		p := addr(v)
		if p == nil {
			return nil, errFailed // nil, or not the type the checker saw: the VM decides
		}
		return load(p), nil
	}, true
}

// fieldAddress is fieldGetter's address of the field, for typed reads
// that do not box the value (typed.go); addr gives nil where the VM would
// fail.
func fieldAddress(n *ast.MemberNode) (root ast.Node, addr func(v any) unsafe.Pointer, ft reflect.Type, ok bool) {
	root, ptr, offset, ft, ok := fieldPath(n)
	if !ok {
		return nil, nil, nil, false
	}
	want := typeWord(ptr)
	return root, func(v any) unsafe.Pointer {
		e := (*eface)(unsafe.Pointer(&v))
		if e.typ != want || e.data == nil {
			return nil
		}
		return unsafe.Add(e.data, offset)
	}, ft, true
}

// fieldPath finds the pointer at the root of a chain of field reads and
// the field's offset from it, as expr's compiler merges such a chain into
// one FetchField.
func fieldPath(n *ast.MemberNode) (root ast.Node, ptr reflect.Type, offset uintptr, ft reflect.Type, ok bool) {
	prop, isString := n.Property.(*ast.StringNode)
	bt := n.Node.Type()
	if !isString || n.Optional || n.Method || bt == nil || hasMethod(bt, prop.Value) {
		return nil, nil, 0, nil, false
	}
	switch {
	case bt.Kind() == reflect.Pointer && bt.Elem().Kind() == reflect.Struct:
		f, found := taggedField(bt.Elem(), prop.Value)
		if !found {
			return nil, nil, 0, nil, false
		}
		return n.Node, bt, f.Offset, f.Type, true
	case bt.Kind() == reflect.Struct:
		inner, isMember := n.Node.(*ast.MemberNode)
		if !isMember {
			return nil, nil, 0, nil, false
		}
		root, ptr, off, innerType, found := fieldPath(inner)
		if !found || innerType != bt {
			return nil, nil, 0, nil, false
		}
		f, found := taggedField(bt, prop.Value)
		if !found {
			return nil, nil, 0, nil, false
		}
		return root, ptr, off + f.Offset, f.Type, true
	}
	return nil, nil, 0, nil, false
}

// taggedField is the exported top-level field expr finds by the name: the
// one tagged with it (expr matches tags before Go names). A field found is
// kept: reading every field's tag for each name compiled was a few per
// cent of checking.
func taggedField(t reflect.Type, name string) (reflect.StructField, bool) {
	key := fieldKey{t, name}
	if f, ok := taggedFields.Load(key); ok {
		return f.(reflect.StructField), true
	}
	f, ok := findTaggedField(t, name)
	if ok {
		taggedFields.Store(key, f)
	}
	return f, ok
}

// fieldKey is a field's name in a struct type.
type fieldKey struct {
	t    reflect.Type
	name string
}

// taggedFields are the fields found so far, by fieldKey: only fields that
// exist, so however many names rules misspell it holds no more than the
// state's fields.
var taggedFields sync.Map

func findTaggedField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return reflect.StructField{}, false // promoted fields: leave to expr
		}
		if f.IsExported() && f.Tag.Get("expr") == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// loaderFor reads a value of type t at a pointer, boxed as expr boxes it.
func loaderFor(t reflect.Type) func(p unsafe.Pointer) any {
	if l, ok := typedLoaders[t]; ok {
		return l
	}
	return func(p unsafe.Pointer) any { return reflect.NewAt(t, p).Elem().Interface() }
}

func load[T any]() func(p unsafe.Pointer) any {
	return func(p unsafe.Pointer) any { return *(*T)(p) }
}

// typedLoaders are the field types read without reflection; the rest of
// the state's types (its own pointer and slice types) are registered by
// RegisterType.
var typedLoaders = map[reflect.Type]func(p unsafe.Pointer) any{
	reflect.TypeFor[int]():            load[int](),
	reflect.TypeFor[float64]():        load[float64](),
	reflect.TypeFor[string]():         load[string](),
	reflect.TypeFor[bool]():           load[bool](),
	reflect.TypeFor[[]string]():       load[[]string](),
	reflect.TypeFor[[]int]():          load[[]int](),
	reflect.TypeFor[map[string]int](): load[map[string]int](),
}

// Register makes fields of type T load without reflection. Call it from
// an init function, before any expression is compiled.
func Register[T any]() { typedLoaders[reflect.TypeFor[T]()] = load[T]() }
