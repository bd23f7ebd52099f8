package stdlib

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/stdlib/state"
)

// Function is a built-in function that expressions may call. Each has typed
// signatures, so expr checks calls when the rules are checked, not when
// they run.
type Function struct {
	Name string
	Doc  string
	// Types are the signatures, as new(func(…) …) values.
	Types []any
	Fn    func(args ...any) (any, error)
	// NeedsState functions get the battle state as a hidden first argument
	// (see StatePatch); rules write gang("goliaths"), not gang(state, …).
	NeedsState bool
}

// StateVar is the name under which the state is in every expression's
// environment, for the functions that need it.
const StateVar = "state"

// Functions lists the built-ins. They are generic vocabulary (measuring,
// looking things up); anything that is a rule of the game is a `function`
// declaration in a rule file instead.
var Functions = []Function{
	{
		Name: "gang", Doc: "gang(id) is the gang with that id.",
		Types: []any{new(func(*state.State, string) *state.Gang)}, NeedsState: true,
		Fn: func(args ...any) (any, error) {
			st, id := stateArg(args[0]), stringArg(args[1])
			if g := st.Gang(id); g != nil {
				return g, nil
			}
			return nil, fmt.Errorf("no gang has the id %q", id)
		},
	},
	{
		Name: "model", Doc: "model(id) is the model with that id.",
		Types: []any{new(func(*state.State, string) *state.Model)}, NeedsState: true,
		Fn: func(args ...any) (any, error) {
			st, id := stateArg(args[0]), stringArg(args[1])
			if m := st.Model(id); m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("no model has the id %q", id)
		},
	},
	{
		Name: "models", Doc: "models() are every model of every gang.",
		Types: []any{new(func(*state.State) []*state.Model)}, NeedsState: true,
		Fn: func(args ...any) (any, error) {
			st := stateArg(args[0])
			n := 0
			for _, g := range st.Gangs {
				n += len(g.Models)
			}
			if n == 0 {
				return []*state.Model(nil), nil
			}
			out := make([]*state.Model, 0, n) // once, at its length
			for _, g := range st.Gangs {
				out = append(out, g.Models...)
			}
			return out, nil
		},
	},
	{
		Name: "distance", Doc: "distance(a, b) is the distance in inches between the closest points of two models' bases.",
		Types: []any{new(func(*state.Model, *state.Model) float64)},
		Fn: func(args ...any) (any, error) {
			return state.Distance(modelArg(args[0]), modelArg(args[1])), nil
		},
	},
	{
		Name: "within", Doc: "within(a, b, inches) is true when b is within that many inches of a (closest points of bases).",
		Types: []any{new(func(*state.Model, *state.Model, int) bool), new(func(*state.Model, *state.Model, float64) bool)},
		Fn:    func(args ...any) (any, error) { return Within(args[0], args[1], args[2]), nil },
	},
	{
		Name: "has_facing", Doc: "has_facing(m) is true when the state gives the model a facing (position.facing, in degrees).",
		Types: []any{new(func(*state.Model) bool)},
		Fn: func(args ...any) (any, error) {
			m := modelArg(args[0])
			return m != nil && m.Facing != nil, nil
		},
	},
	{
		Name: "in_arc", Doc: "in_arc(a, b, degrees) is true when b's base centre lies within the arc of that many degrees centred on a's facing (false when a has no facing).",
		Types: []any{new(func(*state.Model, *state.Model, int) bool), new(func(*state.Model, *state.Model, float64) bool)},
		Fn: func(args ...any) (any, error) {
			return state.InArc(modelArg(args[0]), modelArg(args[1]), toFloat(args[2])), nil
		},
	},
	{
		Name: "friends", Doc: "friends(m) are the other models of m's gang.",
		Types: []any{new(func(*state.Model) []*state.Model)},
		Fn: func(args ...any) (any, error) {
			return modelArg(args[0]).Friends(), nil
		},
	},
	{
		Name: "enemies", Doc: "enemies(m) are the models of every other gang.",
		Types: []any{new(func(*state.Model) []*state.Model)},
		Fn: func(args ...any) (any, error) {
			m := modelArg(args[0])
			var out []*state.Model
			if m != nil && m.Gang != nil && m.Gang.State != nil {
				for _, g := range m.Gang.State.Gangs {
					if g != m.Gang {
						out = append(out, g.Models...)
					}
				}
			}
			return out, nil
		},
	},
	{
		Name: "has_skill", Doc: "has_skill(m, id) is true when the model has the skill (granted ones too).",
		Types: []any{new(func(*state.State, *state.Model, string) bool)}, NeedsState: true,
		Fn: func(args ...any) (any, error) { return holds(args, "skill") },
	},
	{
		Name: "has_power", Doc: "has_power(m, id) is true when the model knows the wyrd power (granted ones too).",
		Types: []any{new(func(*state.State, *state.Model, string) bool)}, NeedsState: true,
		Fn: func(args ...any) (any, error) { return holds(args, "power") },
	},
	{
		Name: "has_condition", Doc: "has_condition(m, id) is true when the model is subject to the condition (granted ones too).",
		Types: []any{new(func(*state.State, *state.Model, string) bool)}, NeedsState: true,
		Fn: func(args ...any) (any, error) { return holds(args, "condition") },
	},
	{
		Name: "has_rule", Doc: "has_rule(m, id) is true when the model has the special rule.",
		Types: []any{new(func(*state.Model, string) bool)},
		Fn: func(args ...any) (any, error) {
			m := modelArg(args[0])
			return m != nil && contains(m.Rules, stringArg(args[1])), nil
		},
	},
	{
		Name: "has_trait", Doc: "has_trait(w, id) is true when the weapon has the trait, written id or, with a value, id(X) (granted ones too).",
		Types: []any{new(func(*state.State, *state.Weapon, string) bool)}, NeedsState: true,
		Fn: func(args ...any) (any, error) { return holds(args, "trait") },
	},
	{
		Name: "stat", Doc: "stat(x, field) is the value every rule reads for a model's characteristic (its stats field: \"ws\") or a weapon's profile number (\"s\", \"ap\", \"d\", \"am\", \"range_short\", …): the state's, changed by the effects in force.",
		Types: []any{new(func(*state.State, *state.Model, string) int), new(func(*state.State, *state.Weapon, string) int)}, NeedsState: true,
		Fn: func(args ...any) (any, error) {
			st, field := stateArg(args[0]), stringArg(args[2])
			if args[1] == nil || args[1] == (*state.Model)(nil) || args[1] == (*state.Weapon)(nil) {
				return nil, fmt.Errorf("stat(…, %q) of nothing: no model or weapon given", field)
			}
			if st != nil && st.Effects != nil {
				return st.Effects.Stat(args[1], field)
			}
			return BaseStat(args[1], field)
		},
	},
	{
		Name: "bearer", Doc: "bearer(w) is the model that carries the weapon (a trait that acts only in some hands: has_skill(bearer(weapon), \"…\")).",
		Types: []any{new(func(*state.State, *state.Weapon) *state.Model)}, NeedsState: true,
		Fn: func(args ...any) (any, error) {
			st, w := stateArg(args[0]), weaponArg(args[1])
			if w == nil {
				return nil, fmt.Errorf("bearer of nothing: no weapon given")
			}
			if m := st.Bearer(w); m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("no model carries the weapon %q", w.ID)
		},
	},
	{
		Name: "weapon_of", Doc: "weapon_of(profile) is a weapon built from a map of a state file's weapon fields ({id, name, s, ap, d, traits, …}), carried by no model: a profile the rules hold as data.",
		Types: []any{new(func(map[string]any) *state.Weapon)},
		Fn: func(args ...any) (any, error) {
			profile, _ := args[0].(map[string]any)
			return weaponOf(profile)
		},
	},
	{
		Name: "trait_value", Doc: "trait_value(w, id) is X of a trait written id(X), 0 if the weapon lacks it.",
		Types: []any{new(func(*state.Weapon, string) int)},
		Fn: func(args ...any) (any, error) {
			w := weaponArg(args[0])
			if w == nil {
				return 0, nil
			}
			v, _ := traitValue(w.Traits, stringArg(args[1]))
			return v, nil
		},
	},
}

