package stdlib

import (
	"github.com/munda-rules/munda/stdlib/state"
	"reflect"
	"testing"
)

// TestFunctionsTakeNil calls every function with nil for each model, gang
// and weapon argument, as a rule's `nil` reaches it: no function may panic.
// (The state argument of NeedsState functions is always given.)
func TestFunctionsTakeNil(t *testing.T) {
	st := &state.State{}
	for _, fn := range Functions {
		for _, sig := range fn.Types {
			ft := reflect.TypeOf(sig).Elem()
			args := make([]any, ft.NumIn())
			for i := range args {
				switch {
				case i == 0 && fn.NeedsState:
					args[i] = st
				case ft.In(i).Kind() == reflect.String:
					args[i] = "x"
				case ft.In(i).Kind() == reflect.Int:
					args[i] = 1
				case ft.In(i).Kind() == reflect.Float64:
					args[i] = 1.0
				}
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s%v with nil arguments panics: %v", fn.Name, ft, r)
					}
				}()
				_, _ = fn.Fn(args...)
			}()
		}
	}
}
