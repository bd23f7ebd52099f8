// Package slab hands out small slices, and boxes values into interfaces,
// from larger arrays it never hands out again: what it gives stays the
// taker's for as long as anything refers to it (the collector keeps the
// array), so nothing is given back and nothing can be overwritten, yet a
// run's many small lists and boxes cost one allocation for many.
//
// A Slab is for one goroutine at a time. The nil *Slab allocates as make
// and any(v) do.
package slab

import (
	"fmt"
	"reflect"
	"unsafe"
)

// chunk is how many items a slab allocates at once; larger requests
// (more than a quarter of it) are allocated on their own.
const chunk = 64

// A Slab cuts slices of T from arrays of chunk items.
type Slab[T any] struct {
	free []T
	typ  unsafe.Pointer // T's type word, for Box (set by the first Box)
}

// Make is make([]T, n), cut from the slab (never nil, as make's).
func (s *Slab[T]) Make(n int) []T {
	if s == nil || n == 0 || n > chunk/4 {
		return make([]T, n)
	}
	if n > len(s.free) {
		s.free = make([]T, chunk)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// eface is the layout of an empty interface: its type word and a pointer
// to its value (for the types Box takes, which are not pointer-shaped).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// Box is any(v) with v's copy in the slab rather than allocated on its
// own. T must be stored in an interface by pointer: strings, slices,
// numbers, structs with more than one word. (A pointer, map, channel or
// function is the interface's word itself, and boxes without
// allocating.)
func (s *Slab[T]) Box(v T) any {
	if s == nil {
		return v
	}
	if s.typ == nil {
		s.typ = typeWord[T]()
	}
	p := &s.Make(1)[0]
	*p = v
	var out any
	*(*eface)(unsafe.Pointer(&out)) = eface{typ: s.typ, data: unsafe.Pointer(p)}
	return out
}

// typeWord is T's interface type word, checking that an interface holds
// a T by pointer.
func typeWord[T any]() unsafe.Pointer {
	t := reflect.TypeFor[T]()
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
	case reflect.Struct:
		if t.Size() <= unsafe.Sizeof(uintptr(0)) {
			panic(fmt.Sprintf("slab: cannot box %s", t))
		}
	default:
		panic(fmt.Sprintf("slab: cannot box %s", t))
	}
	var zero T
	x := any(zero)
	return (*eface)(unsafe.Pointer(&x)).typ
}
