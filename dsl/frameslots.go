package dsl

import (
	"sync"
	"sync/atomic"

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

var slotNames struct {
	mu    sync.Mutex
	ids   atomic.Pointer[map[string]int] // copied on write: reads take no lock
	names atomic.Pointer[[]string]
}

func init() {
	ids := map[string]int{}
	names := []string{}
	for i, n := range globalSlots {
		ids[n] = i
		names = append(names, n)
	}
	slotNames.ids.Store(&ids)
	slotNames.names.Store(&names)
}

// SlotOf is the slot of a name in every frame, numbering it if it has
// none yet. The globals are slots 0 to GlobalSlots-1.
func SlotOf(name string) int {
	if i, ok := (*slotNames.ids.Load())[name]; ok {
		return i
	}
	slotNames.mu.Lock()
	defer slotNames.mu.Unlock()
	old := *slotNames.ids.Load()
	if i, ok := old[name]; ok {
		return i
	}
	ids := make(map[string]int, len(old)+1)
	for k, v := range old {
		ids[k] = v
	}
	names := append(append([]string(nil), *slotNames.names.Load()...), name)
	i := len(names) - 1
	ids[name] = i
	slotNames.names.Store(&names)
	slotNames.ids.Store(&ids)
	return i
}

// SlotLookup is the slot of a name, if it has one.
func SlotLookup(name string) (int, bool) {
	i, ok := (*slotNames.ids.Load())[name]
	return i, ok
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
// closures where it was compiled to them, else (and whenever the closures
// fail) with expr's VM on the frame's names as a map.
func EvalSlots(e *syntax.Expr, vals []any, f Enver) (any, error) {
	if e.Slotted != nil && !vmOnly.Load() {
		if v, err := e.Slotted(vals); err == nil {
			return v, nil
		}
	}
	return runProgram(e.Program, f.Env())
}
