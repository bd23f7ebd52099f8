package dsl

import (
	"fmt"
	"sync"
	"testing"
)

// TestSlotOfConcurrent numbers names from several goroutines at once (as
// checks and odds workers do): each name gets one slot, every goroutine
// sees the same, and SlotName gives the name back. Run it with -race.
func TestSlotOfConcurrent(t *testing.T) {
	const workers, names = 4, 500
	s := NewSlots()
	got := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				name := fmt.Sprintf("slot_test_%d", (i*7+w*13)%names)
				got[w] = append(got[w], s.Of(name))
				if j, ok := s.Lookup(name); !ok || j != got[w][len(got[w])-1] {
					t.Errorf("s.Lookup(%s) = %d, %v after SlotOf gave %d", name, j, ok, got[w][len(got[w])-1])
				}
			}
		}()
	}
	wg.Wait()
	s.publish()
	for w := range workers {
		for i, slot := range got[w] {
			name := fmt.Sprintf("slot_test_%d", (i*7+w*13)%names)
			if again := s.Of(name); again != slot {
				t.Errorf("%s: slot %d, then %d", name, slot, again)
			}
			if s.Name(slot) != name {
				t.Errorf("slot %d is %s, want %s", slot, s.Name(slot), name)
			}
		}
	}
	if _, ok := s.Lookup("slot_test_never_numbered"); ok {
		t.Error("SlotLookup numbered a name")
	}
	for i, g := range globalSlots {
		if s.Of(g) != i {
			t.Errorf("global %s is slot %d, want %d", g, s.Of(g), i)
		}
	}
}
