package stdlib

import (
	"math"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
)

// int() of a number past int's range, or of text that is no number, is an
// error that says so, not a wrapped-around count; in range, it truncates
// as expr's built-in does, and its result is an int to the checker.
func TestIntBounded(t *testing.T) {
	for _, c := range []struct {
		src  string
		env  map[string]any
		want any    // when it runs
		err  string // else, in the error
	}{
		{src: "int(x)", env: map[string]any{"x": 2.9}, want: 2},
		{src: "int(x)", env: map[string]any{"x": -2.9}, want: -2},
		{src: "int(x) + 1", env: map[string]any{"x": 3}, want: 4},
		{src: `int("12")`, want: 12},
		{src: "int(x)", env: map[string]any{"x": 1e300}, err: "int(1e+300): not a whole number"},
		{src: "int(x)", env: map[string]any{"x": -1e19}, err: "not a whole number"},
		{src: "int(x)", env: map[string]any{"x": math.NaN()}, err: "int(NaN)"},
		{src: "int(x)", env: map[string]any{"x": float64(math.MaxInt64)}, err: "not a whole number"},
		{src: `int("twelve")`, err: `int("twelve"): not a whole number`},
	} {
		env := c.env
		if env == nil {
			env = map[string]any{}
		}
		prog, err := expr.Compile(c.src, append(ExprOptions(), expr.Env(env), expr.AsInt())...)
		if err != nil {
			t.Errorf("%s: compile: %v", c.src, err)
			continue
		}
		got, err := expr.Run(prog, env)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s with %v = %v, %v; want %v", c.src, env, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s with %v = %v, %v; want an error with %q", c.src, env, got, err, c.err)
		}
	}
}
