package interpreter

// This file hashes the state for a checkpoint by plans made once per
// type: the fields a hash reads (hashedFields), each at its offset, with
// what kind of value it holds. It writes exactly what reflectValue writes
// for the same state (TestTypedStateHashMatchesReflective compares them on
// random states and random field plans), without reflection's cost at
// every field of every model at every checkpoint. Values a plan does not
// know (the answers recorded in the battle: any text, number, list or map)
// are hashed by reflectValue. A model whose fields the field plan alone
// decides (no focus of the question, reached by no variable) is hashed by
// the plan's writes, made once for each plan (modelOps).

import (
	"encoding/binary"
	"maps"
	"math"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/munda-rules/munda/stdlib/state"
)

// hashNode is how to hash a value of one type found at some address.
type hashNode struct {
	kind   hashKind
	typ    reflect.Type
	size   uintptr     // of an element, for a slice
	elem   *hashNode   // of a pointer or a slice
	fields []hashField // of a struct
	model  bool        // a state.Model: its droppable fields follow the fieldPlan
}

// hashField is a field a hash reads: its index in the struct (for the
// droppable fields of models), where it is, and how to hash it.
type hashField struct {
	index  int
	offset uintptr
	node   *hashNode
}

type hashKind uint8

const (
	hashString hashKind = iota
	hashInt
	hashInt64
	hashInt32
	hashBool
	hashFloat64
	hashStrings // []string
	hashStruct
	hashPointer
	hashSlice
	hashRaw     // fields of 8-byte numbers next to one another: their bytes as they are
	hashReflect // any other: by reflectValue
	// only in modelOps:
	hashCounts   // a list of ids as the counts of some items (fieldPlan.counts)
	hashMultiset // a list of ids in sorted order (fieldPlan.sorted)
	hashKept     // the counts of the items a variable reaching the model asks of a field (keptCounts)
)

var (
	hashNodes   = map[reflect.Type]*hashNode{}
	hashNodesMu sync.Mutex
	stateNode   = sync.OnceValue(func() *hashNode { return hashNodeOf(stateType) })
)

// hashNodeOf is t's plan, made once.
func hashNodeOf(t reflect.Type) *hashNode {
	hashNodesMu.Lock()
	defer hashNodesMu.Unlock()
	return makeHashNode(t)
}

func makeHashNode(t reflect.Type) *hashNode {
	if n, ok := hashNodes[t]; ok {
		return n
	}
	n := &hashNode{typ: t}
	hashNodes[t] = n // before the fields: a type may hold itself
	switch t.Kind() {
	case reflect.String:
		n.kind = hashString
	case reflect.Int:
		n.kind = hashInt
	case reflect.Int64:
		n.kind = hashInt64
	case reflect.Int32:
		n.kind = hashInt32
	case reflect.Bool:
		n.kind = hashBool
	case reflect.Float64:
		n.kind = hashFloat64
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			n.kind = hashStrings
			break
		}
		n.kind, n.size, n.elem = hashSlice, t.Elem().Size(), makeHashNode(t.Elem())
	case reflect.Pointer:
		n.kind, n.elem = hashPointer, makeHashNode(t.Elem())
	case reflect.Struct:
		n.kind, n.model = hashStruct, t == modelType
		for _, i := range hashedFields(t) {
			f := t.Field(i)
			n.fields = append(n.fields, hashField{index: i, offset: f.Offset, node: makeHashNode(f.Type)})
		}
		n.fields = rawRuns(n.fields, n.model)
	default:
		n.kind = hashReflect
	}
	return n
}

