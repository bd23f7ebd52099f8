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
	debug.SetGCPercent(gcPercentFor(liveHeap(), gcHeap))
	if !gcPacing.Load() { // collectAsUsual ran meanwhile: its setting stands
		debug.SetGCPercent(100)
		return
	}
	// Unreachable at once: its finalizer runs after the next collection.
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { paceGC() })
}

// gcPercentFor is the GOGC that puts the next collection at floor bytes
// of heap, live bytes of it kept: never below Go's default of 100.
func gcPercentFor(live, floor uint64) int {
	if live == 0 || 2*live >= floor {
		return 100
	}
	return int((100*(floor-live) + live - 1) / live) // rounded up: the goal is not short of floor
}

// liveHeap is the heap the last collection marked live, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
