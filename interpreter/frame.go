package interpreter

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/stdlib/state"
)

// frame is the variables of one procedure call, table application or
// effect body. A variable is a slot, numbered by the rules' dsl.Slots (the
// same numbers their checked expressions read, Expr.Slotted): the globals first,
// then the names the frame sets. A name is set in the frame or not (as a
// key of a map is), which is what a block hiding an outer name asks.
//
// The rest of the interpreter uses only the methods below: get, set,
// unset, each, Env (the names as a map, for expr's VM and for text
// placeholders), fillGlobals and reset; a snapshot copies a frame with
// them (copyFor, resume.go).
type frame struct {
	slots   *dsl.Slots // the numbering of the rules running
	vals    []any      // by slot; past the end, unset
	state   []uint8    // by slot: slotUnused, slotSet or slotUnset
	used    []int      // the slots ever set since reset, each once
	natural map[string]int
	rolled  map[string][]int
	rule    string // for events and errors
	source  string
	proc    string // the procedure id, for effect targets "proc.roll"
	// filled and filledGangs are the state and the boxed gangs (its data
	// word) the globals' slots hold, set by fillGlobals; nil when they
	// may hold anything else.
	filled      *state.State
	filledGangs unsafe.Pointer
}

// A slot's state.
const (
	slotUnused uint8 = iota // never set since reset
	slotSet                 // holds a variable
	slotUnset               // set, then taken out again
)

// get is a name's value and whether the frame holds it.
func (f *frame) get(name string) (any, bool) {
	i, ok := slotLookup(f.slots, name)
	if !ok {
		return nil, false // no frame has ever held it
	}
	return f.getSlot(i)
}

func (f *frame) getSlot(i int) (any, bool) {
	if i < len(f.state) && f.state[i] == slotSet {
		return f.vals[i], true
	}
	return nil, false
}

// value is a name's value, nil where the frame does not hold it.
func (f *frame) value(name string) any {
	v, _ := f.get(name)
	return v
}

// set binds a name in the frame.
func (f *frame) set(name string, v any) { f.setSlot(slotOf(f.slots, name), v) }

func (f *frame) setSlot(i int, v any) {
	if i >= len(f.vals) {
		f.grow(i + 1)
	}
	if i < dsl.GlobalSlots {
		f.filled = nil // a global overwritten: fillGlobals writes them again
	}
	switch f.state[i] {
	case slotUnused:
		f.used = append(f.used, i)
		fallthrough
	case slotUnset:
		f.state[i] = slotSet
	}
	f.vals[i] = v
}

// grow makes room for n slots.
func (f *frame) grow(n int) {
	n = max(n, 2*len(f.vals), 16)
	vals := make([]any, n)
	copy(vals, f.vals)
	state := make([]uint8, n)
	copy(state, f.state)
	f.vals, f.state = vals, state
}

// unset takes a name out of the frame.
func (f *frame) unset(name string) {
	i, ok := slotLookup(f.slots, name)
	if ok && i < len(f.state) && f.state[i] == slotSet {
		f.state[i], f.vals[i] = slotUnset, nil
		if i < dsl.GlobalSlots {
			f.filled = nil
		}
	}
}

// each calls fn with each name the frame holds and its value, in the
// order they were first set.
func (f *frame) each(fn func(name string, v any)) {
	for _, i := range f.used {
		if f.state[i] == slotSet {
			fn(f.slots.Name(i), f.vals[i])
		}
	}
}

// size is how many names the frame holds.
func (f *frame) size() int {
	n := 0
	for _, i := range f.used {
		if f.state[i] == slotSet {
			n++
		}
	}
	return n
}

// Env is the frame's names as a map: for expr's VM, which runs where a
// closure cannot, and for placeholders in text.
func (f *frame) Env() map[string]any {
	env := make(map[string]any, len(f.used))
	f.each(func(name string, v any) { env[name] = v })
	return env
}

// fillGlobals sets the names every expression sees (dsl.FillEnv).
func (f *frame) fillGlobals(st *state.State, gangs any) {
	if len(f.vals) < dsl.GlobalSlots {
		f.grow(dsl.GlobalSlots)
	}
	for i := range dsl.GlobalSlots { // setSlot, but for the value, written next
		if f.state[i] == slotUnused {
			f.used = append(f.used, i)
		}
		f.state[i] = slotSet
	}
	// A frame reused in the same run holds these already (reset keeps
	// them): a pointer written to the heap costs a write barrier while
	// the collector runs, and a run makes a frame for every call.
	// (The state's own word is compared too: slots made afresh, as a
	// snapshot's frame is unpacked into, hold nothing.)
	g := (*eface)(unsafe.Pointer(&gangs)).data
	if st != nil && f.filled == st && f.filledGangs == g && (*eface)(unsafe.Pointer(&f.vals[0])).data == unsafe.Pointer(st) {
		return
	}
	dsl.FillGlobalSlots(f.vals, st, gangs, f.natural, f.rolled)
	f.filled, f.filledGangs = st, g
}

// reset empties the frame for reuse, clearing only the slots it used.
// The globals' values stay (unset), for fillGlobals to find again in the
// same run; forget drops them when the run is done.
func (f *frame) reset() {
	for _, i := range f.used {
		if i >= dsl.GlobalSlots {
			f.vals[i] = nil
		}
		f.state[i] = slotUnused
	}
	f.used = f.used[:0]
	// clear of an empty map is not free: most frames roll nothing.
	if len(f.natural) > 0 {
		clear(f.natural)
	}
	if len(f.rolled) > 0 {
		clear(f.rolled)
	}
}