// at hashes the value of n's type at p, as reflectValue would.
func (h *hasher) at(n *hashNode, p unsafe.Pointer) {
	switch n.kind {
	case hashString:
		h.str(*(*string)(p))
	case hashInt:
		h.u64(uint64(*(*int)(p)))
	case hashInt64:
		h.u64(uint64(*(*int64)(p)))
	case hashInt32:
		h.u64(uint64(int64(*(*int32)(p))))
	case hashBool:
		h.boolean(*(*bool)(p))
	case hashFloat64:
		h.u64(math.Float64bits(*(*float64)(p)))
	case hashStrings:
		h.strs(*(*[]string)(p))
	case hashStruct:
		h.structAt(n, p)
	case hashPointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			h.u64(0)
			return
		}
		h.u64(1)
		h.at(n.elem, q)
	case hashSlice:
		// A slice of any element: its header is data, len, cap.
		hdr := (*struct {
			data unsafe.Pointer
			len  int
			cap  int
		})(p)
		h.u64(uint64(hdr.len))
		for i := range hdr.len {
			h.at(n.elem, unsafe.Add(hdr.data, uintptr(i)*n.size))
		}
	case hashRaw:
		h.bytes(unsafe.String((*byte)(p), n.size))
	default:
		h.reflectValue(reflect.NewAt(n.typ, p).Elem())
	}
}

