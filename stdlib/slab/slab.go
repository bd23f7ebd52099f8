// Package slab hands out small slices, and boxes values into interfaces,
// from larger arrays it never hands out again: what it gives stays the
// taker's for as long as anything refers to it (the collector keeps the
// array), so nothing is given back and nothing can be overwritten, yet a
// run's many small lists and boxes cost one allocation for many.
//
// A Slab is for one goroutine at a time. The nil *Slab allocates as make
// and any(v) do.
//
// A taker who knows that nothing it took is referenced any more (a Monte
// Carlo sample tallied) may say so with Rewind: the slab then hands out
// the arrays cut since the last Rewind again, cleared, and a run that
// needs no more than the one before allocates nothing. A slab never
// rewound keeps no arrays and never hands out the same memory twice.
package slab

import (
	"fmt"
	"reflect"
	"unsafe"
)

// chunk is how many items a slab allocates at once; larger requests
// (more than a quarter of it) are allocated on their own (and kept, to
// be used again, once the slab rewinds).
const chunk = 64

// A Slab cuts slices of T from arrays of chunk items.
type Slab[T any] struct {
	free []T
	typ  unsafe.Pointer // T's type word, for Box (set by the first Box)
	// kept are the arrays cut since the first Rewind, to cut again after
	// the next; kept[:next] are those in use since the last.
	kept      [][]T
	next      int
	rewinding bool // Rewind was called: keep the arrays cut
	// large are the arrays of larger requests made since the first
	// Rewind, each used again for one no larger; large[:nextLarge] are
	// in use.
	large     [][]T
	nextLarge int
}

// Make is make([]T, n), cut from the slab (never nil, as make's).
func (s *Slab[T]) Make(n int) []T {
	if s == nil || n == 0 {
		return make([]T, n)
	}
	if n > chunk/4 {
		if !s.rewinding {
			return make([]T, n)
		}
		return s.largeArray(n)
	}
	if n > len(s.free) {
		s.free = s.array()
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// array is a fresh array of chunk items: one kept from before the last
// Rewind if there is one, else a new one (kept, once the slab rewinds).
func (s *Slab[T]) array() []T {
	if !s.rewinding {
		return make([]T, chunk)
	}
	if s.next < len(s.kept) {
		a := s.kept[s.next]
		s.next++
		if poison.Load() {
			clear(a) // Rewind filled it with garbage
		}
		return a
	}
	a := make([]T, chunk)
	s.kept = append(s.kept, a)
	s.next++
	return a
}

// largeArray is a request larger than a chunk's quarter, in a rewinding
// slab: the next array kept for one, if it is large enough.
func (s *Slab[T]) largeArray(n int) []T {
	if s.nextLarge < len(s.large) && cap(s.large[s.nextLarge]) >= n {
		a := s.large[s.nextLarge][:n:n]
		s.nextLarge++
		if poison.Load() {
			clear(a)
		}
		return a
	}
	a := make([]T, n)
	if s.nextLarge < len(s.large) {
		s.large[s.nextLarge] = a // too small: this one from now on
	} else {
		s.large = append(s.large, a)
	}
	s.nextLarge++
	return a
}

// Rewind takes back everything cut since the last Rewind (since the
// first, nothing: what was cut before it is never handed out again), to
// cut it again, cleared. Call it only when nothing cut since the last
// Rewind is referenced any more, by anyone: a slice or box still held
// would change under its holder.
func (s *Slab[T]) Rewind() {
	if s == nil {
		return
	}
	for _, used := range [][][]T{s.kept[:s.next], s.large[:s.nextLarge]} {
		if poison.Load() {
			fill(used)
			continue
		}
		for _, a := range used {
			clear(a[:cap(a)]) // nothing stale is kept alive by it, or read
		}
	}
	s.free, s.next, s.nextLarge, s.rewinding = nil, 0, 0, true
}

// Forget gives everything cut so far up to its takers for good, as
// though the slab had never rewound: a later Rewind takes back only what
// is cut after it. (A value of a run is kept: the run's slabs forget.)
func (s *Slab[T]) Forget() {
	if s == nil || !s.rewinding {
		return // it hands out nothing twice already
	}
	*s = Slab[T]{typ: s.typ}
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
