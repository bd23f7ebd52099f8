package slab

import (
	"reflect"
	"testing"
)

// Slices cut from a slab are apart: appending to one, or filling the
// next, never changes another.
func TestMakeApart(t *testing.T) {
	var s Slab[int]
	a := s.Make(3)
	b := s.Make(2)
	copy(a, []int{1, 2, 3})
	copy(b, []int{4, 5})
	a = append(a, 9) // past its capacity: a new array
	b[0] = 7
	if !reflect.DeepEqual(a, []int{1, 2, 3, 9}) || !reflect.DeepEqual(b, []int{7, 5}) {
		t.Fatalf("a=%v b=%v", a, b)
	}
	var fresh Slab[int]
	if fresh.Make(0) == nil {
		t.Fatal("Make(0) is nil, make's is not")
	}
	for range 200 { // across chunks and large requests
		x := s.Make(5)
		x[4] = 1
		if big := s.Make(chunk); len(big) != chunk {
			t.Fatal("large request cut short")
		}
	}
}

// A boxed value is the value, compared and asserted as any(v) is, and
// later boxes do not change it.
func TestBox(t *testing.T) {
	var strs Slab[string]
	var lists Slab[[]any]
	var ints Slab[int]
	var nilSlab *Slab[string]
	boxes := []any{}
	for i := range 300 {
		boxes = append(boxes, strs.Box(string(rune('a'+i%26))), lists.Box([]any{i}), ints.Box(i*1000), nilSlab.Box("x"))
	}
	for i := range 300 {
		b := boxes[4*i:]
		if b[0] != any(string(rune('a'+i%26))) || b[0].(string) != string(rune('a'+i%26)) {
			t.Fatalf("string %d: %v", i, b[0])
		}
		if l := b[1].([]any); len(l) != 1 || l[0] != any(i) {
			t.Fatalf("list %d: %v", i, b[1])
		}
		if b[2] != any(i*1000) || b[3] != any("x") {
			t.Fatalf("int %d: %v %v", i, b[2], b[3])
		}
	}
	m := map[any]int{strs.Box("k"): 1}
	if m["k"] != 1 {
		t.Fatal("a boxed string does not hash as the string")
	}
}

// Box refuses a type an interface holds as its own word.
func TestBoxPointerPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var s Slab[*int]
	s.Box(new(int))
}

// Boxing from a slab allocates once per chunk, not once per value.
func TestBoxAllocates(t *testing.T) {
	var s Slab[string]
	word := "word"
	n := testing.AllocsPerRun(1000, func() { _ = s.Box(word) })
	if n > 0.1 {
		t.Fatalf("%v allocations per box", n)
	}
}
