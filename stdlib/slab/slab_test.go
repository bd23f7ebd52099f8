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

// After a Rewind the slab cuts the same arrays again, cleared, and a
// round that needs no more than the one before allocates nothing; what
// was cut before the first Rewind, or before a Forget, is never cut
// again.
func TestRewindReuses(t *testing.T) {
	var s Slab[string]
	before := s.Make(4) // before the first Rewind: never taken back
	copy(before, []string{"a", "b", "c", "d"})
	s.Rewind()
	round := func() []string {
		all := make([]string, 0, 120)
		for range 40 {
			x := s.Make(3)
			for _, v := range x {
				if v != "" {
					t.Fatalf("a rewound array was not cleared: %q", v)
				}
			}
			x[0], x[1], x[2] = "x", "y", "z"
			all = append(all, x...)
		}
		for _, n := range []int{20, 100, 30} { // large requests
			x := s.Make(n)
			if len(x) != n || cap(x) != n || x[n-1] != "" {
				t.Fatalf("a large request of %d: len %d cap %d, last %q", n, len(x), cap(x), x[n-1])
			}
			x[n-1] = "large"
		}
		s.Rewind()
		return all
	}
	round()
	if n := testing.AllocsPerRun(50, func() { round() }) - 1; n > 0 { // the round's own list
		t.Errorf("a rewound round allocates %v arrays", n)
	}
	if !reflect.DeepEqual(before, []string{"a", "b", "c", "d"}) {
		t.Fatalf("memory cut before the first Rewind was reused: %q", before)
	}
	kept := s.Make(2)
	kept[0] = "kept"
	s.Forget()
	s.Rewind()
	for range 200 {
		s.Make(5)[0] = "other"
		s.Rewind()
	}
	if kept[0] != "kept" {
		t.Fatalf("memory cut before Forget was reused: %q", kept)
	}
}

// Poisoned, a Rewind fills what it takes back with garbage that a box or
// slice held past it reads; cut again, the memory is zero as make's.
func TestPoison(t *testing.T) {
	defer Poison()()
	var strs Slab[string]
	var lists Slab[[]any]
	var anys Slab[any]
	var mods Slab[struct {
		by    int
		owner string
	}]
	strs.Rewind()
	lists.Rewind()
	anys.Rewind()
	mods.Rewind()
	b := strs.Box("word")
	l := lists.Box([]any{1})
	a := anys.Make(2)
	a[0] = "x"
	large := anys.Make(chunk)
	large[0] = "y"
	m := mods.Make(1)
	m[0].by, m[0].owner = 1, "roll"
	strs.Rewind()
	lists.Rewind()
	anys.Rewind()
	mods.Rewind()
	if b == any("word") || b.(string) != poisonString {
		t.Errorf("a stale box reads %q", b)
	}
	if got := l.([]any); len(got) != 1 || got[0] != any(poisonString) {
		t.Errorf("a stale list box reads %v", got)
	}
	if a[0] != any(poisonString) || large[0] != any(poisonString) || m[0].by == 1 || m[0].owner != poisonString {
		t.Errorf("stale slices read %v %v %v", a, large[0], m)
	}
	if strs.Make(3)[0] != "" || anys.Make(2)[1] != nil || anys.Make(chunk)[0] != nil || mods.Make(1)[0].owner != "" {
		t.Error("memory cut after a poisoned Rewind is not zero")
	}
}
