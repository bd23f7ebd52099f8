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

// A direct call's arguments read from a frame's slots, its items and its
// literals give what the map closures and the VM give.
func TestDirectCallSlots(t *testing.T) {
	cfg := conf.CreateNew()
	for _, op := range append([]expr.Option{expr.Env(testEnv())}, testFunctions...) {
		op(cfg)
	}
	names := []string{"m", "ms", "n", "z", "twin"}
	slot := func(name string) (int, bool) {
		i := slices.Index(names, name)
		return i, i >= 0
	}
	for _, text := range []string{
		`count(ms, near3(m, #, 1))`, `count(ms, near3(#, m, 0))`, `let x = m; count(ms, near3(x, #, 0))`,
		`near3(m, ms[0], n)`, `count(ms, any(ms, near3(#, m, 0)))`, `count(ms, let y = #; any(ms, near3(y, #, 1)))`,
		`near3(twin, m, n - 2)`, `near3(z, m, 1)`, `filter(ms, near3(m, #, twice(n) - 3))`,
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
		vals := make([]any, len(names))
		for i, n := range names {
			vals[i] = env[n]
		}
		got, gerr := f(nil, vals)
		cgot, cerr := closure(env)
		want, werr := vm.Run(program, env)
		if gerr != nil || cerr != nil || werr != nil || !reflect.DeepEqual(got, cgot) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: slots %#v, %v; closures %#v, %v; the VM %#v, %v", text, got, gerr, cgot, cerr, want, werr)
		}
	}
}
