package interpreter_test

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"reflect"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file is a benchmark baseline, not a source of rules. It is the
// 2023 End Phase of rulesets/core-2023/end_phase.munda written by hand in
// Go, as a tool without munda would, so that BenchmarkEndPhaseInterpreted
// against BenchmarkEndPhaseNative measures what interpreting the rules
// costs (the ratio in the README's Speed section). munda never runs it.
//
// It does only what benchState needs: two gangs of fighters, with no
// vehicles, markers, terrain, skills, Juves, Reinforcements or scenario
// rules, and every choice at its default. It rolls the same dice in the
// same order as the rules, so TestBaselineMatchesRules can check over 300
// seeds that the two end in the same state; that test is what keeps this
// copy honest. When the rules of the End Phase change, that test fails:
// change this file to match (or, if it grows, trim it back to what
// benchState exercises). Never read a rule from here.

type baseline struct {
	st   *state.State
	dice interpreter.DiceSource
	d6   *dsl.DiceInfo
	inj  *dsl.DiceInfo
	// Scratch memory one baseline reuses from End Phase to End Phase, as
	// the interpreter reuses its run's memory (Options.Memory): the
	// ratio compares the rules with Go written as carefully.
	req    interpreter.DieRequest
	gangs  []*state.Gang
	models []*state.Model
	order  []*state.Model
	held   map[string]bool
}

func newBaseline(st *state.State, seed uint64, idx *dsl.Index) *baseline {
	return &baseline{st: st, dice: interpreter.NewSeeded(seed), d6: idx.Dice["d6"], inj: idx.Dice["injury"]}
}

func (n *baseline) roll(d *dsl.DiceInfo) interpreter.Die {
	n.req = interpreter.DieRequest{Dice: d}
	die, err := n.dice.Roll(&n.req)
	if err != nil {
		panic(err)
	}
	return die
}

func (n *baseline) d6v() int   { return n.roll(n.d6).Value }
func (n *baseline) twoD6() int { return n.d6v() + n.d6v() }

func seriously(m *state.Model) bool {
	return m.Status == "prone" && m.Secondary == "seriously_injured"
}
func outOfAction(m *state.Model) bool  { return m.Status == "out_of_action" }
func onField(m *state.Model) bool      { return !m.Fled && !outOfAction(m) }
func casualty(m *state.Model) bool     { return seriously(m) || outOfAction(m) }
func has(list []string, s string) bool { return slices.Contains(list, s) }
func remove(list []string, s string) []string {
	if i := slices.Index(list, s); i >= 0 {
		return append(append([]string(nil), list[:i]...), list[i+1:]...)
	}
	return list
}
func addSet(list []string, s string) []string {
	if has(list, s) {
		return list
	}
	return append(append([]string(nil), list...), s)
}
func hierarchy(m *state.Model) float64 {
	switch {
	case has(m.Rules, "gang_hierarchy_leader"):
		return 12
	case has(m.Rules, "gang_hierarchy_champion"):
		return 6
	}
	return 0
}

// friendsOf is m's gang without m, iterated as the rules' friends(m)
// is: without building a list.
func friendsOf(m *state.Model) iter.Seq[*state.Model] {
	return func(yield func(*state.Model) bool) {
		for _, o := range m.Gang.Models {
			if o != m && !yield(o) {
				return
			}
		}
	}
}

