package fastexpr

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/expr-lang/expr/vm/runtime"
	"github.com/munda-rules/munda/stdlib/slab"
)

// maxPredicateDepth bounds nested predicates (any(…, any(…, #))) that a
// closure supports; deeper ones fall back to the VM.
const maxPredicateDepth = 8

// memoryBudget is expr's vm.VM default budget (conf.DefaultMemoryBudget):
// the VM counts the items of every list it builds (array literals, filter
// and map results) and fails at this many. Closures count the same way.
const memoryBudget = 1e6

// frame is one evaluation: the environment, the current item of each
// enclosing predicate, and the memory counted so far.
type frame struct {
	env   map[string]any
	slots []any // the variables of a slot-compiled expression (CompileSlots)
	items [maxPredicateDepth]any
	// fills are the lists of a RegisterListFill function's items, one for
	// each predicate depth, kept from one run to the next (views.go).
	fills  [maxPredicateDepth][]unsafe.Pointer
	memory uint
	vars   []any // let variables' slots
	args   []any // the arguments of the calls under way
	// The lists the closures make (filter, map, uniq, [a, b]) and their
	// boxes are cut from slabs the frame keeps between evaluations: a
	// list is a value of the rules, kept as long as they like, and a
	// slab never hands out the same memory twice, unless the Frames'
	// owner says nothing made is kept any more (Frames.Rewind).
	lists slab.Slab[any]
	boxes slab.Slab[[]any]
	strs  slab.Slab[string]
	// maps are the maps map literals made since the frames began to
	// rewind, maps[:nextMap] in use (newMap)
	maps      []map[string]any
	nextMap   int
	rewinding bool
	// sorter is sortBy's list and keys while sort.Sort runs
	sorter runtime.SortBy
	// the text string + string makes (concatText)
	bytes slab.Slab[byte]
	// the lists of pointers a list fill's call makes, and their boxes
	// (fillCall), and the list it fills first
	ptrs     slab.Slab[unsafe.Pointer]
	ptrLists slab.Slab[[]unsafe.Pointer]
	filled   []unsafe.Pointer
	// ranges (a..b) and their boxes
	ints     slab.Slab[int]
	intLists slab.Slab[[]int]
}

// newMap is a new map for a map literal: once the frames rewind, one a
// literal made before the last Rewind, emptied, as a slab's arrays are.
func (fr *frame) newMap() map[string]any {
	if !fr.rewinding {
		return make(map[string]any)
	}
	if fr.nextMap < len(fr.maps) {
		m := fr.maps[fr.nextMap]
		fr.nextMap++
		return m
	}
	m := make(map[string]any)
	fr.maps = append(fr.maps, m)
	fr.nextMap++
	return m
}

// rewindMaps takes back the maps made since the last Rewind, emptied;
// forgetMaps gives them up for good.
func (fr *frame) rewindMaps() {
	for _, m := range fr.maps[:fr.nextMap] {
		clear(m)
	}
	fr.nextMap, fr.rewinding = 0, true
}

func (fr *frame) forgetMaps() { fr.maps, fr.nextMap, fr.rewinding = nil, 0, false }

// list is make([]any, n) from the frame's slab.
func (fr *frame) list(n int) []any { return fr.lists.Make(n) }

// boxString is any(s), boxed in the frame's slab.
func (fr *frame) boxString(s string) any { return fr.strs.Box(s) }

// boxList is any(l), boxed in the frame's slab.
func (fr *frame) boxList(l []any) any { return fr.boxes.Box(l) }

// popArgs drops the arguments above base, clearing them for the GC.
func (fr *frame) popArgs(base int) {
	clear(fr.args[base:])
	fr.args = fr.args[:base]
}

// grow counts n list items against the budget, as vm.VM.memGrow does.
func (fr *frame) grow(n int) error {
	fr.memory += uint(n)
	if fr.memory >= memoryBudget {
		return errMemory
	}
	return nil
}

// errFailed marks a closure that cannot give the VM's value here; the
// caller runs the VM, which gives expr's own error (or, where the closure
// was merely cautious, the value).
var (
	errFailed = errors.New("fastexpr: run the VM")
	errMemory = errors.New("fastexpr: memory budget exceeded")
)

var framePool = sync.Pool{New: func() any { return new(frame) }}
