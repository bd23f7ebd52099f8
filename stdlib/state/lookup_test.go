package state

import "testing"

// TestBearer: the model that carries a weapon is found by the weapon
// itself, not by its id (two fighters may each carry a "lasgun").
func TestBearer(t *testing.T) {
	a := &Weapon{ID: "lasgun"}
	b := &Weapon{ID: "lasgun"}
	loose := &Weapon{ID: "lasgun"}
	one := &Model{ID: "one", Weapons: []*Weapon{a}}
	two := &Model{ID: "two", Weapons: []*Weapon{{ID: "knife"}, b}}
	st := &State{Gangs: []*Gang{{ID: "g", Models: []*Model{one}}, {ID: "h", Models: []*Model{two}}}}
	for _, c := range []struct {
		name string
		st   *State
		w    *Weapon
		want *Model
	}{
		{"first gang's", st, a, one},
		{"same id, another model's", st, b, two},
		{"carried by nobody", st, loose, nil},
		{"no weapon", st, nil, nil},
		{"no state", nil, a, nil},
	} {
		if got := c.st.Bearer(c.w); got != c.want {
			t.Errorf("%s: Bearer = %v, want %v", c.name, got, c.want)
		}
	}
}
