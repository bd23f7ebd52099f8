package dsl

import "github.com/munda-rules/munda/stdlib/state"

// AvailableActionsWhole is AvailableActions with every action's condition
// evaluated whole, as before the menu's conjuncts were shared: the
// reference the shared menu is compared with (menuplan_test.go).
func (idx *Index) AvailableActionsWhole(st *state.State, m *state.Model) ([]string, error) {
	out := []string{}
	p := getSlots(firstParamSlot + idx.menuParams())
	defer putSlots(p)
	vals := *p
	fillGlobals(vals, st)
	for _, a := range idx.Menu {
		ok, err := a.availableIn(vals, m, nil)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, a.ID)
		}
	}
	return out, nil
}

// MenuShared is how many conjuncts the menu shares between its actions,
// and how many actions ask their condition as a chain.
func (idx *Index) MenuShared() (shared, chained int) {
	if idx.menuPlan == nil {
		return 0, 0
	}
	for _, c := range idx.menuPlan.chains {
		if c.action != nil {
			chained++
		}
	}
	return idx.menuPlan.shared, chained
}
