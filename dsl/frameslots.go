package dsl

import (
	"sync"
	"sync/atomic"

	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file numbers the names an interpreter frame holds, so that a
// frame is a slice of slots and a checked expression reads a name by its
// index (Expr.Slotted) instead of hashing it in a map. The numbering is
// the process's, not one check's: the parser's cache shares syntax trees
// between checks, and an expression compiled by one check must read the
// same slots as one compiled by another. The globals come first, in the
// order fillGlobals fills them.

// slotNames is the numbering. Reads take no lock: fast is a snapshot
// replaced whole (copied on write), and names numbered since are in
// recent, under mu, until the next snapshot: one when recent has grown to
// half the snapshot (so numbering n names copies O(n) in all) and one at
// the end of each check (so runs find every name in fast).
var slotNames struct {
	mu     sync.Mutex
	fast   atomic.Pointer[map[string]int]
	recent map[string]int
	names  atomic.Pointer[[]string]
}

func init() {
	ids := map[string]int{}
	names := []string{}
	for i, n := range globalSlots {
		ids[n] = i
		names = append(names, n)
	}
	slotNames.fast.Store(&ids)
	slotNames.names.Store(&names)
	slotNames.recent = map[string]int{}
}

// SlotOf is the slot of a name in every frame, numbering it if it has
// none yet. The globals are slots 0 to GlobalSlots-1.
func SlotOf(name string) int {
	if i, ok := (*slotNames.fast.Load())[name]; ok {
		return i
	}
	slotNames.mu.Lock()
	defer slotNames.mu.Unlock()
	if i, ok := slotLookupLocked(name); ok {
		return i
	}
	// Readers hold a shorter slice and never read past its end, so the
	// append may write in place.
	names := append(*slotNames.names.Load(), name)
	i := len(names) - 1
	slotNames.names.Store(&names)
	slotNames.recent[name] = i
	if fast := *slotNames.fast.Load(); len(slotNames.recent) > 64 && 2*len(slotNames.recent) > len(fast) {
		publishSlotsLocked()
	}
	return i
}

// SlotLookup is the slot of a name, if it has one.
func SlotLookup(name string) (int, bool) {
	if i, ok := (*slotNames.fast.Load())[name]; ok {
		return i, true
	}
	slotNames.mu.Lock()
	defer slotNames.mu.Unlock()
	return slotLookupLocked(name)
}

func slotLookupLocked(name string) (int, bool) {
	if i, ok := slotNames.recent[name]; ok {
		return i, true
	}
	i, ok := (*slotNames.fast.Load())[name] // published since the caller looked
	return i, ok
}

// publishSlots makes a snapshot of every name numbered so far.
func publishSlots() {
	slotNames.mu.Lock()
	defer slotNames.mu.Unlock()
	if len(slotNames.recent) > 0 {
		publishSlotsLocked()
	}
}

func publishSlotsLocked() {
	old := *slotNames.fast.Load()
	ids := make(map[string]int, len(old)+len(slotNames.recent))
	for k, v := range old {
		ids[k] = v
	}
	for k, v := range slotNames.recent {
		ids[k] = v
	}
	slotNames.fast.Store(&ids)
	slotNames.recent = map[string]int{}
}

// SlotName is the name of slot i.
func SlotName(i int) string { return (*slotNames.names.Load())[i] }

// GlobalSlots is how many slots the globals take, at the start.
const GlobalSlots = len(globalSlots)

// FillGlobalSlots puts the globals of a frame into its first slots, as
// FillEnv does into a map.
func FillGlobalSlots(vals []any, st *state.State, gangs any, natural map[string]int, rolled map[string][]int) {
	vals[0] = st
	if st != nil {
		vals[1], vals[2] = &st.Battle, gangs
	} else {
		vals[1], vals[2] = (*state.Battle)(nil), []*state.Gang(nil)
	}
	vals[3], vals[4] = natural, rolled
}

// Enver gives a frame's names as a map, for expr's VM: the reference,
// which runs where a closure cannot.
type Enver interface{ Env() map[string]any }

// EvalSlots runs a checked expression against a frame's slots: as
// closures where it was compiled to them (in a frame of fs: nil for a
// shared pool), else (and whenever the closures fail) with expr's VM on
// the frame's names as a map.
func EvalSlots(e *syntax.Expr, fs *fastexpr.Frames, vals []any, f Enver) (any, error) {
	if e.Slotted != nil && !vmOnly.Load() {
		if v, err := e.Slotted(fs, vals); err == nil {
			return v, nil
		}
	}
	return runProgram(e.Program, f.Env())
}
