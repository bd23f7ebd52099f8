package state

import (
	"reflect"
	"testing"
)

// fill sets every field reachable from v to a distinct non-zero value, with
// two entries in every list, leaving back-pointers (json:"-") alone.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)) + string(rune('a'+*n/26%26)))
	case reflect.Int:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).Tag.Get("json") == "-" {
				continue
			}
			fill(v.Field(i), n)
		}
	case reflect.Map: // battle.recorded: plain values, a list and a map among them
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(reflect.ValueOf("a"), reflect.ValueOf(any([]any{"x", 1})))
		m.SetMapIndex(reflect.ValueOf("b"), reflect.ValueOf(any(map[string]any{"x": 2})))
		v.Set(m)
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// shares reports a path where a and b share memory: the same pointer, or
// lists with the same backing array. Back-pointers are skipped.
func shares(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len(); i++ {
			if p := shares(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() {
			if p := shares(a.MapIndex(k), b.MapIndex(k), path+"["+k.String()+"]"); p != "" {
				return p
			}
		}
	case reflect.Interface:
		if !a.IsNil() && !b.IsNil() {
			return shares(a.Elem(), b.Elem(), path)
		}
	case reflect.Pointer:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
		if !a.IsNil() && !b.IsNil() {
			return shares(a.Elem(), b.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).Tag.Get("json") == "-" {
				continue
			}
			if p := shares(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestClone(t *testing.T) {
	var st State
	n := 0
	fill(reflect.ValueOf(&st).Elem(), &n)
	st.Gangs[1].Models[0].Weapons[1] = nil // nil entries stay nil
	st.Gangs[0].Models[1].Skills = []string{}
	st.link()
	c := st.Clone()
	if !reflect.DeepEqual(&st, c) {
		t.Fatal("clone differs from the original")
	}
	if p := shares(reflect.ValueOf(&st), reflect.ValueOf(c), "state"); p != "" {
		t.Fatalf("clone shares %s with the original", p)
	}
	for _, g := range c.Gangs {
		if g.State != c {
			t.Error("gang back-pointer not into the clone")
		}
		for _, m := range g.Models {
			if m.Gang != g {
				t.Error("model back-pointer not into the clone")
			}
		}
	}
	if c.Gangs[0].Models[1].Skills == nil || c.Gangs[0].Models[0].Powers == nil {
		t.Error("empty lists became nil")
	}

	// Appending to a list of the clone touches nothing else.
	m0, m1 := c.Gangs[0].Models[0], c.Gangs[0].Models[1]
	before := append([]string(nil), m0.Skills...)
	m0.Conditions = append(m0.Conditions, "extra")
	c.Gangs[0].Models = append(c.Gangs[0].Models, &Model{ID: "new"})
	c.Battle.Rules = append(c.Battle.Rules, "extra")
	if !reflect.DeepEqual(m0.Skills, before) || c.Gangs[1].Models[0] == nil || m1.Gang != c.Gangs[0] || c.Gangs[0].Stash[0] != st.Gangs[0].Stash[0] {
		t.Error("appending to a clone's list overwrote another list")
	}
	if len(st.Gangs[0].Models) != 2 || len(st.Gangs[0].Models[0].Conditions) != 2 {
		t.Error("changing the clone changed the original")
	}

	if (*State)(nil).Clone() != nil {
		t.Error("nil clone")
	}
	empty := (&State{}).Clone()
	if empty.Gangs != nil || empty.Battle.Markers != nil {
		t.Error("nil lists became non-nil")
	}
	withNil := (&State{Gangs: []*Gang{nil, {ID: "g", Models: []*Model{nil}}}}).Clone()
	if withNil.Gangs[0] != nil || withNil.Gangs[1].Models[0] != nil || withNil.Gangs[1].State != withNil {
		t.Error("nil entries")
	}
}

func TestCloneExamples(t *testing.T) {
	for _, f := range exampleFiles(t) {
		st := mustDecode(t, f)
		if c := st.Clone(); !reflect.DeepEqual(st, c) {
			t.Errorf("%s: clone differs", f)
		}
	}
}

func BenchmarkClone(b *testing.B) {
	st := mustDecode(b, "../../testdata/states/goliaths-vs-eschers.yaml")
	b.ReportAllocs()
	for b.Loop() {
		_ = st.Clone()
	}
}

func BenchmarkDecode(b *testing.B) {
	data := mustRead(b, "../../testdata/states/goliaths-vs-eschers.yaml")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode("x.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	st := mustDecode(b, "../../testdata/states/goliaths-vs-eschers.yaml")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(st, "yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	st := mustDecode(b, "../../testdata/states/goliaths-vs-eschers.yaml")
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(st); err != nil {
			b.Fatal(err)
		}
	}
}
