package state

import "math"

// Distance is the distance in inches between the closest points of two
// models' (round) bases; 0 when they touch or overlap.
func Distance(a, b *Model) float64 {
	if a == nil || b == nil {
		return math.Inf(1)
	}
	const mmPerInch = 25.4
	d := math.Hypot(a.X-b.X, a.Y-b.Y) - (a.Base+b.Base)/2/mmPerInch
	if d < 0 {
		return 0
	}
	return d
}

// Gang finds a gang by id.
func (s *State) Gang(id string) *Gang {
	for _, g := range s.Gangs {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// Model finds a model by id.
func (s *State) Model(id string) *Model {
	for _, g := range s.Gangs {
		for _, m := range g.Models {
			if m.ID == id {
				return m
			}
		}
	}
	return nil
}

// Bearer is the model that carries the weapon (the same weapon, not one
// of the same id), or nil.
func (s *State) Bearer(w *Weapon) *Model {
	if s == nil || w == nil {
		return nil
	}
	for _, g := range s.Gangs {
		for _, m := range g.Models {
			for _, mw := range m.Weapons {
				if mw == w {
					return m
				}
			}
		}
	}
	return nil
}

// Friends are the other models of m's gang, in the gang's order. The list
// is computed once per model and reused: rules ask for it inside loops
// over every model. (A gang's models do not change during a run.)
func (m *Model) Friends() []*Model {
	if m == nil || m.Gang == nil {
		return nil
	}
	if m.friends != nil && len(m.friends) == len(m.Gang.Models)-1 && (len(m.friends) == 0 || m.friends[0].Gang == m.Gang) {
		return m.friends
	}
	out := make([]*Model, 0, len(m.Gang.Models))
	for _, o := range m.Gang.Models {
		if o != m {
			out = append(out, o)
		}
	}
	m.friends = out
	return out
}

// InArc reports whether b's base centre lies within the arc of that many
// degrees centred on a's facing, seen from a's base centre. A model with
// no facing has no arc; a model is never in its own arc. The arc's edges
// count as inside.
func InArc(a, b *Model, degrees float64) bool {
	if a == nil || b == nil || a == b || a.Facing == nil {
		return false
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	if dx == 0 && dy == 0 {
		return true // on a's centre: in every arc
	}
	bearing := math.Atan2(dy, dx) * 180 / math.Pi
	off := math.Mod(bearing-*a.Facing, 360)
	if off > 180 {
		off -= 360
	} else if off < -180 {
		off += 360
	}
	return math.Abs(off) <= degrees/2+1e-9
}
