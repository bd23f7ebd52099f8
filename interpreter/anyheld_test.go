package interpreter

import (
	"reflect"
	"slices"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// Every run of the tests remembers who holds what where it can, from
// the first: the semantics suite's runs of rules that change who holds a
// feature check that nothing is remembered where it may change.
func init() { anyFixedAfterRuns = 0 }

// TestListedFieldIsListedBy keeps the rules' name of each kind's list
// (what the write summaries know it by) the field listedBy reads.
func TestListedFieldIsListedBy(t *testing.T) {
	for _, kind := range []string{"skill", "power", "condition"} {
		name := listedField(kind)
		m := &state.Model{}
		v := reflect.ValueOf(m).Elem()
		found := false
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).Tag.Get("expr") == name {
				v.Field(i).Set(reflect.ValueOf([]string{"marked"}))
				found = true
			}
		}
		if !found {
			t.Fatalf("%s: no model field %q", kind, name)
		}
		if !slices.Equal(listedBy(kind)(m), []string{"marked"}) {
			t.Errorf("%s: listedBy does not read the field %q", kind, name)
		}
	}
}