// DisabledBuiltins are expr's built-ins that rules may not call: rules may
// not read the clock, as results must not depend on it.
var DisabledBuiltins = []string{"now", "date", "timezone"}

// ExprOptions are the expr options every expression is compiled with: the
// built-in functions and no clock. Add a StatePatch naming every function
// that takes the state (StateFunctions plus any declared in rules).
func ExprOptions() []expr.Option {
	var opts []expr.Option
	for _, name := range DisabledBuiltins {
		opts = append(opts, expr.DisableBuiltin(name))
	}
	for _, f := range Functions {
		opts = append(opts, expr.Function(f.Name, f.Fn, f.Types...))
	}
	return append(opts, boundedOptions()...)
}

// FunctionNames lists built-in function names (for did-you-mean).
func FunctionNames() []string {
	names := make([]string, len(Functions))
	for i, f := range Functions {
		names[i] = f.Name
	}
	return names
}

// StateFunctions returns the names of the built-ins that take the state.
func StateFunctions() map[string]bool {
	m := map[string]bool{}
	for _, f := range Functions {
		if f.NeedsState {
			m[f.Name] = true
		}
	}
	return m
}

// StatePatch passes the state as the hidden first argument of the named
// functions.
type StatePatch struct {
	Names map[string]bool
}

// Visit implements ast.Visitor.
func (p StatePatch) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	ident, ok := call.Callee.(*ast.IdentifierNode)
	if !ok || !p.Names[ident.Value] {
		return
	}
	if len(call.Arguments) > 0 {
		if first, ok := call.Arguments[0].(*ast.IdentifierNode); ok && first.Value == StateVar {
			return // already patched
		}
	}
	state := &ast.IdentifierNode{Value: StateVar}
	state.SetLocation(call.Location())
	call.Arguments = append([]ast.Node{state}, call.Arguments...)
}

