package interpreter_test

import (
	"reflect"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file is a benchmark baseline, not a source of rules. It is one
// shooting activation of rulesets/core-2023 (round.munda's activation,
// shooting.munda's Shoot action and shooting sequence, hits.munda's
// Wound, Save and Damage) written by hand in Go, as a tool without munda
// would, so that BenchmarkActivationInterpreted against
// BenchmarkActivationNative measures what interpreting the rules costs
// (the ratio in the README's Speed section). munda never runs it.
//
// It does only what activationState needs: one Standing and Active
// shooter with a Lasgun (no traits, no skills) and one enemy in the open
// at short range, with two Wounds and armour, so that one Damage 1 hit
// never rolls an Injury dice; every choice at its default (Shoot first,
// then end the activation). It rolls the same dice in the same order as
// the rules, so TestActivationBaselineMatchesRules can check over 300
// seeds that the two end in the same state; that test is what keeps this
// copy honest. When those rules change, that test fails: change this file
// to match. Never read a rule from here.

type activationBaseline struct {
	st   *state.State
	dice interpreter.DiceSource
	d6   *dsl.DiceInfo
	fp   *dsl.DiceInfo
	req  interpreter.DieRequest // reused, as the interpreter reuses its run's memory
}

func newActivationBaseline(st *state.State, seed uint64, idx *dsl.Index) *activationBaseline {
	return &activationBaseline{st: st, dice: interpreter.NewSeeded(seed), d6: idx.Dice["d6"], fp: idx.Dice["firepower"]}
}

func (n *activationBaseline) roll(d *dsl.DiceInfo) interpreter.Die {
	n.req = interpreter.DieRequest{Dice: d}
	die, err := n.dice.Roll(&n.req)
	if err != nil {
		panic(err)
	}
	return die
}

func (n *activationBaseline) d6v() int { return n.roll(n.d6).Value }

// activation: the model loses its Ready marker, Shoots (the default first
// action: nothing ahead of it on action_preference is available), and
// ends its activation (the default next action). The "activating" mark
// and its duration, and the "acting:shoot" mark, come and go within it.
func (n *activationBaseline) activation(m *state.Model) {
	m.Conditions = remove(m.Conditions, "ready")
	n.shoot(m)
}

// shoot: the closest (only) enemy, the first weapon that can fire.
func (n *activationBaseline) shoot(a *state.Model) {
	var t *state.Model
	best := 0.0
	for _, g := range n.st.Gangs {
		if g == a.Gang {
			continue
		}
		for _, o := range g.Models {
			if d := state.Distance(a, o); onField(o) && (t == nil || d < best) {
				t, best = o, d
			}
		}
	}
	var w *state.Weapon
	for _, x := range a.Weapons {
		if x.RangeLong > 0 && !x.Damaged && !has(a.Marks, "out_of_ammo:"+x.ID) {
			w = x
			break
		}
	}

	// Range, and the hit roll: BS, Accuracy, a natural 1 misses.
	gap := state.Distance(a, t)
	rng, acc := "out", 0
	switch {
	case gap <= float64(w.RangeShort):
		rng, acc = "short", w.AccShort
	case gap <= float64(w.RangeLong):
		rng, acc = "long", w.AccLong
	}
	hit, natural := false, 0
	if rng != "out" {
		if a.Stats.BS-acc > 6 {
			panic("activationState has no improbable shots")
		}
		natural = n.d6v()
		hit = natural != 1 && natural+acc >= a.Stats.BS
	}

	// The Firepower dice, even for a miss; its Ammo face calls an Ammo test.
	if n.roll(n.fp).Face == "ammo" && w.Am != 0 {
		if n.d6v() < w.Am {
			a.Marks = append(append([]string(nil), a.Marks...), "out_of_ammo:"+w.ID)
		}
	}
	if !hit {
		return
	}
	// Pinning.
	if t.Status == "standing" && t.Secondary == "active" {
		t.Status, t.Secondary = "prone", "pinned"
	}
	n.wound(t, w)
}

func woundNeeded(s, t int) int {
	switch {
	case s >= 2*t:
		return 2
	case s > t:
		return 3
	case s == t:
		return 4
	case 2*s > t:
		return 5
	}
	return 6
}

// wound: the Wound roll, the Save roll with the best save, and Damage.
func (n *activationBaseline) wound(t *state.Model, w *state.Weapon) {
	if n.d6v() < woundNeeded(w.S, t.Stats.T-t.FleshWounds) {
		return
	}
	needed := 7
	for _, ar := range t.Armour {
		needed = min(needed, ar.Save-w.AP)
	}
	if t.Stats.Sv > 0 {
		needed = min(needed, t.Stats.Sv-w.AP)
	}
	if needed <= 6 {
		if s := n.d6v(); s != 1 && s >= needed {
			return
		}
	}
	left := max(0, t.Stats.W-t.WoundsLost)
	if lost := min(w.D, left); lost > 0 {
		t.WoundsLost += lost
	}
	if left == 0 || w.D-left+1 > 0 {
		panic("activationState never rolls Injury dice")
	}
}

// activationState: a Ganger with a Lasgun (BS 4+, Accuracy +1 short,
// Ammo 2+) and an enemy in mesh armour (5+) with two Wounds 5" away, in
// the open, no one else on the battlefield.
func activationState() *state.State {
	st := &state.State{Battle: state.Battle{Round: 1, Phase: "action", Priority: "g0"}}
	stats := state.Stats{M: 5, WS: 4, BS: 4, S: 3, T: 3, W: 2, I: 4, A: 1, Ld: 7, Cl: 7, Wil: 7, Int: 7}
	shooter := &state.Model{
		ID: "shooter", Name: "Shooter", Kind: "fighter", Category: "ganger",
		Status: "standing", Secondary: "active", Conditions: []string{"ready"},
		Base: 25, Stats: stats,
		Weapons: []*state.Weapon{{ID: "lasgun", Name: "Lasgun", RangeShort: 8, RangeLong: 24, AccShort: 1, AccLong: -1, S: 3, D: 1, Am: 2}},
	}
	target := &state.Model{
		ID: "target", Name: "Target", Kind: "fighter", Category: "ganger",
		Status: "standing", Secondary: "active", Conditions: []string{"ready"},
		X: 6, Base: 25, Stats: stats,
		Armour: []*state.Armour{{ID: "mesh", Name: "Mesh armour", Save: 5}},
	}
	for i, m := range []*state.Model{shooter, target} {
		g := &state.Gang{ID: []string{"g0", "g1"}[i], Name: []string{"Shooters", "Targets"}[i], StartingCrew: 1, EligibleModels: 1, Models: []*state.Model{m}, State: st}
		m.Gang = g
		st.Gangs = append(st.Gangs, g)
	}
	return st
}

// The baseline and the rules end in the same state for 300 seeds.
func TestActivationBaselineMatchesRules(t *testing.T) {
	p := coreProgram(t)
	hit, wounded, empty := 0, 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		a, b := activationState(), activationState()
		args := map[string]any{"model": a.Gangs[0].Models[0]}
		if err := p.Run(a, "activation", args, interpreter.Options{Dice: interpreter.NewSeeded(seed)}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		newActivationBaseline(b, seed, p.Index()).activation(b.Gangs[0].Models[0])
		ea, _ := state.Encode(a, "json")
		eb, _ := state.Encode(b, "json")
		if !reflect.DeepEqual(ea, eb) {
			t.Fatalf("seed %d: the rules and the Go baseline disagree (change activation_baseline_test.go to match the rules)\nrules:    %s\nbaseline: %s", seed, ea, eb)
		}
		tg := a.Gangs[1].Models[0]
		if tg.Secondary == "pinned" {
			hit++
		}
		if tg.WoundsLost > 0 {
			wounded++
		}
		if len(a.Gangs[0].Models[0].Marks) > 0 {
			empty++
		}
	}
	t.Logf("%d hits, %d wounded, %d Out of Ammo", hit, wounded, empty)
	// The seeds must have taken every branch that matters.
	if hit == 0 || hit == 300 || wounded == 0 || empty == 0 {
		t.Errorf("the seeds did not exercise the activation: %d hits, %d wounded, %d Out of Ammo", hit, wounded, empty)
	}
}

// BenchmarkActivationInterpreted runs the shipped activation (Shoot, then
// end) on activationState.
func BenchmarkActivationInterpreted(b *testing.B) {
	p := coreProgram(b)
	st := activationState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := st.Clone()
		args := map[string]any{"model": s.Gangs[0].Models[0]}
		if err := p.Run(s, "activation", args, interpreter.Options{Dice: interpreter.NewSeeded(uint64(i))}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkActivationNative runs the Go baseline on the same state and
// seeds: the denominator of the README's interpreted/native ratio.
func BenchmarkActivationNative(b *testing.B) {
	idx := coreProgram(b).Index()
	st := activationState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := st.Clone()
		newActivationBaseline(s, uint64(i), idx).activation(s.Gangs[0].Models[0])
	}
}
