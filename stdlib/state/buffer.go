package state

// Buffer is the memory of one state, reused for copy after copy: Monte
// Carlo runs a procedure thousands of times on a fresh copy of the same
// state, and a Clone per run is a dozen allocations and their garbage.
// The zero Buffer is ready to use; it is not safe for concurrent use (a
// worker keeps its own).
type Buffer struct {
	state    *State
	blocks   clonePools // full-size blocks, carved afresh by each copy
	recorded map[string]any
}

// CopyInto makes a deep copy of s in buf's memory, equal to s.Clone(),
// and returns it. The copy made before in buf is overwritten, wherever a
// run has changed it: every gang, model, weapon, list of strings and
// answer recorded is laid out again from s in buf's own blocks (lists a
// run grew since were allocated by it, and are dropped), so whatever the
// run did to the old copy (lists shared between fields included) cannot
// leak into the new. Lists are carved full, as by Clone, so appending to
// one of the copy reallocates it. The blocks grow when s needs more.
func (s *State) CopyInto(buf *Buffer) *State {
	if s == nil {
		return nil
	}
	n := s.sizes()
	if !buf.blocks.fits(n) {
		buf.blocks = n.roomy().alloc()
	}
	var recorded map[string]any
	if s.Battle.Recorded != nil {
		if buf.recorded == nil {
			buf.recorded = make(map[string]any, len(s.Battle.Recorded))
		}
		clear(buf.recorded)
		for k, v := range s.Battle.Recorded {
			buf.recorded[k] = cloneValue(v)
		}
		recorded = buf.recorded
	}
	if buf.state == nil {
		buf.state = new(State)
	}
	s.copyWith(buf.state, buf.blocks, recorded)
	return buf.state
}

// roomy is n with room to grow: the states copied into one buffer differ
// (a run adds conditions, marks, durations), and blocks made at one's
// exact size were made again at the next one's.
func (n poolSizes) roomy() poolSizes {
	more := func(k int) int { return k + k/4 + 2 }
	return poolSizes{gangs: n.gangs, models: n.models, weapons: more(n.weapons), armour: more(n.armour),
		markers: more(n.markers), durations: more(n.durations), strings: more(n.strings)}
}

// Release gives up the copy last made to whoever still holds it (a value
// that points into it, kept as an outcome): the buffer forgets its memory,
// and the next CopyInto allocates afresh.
func (buf *Buffer) Release() {
	*buf = Buffer{}
}
