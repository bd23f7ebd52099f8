package interpreter

import (
	"math"
	"reflect"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// FuzzPlaceMarker: a marker a rule writes as a map (any key, any value of
// the kinds expressions make) is either refused with an error or placed;
// what is placed has the fields the map gave and leaves a state that
// validates. It never panics.
func FuzzPlaceMarker(f *testing.F) {
	f.Add("kind", "smoke", 1.5, int64(2), "p")
	f.Add("radius", "", math.NaN(), int64(-1), "nobody")
	f.Add("x", "a", math.Inf(1), int64(math.MaxInt64), "")
	f.Add("owner", "p", 1e308, int64(0), "p")
	f.Add("colour", "red", 0.0, int64(1), "")
	f.Fuzz(func(t *testing.T, key, text string, x float64, n int64, owner string) {
		for _, v := range []any{text, x, int(n), true, nil, []any{text}, map[string]any{key: text}} {
			fields := map[string]any{"id": "m", "kind": "smoke", "x": x, "y": int(n), "owner": owner, key: v}
			mk, err := markerFrom(fields)
			if err != nil {
				continue
			}
			st := &state.State{Gangs: []*state.Gang{{ID: "g", Models: []*state.Model{{ID: "p", Kind: "fighter", Base: 25}}}}}
			st.Battle.Markers = []*state.Marker{{ID: "old", Kind: "smoke"}}
			list := []*state.Marker{st.Battle.Markers[0], mk.Interface().(*state.Marker)}
			field := reflect.ValueOf(&st.Battle.Markers).Elem()
			if err := placeMarkers(st, field, reflect.ValueOf(list)); err != nil {
				if len(st.Battle.Markers) != 1 {
					t.Fatalf("a refused marker was placed: %v", err)
				}
				continue
			}
			if err := state.ValidateMarkers(st); err != nil {
				t.Fatalf("placed markers that do not validate: %v", err)
			}
		}
	})
}
