package interpreter

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// TestTypedStateHashMatchesReflective hashes random states under random
// field plans both by the typed plans (statehash.go) and by reflection,
// which must agree byte for byte. The states are filled by reflection,
// every field of every struct, so a field added to the state is covered
// without touching the test.
func TestTypedStateHashMatchesReflective(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 21))
	lists := []int{} // droppables that are lists of ids: counts and sorted apply to them
	for b, d := range droppables() {
		if d.field().Type == reflect.TypeOf([]string(nil)) {
			lists = append(lists, b)
		}
	}
	differ := 0
	for n := range 500 {
		st := &state.State{}
		fillRandom(r, reflect.ValueOf(st).Elem(), 0)
		var ids []string
		for _, g := range st.Gangs {
			if g != nil {
				for _, m := range g.Models {
					if m != nil {
						ids = append(ids, m.ID)
					}
				}
			}
		}
		plan := randomFieldPlan(r, lists, ids)
		typed, reflective := &hasher{plan: plan}, &hasher{plan: plan}
		typed.state(st)
		reflective.stateReflective(st)
		if typed.unique != reflective.unique || typed.sum() != reflective.sum() {
			t.Fatalf("state %d, plan %+v: typed hash %x (unique %v), reflective %x (unique %v)",
				n, plan, typed.sum(), typed.unique, reflective.sum(), reflective.unique)
		}
		// And by the plan's writes for models, made once (modelOps).
		compiled := plan
		compiled.model = compileModelOps(plan)
		byOps := &hasher{plan: compiled}
		byOps.state(st)
		if byOps.unique != reflective.unique || byOps.sum() != reflective.sum() {
			t.Fatalf("state %d, plan %+v: hash by the plan's model writes %x (unique %v), reflective %x (unique %v)",
				n, plan, byOps.sum(), byOps.unique, reflective.sum(), reflective.unique)
		}
		// The hash must see the state: another random state hashes
		// otherwise (almost always).
		other := &state.State{}
		fillRandom(r, reflect.ValueOf(other).Elem(), 0)
		o := &hasher{plan: plan}
		o.state(other)
		if o.sum() != typed.sum() {
			differ++
		}
	}
	if differ < 400 {
		t.Errorf("only %d of 500 pairs of random states hash apart", differ)
	}
}

// randomFieldPlan drops, counts and sorts random droppable fields, and
// keeps some whole for some of the models (ids).
func randomFieldPlan(r *rand.Rand, lists []int, ids []string) fieldPlan {
	var p fieldPlan
	if r.IntN(4) == 0 {
		return p // the whole state
	}
	for b, d := range droppables() {
		if r.IntN(3) == 0 {
			p.drop |= 1 << b
		}
		if r.IntN(4) == 0 {
			p.focusKeep |= 1 << b
		}
		_ = d
	}
	for _, b := range lists {
		switch r.IntN(3) {
		case 0:
			p.sorted |= 1 << b
			p.drop &^= 1 << b
		case 1:
			if p.counts == nil {
				p.counts = map[int][]string{}
			}
			p.counts[droppables()[b].index] = []string{randomWord(r), randomWord(r)}
			p.drop &^= 1 << b
		}
	}
	for _, id := range ids {
		if r.IntN(3) == 0 {
			p.focus = append(p.focus, id)
		}
	}
	return p
}

var randomWords = []string{"", "a", "b", "impressive_scars", "x y", "é"}

func randomWord(r *rand.Rand) string { return randomWords[r.IntN(len(randomWords))] }

// fillRandom fills v, of any type the state holds, with random values:
// every field, lists of a few items, pointers nil now and then, answers
// recorded of each kind a rule can record.
func fillRandom(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomWord(r))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(r.IntN(7) - 2))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat(float64(r.IntN(5)) / 2)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("expr") == "-" || f.Name == "Gang" || f.Name == "State" {
				continue // back-links and the run's own hooks
			}
			fillRandom(r, v.Field(i), depth+1)
		}
	case reflect.Pointer:
		if r.IntN(5) == 0 || depth > 8 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillRandom(r, v.Elem(), depth+1)
	case reflect.Slice:
		n := r.IntN(4)
		if n == 0 && r.IntN(2) == 0 {
			return // nil
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillRandom(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if r.IntN(3) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			m.SetMapIndex(reflect.ValueOf(randomWord(r)), reflect.ValueOf(randomRecorded(r)))
		}
		v.Set(m)
	}
}

// randomRecorded is an answer of a kind the battle records.
func randomRecorded(r *rand.Rand) any {
	switch r.IntN(6) {
	case 0:
		return randomWord(r)
	case 1:
		return r.IntN(9)
	case 2:
		return r.IntN(2) == 0
	case 3:
		return []any{randomWord(r), r.IntN(3)}
	case 4:
		return map[string]any{randomWord(r): r.IntN(3)}
	}
	return nil
}

