package dsl_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// The menu with its conjuncts shared between actions (menuplan.go) offers
// what evaluating each action's condition whole does, for every model of
// many states that reach the conditions' branches: fighters and
// vehicles, every status, Broken or not, engaged or far apart, armed or
// not, out of ammo, with the skills and beside the terrain markers the
// actions ask for. The house rules are checked too, as their
// conditions differ.
func TestMenuPlanMatchesWholeConditions(t *testing.T) {
	var houses []string
	for _, d := range rulesets.HouseDirs() {
		houses = append(houses, strings.TrimPrefix(d, "house/"))
	}
	for _, sel := range []rulesets.Selection{{SkipTests: true}, {Base: "core-2023", Houses: houses, SkipTests: true}, {Base: "legacy-2017", SkipTests: true}} {
		t.Run(sel.Base+strings.Join(sel.Houses, "+"), func(t *testing.T) {
			r, diags := rulesets.LoadShared(sel)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			idx := r.Index
			if shared, chained := idx.MenuShared(); shared == 0 || chained < len(idx.Menu)/2 {
				t.Fatalf("the menu shares %d conjuncts over %d of %d actions: the plan was not made", shared, chained, len(idx.Menu))
			}
			offered := map[string]bool{}
			for seed := uint64(0); seed < 300; seed++ {
				st := menuState(seed)
				for _, g := range st.Gangs {
					for _, m := range g.Models {
						got, err := idx.AvailableActions(st, m)
						want, werr := idx.AvailableActionsWhole(st, m)
						if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
							t.Fatalf("seed %d, %s: shared %v (%v), whole %v (%v)", seed, m.ID, got, err, want, werr)
						}
						for _, id := range got {
							offered[id] = true
						}
					}
				}
			}
			// The states reach most of the menu, so the comparison is not
			// one of empty menus.
			t.Logf("offered %d of %d", len(offered), len(idx.Menu))
			if len(offered) < len(idx.Menu)/2 {
				t.Errorf("the states offer only %d of %d actions: %v", len(offered), len(idx.Menu), offered)
			}
		})
	}
}

// menuState is a small battle drawn from seed: two or three gangs of
// fighters and vehicles close together, and terrain markers among them.
func menuState(seed uint64) *state.State {
	rng := rand.New(rand.NewPCG(seed, 13))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	some := func(xs ...string) []string {
		var out []string
		for _, x := range xs {
			if rng.IntN(3) == 0 {
				out = append(out, x)
			}
		}
		return out
	}
	st := &state.State{Battle: state.Battle{Round: 1, Phase: "action", Priority: "g0"}}
	for _, kind := range some("door", "open_door", "terminal", "locked_door", "loot_casket", "open_loot_casket", "ductway", "ductway") {
		st.Battle.Markers = append(st.Battle.Markers, &state.Marker{ID: fmt.Sprintf("mk%d", len(st.Battle.Markers)), Kind: kind, X: rng.Float64() * 6, Y: rng.Float64() * 6})
	}
	stats := state.Stats{M: 5, WS: 4, BS: 4, S: 3, T: 3, W: 2, I: 4, A: 1, Ld: 7, Cl: 7, Wil: 7, Int: 7, Front: 10, Side: 9, Rear: 8, HP: 3, Hnd: 5, Sv: 5}
	for gi := range 2 + rng.IntN(2) {
		g := &state.Gang{ID: fmt.Sprintf("g%d", gi), Name: fmt.Sprintf("Gang %d", gi), State: st}
		for mi := range 1 + rng.IntN(3) {
			m := &state.Model{ID: fmt.Sprintf("m%d_%d", gi, mi), Name: fmt.Sprintf("M%d.%d", gi, mi), Kind: "fighter", Category: "ganger",
				Status: pick("standing", "standing", "prone", "out_of_action"), Secondary: pick("active", "active", "engaged", "pinned", "seriously_injured"),
				Conditions: some("ready", "broken"), Base: 25, Stats: stats, X: rng.Float64() * 6, Y: rng.Float64() * 6, Gang: g,
				Skills: some("overseer", "medicae", "hip_shooting", "non_verbal_communication", "bring_it_down"),
				Marks:  some("activating", "one_action_left", "out_of_ammo:gun", "ordered", "all_round_vision"),
				Fled:   rng.IntN(10) == 0, WoundsLost: rng.IntN(2)}
			if rng.IntN(4) == 0 {
				m.Kind, m.Base = "vehicle", 60
				m.Status, m.Secondary = pick("mobile", "stationary"), pick("", "stalled", "wrecked")
			}
			if rng.IntN(3) > 0 {
				m.Weapons = append(m.Weapons, &state.Weapon{ID: "gun", Name: "Gun", RangeShort: 8, RangeLong: 24, S: 3, D: 1, Am: 4, Traits: some("unwieldy", "template", "versatile(2)")})
			}
			if rng.IntN(2) == 0 {
				m.Weapons = append(m.Weapons, &state.Weapon{ID: "knife", Name: "Knife", S: 3, D: 1, Traits: some("melee", "versatile(2)")})
			}
			if rng.IntN(4) == 0 {
				f := float64(rng.IntN(360))
				m.Facing = &f
			}
			g.Models = append(g.Models, m)
		}
		g.StartingCrew, g.EligibleModels = len(g.Models), len(g.Models)
		st.Gangs = append(st.Gangs, g)
	}
	return st
}

// The shared menu costs less than the whole conditions: beside
// BenchmarkMenuWhole in one run, what sharing the conjuncts gains.
func BenchmarkMenuShared(b *testing.B) { benchmarkMenu(b, (*dsl.Index).AvailableActions) }

func BenchmarkMenuWhole(b *testing.B) { benchmarkMenu(b, (*dsl.Index).AvailableActionsWhole) }

func benchmarkMenu(b *testing.B, menu func(*dsl.Index, *state.State, *state.Model) ([]string, error)) {
	idx := coreRules(b).Index
	st := menuState(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range st.Gangs {
			for _, m := range g.Models {
				if _, err := menu(idx, st, m); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
