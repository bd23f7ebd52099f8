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
	got := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				name := fmt.Sprintf("slot_test_%d", (i*7+w*13)%names)
				got[w] = append(got[w], SlotOf(name))
				if j, ok := SlotLookup(name); !ok || j != got[w][len(got[w])-1] {
					t.Errorf("SlotLookup(%s) = %d, %v after SlotOf gave %d", name, j, ok, got[w][len(got[w])-1])
				}
			}
		}()
	}
	wg.Wait()
	publishSlots()
	for w := range workers {
		for i, slot := range got[w] {
			name := fmt.Sprintf("slot_test_%d", (i*7+w*13)%names)
			if again := SlotOf(name); again != slot {
				t.Errorf("%s: slot %d, then %d", name, slot, again)
			}
			if SlotName(slot) != name {
				t.Errorf("slot %d is %s, want %s", slot, SlotName(slot), name)
			}
		}
	}
	if _, ok := SlotLookup("slot_test_never_numbered"); ok {
		t.Error("SlotLookup numbered a name")
	}
	for i, g := range globalSlots {
		if SlotOf(g) != i {
			t.Errorf("global %s is slot %d, want %d", g, SlotOf(g), i)
		}
	}
}