func (n *baseline) gangsInPriority() []*state.Gang {
	n.gangs = append(n.gangs[:0], n.st.Gangs...)
	first := func(g *state.Gang) int {
		if g.ID == n.st.Battle.Priority {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(n.gangs, func(a, b *state.Gang) int { return first(a) - first(b) })
	return n.gangs
}

func (n *baseline) endPhase() {
	for _, g := range n.gangsInPriority() {
		n.bottleCheck(g)
	}
	for _, g := range n.gangsInPriority() {
		if g.Bottled {
			n.fleeTests(g)
		}
	}
	for _, g := range n.gangsInPriority() {
		n.models = append(n.models[:0], g.Models...)
		for _, m := range n.models {
			if seriously(m) && onField(m) {
				n.recovery(m)
			}
		}
	}
	for _, g := range n.gangsInPriority() {
		n.rally(g)
	}
	for _, g := range n.st.Gangs {
		for _, m := range g.Models {
			m.Marks = remove(m.Marks, "assisted")
		}
	}
}

func (n *baseline) bottleCheck(g *state.Gang) {
	casualties := 0
	for _, m := range g.Models {
		if casualty(m) {
			casualties++
		}
	}
	if g.Bottled || casualties == 0 {
		return
	}
	if n.d6v()+casualties > g.StartingCrew {
		g.Bottled = true
	}
}

func (n *baseline) fleeTests(g *state.Gang) {
	order := n.order[:0]
	for _, m := range g.Models {
		if onField(m) {
			order = append(order, m)
		}
	}
	n.order = order
	slices.SortStableFunc(order, func(a, b *state.Model) int { return cmp.Compare(hierarchy(b), hierarchy(a)) })
	if n.held == nil {
		n.held = map[string]bool{}
	}
	held := n.held
	clear(held)
	for _, m := range order {
		if held[m.ID] {
			continue
		}
		if n.twoD6() >= m.Stats.Cl {
			if r := hierarchy(m); r > 0 {
				for f := range friendsOf(m) {
					if state.Distance(m, f) <= r {
						held[f.ID] = true
					}
				}
			}
			continue
		}
		if seriously(m) {
			m.SuccumbTest = true
		}
		m.Fled = true
	}
}

func (n *baseline) recovery(m *state.Model) {
	var helper *state.Model
	for f := range friendsOf(m) {
		if f.Status == "standing" && f.Secondary == "active" && onField(f) && state.Distance(m, f) <= 1 && !has(f.Marks, "assisted") {
			helper = f
			break
		}
	}
	dice := 1
	if helper != nil {
		helper.Marks = addSet(helper.Marks, "assisted")
		dice = 2
	}
	kept := "out_of_action"
	for i := 0; i < dice; i++ {
		switch f := n.roll(n.inj).Face; {
		case f == "flesh_wound":
			kept = f
		case f == "serious_injury" && kept != "flesh_wound":
			kept = f
		}
	}
	switch kept {
	case "out_of_action":
		n.outOfAction(m)
	case "serious_injury":
		if helper == nil {
			n.fleshWound(m)
		}
	default:
		m.Status, m.Secondary = "prone", "pinned"
		if helper != nil {
			helper.XP++
		} else {
			n.fleshWound(m)
		}
	}
}

func (n *baseline) fleshWound(m *state.Model) {
	m.FleshWounds++
	if m.Stats.T-m.FleshWounds <= 0 {
		n.outOfAction(m)
	}
}

func (n *baseline) outOfAction(m *state.Model) {
	m.Status, m.Secondary = "out_of_action", ""
	n.nerveTests(m)
	n.lastingInjury(m, nil)
}

// nerveTests: friendly fighters within 3" of a fighter taken Out of Action
// test, unless already Broken.
func (n *baseline) nerveTests(casualty *state.Model) {
	for f := range friendsOf(casualty) {
		if !onField(f) || has(f.Conditions, "broken") || state.Distance(casualty, f) > 3 {
			continue
		}
		support := 0
		for o := range friendsOf(f) {
			if onField(o) && !has(o.Conditions, "broken") && !seriously(o) && state.Distance(f, o) <= 3 {
				support++
			}
		}
		if n.twoD6()+support < f.Stats.Cl {
			f.Conditions = addSet(f.Conditions, "broken")
		}
	}
}

// worsen applies a characteristic reduction within the fighter limits.
func worsen(v *int, target bool, worst int) {
	switch {
	case target && *v+1 <= worst:
		*v++
	case !target && *v-1 >= worst:
		*v--
	}
}

func (n *baseline) lastingInjury(m *state.Model, reroll []string) {
	for {
		roll := n.d6v()*10 + n.d6v()
		row := lastingRow(roll)
		if slices.Contains(reroll, row) {
			continue
		}
		n.applyLasting(m, row)
		return
	}
}
func lastingRow(v int) string {
	switch {
	case v == 11:
		return "lesson_learned"
	case v == 12:
		return "impressive_scars"
	case v == 13:
		return "horrid_scars"
	case v == 14:
		return "bitter_enmity"
	case v <= 26:
		return "out_cold"
	case v <= 36:
		return "convalescence"
	case v == 41:
		return "old_battle_wound"
	case v == 42:
		return "partially_deafened"
	case v == 43:
		return "humiliated"
	case v == 44:
		return "eye_injury"
	case v == 45:
		return "hand_injury"
	case v == 46:
		return "hobbled"
	case v == 51:
		return "spinal_injury"
	case v == 52:
		return "enfeebled"
	case v == 53:
		return "head_injury"
	case v == 54:
		return "multiple_injuries"
	case v <= 56:
		return "captured"
	case v <= 65:
		return "critical_injury"
	}
	return "memorable_death"
}

func (n *baseline) applyLasting(m *state.Model, row string) {
	note := func() { m.LastingInjuries = append(append([]string(nil), m.LastingInjuries...), row) }
	outCold := func() { n.applyLasting(m, "out_cold") }
	s := &m.Stats
	switch row {
	case "lesson_learned":
		xp := (n.d6v() + 1) / 2
		m.Convalescence = true
		m.XP += xp
		note()
	case "impressive_scars":
		if has(m.LastingInjuries, row) {
			outCold()
			return
		}
		if s.Cl-1 >= 3 {
			s.Cl--
		}
		note()
	case "horrid_scars":
		if has(m.Skills, "fearsome") {
			outCold()
			return
		}
		m.Skills = addSet(m.Skills, "fearsome")
		note()
	case "bitter_enmity":
		if has(m.LastingInjuries, row) { // or Berserker, which no one has here
			outCold()
			return
		}
		note()
	case "out_cold":
	case "convalescence":
		m.Convalescence = true
		note()
	case "old_battle_wound", "captured", "critical_injury":
		note()
	case "partially_deafened":
		if has(m.LastingInjuries, row) {
			worsen(&s.Ld, true, 10)
		}
		note()
	case "humiliated":
		m.Convalescence = true
		worsen(&s.Ld, true, 10)
		worsen(&s.Cl, true, 10)
		note()
	case "eye_injury":
		m.InRecovery = true
		worsen(&s.BS, true, 6)
		note()
	case "hand_injury":
		m.InRecovery = true
		worsen(&s.WS, true, 6)
		note()
	case "hobbled":
		m.InRecovery = true
		worsen(&s.M, false, 1)
		note()
	case "spinal_injury":
		m.InRecovery = true
		worsen(&s.S, false, 1)
		note()
	case "enfeebled":
		m.InRecovery = true
		worsen(&s.T, false, 1)
		note()
	case "head_injury":
		m.InRecovery = true
		worsen(&s.Int, true, 10)
		worsen(&s.Wil, true, 10)
		note()
	case "multiple_injuries":
		times := (n.d6v() + 1) / 2
		note()
		for i := 0; i < times; i++ {
			n.lastingInjury(m, []string{"captured", "multiple_injuries", "memorable_death", "critical_injury", "out_cold"})
		}
	case "memorable_death":
		m.Dead = true
		note()
	}
}

func (n *baseline) rally(g *state.Gang) {
	for _, m := range g.Models {
		if !has(m.Conditions, "broken") || !onField(m) {
			continue
		}
		bonus := 0
		for f := range friendsOf(m) {
			if onField(f) && state.Distance(m, f) <= 3 && !has(f.Conditions, "broken") && !seriously(f) {
				bonus++
			}
		}
		if n.twoD6()+bonus >= m.Stats.Cl {
			m.Conditions = remove(m.Conditions, "broken")
			m.XP++
		}
	}
}

// benchState is a 2-gang, 20-model End phase: each gang has a Leader and
// a Champion, Seriously Injured fighters with and without a friend to
// assist, Broken fighters, one Out of Action, and Ganger stat lines.
func benchState() *state.State {
	st := &state.State{Battle: state.Battle{Round: 3, Priority: "g0"}}
	for gi := 0; gi < 2; gi++ {
		g := &state.Gang{ID: fmt.Sprintf("g%d", gi), Name: fmt.Sprintf("Gang %d", gi), StartingCrew: 7, EligibleModels: 7}
		for mi := 0; mi < 10; mi++ {
			m := &state.Model{
				ID: fmt.Sprintf("g%dm%d", gi, mi), Name: fmt.Sprintf("Fighter %d-%d", gi, mi),
				Kind: "fighter", Category: "ganger", Status: "standing", Secondary: "active",
				X: float64(gi*40 + (mi%5)*2), Y: float64((mi / 5) * 2), Base: 25,
				Stats: state.Stats{M: 5, WS: 4, BS: 4, S: 3, T: 3, W: 1, I: 4, A: 1, Ld: 7, Cl: 7, Wil: 7, Int: 7},
			}
			switch mi {
			case 0:
				m.Category, m.Rules = "leader", []string{"gang_hierarchy_leader"}
				m.Stats.Cl, m.Stats.Ld = 5, 5
			case 1:
				m.Category, m.Rules = "champion", []string{"gang_hierarchy_champion"}
				m.Stats.Cl = 6
			case 2, 3, 7:
				m.Status, m.Secondary = "prone", "seriously_injured"
			case 4, 8:
				m.Conditions = []string{"broken"}
			case 9:
				m.Status, m.Secondary = "out_of_action", ""
			}
			m.Gang = g
			g.Models = append(g.Models, m)
		}
		g.State = st
		st.Gangs = append(st.Gangs, g)
	}
	return st
}

// The baseline and the rules end in the same state for 300 seeds: the
// benchmark compares like with like, and the baseline has not drifted
// from the rules.
func TestBaselineMatchesRules(t *testing.T) {
	p := coreProgram(t)
	bottled, fled, injured := 0, 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		a, b := benchState(), benchState()
		if err := p.Run(a, "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(seed)}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		newBaseline(b, seed, p.Index()).endPhase()
		ea, _ := state.Encode(a, "json")
		eb, _ := state.Encode(b, "json")
		if !reflect.DeepEqual(ea, eb) {
			t.Fatalf("seed %d: the rules and the Go baseline disagree (change baseline_test.go to match the rules)\nrules:    %s\nbaseline: %s", seed, ea, eb)
		}
		for _, g := range a.Gangs {
			if g.Bottled {
				bottled++
			}
			for _, m := range g.Models {
				if m.Fled {
					fled++
				}
				if len(m.LastingInjuries) > 0 {
					injured++
				}
			}
		}
	}
	// The seeds must have taken every branch that matters.
	if bottled == 0 || fled == 0 || injured == 0 {
		t.Errorf("the seeds did not exercise the End Phase: %d bottled, %d fled, %d lasting injuries", bottled, fled, injured)
	}
}

// BenchmarkEndPhaseInterpreted runs the shipped End Phase on benchState.
func BenchmarkEndPhaseInterpreted(b *testing.B) {
	p := coreProgram(b)
	st := benchState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := st.Clone()
		if err := p.Run(s, "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(uint64(i))}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEndPhaseNative runs the Go baseline on the same state and
// seeds: the denominator of the README's interpreted/native ratio.
func BenchmarkEndPhaseNative(b *testing.B) {
	idx := coreProgram(b).Index()
	st := benchState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		newBaseline(st.Clone(), uint64(i), idx).endPhase()
	}
}

// BenchmarkMonteCarlo is odds.Sample on benchState, one End Phase per
// iteration on one core, asking whether gang g0 bottles: Monte Carlo End
// Phases per second per core (samples/s). Its baseline, in the same run,
// is BenchmarkMonteCarloNative: the ratio of the two is what the README
// reports.
func BenchmarkMonteCarlo(b *testing.B) {
	p := coreProgram(b)
	of, diags := p.Rules.Index.CompileQuery("of", `gang("g0").bottled`)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	q := odds.Question{Program: p, State: benchState(), Procedure: "end_phase", Of: of}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := odds.Sample(context.Background(), q, b.N, 1, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkMonteCarloNative is the same Monte Carlo with the Go baseline
// for the rules, done as fairly as odds.Sample does it: one state buffer
// reused for every sample (state.Buffer), one seeded dice source for
// many samples, the outcome tallied.
func BenchmarkMonteCarloNative(b *testing.B) {
	benchNativeMonteCarlo(b, func(st *state.State, buf *state.Buffer) *state.State { return st.CopyInto(buf) })
}

// BenchmarkMonteCarloNativeClone is BenchmarkMonteCarloNative with a
// Clone per sample, as before state.Buffer: what the buffer saves.
func BenchmarkMonteCarloNativeClone(b *testing.B) {
	benchNativeMonteCarlo(b, func(st *state.State, _ *state.Buffer) *state.State { return st.Clone() })
}

func benchNativeMonteCarlo(b *testing.B, fresh func(*state.State, *state.Buffer) *state.State) {
	idx := coreProgram(b).Index()
	st := benchState()
	var buf state.Buffer
	n := newBaseline(nil, 1, idx)
	counts := map[bool]int{}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n.st = fresh(st, &buf)
		n.endPhase()
		counts[n.st.Gang("g0").Bottled]++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
	if counts[true]+counts[false] != b.N {
		b.Fatal("samples lost")
	}
}

// The baseline's Monte Carlo in a buffer gives, sample for sample, what
// it gives on clones: reusing the buffer leaks nothing between samples.
func TestNativeMonteCarloBufferMatchesClone(t *testing.T) {
	idx := coreProgram(t).Index()
	st := benchState()
	var buf state.Buffer
	a, b := newBaseline(nil, 9, idx), newBaseline(nil, 9, idx)
	for i := range 200 {
		a.st, b.st = st.CopyInto(&buf), st.Clone()
		a.endPhase()
		b.endPhase()
		ea, _ := state.Encode(a.st, "json")
		eb, _ := state.Encode(b.st, "json")
		if !reflect.DeepEqual(ea, eb) {
			t.Fatalf("sample %d: the buffer's End Phase differs from the clone's\nbuffer: %s\nclone:  %s", i, ea, eb)
		}
	}
}

// The rules run in a reused buffer and run memory (Options.Memory) end,
// seed for seed, as they do on a clone with a run of their own: nothing
// of a run (effects, caches, lists it grew) survives into the next copy,
// which is what lets odds.Sample reuse one of each per worker.
func TestInterpretedBufferMatchesClone(t *testing.T) {
	p := coreProgram(t)
	st := benchState()
	var rm interpreter.Resumer
	for seed := range uint64(60) {
		a, b := st.CopyInto(&rm.Buf), st.Clone()
		for _, s := range []*state.State{a, b} {
			opts := interpreter.Options{Dice: interpreter.NewSeeded(seed)}
			if s == a {
				opts.Memory = &rm
			}
			if err := p.Run(s, "end_phase", nil, opts); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		ea, _ := state.Encode(a, "json")
		eb, _ := state.Encode(b, "json")
		if !reflect.DeepEqual(ea, eb) {
			t.Fatalf("seed %d: the End Phase in the buffer differs from the one on a clone\nbuffer: %s\nclone:  %s", seed, ea, eb)
		}
	}
}

// An End Phase in a reused buffer and run memory allocates about a dozen
// objects (188 before the run's slabs and reused buffers, 35 before the
// run's memory was kept too, 27-29 before conditions' lists came from
// their frames): what it keeps is cut from slabs, what it drops is reused. A bound, not a count, so that a
// change of the rules moves it little; a roll, a filter or a loop that
// allocated again would pass it.
func TestEndPhaseAllocationsBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops what runs put back")
	}
	p := coreProgram(t)
	st := benchState()
	var rm interpreter.Resumer // the state's copy and the run, as Monte Carlo keeps them
	dice := interpreter.NewSeeded(1)
	run := func() {
		if err := p.Run(st.CopyInto(&rm.Buf), "end_phase", nil, interpreter.Options{Dice: dice, Memory: &rm}); err != nil {
			t.Fatal(err)
		}
	}
	run() // the pools and buffers filled once
	n := testing.AllocsPerRun(100, run)
	t.Logf("%.0f allocations", n)
	if n > 20 {
		t.Errorf("an End Phase allocates %.0f objects, more than 20", n)
	}
}

// An End Phase in a reused buffer and run memory that is recycled after
// each run (Resumer.Recycle, as Monte Carlo does once a sample is
// tallied) allocates nothing: what it keeps is cut from the memory the
// run before gave back.
func TestRecycledEndPhaseAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates of its own")
	}
	p := coreProgram(t)
	st := benchState()
	var rm interpreter.Resumer
	dice := interpreter.NewSeeded(1)
	run := func() {
		if err := p.Run(st.CopyInto(&rm.Buf), "end_phase", nil, interpreter.Options{Dice: dice, Memory: &rm}); err != nil {
			t.Fatal(err)
		}
		rm.Recycle()
	}
	for range 20 { // the memory grown
		run()
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // pools emptied by others' garbage are not the run's
	// the least of three counts: other tests' goroutines winding down
	// allocate too
	n := min(testing.AllocsPerRun(100, run), testing.AllocsPerRun(100, run), testing.AllocsPerRun(100, run))
	if n > 0 {
		t.Errorf("a recycled End Phase allocates %.1f objects", n)
	}
}
