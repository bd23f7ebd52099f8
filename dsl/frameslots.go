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
// index (Expr.Slotted) instead of hashing it in a map. A numbering is
// shared by the checks of a process, not one check's own: compiled
// expressions are shared between checks (sharedprograms.go), and one
// compiled by a check must read the same slots as the same compiled by
// another. The globals come first, in the order fillGlobals fills them.
//
// A numbering only grows, so a process that checks edit after edit (the
// language server, the playground) would number every name ever typed
// and keep frames as long as the highest slot. So it is bounded by
// generations: a check that starts when the current numbering holds more
// than maxSlotNames names starts a new one. Checked rules keep the
// numbering they were checked with (Index.Slots, Compiler), and so do
// the runs of them and what the shared caches keep for them; an old
// numbering is garbage once no checked rules use it.

// maxSlotNames is how many names a numbering holds before the next check
// starts a new one: the shipped rules under every selection number about
// 700.
var maxSlotNames = 1 << 13

// Slots is one numbering. Reads take no lock: fast is a snapshot
// replaced whole (copied on write), and names numbered since are in
// recent, under mu, until the next snapshot: one when recent has grown to
// half the snapshot (so numbering n names copies O(n) in all) and one at
// the end of each check (so runs find every name in fast).
type Slots struct {
	mu     sync.Mutex
	fast   atomic.Pointer[map[string]int]
	recent map[string]int
	names  atomic.Pointer[[]string]
}

// NewSlots is a numbering of the globals alone.
func NewSlots() *Slots {
	s := &Slots{recent: map[string]int{}}
	ids := map[string]int{}
	names := []string{}
	for i, n := range globalSlots {
		ids[n] = i
		names = append(names, n)
	}
	s.fast.Store(&ids)
	s.names.Store(&names)
	return s
}

// currentSlots is the numbering new checks use.
var currentSlots atomic.Pointer[Slots]

func init() { currentSlots.Store(NewSlots()) }

// slotsForCheck is the numbering a new check uses: the current one, or a
// new one once the current holds more than maxSlotNames names.
func slotsForCheck() *Slots {
	for {
		s := currentSlots.Load()
		if s.Len() <= maxSlotNames || currentSlots.CompareAndSwap(s, NewSlots()) {
			return currentSlots.Load()
		}
	}
}

// RenumberSlots makes the checks from now on number frame slots afresh,
// as one does by itself once the numbering holds more than maxSlotNames
// names; rules checked before keep theirs. For tests.
func RenumberSlots() { currentSlots.Store(NewSlots()) }

// Len is how many names are numbered.
func (s *Slots) Len() int { return len(*s.names.Load()) }

// Of is the slot of a name in every frame, numbering it if it has none
// yet. The globals are slots 0 to GlobalSlots-1.
func (s *Slots) Of(name string) int {
	if i, ok := (*s.fast.Load())[name]; ok {
		return i
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.lookupLocked(name); ok {
		return i
	}
	// Readers hold a shorter slice and never read past its end, so the
	// append may write in place.
	names := append(*s.names.Load(), name)
	i := len(names) - 1
	s.names.Store(&names)
	s.recent[name] = i
	if fast := *s.fast.Load(); len(s.recent) > 64 && 2*len(s.recent) > len(fast) {
		s.publishLocked()
	}
	return i
}

// Lookup is the slot of a name, if it has one.
func (s *Slots) Lookup(name string) (int, bool) {
	if i, ok := (*s.fast.Load())[name]; ok {
		return i, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookupLocked(name)
}

func (s *Slots) lookupLocked(name string) (int, bool) {
	if i, ok := s.recent[name]; ok {
		return i, true
	}
	i, ok := (*s.fast.Load())[name] // published since the caller looked
	return i, ok
}

// publish makes a snapshot of every name numbered so far.
func (s *Slots) publish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.recent) > 0 {
		s.publishLocked()
	}
}

func (s *Slots) publishLocked() {
	old := *s.fast.Load()
	ids := make(map[string]int, len(old)+len(s.recent))
	for k, v := range old {
		ids[k] = v
	}
	for k, v := range s.recent {
		ids[k] = v
	}
	s.fast.Store(&ids)
	s.recent = map[string]int{}
}

// Name is the name of slot i.
func (s *Slots) Name(i int) string { return (*s.names.Load())[i] }

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