// littleEndian: u64 writes a number's bytes as memory holds them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// rawRuns joins fields that are 8-byte numbers (ints, floats) lying next
// to one another into one write of their bytes, which is what u64 writes
// for each on a little-endian machine (a model's characteristics are
// eighteen of them). The droppable fields of a model stay on their own.
func rawRuns(fields []hashField, model bool) []hashField {
	if !littleEndian {
		return fields
	}
	raw := func(f hashField) bool {
		switch f.node.kind {
		case hashInt, hashInt64, hashFloat64:
			return f.node.typ.Size() == 8 && !(model && droppableBits()[f.index] >= 0)
		}
		return f.node.kind == hashRaw
	}
	var out []hashField
	for _, f := range fields {
		if k := len(out) - 1; k >= 0 && raw(f) && raw(out[k]) {
			prev := &out[k]
			size := prev.node.size
			if prev.node.kind != hashRaw {
				size = prev.node.typ.Size()
			}
			if prev.offset+size == f.offset {
				prev.node = &hashNode{kind: hashRaw, size: size + 8}
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// structAt is reflectValue's struct case; a model's by modelAt.
func (h *hasher) structAt(n *hashNode, p unsafe.Pointer) {
	if n.model {
		h.modelAt(n, p)
		return
	}
	for k := range n.fields {
		f := &n.fields[k]
		q := unsafe.Add(p, f.offset)
		// The commonest kinds here, not through at: a call for each
		// field costs more than the field.
		switch f.node.kind {
		case hashString:
			h.str(*(*string)(q))
		case hashRaw:
			h.bytes(unsafe.String((*byte)(q), f.node.size))
		case hashBool:
			h.boolean(*(*bool)(q))
		case hashStrings:
			h.strs(*(*[]string)(q))
		default:
			h.at(f.node, q)
		}
	}
}

// A model is hashed as a word that says which of its texts, flags,
// lists and pointers are not empty (a bit each, by field index; the top
// bit set: no text's length has it), then the fields in order but the
// empty ones (false, "", no items, nil; a list hashed as the counts of
// some items, when every count is 0). A model's fields are mostly
// empty: an empty one costs a test, not a write of its own. Each value
// of a field has one bit and one writing, so two models hash alike
// exactly where they did with every field written. Numbers are written
// as they are.
const modelMark = 1 << 63

// modelMaskable reports whether a model's field of this kind is left
// out when empty (its bit in the model's word says whether it is).
func modelMaskable(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool, reflect.Slice, reflect.Pointer:
		return true
	}
	return false
}

func init() {
	if modelType.NumField() >= 63 {
		panic("interpreter: a model has more fields than a hash's word has bits")
	}
}

// modelAt hashes the model at p: its droppable fields as the fieldPlan
// says, its empty ones as bits of its word (modelMark).
func (h *hasher) modelAt(n *hashNode, p unsafe.Pointer) {
	var bits []int
	focus := false
	var keep *modelKeep
	if h.plan.drop != 0 || h.plan.counts != nil || h.plan.sorted != 0 {
		bits = droppableBits()
		focus = h.plan.focusKeep != 0 && slices.Contains(h.plan.focus, *(*string)(unsafe.Add(p, modelIDOffset)))
		if len(h.keep) > 0 {
			keep = h.keepOf((*state.Model)(p))
		}
		if h.plan.model != nil && !focus && (keep == nil || h.plan.kept != nil) {
			if keep == nil {
				h.modelByOps(h.plan.model, p, nil)
			} else {
				h.modelByOps(h.plan.keptOps(keep), p, keep)
			}
			return
		}
	}
	word := h.reserve()
	mask := uint64(modelMark)
	for k := range n.fields {
		f := &n.fields[k]
		q := unsafe.Add(p, f.offset)
		bit := uint64(1) << f.index
		if bits != nil {
			if b := bits[f.index]; b >= 0 && (keep == nil || keep.whole&(1<<b) == 0) {
				if !(focus && h.plan.focusKeep&(1<<b) != 0) {
					if h.plan.drop&(1<<b) != 0 {
						if keep != nil {
							h.keptCounts(keep, b, q)
						}
						continue
					}
					if items, ok := h.plan.counts[f.index]; ok {
						if list := *(*[]string)(q); anyOf(list, items) {
							mask |= bit
							h.counts(list, items)
						}
						if keep != nil {
							h.keptCounts(keep, b, q)
						}
						continue
					}
				}
				if h.plan.sorted&(1<<b) != 0 {
					if list := *(*[]string)(q); len(list) > 0 {
						mask |= bit
						h.multiset(list)
					}
					continue
				}
			}
		}
		if bits != nil && f.index == modelStatsField {
			if drop := h.statsDropped(keep, focus); drop != 0 {
				stats := (*state.Stats)(q)
				for i, off := range statOffsets() {
					if drop&(1<<statBits()[i]) == 0 {
						h.u64(uint64(*(*int)(unsafe.Add(unsafe.Pointer(stats), off))))
					}
				}
				continue
			}
		}
		switch f.node.kind {
		case hashString:
			if s := *(*string)(q); s != "" {
				mask |= bit
				h.str(s)
			}
		case hashRaw:
			h.bytes(unsafe.String((*byte)(q), f.node.size))
		case hashBool:
			if *(*bool)(q) {
				mask |= bit // the bit says it all
			}
		case hashStrings:
			if list := *(*[]string)(q); len(list) > 0 {
				mask |= bit
				h.strs(list)
			}
		case hashSlice:
			if sliceLen(q) > 0 {
				mask |= bit
				h.at(f.node, q)
			}
		case hashPointer:
			if *(*unsafe.Pointer)(q) != nil {
				mask |= bit
				h.at(f.node, q)
			}
		default:
			h.at(f.node, q)
		}
	}
	h.putAt(word, mask)
}

// sliceLen is the length of the slice at p, whatever its elements.
func sliceLen(p unsafe.Pointer) int {
	return (*struct {
		data     unsafe.Pointer
		len, cap int
	})(p).len
}

// anyOf reports whether list holds any of items (a count of them is
// not 0).
func anyOf(list, items []string) bool {
	for _, x := range list {
		if slices.Contains(items, x) {
			return true
		}
	}
	return false
}

// modelIDOffset is where Model.ID is.
var modelIDOffset = modelType.Field(modelIDField).Offset

// statOffsets are where each field of Stats is.
var statOffsets = sync.OnceValue(func() []uintptr {
	out := make([]uintptr, statsType.NumField())
	for i := range out {
		out[i] = statsType.Field(i).Offset
	}
	return out
})

// statsDropped are the characteristics (bits of droppables) the plan
// leaves out of a model's stats, but those a variable reaching it reads
// (keep) and those the question reads of a focus model.
func (h *hasher) statsDropped(keep *modelKeep, focus bool) uint64 {
	drop := h.plan.drop & statMask()
	if keep != nil {
		drop &^= keep.whole
	}
	if focus {
		drop &^= h.plan.focusKeep
	}
	return drop
}

// modelOp is one write of a model's hash under a fieldPlan, for a model
// that is not a focus of the question and that no variable reaches (the
// plan alone decides each field): what structAt does for it, decided
// once per plan rather than at every field of every model of every hash
// (a bit, a map of counts and a list of focus models asked each time).
type modelOp struct {
	kind   hashKind
	offset uintptr
	size   uintptr   // hashRaw; hashKept: the field's bit in droppables
	node   *hashNode // kinds written by at
	items  []string  // hashCounts
	// bit: the field's bit in the model's word (modelAt), 0 for a
	// value always written
	bit uint64
}

// compileModelOps are the writes structAt makes for such a model under
// plan, with runs of raw bytes next to one another (kept characteristics,
// numbers a dropped field no longer parts) joined; nil when the plan
// leaves every field as it is.
func compileModelOps(plan fieldPlan) []modelOp {
	if plan.drop == 0 && plan.counts == nil && plan.sorted == 0 {
		return nil
	}
	return compileKeptOps(plan, 0, 0)
}

// compileKeptOps is compileModelOps for a model some variable reaches
// (modelKeep, not a focus of the question): the droppable fields of
// whole hashed whole, and, after those of kept the plan leaves out or
// counts, the counts of the items the variables ask of them.
func compileKeptOps(plan fieldPlan, whole, kept uint64) []modelOp {
	n := hashNodeOf(modelType)
	bits := droppableBits()
	var ops []modelOp
	raw := func(offset, size uintptr) {
		if k := len(ops) - 1; k >= 0 && ops[k].kind == hashRaw && ops[k].offset+ops[k].size == offset {
			ops[k].size += size
			return
		}
		ops = append(ops, modelOp{kind: hashRaw, offset: offset, size: size})
	}
	var field func(offset uintptr, node *hashNode)
	field = func(offset uintptr, node *hashNode) {
		switch {
		case node.kind == hashRaw:
			raw(offset, node.size)
		case littleEndian && (node.kind == hashInt || node.kind == hashInt64 || node.kind == hashFloat64) && node.typ.Size() == 8:
			raw(offset, 8) // what u64 writes
		case node.kind == hashStruct && !node.model:
			for _, f := range node.fields { // a struct writes its fields alone
				field(offset+f.offset, f.node)
			}
		default:
			ops = append(ops, modelOp{kind: node.kind, offset: offset, node: node})
		}
	}
	for k := range n.fields {
		f := &n.fields[k]
		bit := uint64(1) << f.index
		if b := bits[f.index]; b >= 0 && whole&(1<<b) == 0 {
			if plan.drop&(1<<b) != 0 {
				if kept&(1<<b) != 0 {
					ops = append(ops, modelOp{kind: hashKept, offset: f.offset, size: uintptr(b)})
				}
				continue
			}
			if items, ok := plan.counts[f.index]; ok {
				ops = append(ops, modelOp{kind: hashCounts, offset: f.offset, items: items, bit: bit})
				if kept&(1<<b) != 0 {
					ops = append(ops, modelOp{kind: hashKept, offset: f.offset, size: uintptr(b)})
				}
				continue
			}
			if plan.sorted&(1<<b) != 0 {
				ops = append(ops, modelOp{kind: hashMultiset, offset: f.offset, bit: bit})
				continue
			}
		}
		if f.index == modelStatsField {
			if drop := plan.drop & statMask() &^ whole; drop != 0 {
				for i, off := range statOffsets() {
					if drop&(1<<statBits()[i]) == 0 {
						raw(f.offset+off, 8)
					}
				}
				continue
			}
		}
		if f.node.kind != hashRaw && modelMaskable(f.node.typ.Kind()) {
			ops = append(ops, modelOp{kind: f.node.kind, offset: f.offset, node: f.node, bit: bit})
			continue
		}
		field(f.offset, f.node)
	}
	return ops
}

// modelOpsFor is compileModelOps(plan), made once for each plan's drops,
// sorts and counts (what it depends on): plans are made for each
// question, at each place, and most are alike. They are found by the
// plan's digest, and told apart by what they depend on should two
// digests be one.
func modelOpsFor(plan fieldPlan) []modelOp {
	if plan.drop == 0 && plan.counts == nil && plan.sorted == 0 {
		return nil
	}
	return opsMade(plan, 0, 0)
}

// opsMade is compileKeptOps(plan, whole, kept), made once for each.
func opsMade(plan fieldPlan, whole, kept uint64) []modelOp {
	alike := func(m madeOps) bool {
		return m.drop == plan.drop && m.sorted == plan.sorted && m.whole == whole && m.kept == kept &&
			maps.EqualFunc(m.counts, plan.counts, slices.Equal)
	}
	modelOpsMu.RLock()
	for _, m := range modelOpsMade[plan.digest] {
		if alike(m) {
			modelOpsMu.RUnlock()
			return m.ops
		}
	}
	modelOpsMu.RUnlock()
	ops := compileKeptOps(plan, whole, kept)
	modelOpsMu.Lock()
	defer modelOpsMu.Unlock()
	for _, m := range modelOpsMade[plan.digest] {
		if alike(m) {
			return m.ops
		}
	}
	if modelOpsMade == nil {
		modelOpsMade = map[uint64][]madeOps{}
	}
	modelOpsMade[plan.digest] = append(modelOpsMade[plan.digest], madeOps{drop: plan.drop, sorted: plan.sorted, counts: plan.counts,
		whole: whole, kept: kept, ops: ops})
	return ops
}

// keptOps are the plan's modelOps for a model a variable reaches
// (compileKeptOps), found once for each plan and what the variables
// read of the model (made once for all plans alike: opsMade).
func (plan *fieldPlan) keptOps(keep *modelKeep) []modelOp {
	var kept uint64
	for _, it := range keep.items {
		kept |= 1 << it.bit
	}
	key := [2]uint64{keep.whole, kept}
	c := plan.kept
	c.mu.Lock()
	defer c.mu.Unlock()
	if ops, ok := c.ops[key]; ok {
		return ops
	}
	if c.ops == nil {
		c.ops = map[[2]uint64][]modelOp{}
	}
	ops := opsMade(*plan, keep.whole, kept)
	c.ops[key] = ops
	return ops
}

// keptOpsMade are a plan's keptOps, by what the variables read.
type keptOpsMade struct {
	mu  sync.Mutex
	ops map[[2]uint64][]modelOp
}

// madeOps are modelOps made for a plan's drops, sorts and counts.
type madeOps struct {
	drop, sorted uint64
	whole, kept  uint64 // compileKeptOps's
	counts       map[int][]string
	ops          []modelOp
}

// modelOpsMade are the modelOps made, by their plans' digests.
var (
	modelOpsMade map[uint64][]madeOps
	modelOpsMu   sync.RWMutex
)

// modelByOps hashes the model at p by ops (compileModelOps), as modelAt
// would.
func (h *hasher) modelByOps(ops []modelOp, p unsafe.Pointer, keep *modelKeep) {
	word := h.reserve()
	mask := uint64(modelMark)
	for i := range ops {
		op := &ops[i]
		q := unsafe.Add(p, op.offset)
		switch op.kind {
		case hashRaw:
			h.bytes(unsafe.String((*byte)(q), op.size))
		case hashString:
			if s := *(*string)(q); s != "" {
				mask |= op.bit
				h.str(s)
			}
		case hashBool:
			if *(*bool)(q) {
				mask |= op.bit
			}
		case hashStrings:
			if list := *(*[]string)(q); len(list) > 0 {
				mask |= op.bit
				h.strs(list)
			}
		case hashCounts:
			if list := *(*[]string)(q); anyOf(list, op.items) {
				mask |= op.bit
				h.counts(list, op.items)
			}
		case hashMultiset:
			if list := *(*[]string)(q); len(list) > 0 {
				mask |= op.bit
				h.multiset(list)
			}
		case hashSlice:
			if sliceLen(q) > 0 {
				mask |= op.bit
				h.at(op.node, q)
			}
		case hashPointer:
			if *(*unsafe.Pointer)(q) != nil {
				mask |= op.bit
				h.at(op.node, q)
			}
		case hashKept:
			h.keptCounts(keep, int(op.size), q)
		default:
			h.at(op.node, q)
		}
	}
	h.putAt(word, mask)
}