// holds answers has_skill and its kin: through the run's effects when
// there is a run, else from the state's lists.
func holds(args []any, kind string) (bool, error) {
	st, x, id := stateArg(args[0]), args[1], stringArg(args[2])
	if st != nil && st.Effects != nil {
		if m, ok := x.(*state.Model); ok && m == nil {
			return false, nil
		}
		if w, ok := x.(*state.Weapon); ok && w == nil {
			return false, nil
		}
		if x == nil {
			return false, nil
		}
		return st.Effects.Holds(x, kind, id)
	}
	return Listed(x, kind, id), nil
}

// Listed reports whether the state's own lists give x (a model or
// weapon) the feature: its skills, powers, conditions or traits.
func Listed(x any, kind, id string) bool {
	switch x := x.(type) {
	case *state.Model:
		if x == nil {
			return false
		}
		switch kind {
		case "skill":
			return contains(x.Skills, id)
		case "power":
			return contains(x.Powers, id)
		case "condition":
			return contains(x.Conditions, id)
		}
	case *state.Weapon:
		if x == nil || kind != "trait" {
			return false
		}
		_, ok := traitValue(x.Traits, id)
		return ok
	}
	return false
}

// BaseStat is x's field as the state writes it.
func BaseStat(x any, field string) (int, error) {
	switch x := x.(type) {
	case *state.Model:
		if x != nil {
			if v, ok := x.Stat(field); ok {
				return v, nil
			}
			return 0, fmt.Errorf("a model has no characteristic %q", field)
		}
	case *state.Weapon:
		if x != nil {
			if x.NoProfile {
				return 0, fmt.Errorf("weapon %s has no known profile", x.Name)
			}
			if v, ok := x.Profile(field); ok {
				return v, nil
			}
			return 0, fmt.Errorf("a weapon's profile has no %q (it has %s)", field, strings.Join(state.ProfileFields, ", "))
		}
	}
	return 0, fmt.Errorf("stat(…, %q) of nothing: no model or weapon given", field)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// traitValue finds trait id in a list of "id" or "id(X)" entries.
func traitValue(traits []string, id string) (int, bool) {
	for _, t := range traits {
		name, arg, hasArg := strings.Cut(t, "(")
		if strings.TrimSpace(name) != id {
			continue
		}
		if !hasArg {
			return 0, true
		}
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(arg, ")")))
		return n, true
	}
	return 0, false
}

// Within is within(a, b, inches) of the rules: b is within that many
// inches of a, closest points of their bases (a nil model is at no
// distance from anything, as Distance says).
func Within(a, b, inches any) bool {
	return state.Within(modelArg(a), modelArg(b), toFloat(inches))
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// modelArg, weaponArg and stateArg take an argument that may be nil: a
// rule's `nil` reaches a function as an untyped nil, which a plain type
// assertion would panic on.
func modelArg(v any) *state.Model {
	m, _ := v.(*state.Model)
	return m
}

func weaponArg(v any) *state.Weapon {
	w, _ := v.(*state.Weapon)
	return w
}

func stateArg(v any) *state.State {
	st, _ := v.(*state.State)
	return st
}

func stringArg(v any) string {
	s, _ := v.(string)
	return s
}
