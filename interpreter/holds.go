package interpreter

import (
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// holds reports whether x (a model or a weapon) holds the feature of a
// kind (skill, power, condition: a model's; trait: a weapon's, written id
// or, with a value, id(X)), reading the state's lists.
func (r *runner) holds(x any, kind, id string) bool {
	switch x := x.(type) {
	case *state.Model:
		if x == nil {
			return false
		}
		switch kind {
		case "skill":
			return hasID(x.Skills, id)
		case "power":
			return hasID(x.Powers, id)
		case "condition":
			return hasID(x.Conditions, id)
		}
	case *state.Weapon:
		if x == nil || kind != "trait" {
			return false
		}
		for _, t := range x.Traits {
			if t == id || (strings.HasPrefix(t, id+"(") && strings.HasSuffix(t, ")")) {
				return true
			}
		}
	}
	return false
}

func hasID(list []string, id string) bool {
	for _, s := range list {
		if s == id {
			return true
		}
	}
	return false
}

// candidates lists, in state order, the models (or, for traits, the
// weapons of the models) of the state that hold a feature: who an `as any`
// effect may apply for.
func (r *runner) candidates(kind, id string) []any {
	var out []any
	if r.st == nil {
		return nil
	}
	for _, g := range r.st.Gangs {
		for _, m := range g.Models {
			if kind == "trait" {
				for _, w := range m.Weapons {
					if r.holds(w, kind, id) {
						out = append(out, w)
					}
				}
			} else if r.holds(m, kind, id) {
				out = append(out, m)
			}
		}
	}
	return out
}

func noRestore() {}

// effectApplies says whether an effect applies where f stands: for an
// effect scoped to its holder's role, the model or weapon in that role
// holds the feature (for `as any`: some model or weapon of the state
// does); and the effect's when holds (true when it has none). A scoped
// effect's expressions see `holder`, bound until restore is called.
func (r *runner) effectApplies(ef *effect, when *syntax.Expr, f *frame) (ok bool, restore func(), err error) {
	if r.running[ef] {
		return false, noRestore, nil
	}
	info := ef.info
	if info.Role == "" || info.Feature == nil {
		if when == nil {
			return true, noRestore, nil
		}
		ok, err := r.evalBool(f, when)
		return ok, noRestore, err
	}
	kind, id := info.Feature.Kind, info.Feature.ID.Name
	var cands []any
	if info.Role == dsl.RoleAny {
		cands = r.candidates(kind, id)
	} else if x := f.env[info.Role]; r.holds(x, kind, id) {
		cands = []any{x}
	}
	if len(cands) == 0 {
		return false, noRestore, nil
	}
	old, had := f.env["holder"]
	restore = func() {
		if had {
			f.env["holder"] = old
		} else {
			delete(f.env, "holder")
		}
	}
	for _, x := range cands {
		f.env["holder"] = x
		if when == nil {
			return true, restore, nil
		}
		ok, err := r.evalBool(f, when)
		if err != nil {
			restore()
			return false, noRestore, err
		}
		if ok {
			return true, restore, nil
		}
	}
	restore()
	return false, noRestore, nil
}
