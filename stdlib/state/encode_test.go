package state

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRoundTrip checks Decode(Encode(x)) == x for every example, in both
// formats, and that encoding is deterministic and a fixed point.
func TestRoundTrip(t *testing.T) {
	for _, f := range exampleFiles(t) {
		st := mustDecode(t, f)
		for _, format := range []string{"yaml", "json"} {
			out, err := Encode(st, format)
			if err != nil {
				t.Fatalf("%s: encode %s: %v", f, format, err)
			}
			back, err := Decode(f+"."+format, out)
			if err != nil {
				t.Fatalf("%s: decode %s:\n%v\n%s", f, format, err, out)
			}
			if !reflect.DeepEqual(st, back) {
				t.Errorf("%s: %s round trip differs", f, format)
			}
			again, err := Encode(back, format)
			if err != nil || !bytes.Equal(out, again) {
				t.Errorf("%s: %s encoding is not stable (%v)", f, format, err)
			}
			if again, _ := Encode(st.Clone(), format); !bytes.Equal(out, again) {
				t.Errorf("%s: %s encoding of a clone differs", f, format)
			}
		}
	}
}

// TestRoundTripEdges covers values the examples lack.
func TestRoundTripEdges(t *testing.T) {
	st := mustDecode(t, "../../testdata/states/vehicles.yaml")
	m := st.Model("joss")
	m.Name = "123"
	m.Type = "yes"
	m.Group = "line one\nline \"two\"\t\x7f é 😀 \u2028"
	m.Marks = []string{"", "null", "~", "- dash", "# hash", "a: b", "[x]"}
	m.X, m.Y = 0.1+0.2, -1e-7
	m.Base = 28.5
	w := m.Weapons[0]
	w.UserStrength, w.S = true, -1
	w.NoDamage, w.D = true, 0
	st.Battle.Markers = []*Marker{{ID: "m", Kind: "smoke", X: 99999.125, Y: -0, Radius: 3}}
	if err := Validate(st); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"yaml", "json"} {
		out, err := Encode(st, format)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode("edge."+format, out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, out)
		}
		if !reflect.DeepEqual(st, back) {
			t.Errorf("%s round trip differs:\n%s", format, out)
		}
	}
	// An invalid state still round-trips as long as its values are
	// representable: the flags are written out when "-" cannot carry them.
	w.NoDamage, w.D = true, 3
	out, err := Encode(st, "yaml")
	if err != nil || !strings.Contains(string(out), "d: 3, no_damage: true") {
		t.Errorf("no_damage with d 3: %v\n%s", err, out)
	}
}

func TestFormatFloat(t *testing.T) {
	for _, x := range []float64{0, 1, -1, 0.1 + 0.2, 1e-7, 1e20, 1e21, 1.5e300, -2.5e-300, 123456789.125, 5e-324} {
		s := formatFloat(x)
		if back, ok := parseFloat(s); !ok || back != x {
			t.Errorf("formatFloat(%v) = %q reads back as %v", x, s, back)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	st := mustDecode(t, "../../testdata/states/vehicles.yaml")
	if _, err := Encode(st, "toml"); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := Encode(nil, "yaml"); err == nil {
		t.Error("nil state accepted")
	}
	c := st.Clone()
	c.Gangs[1].Models[0].X = nanValue()
	if _, err := Encode(c, "yaml"); err == nil || !strings.Contains(err.Error(), "gangs[1].models[0].x") {
		t.Errorf("NaN: %v", err)
	}
	c = st.Clone()
	c.Gangs[0].Models[1] = nil
	if _, err := Encode(c, "json"); err == nil || !strings.Contains(err.Error(), "gangs[0].models[1]: null entry") {
		t.Errorf("nil model: %v", err)
	}
	c = st.Clone()
	c.Gangs[0].Name = "\xff"
	if _, err := Encode(c, "yaml"); err == nil {
		t.Error("invalid UTF-8 accepted")
	}
	// An empty state is written with its required lists.
	out, err := Encode(&State{}, "yaml")
	if err != nil || string(out) != "battle:\n  round: 0\ngangs: []\n" {
		t.Errorf("empty state: %v %q", err, out)
	}
}

// TestGolden pins the encoding of one example.
func TestGolden(t *testing.T) {
	st := mustDecode(t, "../../testdata/states/vehicles.yaml")
	for _, format := range []string{"yaml", "json"} {
		out, err := Encode(st, format)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", "vehicles."+format)
		if *update {
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./stdlib/state -run TestGolden -update)", err)
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s differs from %s (run with -update if intended):\n%s", format, golden, out)
		}
	}
}
