package playground

import "github.com/munda-rules/munda/stdlib/state"

// IDsRequest asks what a state's parameters may name.
type IDsRequest struct {
	State string `json:"state"`
}

// IDsAnswer lists the ids a state holds, by the type of parameter that
// takes them, for the page to offer: gang, model and weapon.
type IDsAnswer map[string][]Named

// Named is an id and what people call it.
type Named struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// ids reads a state (without the rules: only its shape matters here) and
// lists its gangs, models and weapons. A state that does not read has no
// ids; the run says why.
func (p *Playground) ids(req IDsRequest) (IDsAnswer, *Error) {
	out := IDsAnswer{"gang": {}, "model": {}, "weapon": {}}
	if len(req.State) > MaxStateBytes {
		return out, nil
	}
	st, err := state.Decode(StateName, []byte(req.State))
	if err != nil {
		return out, nil
	}
	seen := map[string]bool{}
	for _, g := range st.Gangs {
		out["gang"] = append(out["gang"], Named{ID: g.ID, Name: g.Name})
		for _, m := range g.Models {
			out["model"] = append(out["model"], Named{ID: m.ID, Name: m.Name})
			for _, w := range m.Weapons {
				if !seen[w.ID] && w.ID != "" {
					seen[w.ID] = true
					out["weapon"] = append(out["weapon"], Named{ID: w.ID, Name: w.Name})
				}
			}
		}
	}
	return out, nil
}
