package state

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
)

// filledState is a state with every field set, two of everything, and
// with holes, nil entries and empty lists among them.
func filledState(holes bool) *State {
	var st State
	n := 0
	fill(reflect.ValueOf(&st).Elem(), &n)
	if holes {
		st.Gangs[1].Models[0].Weapons[1] = nil
		st.Gangs[1].Models[1].Armour[0] = nil
		st.Gangs[0].Models[1] = nil
		st.Gangs[0].Models[0].Skills = []string{}
		st.Battle.Markers[0] = nil
		st.Battle.Durations[1] = nil
	}
	st.link()
	return &st
}

// scribble changes a copy as a run might, and worse: lists grown, shared
// between fields and models, entries replaced, models moved, answers
// recorded, effects set.
func scribble(st *State, r *rand.Rand) {
	st.Effects = nil
	st.Battle.Round += 7
	st.Battle.Rules = append(st.Battle.Rules, "scribbled")
	if st.Battle.Recorded == nil {
		st.Battle.Recorded = map[string]any{}
	}
	st.Battle.Recorded["scribbled"] = []any{1, "x"}
	st.Battle.Markers = append(st.Battle.Markers, &Marker{ID: "new"})
	if len(st.Battle.Durations) > 0 {
		st.Battle.Durations[0] = &Duration{Period: "scribbled"}
	}
	var models []*Model
	for _, g := range st.Gangs {
		if g == nil {
			continue
		}
		g.Bottled = !g.Bottled
		g.Stash = append(g.Stash, "loot")
		for _, m := range g.Models {
			if m != nil {
				models = append(models, m)
			}
		}
	}
	for i, m := range models {
		m.Status, m.WoundsLost, m.Stats.T = "out_of_action", m.WoundsLost+1, m.Stats.T-1
		if len(m.Conditions) > 0 {
			m.Conditions[0] = "overwritten"
		}
		m.Conditions = append(m.Conditions, "broken")
		m.LastingInjuries = append(m.LastingInjuries, "spinal_injury")
		if len(m.Weapons) > 0 && m.Weapons[0] != nil {
			m.Weapons[0].Damaged = true
			m.Weapons[0].Traits = append(m.Weapons[0].Traits, "blunt")
		}
		if f := 1.5; r.IntN(2) == 0 {
			m.Facing = &f
		}
		if i > 0 && r.IntN(2) == 0 {
			// One list shared by two models, and one model in two gangs.
			m.Skills = models[i-1].Skills
			m.Skills = append(m.Skills[:0:0], "shared")
			models[i-1].Marks = m.Marks
		}
	}
	if len(st.Gangs) > 1 && st.Gangs[0] != nil && st.Gangs[1] != nil && len(models) > 0 {
		st.Gangs[1].Models = append(st.Gangs[1].Models, models[0])
	}
	st.Gangs = append(st.Gangs, &Gang{ID: "joined"})
}

// checkCopy fails unless c is equal to a clone of want, shares no memory
// with want, and has its back-pointers into itself.
func checkCopy(t *testing.T, name string, want, c *State) {
	t.Helper()
	if !reflect.DeepEqual(want.Clone(), c) {
		t.Fatalf("%s: the copy differs from a clone at %s", name, firstDiff(reflect.ValueOf(want.Clone()), reflect.ValueOf(c), "state"))
	}
	if p := shares(reflect.ValueOf(want), reflect.ValueOf(c), "state"); p != "" {
		t.Fatalf("%s: the copy shares %s with the original", name, p)
	}
	for _, g := range c.Gangs {
		if g == nil {
			continue
		}
		if g.State != c {
			t.Fatalf("%s: gang %s's back-pointer is not into the copy", name, g.ID)
		}
		for _, m := range g.Models {
			if m != nil && m.Gang != g {
				t.Fatalf("%s: model %s's back-pointer is not into the copy", name, m.ID)
			}
		}
	}
}

