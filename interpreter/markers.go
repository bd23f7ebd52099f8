package interpreter

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/state"
)

// Rules place markers on the battlefield (a smoke cloud, a Wall of Flame)
// by setting battle.markers to a list that holds new ones written as maps
// of a marker's fields: `set battle.markers = concat(battle.markers,
// [{id: "smoke_1", kind: "smoke", x: 3, y: 4, radius: 1.5}])`.

var markerType = reflect.TypeOf(state.Marker{})

// markerFields are a marker's fields by their expr names, for errors.
var markerFields = func() []string {
	var names []string
	for i := 0; i < markerType.NumField(); i++ {
		if n := markerType.Field(i).Tag.Get("expr"); n != "" && n != "-" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}()

// markerFrom makes a marker from a map of its fields (a marker already
// is one).
func markerFrom(v any) (reflect.Value, error) {
	if mk, ok := v.(*state.Marker); ok {
		return reflect.ValueOf(mk), nil
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return reflect.Value{}, fmt.Errorf("cannot use %s (%T) as a marker: write a map of its fields (%s)", display(v), v, strings.Join(markerFields, ", "))
	}
	mk := reflect.New(markerType)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the first error is the same on every run
	for _, k := range keys {
		idx, ok := fieldIndex(markerType, k)
		if !ok {
			return reflect.Value{}, fmt.Errorf("%s", diag.Suggest(fmt.Sprintf("a marker has no field %s (it has %s)", k, strings.Join(markerFields, ", ")), k, markerFields))
		}
		f := mk.Elem().FieldByIndex(idx)
		fv, err := convertTo(fields[k], f.Type())
		if err != nil {
			return reflect.Value{}, fmt.Errorf("marker field %s: %v", k, err)
		}
		f.Set(fv)
	}
	return mk, nil
}

// placeMarkers checks the markers a rule is about to leave on the
// battlefield as a state file's are checked: the field is set to list
// only if they are valid, so a run never writes a state that does not
// read back.
func placeMarkers(st *state.State, field, list reflect.Value) error {
	if st == nil {
		return nil
	}
	old := field.Interface()
	field.Set(list)
	if err := markersError(st); err != nil {
		field.Set(reflect.ValueOf(old))
		return err
	}
	return nil
}

// markersError checks the markers of the state, as a state file's are
// checked, after a rule placed them or set a field of one (a radius, a
// place): the rule that broke one is named at once, not the state when
// the run ends. The error names the first field at fault.
func markersError(st *state.State) error {
	if st == nil {
		return nil
	}
	err := state.ValidateMarkers(st)
	if err == nil {
		return nil
	}
	var ds diag.Diagnostics
	if errors.As(err, &ds) && len(ds) > 0 {
		return fmt.Errorf("%s: %s", ds[0].Path, ds[0].Summary)
	}
	return err
}

// markerTextSize is what one marker counts against a run's text budget:
// its strings and its numbers as a state file writes them, about.
const markerTextSize = 48

// markersTextSize is what setting battle.markers writes: every marker
// is written again each time, so a rule that adds markers one at a time
// without end stops at the text limit, in a run that logs nothing (odds,
// tests) as in one that does, rather than set ever longer lists.
func markersTextSize(markers []*state.Marker) int {
	n := 0
	for _, mk := range markers {
		if mk != nil {
			n += markerTextSize + len(mk.ID) + len(mk.Kind) + len(mk.Owner)
		}
	}
	return n
}
