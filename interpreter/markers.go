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
	err := state.ValidateMarkers(st)
	if err == nil {
		return nil
	}
	field.Set(reflect.ValueOf(old))
	var ds diag.Diagnostics
	if errors.As(err, &ds) && len(ds) > 0 {
		return fmt.Errorf("%s: %s", ds[0].Path, ds[0].Summary)
	}
	return err
}
