package fastexpr

import (
	"reflect"
	"slices"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/vm"
)

// The conditions of a name that run without a frame give what the
// expression's closures give (and the VM, where they give a value), with
// the name holding the type the checker saw or any other; and for some
// values they take no frame.
func TestFramelessTests(t *testing.T) {
	cfg := conf.CreateNew()
	for _, op := range append([]expr.Option{expr.Env(testEnv())}, testFunctions...) {
		op(cfg)
	}
	names := []string{"b", "s", "n", "mixed", "anyv", "f"}
	slot := func(name string) (int, bool) {
		i := slices.Index(names, name)
		return i, i >= 0
	}
	others := []any{nil, true, false, "Bo", "", 0, 2, 3, -1, 2.0, 2.5, []any{}, []any{1}, []int{1, 2}, []string{"a"}, &testModel{}}
	for _, text := range []string{
		`not b`, `!b`, `s == "Bo"`, `"Bo" != s`, `s != "x"`, `"x" == s`, `n > 1`, `1 < n`, `n == 2`, `n != 2`, `n <= 2`,
		`n >= 3`, `2 > n`, `len(mixed) > 0`, `len(mixed) == 5`, `0 < len(mixed)`, `len(mixed) <= 4`, `anyv > 1`, `anyv == 3`,
	} {
		program, closure, err := compileBoth(t, text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		f, err := CompileSlots(program.Node(), map[string]*builtin.Function(cfg.Functions), slot)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		env := testEnv()
		runs := 0
		for name := range len(names) + 1 {
			vs := append([]any{nil}, others...)
			if name == len(names) {
				vs = []any{nil} // the env as it is
			}
			for _, v := range vs {
				e := map[string]any{}
				vals := make([]any, len(names))
				for i, n := range names {
					e[n], vals[i] = env[n], env[n]
				}
				if name < len(names) {
					e[names[name]], vals[name] = v, v
				}
				var fs Frames
				got, gerr := f(&fs, vals)
				if len(fs.frames) == 0 {
					runs++
				}
				cgot, cerr := closure(e)
				if (gerr == nil) != (cerr == nil) || (gerr == nil && !reflect.DeepEqual(got, cgot)) {
					t.Fatalf("%s with %v: %#v, %v; the closures %#v, %v", text, vals, got, gerr, cgot, cerr)
				}
				want, werr := vm.Run(program, e)
				if gerr == nil && (werr != nil || !reflect.DeepEqual(got, want)) {
					t.Fatalf("%s with %v: frameless %#v, the VM %#v, %v", text, vals, got, want, werr)
				}
			}
		}
		if runs == 0 {
			t.Fatalf("%s never ran without a frame", text)
		}
	}
}