// BenchmarkStateHash hashes a random state of a few gangs of models by
// the typed plans and by reflection.
func BenchmarkStateHash(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	st := &state.State{}
	for len(st.Gangs) < 2 {
		st = &state.State{}
		fillRandom(r, reflect.ValueOf(st).Elem(), 0)
	}
	for i, g := range st.Gangs {
		if g == nil {
			g = &state.Gang{}
			st.Gangs[i] = g
		}
		for len(g.Models) < 5 {
			m := &state.Model{}
			fillRandom(r, reflect.ValueOf(m).Elem(), 1)
			g.Models = append(g.Models, m)
		}
	}
	for _, bc := range []struct {
		name string
		hash func(*hasher, *state.State)
	}{{"typed", (*hasher).state}, {"reflective", (*hasher).stateReflective}} {
		b.Run(bc.name, func(b *testing.B) {
			h := &hasher{}
			for b.Loop() {
				h.n = 0
				bc.hash(h, st)
				_ = h.sum()
			}
		})
	}
}

// A model's empty fields are left out of its hash but for a bit each
// (modelAt): every hashed field must still tell its values apart, and
// a value in one field must not hash as the same value in another. For
// each field a model's hash reads, a model with that field set (and
// every other empty) hashes apart from the empty model and from each
// model with another field set, by the typed plans, by reflection and
// by a plan's model writes (compileModelOps).
func TestModelHashTellsFieldsApart(t *testing.T) {
	xp := -1
	for b, d := range droppables() {
		if d.name == "xp" {
			xp = b
		}
	}
	dropXP := fieldPlan{drop: 1 << xp}
	dropXP.model = compileModelOps(dropXP)
	hashes := map[string]func(*state.State) uint64{
		"typed":      func(st *state.State) uint64 { h := &hasher{}; h.state(st); return h.sum() },
		"reflective": func(st *state.State) uint64 { h := &hasher{}; h.stateReflective(st); return h.sum() },
		"by ops":     func(st *state.State) uint64 { h := &hasher{plan: dropXP}; h.state(st); return h.sum() },
	}
	withField := func(i int) *state.State {
		m := &state.Model{}
		if i >= 0 {
			setSomething(reflect.ValueOf(m).Elem().Field(i))
		}
		return &state.State{Gangs: []*state.Gang{{Models: []*state.Model{m}}}}
	}
	xpField, _ := modelType.FieldByName("XP")
	for name, hash := range hashes {
		seen := map[uint64]string{hash(withField(-1)): "no field"}
		for _, i := range hashedFields(modelType) {
			f := modelType.Field(i)
			if name == "by ops" && i == xpField.Index[0] {
				continue // the plan leaves it out
			}
			sum := hash(withField(i))
			if other, ok := seen[sum]; ok {
				t.Errorf("%s: a model with %s set hashes as one with %s", name, f.Name, other)
			}
			seen[sum] = f.Name
		}
	}
}

// setSomething sets v, of a type a model's field has, to a value that is
// not its zero.
func setSomething(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Struct:
		setSomething(v.Field(0))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		if s.Index(0).Kind() == reflect.Pointer {
			s.Index(0).Set(reflect.New(s.Index(0).Type().Elem()))
		} else {
			setSomething(s.Index(0))
		}
		v.Set(s)
	default:
		panic("setSomething: " + v.Kind().String())
	}
}

// A model some variable reaches (modelKeep: droppable fields read whole,
// or asked for items) is hashed by the plan's writes made for what the
// variables read (keptOps) exactly as field by field (modelAt): on
// random states, plans and keeps.
func TestKeptModelOpsMatchFieldByField(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var lists []int
	for b, d := range droppables() {
		if d.field().Type == reflect.TypeOf([]string(nil)) {
			lists = append(lists, b)
		}
	}
	kept := 0
	for n := range 500 {
		st := &state.State{}
		fillRandom(r, reflect.ValueOf(st).Elem(), 0)
		plan := randomFieldPlan(r, lists, nil) // no focus: those go field by field
		if plan.drop == 0 && plan.counts == nil && plan.sorted == 0 {
			continue
		}
		var keep []modelKeep
		for _, g := range st.Gangs {
			if g == nil {
				continue
			}
			for _, m := range g.Models {
				if m == nil || r.IntN(2) == 0 {
					continue
				}
				k := modelKeep{m: m}
				for b := range droppables() {
					if r.IntN(4) == 0 {
						k.whole |= 1 << b
					}
				}
				for _, b := range lists {
					if r.IntN(3) == 0 {
						k.items = append(k.items, keepItems{bit: b, items: []string{randomWord(r), randomWord(r)}})
					}
				}
				keep = append(keep, k)
			}
		}
		kept += len(keep)
		byField := &hasher{plan: plan, keep: keep}
		byField.state(st)
		compiled := plan
		compiled.model, compiled.kept = compileModelOps(plan), new(keptOpsMade)
		byOps := &hasher{plan: compiled, keep: keep}
		byOps.state(st)
		if byOps.unique != byField.unique || byOps.sum() != byField.sum() {
			t.Fatalf("state %d, plan %+v, keep %+v: by the kept models' writes %x, field by field %x", n, plan, keep, byOps.sum(), byField.sum())
		}
	}
	if kept < 200 {
		t.Errorf("only %d models kept in all", kept)
	}
}
