package main

import "testing"

// TestGCPercentFor: the goal after a collection is floor while the
// default goal (the live heap, plus the live heap and the roots again) is
// under it, and Go's default past that.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, roots, floor uint64
		want               int
	}{
		{0, 0, 128 * mb, 100},             // nothing measured: the default
		{21 * mb, 0, 128 * mb, 510},       // the loaded rules: next collection at 128 MB
		{32 * mb, 0, 128 * mb, 300},       // 32 + 96 = 128
		{32 * mb, 16 * mb, 128 * mb, 200}, // 32 + (32 + 16) × 2 = 128
		{2 * mb, 3 * mb, 128 * mb, 2520},  // a small heap with its roots: 2 + 5 × 25.2 ≈ 128
		{1 * mb, 2 * mb, 128 * mb, 3200},  // under Go's least goal: 4 MB × 32 = 128
		{64 * mb, 0, 128 * mb, 100},       // half the floor: the default already reaches it
		{60 * mb, 8 * mb, 128 * mb, 100},  // so do its roots
		{290 * mb, 0, 128 * mb, 100},      // `munda test`'s heap: the default
		{127 * mb, 0, 128 * mb, 100},      // never below the default
		{1, 0, 128 * mb, 3200},            // a tiny heap: Go's least goal is the floor
	} {
		p := gcPercentFor(c.live, c.roots, c.floor)
		if p != c.want {
			t.Errorf("gcPercentFor(%d, %d, %d) = %d, want %d", c.live, c.roots, c.floor, p, c.want)
		}
		goal := max(c.live+(c.live+c.roots)*uint64(p)/100, goHeapMinimum*uint64(p)/100) // as Go's pacer
		if c.live > 0 && 2*c.live+c.roots < c.floor && (goal < c.floor || goal > c.floor+(c.live+c.roots)/100) {
			t.Errorf("live %d, roots %d: the goal %d is not the floor %d", c.live, c.roots, goal, c.floor)
		}
	}
}
