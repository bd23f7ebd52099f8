package main

import "testing"

// TestGCPercentFor: the goal after a collection is floor while the live
// heap is under half of it, and Go's default (twice the live heap) past
// that.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, floor uint64
		want        int
	}{
		{0, 128 * mb, 100},                // nothing measured: the default
		{21 * mb, 128 * mb, 510},          // the loaded rules: next collection at 128 MB
		{32 * mb, 128 * mb, 300},          // 32 + 96 = 128
		{64 * mb, 128 * mb, 100},          // half the floor: the default already reaches it
		{290 * mb, 128 * mb, 100},         // `munda test`'s heap: the default
		{127 * mb, 128 * mb, 100},         // never below the default
		{1, 128 * mb, 100 * (128*mb - 1)}, // a tiny heap: still only up to the floor
	} {
		if got := gcPercentFor(c.live, c.floor); got != c.want {
			t.Errorf("gcPercentFor(%d, %d) = %d, want %d", c.live, c.floor, got, c.want)
		}
		if goal := c.live + c.live*uint64(gcPercentFor(c.live, c.floor))/100; c.live > 0 && goal < c.floor && 2*c.live < c.floor {
			t.Errorf("live %d: the goal %d is under the floor %d", c.live, goal, c.floor)
		}
	}
}