// forget drops what reset keeps of the run (the state, through the
// globals), so that a frame kept between runs holds nothing of them.
func (f *frame) forget() {
	clear(f.vals[:min(len(f.vals), dsl.GlobalSlots)])
	f.filled, f.filledGangs = nil, nil
}

// The names a run binds and reads by name (a let's, a roll's, a
// parameter's) are the same few at every statement of every run: slotOf
// and slotLookup remember their slots in a table indexed by a hash of
// their text (names are short), which costs a few nanoseconds where
// dsl's map, safe for concurrent numbering, cost a twentieth of a run. An entry
// is compared by its numbering and text, so a collision is merely a miss.
// Slots never change once numbered, so an entry stays true.
var slotCache [4096]atomic.Pointer[slotEntry]

type slotEntry struct {
	slots *dsl.Slots
	name  string
	slot  int
}

// slotCacheAt is where a name's entry may be: one of two neighbours (two
// hot names of the same hash would otherwise evict each other at every
// statement).
//
// A name of 8 bytes or more is hashed by its length and its first and
// last 8 bytes, two loads (names that share all three merely miss);
// a shorter one byte by byte (FNV-1a).
func slotCacheAt(name string) (a, b *atomic.Pointer[slotEntry]) {
	var h uint64
	if n := len(name); n >= 8 {
		bs := unsafe.Slice(unsafe.StringData(name), n)
		h = binary.LittleEndian.Uint64(bs) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(bs[n-8:]), 29) ^ uint64(n)
	} else {
		h = 14695981039346656037
		for i := 0; i < n; i++ {
			h = (h ^ uint64(name[i])) * 1099511628211
		}
	}
	i := (h * 0x9E3779B97F4A7C15) >> (64 - 12)
	return &slotCache[i], &slotCache[i^1]
}

// remembered is the slot of name if either entry has it.
func remembered(slots *dsl.Slots, name string, a, b *atomic.Pointer[slotEntry]) (int, bool) {
	if e := a.Load(); e != nil && e.slots == slots && e.name == name {
		return e.slot, true
	}
	if e := b.Load(); e != nil && e.slots == slots && e.name == name {
		return e.slot, true
	}
	return 0, false
}

// remember keeps name's slot in an empty entry, or else in place of a.
func remember(slots *dsl.Slots, name string, slot int, a, b *atomic.Pointer[slotEntry]) {
	e := &slotEntry{slots: slots, name: name, slot: slot}
	if a.Load() != nil && b.Load() == nil {
		b.Store(e)
		return
	}
	a.Store(e)
}

// slotOf is slots.Of, remembered.
func slotOf(slots *dsl.Slots, name string) int {
	pa, pb := slotPtrCacheAt(name)
	if i, ok := rememberedAt(slots, name, pa, pb); ok {
		return i
	}
	a, b := slotCacheAt(name)
	i, ok := remembered(slots, name, a, b)
	if !ok {
		i = slots.Of(name)
		remember(slots, name, i, a, b)
	}
	remember(slots, name, i, pa, pb)
	return i
}

// slotLookup is slots.Lookup, remembered where the name has a slot.
func slotLookup(slots *dsl.Slots, name string) (int, bool) {
	pa, pb := slotPtrCacheAt(name)
	if i, ok := rememberedAt(slots, name, pa, pb); ok {
		return i, true
	}
	a, b := slotCacheAt(name)
	i, ok := remembered(slots, name, a, b)
	if !ok {
		if i, ok = slots.Lookup(name); !ok {
			return i, false
		}
		remember(slots, name, i, a, b)
	}
	remember(slots, name, i, pa, pb)
	return i, true
}

// Most names a run looks up are the text of the rules' syntax tree (a
// let's, a loop's variable, a parameter's), the same string at every
// run: slotByText is looked at first, by where the name's bytes are, which
// costs a multiplication where hashing the text costs a loop and the
// comparison of two copies of the text. An entry keeps its name, so the
// bytes it points to cannot be freed and reused for another name while
// it is there: the same address and length are the same text.
var slotByText [4096]atomic.Pointer[slotEntry]

// slotPtrCacheAt is where a name's entry in slotByText may be: one of two
// neighbours, as slotCacheAt.
func slotPtrCacheAt(name string) (a, b *atomic.Pointer[slotEntry]) {
	i := (uint64(uintptr(unsafe.Pointer(unsafe.StringData(name)))) * 0x9E3779B97F4A7C15) >> (64 - 12)
	return &slotByText[i], &slotByText[i^1]
}

// rememberedAt is remembered of entries in slotByText: the same bytes.
func rememberedAt(slots *dsl.Slots, name string, a, b *atomic.Pointer[slotEntry]) (int, bool) {
	if e := a.Load(); e != nil && e.slots == slots && sameText(e.name, name) {
		return e.slot, true
	}
	if e := b.Load(); e != nil && e.slots == slots && sameText(e.name, name) {
		return e.slot, true
	}
	return 0, false
}

// sameText reports whether two strings are the same bytes in memory.
func sameText(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}