func TestCopyInto(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	small := &State{Gangs: []*Gang{{ID: "g", Models: []*Model{{ID: "m", Skills: []string{"x"}}}}}}
	small.link()
	withNil := &State{Gangs: []*Gang{nil, {ID: "g", Models: []*Model{nil}}}}
	withNil.link()
	cases := []struct {
		name   string
		before *State // copied into the buffer first, then scribbled on
		state  *State
	}{
		{"empty buffer", nil, filledState(true)},
		{"over a filled state", filledState(false), filledState(false)},
		{"holes over a filled state", filledState(false), filledState(true)},
		{"filled over holes", filledState(true), filledState(false)},
		{"small over large", filledState(false), small},
		{"large over small", small, filledState(true)},
		{"nil entries over a filled state", filledState(false), withNil},
		{"empty state over a filled one", filledState(false), &State{}},
		{"random over random", randState(r), randState(r)},
		{"nil", filledState(false), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf Buffer
			if tc.before != nil {
				scribble(tc.before.CopyInto(&buf), r)
			}
			c := tc.state.CopyInto(&buf)
			if tc.state == nil {
				if c != nil {
					t.Fatal("a copy of nil")
				}
				return
			}
			checkCopy(t, tc.name, tc.state, c)
			// Changing the copy leaves the original as it was.
			orig := tc.state.Clone()
			scribble(c, r)
			if !reflect.DeepEqual(orig, tc.state) {
				t.Fatal("changing the copy changed the original")
			}
			// And the next copy is whole again.
			checkCopy(t, tc.name+", again", tc.state, tc.state.CopyInto(&buf))
		})
	}
}

// TestCopyIntoExamples: every example state and every state the shipped
// rules' tests use, each copied over the one before after a run-like
// scribble, equals its clone.
func TestCopyIntoExamples(t *testing.T) {
	var buf Buffer
	r := rand.New(rand.NewPCG(7, 8))
	tests, err := filepath.Glob("../../rulesets/*/tests/states/*.yaml")
	if err != nil || len(tests) == 0 {
		t.Fatalf("the rules' test states: %v %v", tests, err)
	}
	for _, f := range append(exampleFiles(t), tests...) {
		st := mustDecode(t, f)
		for i := range 2 {
			c := st.CopyInto(&buf)
			checkCopy(t, fmt.Sprintf("%s #%d", f, i), st, c)
			scribble(c, r)
		}
	}
}

// Once its blocks have grown to the state, a buffer copies it without
// allocating (recorded answers aside): that is its point.
func TestCopyIntoReusesMemory(t *testing.T) {
	st := mustDecode(t, "../../testdata/states/goliaths-vs-eschers.yaml")
	var buf Buffer
	scribble(st.CopyInto(&buf), rand.New(rand.NewPCG(1, 1)))
	if n := testing.AllocsPerRun(20, func() { st.CopyInto(&buf) }); n != 0 {
		t.Errorf("CopyInto allocates %v times per copy into a grown buffer, want 0", n)
	}
}

// FuzzCopyInto is the differential test: a random state copied into a
// buffer that held another random state, which a run-like scribble
// changed, equals its Clone.
func FuzzCopyInto(f *testing.F) {
	for i := range uint64(8) {
		f.Add(i, i+100, i%3)
	}
	f.Fuzz(func(t *testing.T, a, b, rounds uint64) {
		r := rand.New(rand.NewPCG(a, b))
		var buf Buffer
		for i := range 1 + rounds%4 {
			st := randState(r)
			c := st.CopyInto(&buf)
			checkCopy(t, fmt.Sprintf("round %d", i), st, c)
			scribble(c, r)
		}
	})
}

func BenchmarkCopyInto(b *testing.B) {
	st := mustDecode(b, "../../testdata/states/goliaths-vs-eschers.yaml")
	var buf Buffer
	b.ReportAllocs()
	for b.Loop() {
		_ = st.CopyInto(&buf)
	}
}

// A released copy is kept as it is: the next copy is made elsewhere.
func TestBufferRelease(t *testing.T) {
	st := filledState(false)
	var buf Buffer
	kept := st.CopyInto(&buf)
	kept.Gangs[0].Models[0].Status = "kept"
	buf.Release()
	next := st.CopyInto(&buf)
	checkCopy(t, "after release", st, next)
	if kept.Gangs[0].Models[0].Status != "kept" || next == kept || kept.Gangs[0].State != kept {
		t.Error("the next copy overwrote the released one")
	}
}
