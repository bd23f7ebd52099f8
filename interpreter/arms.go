package interpreter

import (
	"fmt"

	"github.com/munda-rules/munda/stdlib/state"
)

// Rules arm a model by setting its weapons: `set psyker.weapons =
// concat(psyker.weapons, [weapon_of({id: "scouring", …})])` while a power
// lasts, and `filter(psyker.weapons, .id != "scouring")` when it ends.
// The model then carries the weapon as if the state said so: actions
// choose it, bearer() finds it, the state written after the run holds it.

// checkArms checks the weapons a rule is about to give model m: each one
// m already carries or one no model carries (weapon_of builds those), a
// valid profile, and ids that do not repeat, since rules and players
// name a model's weapons by id.
func checkArms(st *state.State, holder any, arms []*state.Weapon) error {
	m, ok := holder.(*state.Model)
	if !ok {
		return fmt.Errorf("only a model carries weapons")
	}
	seen := make(map[string]bool, len(arms))
	for _, w := range arms {
		if w == nil {
			return fmt.Errorf("a weapon is nothing")
		}
		if w.ID == "" {
			return fmt.Errorf("a weapon needs an id")
		}
		if seen[w.ID] {
			return fmt.Errorf("%s would carry two weapons of id %q", m.Name, w.ID)
		}
		seen[w.ID] = true
		if b := st.Bearer(w); b != nil && b != m {
			return fmt.Errorf("%s carries %s: give %s a weapon of its own (weapon_of)", b.Name, w.Name, m.Name)
		}
		if err := state.ValidateWeapon(w); err != nil {
			return fmt.Errorf("weapon %s: %v", w.ID, err)
		}
	}
	return nil
}
