package interpreter

// This file remembers, for the length of a run, whether some model holds
// the feature of an `as any` effect (`reroll any` of a skill or power,
// `instead_of … as any`): every roll and test asks it of the re-rolls of
// any roll, every hook of its target of the others, and the answer is a
// scan of every model.
//
// The answer is kept only where nothing the run may do can change it: the
// feature is held by its model's list alone (nothing grants it), and no
// statement the run's root may run (with all it calls, the effects on
// it, and the effects that fire anywhere: writes.go) sets that list,
// adds the feature to it or removes it, edits a list of models or gangs,
// or writes a field it cannot name. Go code writes no such
// list (goWrittenFields, kept by TestGoWritesAreListed).

import (
	"github.com/munda-rules/munda/dsl"
)

// anyHeld is a run's memory of anyHolder, by the effect's anyBit.
type anyHeld struct {
	looked bool   // fixed is found
	fixed  uint64 // the effects whose answer the run cannot change
	known  uint64 // the effects asked so far, of fixed
	yes    uint64 // of known, those some model holds
}

// noteAnyScoped gives ef its anyBit if it is an `as any` effect whose
// holders are the models listing its feature, while bits are left.
func (p *Program) noteAnyScoped(ef *effect) {
	info := ef.info
	if info.Role != dsl.RoleAny || info.Feature == nil || len(ef.grants) > 0 || len(p.anyScoped) >= 64 {
		return
	}
	if listedField(info.Feature.Kind) == "" || listedBy(info.Feature.Kind) == nil {
		return
	}
	ef.anyBit = 1 << len(p.anyScoped)
	p.anyScoped = append(p.anyScoped, ef)
}

// anyHolderAt is anyHolder, remembered where the run cannot change it.
func (r *runner) anyHolderAt(ef *effect) bool {
	if held, known := r.anyHeldKnown(ef); known {
		return held
	}
	return r.anyHolder(ef)
}

// anyHeldKnown is whether some model holds ef's feature, and whether the
// run knows it for good (asking once where it can).
func (r *runner) anyHeldKnown(ef *effect) (held, known bool) {
	bit := ef.anyBit
	if bit == 0 {
		return false, false
	}
	h := &r.held
	if !h.looked {
		h.looked, h.fixed = true, r.p.anyFixedOf(r.root)
	}
	if h.fixed&bit == 0 {
		return false, false
	}
	if h.known&bit == 0 {
		h.known |= bit
		if r.anyHolder(ef) {
			h.yes |= bit
		}
	}
	return h.yes&bit != 0, true
}

// anyFixedOf is the anyBits of p.anyScoped a run of root cannot change
// the holders of (see the file's comment): none for a root of no summary.
func (p *Program) anyFixedOf(root any) uint64 {
	if v, ok := p.anyFixed.Load(root); ok { // by pointer: no key is built
		return v.(uint64)
	}
	// The write summaries cost about as much as loading a tenth of the
	// rules: a program that runs a few times (a command's one run) does
	// without, one that runs many (Monte Carlo, tests) finds them.
	if len(p.anyScoped) == 0 || p.anyRuns.Add(1) <= anyFixedAfterRuns {
		return 0
	}
	var key string
	switch x := root.(type) {
	case *dsl.ProcInfo:
		key = "p:" + x.ID
	case *dsl.ActionInfo:
		key = "a:" + x.ID
	case *dsl.TableInfo:
		key = "t:" + x.ID
	default:
		return 0
	}
	w := p.writes()
	s := &nameSet{slots: w.slots}
	s.unionFields(&w.always)
	s.unionFields(&w.every)
	if o := w.called[key]; o != nil {
		s.unionFields(o)
	} else {
		s.setAllFields()
	}
	if o := w.owner[key[2:]]; o != nil {
		s.unionFields(o)
	}
	var fixed uint64
	for _, ef := range p.anyScoped {
		field := listedField(ef.info.Feature.Kind)
		if unwritten(s, field, ef.info.Feature.ID.Name) && unwritten(s, "models", "") && unwritten(s, "gangs", "") {
			fixed |= ef.anyBit
		}
	}
	v, _ := p.anyFixed.LoadOrStore(root, fixed)
	return v.(uint64)
}

// anyFixedAfterRuns is how many runs do without remembering holders
// before a program finds which it can remember (tests make it 0, so
// that every run of theirs remembers).
var anyFixedAfterRuns int64 = 8

// listedField is the rules' name of the model's list listedBy reads.
func listedField(kind string) string {
	switch kind {
	case "skill":
		return "skills"
	case "power":
		return "powers"
	case "condition":
		return "conditions"
	}
	return ""
}

// unwritten reports whether the writes s hold leave whether a field
// holds item alone: the field is not set, item not added to it or removed
// from it (other items may be: `add fearsome to fighter.skills` leaves
// who holds future_sight alone; item "" stands for any), and no field is
// written blindly.
func unwritten(s *nameSet, field, item string) bool {
	if s.allFields || s.fields.has(s.slots, field) {
		return false
	}
	items, edited := s.members[field]
	if !edited {
		return true
	}
	return item != "" && !items.has(s.slots, item)
}
