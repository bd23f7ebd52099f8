package odds

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// TestSummaryMatchesReflective compares Summary, which reads fields at
// offsets found once per type, with the same comparison done by
// reflection at every field (summaryReflective, as Summary was), on
// random states and random changes of them, with and without a focus.
// The states are filled by reflection, so a field added to the state is
// covered without touching the test.
func TestSummaryMatchesReflective(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	changed := 0
	for n := range 400 {
		before := &state.State{}
		fillState(r, reflect.ValueOf(before).Elem(), 0)
		after := before.Clone()
		// Change a few fields here and there.
		for range 1 + r.IntN(4) {
			switch v := pickStruct(r, after); {
			case v.IsValid():
				i := r.IntN(v.NumField())
				if f := v.Type().Field(i); f.IsExported() && f.Type.Kind() != reflect.Pointer {
					fillState(r, v.Field(i), 1)
				}
			}
		}
		var focus []string
		if r.IntN(2) == 0 {
			for _, g := range after.Gangs {
				for _, m := range g.Models {
					if r.IntN(2) == 0 {
						focus = append(focus, m.ID)
					}
				}
			}
		}
		got, want := Summary(before, after, focus...), summaryReflective(before, after, focus...)
		if got != want {
			t.Fatalf("state %d, focus %q:\n got %s\nwant %s", n, focus, got, want)
		}
		if got != "no change" {
			changed++
		}
	}
	if changed < 200 {
		t.Errorf("only %d of 400 random changes show in a summary", changed)
	}
}

// pickStruct is the battle, a gang, a model, its stats or a weapon of st.
func pickStruct(r *rand.Rand, st *state.State) reflect.Value {
	switch r.IntN(5) {
	case 0:
		return reflect.ValueOf(&st.Battle).Elem()
	case 1:
		if len(st.Gangs) > 0 {
			return reflect.ValueOf(st.Gangs[r.IntN(len(st.Gangs))]).Elem()
		}
	default:
		var models []*state.Model
		for _, g := range st.Gangs {
			models = append(models, g.Models...)
		}
		if len(models) == 0 {
			return reflect.Value{}
		}
		m := models[r.IntN(len(models))]
		if r.IntN(3) == 0 {
			return reflect.ValueOf(&m.Stats).Elem()
		}
		if len(m.Weapons) > 0 && r.IntN(3) == 0 {
			return reflect.ValueOf(m.Weapons[r.IntN(len(m.Weapons))]).Elem()
		}
		return reflect.ValueOf(m).Elem()
	}
	return reflect.Value{}
}

var stateWords = []string{"", "a", "b", "c", "out_of_action", "x y"}

// fillState fills v with random values: every field, lists of a few
// items (of gangs and models: never nil), ids from a few.
func fillState(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(stateWords[r.IntN(len(stateWords))])
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(r.IntN(5) - 1))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat(float64(r.IntN(4)) / 2)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("expr") == "-" || f.Name == "Gang" {
				continue
			}
			fillState(r, v.Field(i), depth+1)
		}
	case reflect.Pointer:
		if depth > 8 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillState(r, v.Elem(), depth+1)
	case reflect.Slice:
		n := r.IntN(4)
		if n == 0 && r.IntN(2) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillState(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range r.IntN(3) {
			m.SetMapIndex(reflect.ValueOf(stateWords[r.IntN(len(stateWords))]), reflect.ValueOf(any(r.IntN(3))))
		}
		v.Set(m)
	}
}

// summaryReflective is Summary by reflection, field by field: the
// reference Summary is tested against.
func summaryReflective(before, after *state.State, focus ...string) string {
	var parts []string
	if len(focus) == 0 {
		diffReflective(&parts, "battle", reflect.ValueOf(before.Battle), reflect.ValueOf(after.Battle))
	}
	for _, ga := range after.Gangs {
		gb := before.Gang(ga.ID)
		if gb == nil {
			parts = append(parts, ga.ID+": new")
			continue
		}
		if len(focus) == 0 {
			diffReflective(&parts, ga.ID, reflect.ValueOf(*gb), reflect.ValueOf(*ga))
		}
		for _, ma := range ga.Models {
			if len(focus) > 0 && !slices.Contains(focus, ma.ID) {
				continue
			}
			mb := before.Model(ma.ID)
			if mb == nil {
				parts = append(parts, ma.ID+": new")
				continue
			}
			diffReflective(&parts, ma.ID, reflect.ValueOf(*mb), reflect.ValueOf(*ma))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

func diffReflective(parts *[]string, prefix string, a, b reflect.Value) {
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("expr")
		if name == "" || name == "-" || !f.IsExported() || f.Tag.Get("odds") == "detail" {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		switch k := f.Type.Kind(); {
		case k == reflect.Struct:
			diffReflective(parts, prefix+"."+name, fa, fb)
		case k == reflect.Pointer:
		case k == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			la, lb := fa.Interface().([]string), fb.Interface().([]string)
			if slices.Equal(la, lb) {
				continue
			}
			if s := listChangeReference(la, lb); s != "" {
				*parts = append(*parts, prefix+"."+name+": "+s)
			}
		case k == reflect.Slice && name == "weapons":
			diffWeaponsReference(parts, prefix, fa.Interface().([]*state.Weapon), fb.Interface().([]*state.Weapon))
		case k == reflect.Slice && name == "models":
		case k == reflect.Slice || k == reflect.Map:
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				*parts = append(*parts, prefix+"."+name+": changed")
			}
		default:
			if fa.Interface() != fb.Interface() {
				*parts = append(*parts, fmt.Sprintf("%s.%s: %v", prefix, name, show(fb.Interface())))
			}
		}
	}
}

// listChangeReference is listChange by counting in a map: the gains
// then the losses, each alphabetical, repeats counted.
func listChangeReference(a, b []string) string {
	count := map[string]int{}
	for _, s := range a {
		count[s]--
	}
	for _, s := range b {
		count[s]++
	}
	var gained, lost []string
	for _, s := range slices.Sorted(maps.Keys(count)) {
		for n := count[s]; n > 0; n-- {
			gained = append(gained, "+"+s)
		}
		for n := count[s]; n < 0; n++ {
			lost = append(lost, "-"+s)
		}
	}
	return strings.Join(append(gained, lost...), " ")
}

// TestListChangeMatchesReference compares listChange with counting on
// random lists with repeats, short and longer than its stack buffers.
func TestListChangeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	list := func() []string {
		out := make([]string, r.IntN(22))
		for i := range out {
			out[i] = stateWords[r.IntN(len(stateWords))]
		}
		return out
	}
	for range 2000 {
		a, b := list(), list()
		if got, want := listChange(a, b), listChangeReference(a, b); got != want {
			t.Fatalf("listChange(%q, %q) = %q, want %q", a, b, got, want)
		}
	}
}

// diffWeaponsReference is what a weapon's change adds to a summary:
// "prefix.id.damaged: true".
func diffWeaponsReference(parts *[]string, prefix string, a, b []*state.Weapon) {
	for _, wb := range b {
		for _, wa := range a {
			if wa.ID == wb.ID && wa.Damaged != wb.Damaged {
				*parts = append(*parts, fmt.Sprintf("%s.%s.damaged: %v", prefix, wb.ID, wb.Damaged))
			}
		}
	}
}
