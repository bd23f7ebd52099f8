package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// After its first collection (tuneGC), a command keeps a heap goal of at
// least gcHeap: Go's default goal, twice the live heap, is about 45 MB
// for the loaded rules (20-25 MB), so `munda odds --exact` collected
// once or twice more in a question, each time marking the rules again,
// for garbage that would have fitted under gcHeap. Past gcHeap / 2 of
// live heap (`munda test` holds every stack) the goal is Go's own.
// Setting the percentage at each collection, from what that collection
// found live, is what a memory floor would do if Go had one.

// gcPacing is cleared by collectAsUsual: a long-lived server keeps Go's
// defaults.
var gcPacing atomic.Bool

// paceGC sets the collector's percentage for the live heap the last
// collection found, and again after the next one.
func paceGC() {
	if !gcPacing.Load() {
		return
	}
	debug.SetMemoryLimit(math.MaxInt64)
	live, roots := lastMarked()
	debug.SetGCPercent(gcPercentFor(live, roots, gcHeap))
	if !gcPacing.Load() { // collectAsUsual ran meanwhile: its setting stands
		debug.SetGCPercent(100)
		return
	}
	// Unreachable at once: its finalizer runs after the next collection.
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { paceGC() })
}

// gcPercentFor is the GOGC that puts the next collection at floor bytes
// of heap, live bytes of it kept: never below Go's default of 100. Go's
// goal is live + (live + roots) × GOGC/100, roots being the stacks and
// globals it scanned, and never under goHeapMinimum × GOGC/100; leaving
// both out put a small heap's next collection several times past the
// floor (a pack of a few rules, under 1 MB live, collected at 459 MB).
func gcPercentFor(live, roots, floor uint64) int {
	base := live + roots
	if live == 0 || live+base >= floor {
		return 100
	}
	p := (100*(floor-live) + base - 1) / base // rounded up: the goal is not short of floor
	return int(max(100, min(p, 100*floor/goHeapMinimum)))
}

// goHeapMinimum is the Go runtime's least heap goal at GOGC=100
// (defaultHeapMinimum in runtime/mgcpacer.go), scaled by GOGC.
const goHeapMinimum = 4 << 20

// lastMarked is the heap the last collection marked live and the roots
// (stacks and globals) it scanned, in bytes.
func lastMarked() (live, roots uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	var v [3]uint64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	return v[0], v[1] + v[2]
}
