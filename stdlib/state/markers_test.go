package state

import (
	"slices"
	"strings"
	"testing"
)

// TestMarkers: a marker's owner names a model, and the checks Decode makes
// of markers are the ones ValidateMarkers makes of markers a rule placed.
func TestMarkers(t *testing.T) {
	for _, c := range []errorCase{
		{"owned by a model", edit(t, "  priority: a\n", "  priority: a\n  markers:\n    - {id: w, kind: wall_of_flame, x: 1, y: 2, radius: 2.5, owner: a1}\n"), nil},
		{"owner unknown", edit(t, "  priority: a\n", "  priority: a\n  markers:\n    - {id: w, kind: wall_of_flame, x: 1, y: 2, owner: a2}\n"),
			[]string{`x.yaml:5:48: battle.markers[0].owner: no model has the id "a2"; did you mean a1?`}},
		{"two with one id", edit(t, "  priority: a\n", "  priority: a\n  markers:\n    - {id: s, kind: smoke, x: 1, y: 2}\n    - {id: s, kind: smoke, x: 3, y: 2}\n"),
			[]string{`x.yaml:6:8: battle.markers[1].id: duplicate marker id "s" (also battle.markers[0])`}},
		{"no kind", edit(t, "  priority: a\n", "  priority: a\n  markers:\n    - {id: s, x: 1, y: 2}\n"),
			[]string{`x.yaml:5:7: battle.markers[0].kind: required field is missing: the kind of marker`}},
		{"an answer with no key", edit(t, "  priority: a\n", "  priority: a\n  recorded: {\"\": 2.0}\n"),
			[]string{`x.yaml:4:3: battle.recorded: an answer recorded under an empty key answers no choice`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := Decode("x.yaml", []byte(c.input))
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			if st != nil && len(st.Battle.Markers) > 0 && st.Battle.Markers[0].Owner != "a1" {
				t.Errorf("owner %q, want a1", st.Battle.Markers[0].Owner)
			}
		})
	}
}

// TestValidateMarkers checks markers as a rule leaves them, without the
// rest of the state.
func TestValidateMarkers(t *testing.T) {
	st, err := Decode("x.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateMarkers(st); err != nil {
		t.Fatalf("no markers: %v", err)
	}
	for _, c := range []struct {
		name    string
		markers []*Marker
		want    string
	}{
		{"placed", []*Marker{{ID: "s1", Kind: "smoke", X: 3, Y: 4, Radius: 1.5, Owner: "b1"}}, ""},
		{"twice", []*Marker{{ID: "s1", Kind: "smoke"}, {ID: "s1", Kind: "smoke"}}, `battle.markers[1].id: duplicate marker id "s1" (also battle.markers[0])`},
		{"no kind", []*Marker{{ID: "s1"}}, `battle.markers[0].kind: required field is missing: the kind of marker`},
		{"no owner", []*Marker{{ID: "s1", Kind: "smoke", Owner: "zz"}}, `battle.markers[0].owner: no model has the id "zz"`},
		{"negative radius", []*Marker{{ID: "s1", Kind: "smoke", Radius: -1}}, `battle.markers[0].radius: want a radius in inches, 0 or more, got -1`},
		{"nil", []*Marker{nil}, `battle.markers[0]: want a marker, got null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st.Battle.Markers = c.markers
			err := ValidateMarkers(st)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
