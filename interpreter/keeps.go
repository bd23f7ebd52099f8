package interpreter

// This file is the hash's side of reading by model (bymodel.go): at a
// checkpoint, the models the variables of the rest of the run reach, and
// the droppable fields read of each, which the hash keeps whatever the
// plan of fields.go leaves out.

import (
	"unsafe"

	"github.com/munda-rules/munda/stdlib/state"
)

// modelKeep is a model some variable reaches at a checkpoint, with the
// droppable fields read of it: whole, or asked whether they hold items.
type modelKeep struct {
	m     *state.Model
	whole uint64
	items []keepItems
}

// keepItems are items a field of a model is asked whether it holds.
type keepItems struct {
	bit   int
	items []string
}

// keeps are the models the variables of at.via reach at this checkpoint,
// with what is read of each, into h.keep.
func (h *hasher) keeps(levels []ckLevel, vias []viaAt) {
	h.keep = h.keep[:0]
	add := func(v any, via *viaAt) {
		m, ok := v.(*state.Model)
		if !ok || m == nil {
			return
		}
		at := -1
		for i := range h.keep {
			if h.keep[i].m == m {
				at = i
			}
		}
		if at < 0 {
			h.keep = append(h.keep, modelKeep{m: m})
			at = len(h.keep) - 1
		}
		k := &h.keep[at]
		k.whole |= via.reads.whole
		for b, items := range via.items {
			k.items = append(k.items, keepItems{bit: b, items: items})
		}
	}
	for i := range vias {
		via := &vias[i]
		f := levels[via.level].f
		if v, ok := f.getSlot(via.slot); ok {
			add(v, via)
		}
		// The values a block running hides, back when it ends.
		for j := via.level; j < len(levels) && levels[j].f == f; j++ {
			if sc := levels[j].sc; sc != nil {
				for _, hidden := range sc.hidden {
					if hidden.name == via.name {
						add(hidden.value, via)
					}
				}
			}
		}
		for _, li := range via.loops {
			loop := &levels[li].loop
			for j := loop.index + 1; j < len(loop.items); j++ {
				add(loop.items[j], via)
			}
			if loop.hadOld {
				add(loop.old, via)
			}
		}
	}
}

// keepOf is what h.keep says of the model at p, or nil.
func (h *hasher) keepOf(m *state.Model) *modelKeep {
	for i := range h.keep {
		if h.keep[i].m == m {
			return &h.keep[i]
		}
	}
	return nil
}

// keptCounts hashes, for a field of bit b that the plan leaves out or
// hashes as counts of some items, the counts of the items a variable
// reaching the model asks it for (q is the field, a list of ids: items
// are kept of those alone).
func (h *hasher) keptCounts(k *modelKeep, b int, q unsafe.Pointer) {
	for _, it := range k.items {
		if it.bit == b {
			h.counts(*(*[]string)(q), it.items)
		}
	}
}
