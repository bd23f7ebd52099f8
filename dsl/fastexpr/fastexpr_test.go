package fastexpr

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/vm"

	"github.com/munda-rules/munda/stdlib"
)

type testStats struct {
	WS int `expr:"ws"`
}

type testGang struct {
	Name   string       `expr:"name"`
	Models []*testModel `expr:"models"`
}

type testModel struct {
	Name   string    `expr:"name"`
	Wounds int       `expr:"wounds"`
	Speed  float64   `expr:"speed"`
	Broken bool      `expr:"broken"`
	Skills []string  `expr:"skills"`
	Stats  testStats `expr:"stats"`
	Gang   *testGang `expr:"gang"`
}

// testEnv is what each case runs in; its types are what expr checks.
func testEnv() map[string]any {
	g := &testGang{Name: "Goliaths"}
	for i, name := range []string{"Ana", "Bo", "Cy"} {
		g.Models = append(g.Models, &testModel{Name: name, Wounds: i, Speed: 1.5 * float64(i), Broken: i == 1,
			Skills: []string{"nerves", name}, Stats: testStats{WS: 3 + i}, Gang: g})
	}
	return map[string]any{
		"n": 2, "f": 2.5, "b": true, "s": "Bo",
		"m":         g.Models[1],
		"z":         (*testModel)(nil),
		"g":         g,
		"ms":        g.Models,
		"list":      []int{1, 2, 3},
		"natural":   map[string]int{"ROLL": 4},
		"anyv":      any(3),
		"nostrings": []string(nil),
		"mixed":     []any{"x", 1, nil, 2.5, []string{"Bo"}},
		"nanm":      &testModel{Name: "NaN", Speed: math.NaN()}, // not equal to itself, as DeepEqual says
		"twin":      &testModel{Name: "Bo", Wounds: 1, Speed: 1.5, Broken: true, Skills: []string{"nerves", "Bo"}, Stats: testStats{WS: 4}, Gang: g},
	}
}

var testFunctions = []expr.Option{
	expr.Function("twice", func(args ...any) (any, error) { return 2 * args[0].(int), nil }, new(func(int) int)),
	expr.Function("boom", func(args ...any) (any, error) { return nil, errors.New("boom") }, new(func() int)),
	expr.Function("panics", func(args ...any) (any, error) { panic("a function's bug") }, new(func(int) int)),
	expr.Function("named", func(args ...any) (any, error) { return args[0].(*testModel).Name, nil }, new(func(*testModel) string)),
	// team and nobody give slices of pointers, as friends(m) does: nobody
	// a nil one, and untyped a []*testModel where the checker saw any.
	expr.Function("team", func(args ...any) (any, error) { return args[0].(*testModel).Gang.Models, nil }, new(func(*testModel) []*testModel)),
	expr.Function("sum3", func(args ...any) (any, error) { return args[0].(int) + args[1].(int) + args[2].(int), nil },
		new(func(int, int, int) int)),
	// near3 is a bool of three arguments, registered to run typed.
	expr.Function("near3", func(args ...any) (any, error) { return near3(args[0], args[1], args[2]), nil },
		new(func(*testModel, *testModel, int) bool)),
	expr.Function("others", func(args ...any) (any, error) {
		m, _ := args[0].(*testModel)
		var out []*testModel
		if m != nil && m.Gang != nil {
			for _, o := range m.Gang.Models {
				if o != m {
					out = append(out, o)
				}
			}
		}
		return out, nil
	}, new(func(*testModel) []*testModel)),
	expr.Function("nobody", func(args ...any) (any, error) { return []*testModel(nil), nil }, new(func() []*testModel)),
	// everyone(g) is a new list of g's models, as models(state) is of the
	// state's: a predicate fills a list of its own instead (a nil gang
	// panics, which the VM reports).
	expr.Function("everyone", func(args ...any) (any, error) {
		return append([]*testModel(nil), args[0].(*testGang).Models...), nil
	}, new(func(*testGang) []*testModel)),
	// _cat is string + string, bounded as stdlib's: past 12 bytes it fails.
	expr.Function("_cat", func(args ...any) (any, error) {
		a, _ := args[0].(string)
		b, _ := args[1].(string)
		if len(a)+len(b) > 12 {
			return nil, errors.New("too long")
		}
		return a + b, nil
	}, new(func(string, string) string)),
	expr.Operator("+", "_cat"),
	// lists is the rules' concat of lists, made from the frame's slabs.
	expr.Function("lists", stdlib.ConcatLists, new(func(...any) []any)),
	// notlists has the same name's shape but is another function: called as any.
	expr.Function("notlists", func(args ...any) (any, error) { return len(args), nil }, new(func(...any) int)),
	// strptr and strany give a string where the checker sees any: behind
	// a pointer (the VM dereferences it) and not.
	expr.Function("strptr", func(args ...any) (any, error) { s := "Bo"; return &s, nil }, new(func() any)),
	expr.Function("strany", func(args ...any) (any, error) { return "Bo", nil }, new(func() any)),
	expr.Function("untyped", func(args ...any) (any, error) { return args[0].(*testModel).Gang.Models, nil }, new(func(*testModel) any)),
}

// near3 is whether b's wounds are within n of a's (false where either
// is nil).
func near3(a, b, n any) bool {
	x, _ := a.(*testModel)
	y, _ := b.(*testModel)
	k, _ := n.(int)
	if x == nil || y == nil {
		return false
	}
	return x.Wounds-y.Wounds <= k && y.Wounds-x.Wounds <= k
}

func init() {
	SetConcat("_cat", 12)
	SetListConcat("lists", stdlib.ConcatLists, stdlib.MaxListItems)
	RegisterDirect3("sum3", func(a, b, c any) (any, error) { return a.(int) + b.(int) + c.(int), nil })
	RegisterBool3("near3", near3)
	RegisterListFill("everyone", func(arg any, dst []*testModel) ([]*testModel, bool) {
		g, _ := arg.(*testGang)
		if g == nil {
			return nil, false
		}
		return append(dst, g.Models...), true
	})
	RegisterListView("others", func(arg any) ([]*testModel, *testModel) {
		m, _ := arg.(*testModel)
		if m == nil || m.Gang == nil {
			return nil, nil
		}
		return m.Gang.Models, m
	})
}

// compileBoth compiles text as dsl.Compiler does and as closures.
func compileBoth(t *testing.T, text string) (*vm.Program, Func, error) {
	t.Helper()
	cfg := conf.CreateNew()
	for _, op := range append([]expr.Option{expr.Env(testEnv())}, testFunctions...) {
		op(cfg)
	}
	cfg.Check()
	tree, err := checker.ParseCheck(text, cfg)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	program, err := exprcompiler.Compile(tree, cfg)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	f, err := Compile(program.Node(), map[string]*builtin.Function(cfg.Functions))
	return program, f, err
}

func TestNodeKinds(t *testing.T) {
	for _, c := range []struct {
		text     string
		wantFail bool // the VM fails too
	}{
		// literals and names
		{text: `1`}, {text: `1.5`}, {text: `true`}, {text: `"x"`}, {text: `nil`},
		{text: `n`}, {text: `anyv`}, {text: `f > 2`}, {text: `n + 0.5`}, {text: `anyv + 1`},
		// struct fields: typed loads, chains, nil
		{text: `m.wounds`}, {text: `m.name`}, {text: `m.speed`}, {text: `m.broken`}, {text: `m.skills`},
		{text: `m.stats.ws`}, {text: `m.stats`}, {text: `m.gang.name`}, {text: `g.models`},
		{text: `z.wounds`, wantFail: true}, {text: `z.stats.ws`, wantFail: true},
		// maps and indexes through runtime.Fetch
		{text: `natural.ROLL`}, {text: `natural.OTHER`}, {text: `natural["ROLL"]`},
		{text: `list[1]`}, {text: `list[-1]`}, {text: `list[10]`, wantFail: true}, {text: `ms[0].name`},
		// comparisons and equality (== between models compares them as values, as expr does)
		{text: `n < 3`}, {text: `n <= 2`}, {text: `n > 2`}, {text: `n >= 3`}, {text: `n == 2`}, {text: `n != 2`},
		{text: `f < n`}, {text: `m == m`}, {text: `m == ms[1]`}, {text: `m == ms[0]`}, {text: `m == nil`}, {text: `z == nil`},
		{text: `m.name == "Bo"`}, {text: `"Bo" != m.name`}, {text: `m.name == s`}, {text: `z.name == "x"`, wantFail: true},
		{text: `s < "C"`}, {text: `anyv == 3`},
		// arithmetic: int and float as expr mixes them
		{text: `n + 1`}, {text: `n - 5`}, {text: `n * 3`}, {text: `n - 258`}, {text: `n - 259`}, {text: `-(n * 128)`}, {text: `n * -129`}, {text: `n / 4`}, {text: `n / 0`}, {text: `n % 2`},
		{text: `n % 0`, wantFail: true}, {text: `f * 2`}, {text: `-n`}, {text: `-f`}, {text: `+n`}, {text: `2 ** 3`},
		{text: `s + "!"`}, {text: `1..3`}, {text: `n..1`},
		// booleans, short-circuit
		{text: `b && n > 1`}, {text: `!b`}, {text: `not b`}, {text: `false && z.wounds > 0`}, {text: `true || z.wounds > 0`},
		{text: `z.wounds > 0 || b`, wantFail: true}, {text: `b and n == 2 or false`},
		// ternary, in, strings
		{text: `n > 1 ? "x" : "y"`}, {text: `n > 5 ? 1 : 2.5`}, {text: `"a" in ["a", "b"]`}, {text: `n in [1, 2]`},
		{text: `"nerves" in m.skills`}, {text: `n in 1..5`}, {text: `"ROLL" in natural`},
		{text: `s startsWith "B"`}, {text: `s endsWith "x"`},
		// predicates
		{text: `any(ms, .wounds > 1)`}, {text: `all(ms, .wounds >= 0)`}, {text: `none(ms, .broken)`}, {text: `one(ms, .broken)`},
		{text: `filter(ms, .wounds > 0)`}, {text: `map(ms, .name)`}, {text: `count(ms, .wounds > 0)`}, {text: `count([true, false, true])`},
		{text: `len(ms)`}, {text: `len(filter(ms, .wounds > 0))`}, {text: `find(ms, .broken)`}, {text: `find(ms, .wounds > 5)`},
		{text: `findIndex(ms, .broken)`}, {text: `sum(ms, .wounds)`}, {text: `sum(list)`}, {text: `filter(ms, .wounds > 0)[0].name`},
		{text: `filter(ms, .wounds > 5)[0]`, wantFail: true}, {text: `count(ms, .wounds > 0) >= 2`}, {text: `filter(ms, .broken) | map(.name)`},
		{text: `any(ms, any(#.skills, # == "Cy"))`}, {text: `any(ms, #.gang.name == g.name)`}, {text: `any(list, # > 2)`},
		{text: `any(ms, n > 5 ? true : 1)`, wantFail: true}, {text: `map(ms, #.stats.ws * 2)`},
		// == between pointers to structs: nil settled, different pointers by DeepEqual, the same one as the VM
		{text: `nil == m`}, {text: `m != ms[0]`}, {text: `z != m`}, {text: `z == z`}, {text: `nil != z`}, {text: `any(ms, # == m)`},
		{text: `filter(ms, # != m)`}, {text: `m.gang == g`}, {text: `nanm == nanm`}, {text: `nanm != nanm`}, {text: `m == twin`},
		{text: `twin != m`}, {text: `ms[0] == twin`}, {text: `m == nanm`},
		// a string field of the item against a name or a string, the name read once
		{text: `find(ms, .name == s)`}, {text: `filter(ms, .name != s)`}, {text: `any(ms, s == .name)`}, {text: `find(ms, #.name == "Cy")`},
		{text: `findIndex(ms, .name == "Cy")`}, {text: `count(ms, .name != "Cy")`}, {text: `let k = strany(); find(ms, .name == k)`},
		{text: `let k = strptr(); any(ms, .name == k)`}, {text: `let k = untyped(m); none(ms, .name == k)`}, {text: `let k = untyped(m); all(ms, .name != k)`},
		{text: `filter(concat(ms, [z]), .name == s)`, wantFail: true}, {text: `find(nobody(), .name == s)`}, {text: `one(map(ms, #), .name == s)`},
		{text: `find(ms, .stats.ws == n + 2)`},
		// concat of lists, made at its length: nil for nothing at all
		{text: `concat(ms, ms)`}, {text: `concat([], [])`}, {text: `concat(ms)`}, {text: `concat(map(ms, .name), ["x"])`},
		{text: `concat(nobody(), ms)`}, {text: `concat(untyped(m), ["x"])`}, {text: `concat(list, 1..3, mixed)`},
		{text: `len(concat(1..600000, 1..600000))`, wantFail: true}, {text: `concat(z.gang.models, ms)`, wantFail: true},
		// a string against a value the checker did not type
		{text: `m.name == strany()`}, {text: `strany() == m.name`}, {text: `strany() != s`}, {text: `m.name == strptr()`},
		{text: `strptr() == "Bo"`}, {text: `find(ms, .name == strany()).wounds`},
		{text: `z.name == strany()`, wantFail: true}, {text: `strany() == z.name`, wantFail: true}, {text: `"x" == untyped(m)`},
		// (a + b) in a []string field, without making a + b; past the bound the VM fails
		{text: `("ner" + "ves") in m.skills`}, {text: `("B" + s[1:]) in m.skills`}, {text: `("" + s) in m.skills`},
		{text: `(s + "") in m.skills`}, {text: `(m.name + "x") in m.skills`}, {text: `(s + s) in m.skills`},
		{text: `("nerves" + "ABCDEFG") in m.skills`, wantFail: true}, {text: `(s + "") in z.skills`, wantFail: true},
		{text: `(z.name + "") in m.skills`, wantFail: true}, {text: `s + "!" == "Bo!"`},
		// s in a []any: string items compared, others never equal
		{text: `s in [n, "Bo"]`}, {text: `s in [n, nil]`}, {text: `"Bo" in map(ms, .name)`}, {text: `"x" in mixed`},
		{text: `s in mixed`}, {text: `m.name in map(ms, .name)`}, {text: `z.name in mixed`, wantFail: true},
		// lists of pointers looped over without reflection: fields, results, nil
		{text: `any(g.models, .broken)`}, {text: `filter(m.gang.models, .wounds > 0)`}, {text: `map(g.models, # == m)`},
		{text: `count(z.gang.models, true)`, wantFail: true}, {text: `find(team(m), .name == "Cy")`}, {text: `map(team(m), .stats.ws)`},
		{text: `len(filter(nobody(), true))`}, {text: `all(nobody(), false)`}, {text: `map(untyped(m), .name)`},
		{text: `any(team(m), any(#.gang.models, #.broken))`}, {text: `filter(ms, true)`}, {text: `none(ms, # == nil)`},
		// let, sequences, list and map literals, built-ins, functions
		{text: `let x = n * 2; x + 1`}, {text: `let x = 1; let y = x + 1; x + y`}, {text: `[1, n, "s"]`}, {text: `{"a": n}`},
		{text: `sortBy(ms, .wounds, "desc")`}, {text: `sortBy(ms, .name)`}, {text: `sortBy(list, -#)`},
		{text: `sortBy(ms, .name, s)`, wantFail: true}, {text: `concat(list, [n])`}, {text: `first(concat(map(ms, .name), ["x"]))`},
		{text: `list[1:2]`}, {text: `list[:2]`}, {text: `list[1:]`}, {text: `list[-2:]`}, {text: `s[0:1]`}, {text: `list[2:1]`},
		{text: `natural.ROLL ?? 0`}, {text: `natural.NONE ?? 7`}, {text: `z ?? m`}, {text: `anyv ?? 1`},
		{text: `s in m.skills`}, {text: `"x" in m.skills`}, {text: `s in ["Bo", "Cy"]`}, {text: `s in {"Bo": 1}`}, {text: `s in z.skills`, wantFail: true},
		{text: `natural["x" + s]`}, {text: `{"a": n}.a`}, {text: `{"a": n}.b`},
		{text: `upper(s)`}, {text: `abs(-n)`}, {text: `max(n, 7)`}, {text: `twice(n)`}, {text: `twice(twice(n))`},
		{text: `boom()`, wantFail: true}, {text: `named(m)`},
		// typed conditions, lets of # or a name read in place, int fields compared at their offset
		{text: `any(ms, let x = #; let y = x; y.broken and not x.broken)`}, {text: `count(ms, let x = #; x.wounds >= n and x.name != "Bo")`},
		{text: `filter(ms, let x = #; any(ms, let y = #; y.wounds > x.wounds))`}, {text: `let x = m; x.stats.ws > 3 ? x.broken : false`},
		{text: `all(ms, .wounds < 10 or z.wounds > 0)`}, {text: `any(ms, .wounds > 10 and z.wounds > 0)`}, {text: `any(ms, z.wounds > 0)`, wantFail: true},
		{text: `one(ms, .stats.ws == 4)`}, {text: `none(ms, .name in ["Cy", "Dan"])`}, {text: `not (n > 1) or anyv == 3`},
		{text: `any(ms, "Cy" in .skills)`}, {text: `filter(ms, not .broken and .name == "Bo")`}, {text: `all(ms, "nerves" in #.skills)`},
		{text: `any(concat(ms, [z]), .name == "x")`, wantFail: true}, {text: `any(concat(ms, [z]), not .broken)`},
		{text: `none(concat(ms, [z]), "x" in .skills)`, wantFail: true}, {text: `find(concat([z], ms), .broken)`, wantFail: true},
		{text: `any(mixed, # == "x")`}, {text: `all(list, # > 0 and # < 4)`}, {text: `b and strany() == "Bo"`}, {text: `!b or strany() != s`},
		// chains: and/or/not flattened through aliasing lets, not pushed down to the item's tests
		{text: `filter(ms, let x = #; not (x.name == "Bo" and x.wounds > 0) and not (let y = x; y.broken or "Cy" in y.skills))`},
		{text: `count(ms, let x = #; not (not x.broken or x.wounds != 1))`}, {text: `any(ms, not (0 < .wounds) and "Ana" == .name)`},
		{text: `filter(ms, not (.wounds >= 1 and .wounds <= 1) or not (2 > .wounds))`}, {text: `all(ms, let x = #; x.name != "Dan" and (x.wounds == 0 or (let y = x; not y.broken and y.wounds < 3)))`},
		{text: `count(ms, not ("nerves" in .skills) or .wounds == 2)`}, {text: `none(ms, let x = #; not (x.name != "Bo" or not x.broken))`},
		{text: `filter(concat(ms, [z]), not (.wounds > 5))`, wantFail: true}, {text: `any(concat(ms, [z]), not (.wounds < 5))`, wantFail: true}, {text: `any(concat(ms, [z]), not (.wounds < 2))`},
		{text: `any(concat(ms, [z]), .wounds >= 0 and not (.name == "Cy") and z.wounds > 0)`, wantFail: true},
		{text: `all(ms, not (.wounds > 0 and z.wounds > 0))`, wantFail: true}, {text: `all(ms, not (.wounds > 5 and z.wounds > 0))`},
		{text: `not (b and (n > 1 or z.wounds > 0))`}, {text: `not (not b or n == 2) and s == "Bo"`}, {text: `any(ms, not (anyv == 3 and .broken))`},
		{text: `filter(ms, let x = #; any(ms, let y = #; not (y.wounds > x.wounds or y.name == x.name)))`},
		// runs of tests of one item's fields checked once: mixed kinds, broken by other operands, items of two depths
		{text: `count(ms, .wounds > 0 and not .broken and .name != "Ana" and "nerves" in .skills)`}, {text: `any(ms, .broken or .wounds == 2 or .name == "Cy")`},
		{text: `filter(ms, let x = #; x.wounds >= 0 and n > 1 and x.name != "Bo" and x.wounds < 3)`},
		{text: `any(ms, let x = #; any(ms, x.broken and .wounds > 0 and x.name != "Ana" and .name != "Cy"))`},
		{text: `count(ms, let x = #; count(ms, x.wounds == 1 and .wounds == 2) > 0)`}, {text: `map(ms, let x = #; none(ms, x.name == "Bo" and .name == "Ana"))`},
		{text: `any(concat(ms, [z]), .wounds > 10 and .broken)`, wantFail: true}, {text: `any(concat([z], ms), n > 5 and .broken and .wounds > 0)`},
		{text: `all(concat([z], ms), b or .broken or .wounds > 0)`}, {text: `all(concat(ms, [z]), .wounds < 5 and not .broken or .name == "Bo")`, wantFail: true},
		// tests of one item behind nots and lets, and chains of them, in the group around them
		{text: `filter(ms, .wounds >= 0 and not (.broken and .name == "Bo") and .wounds < 3)`},
		{text: `count(ms, let x = #; not x.broken and not (let y = x; y.name == "Bo") and not (let w = x; w.wounds > 1 or w.name == "Cy"))`},
		{text: `any(ms, .wounds > 5 or not (.name != "Bo" or not .broken) or .name == "Cy")`},
		{text: `filter(ms, let x = #; x.wounds >= 0 and not (let y = x; y.broken and not (let v = y; v.name == "Bo" or v.wounds == 1)))`},
		{text: `all(ms, not (.broken and .wounds == 1) and not not (.name != ""))`}, {text: `none(ms, not (.wounds < 0 or "x" in .skills) and .broken)`},
		{text: `filter(concat(ms, [z]), .wounds >= 0 and not (.broken and .name == "Bo"))`, wantFail: true},
		{text: `filter(concat([z], ms), not (.broken and .name == "Bo") and .wounds > 1)`, wantFail: true},
		{text: `count(ms, let x = #; x.wounds >= 0 and not (let y = m; y.broken and x.name == "Bo"))`},
		{text: `any(ms, any(ms, .wounds >= 0 and not (#.broken and .name == "Bo")))`},
		{text: `filter(ms, not (.broken and .name == "Bo") and n > 1)`}, {text: `filter(ms, n > 1 and not (.broken and .name != "Bo"))`},
		// tests the tests before them decide, left out of a group
		{text: `filter(ms, .name == "Bo" and .name != "Cy" and .wounds >= 0)`}, {text: `count(ms, .name == "Bo" and .name == "Bo")`},
		{text: `count(ms, .name == "Bo" and .name == "Cy")`}, {text: `filter(ms, .name == "Bo" and not (.name == "Ana" and .broken))`},
		{text: `filter(ms, .name != "Bo" and .name != "Cy" and not (.name == "Cy" and .broken))`},
		{text: `any(ms, .name == "Bo" and not (.name != "Bo" and .broken) and .wounds == 1)`},
		{text: `count(ms, .name == "Bo" and not (.name == "Bo" and .broken))`}, {text: `count(ms, .name == "Ana" or .name != "Ana")`},
		{text: `count(ms, .name == "Bo" and not (.name != "Bo" or .broken))`},
		{text: `filter(concat([z], ms), .wounds >= 0 and n > 1)`, wantFail: true}, {text: `filter(concat(ms, [z]), .wounds > 5 and n > 1)`, wantFail: true},
		{text: `count(ms, .name == "Bo" or .wounds > 1 or n > 5 or .broken)`},
		{text: `filter(concat([z], ms), .name == "Bo" and .name != "Cy")`, wantFail: true},
		// the rules' concat of lists, made from the frame's slabs; bounded as the function is
		{text: `lists(ms, ms)`}, {text: `lists([], [])`}, {text: `lists(ms)`}, {text: `lists(map(ms, .name), ["x"])`},
		{text: `lists(nobody(), ms)`}, {text: `lists(untyped(m), ["x"])`}, {text: `lists(list, 1..3, mixed)`}, {text: `lists(others(m), [m])`},
		{text: `len(lists(1..60000, 1..60000))`, wantFail: true}, {text: `lists(z.gang.models, ms)`, wantFail: true},
		{text: `lists(ms, m)`, wantFail: true}, {text: `lists(nil)`, wantFail: true}, {text: `lists(natural)`, wantFail: true},
		{text: `len(lists(filter(ms, .broken), [1]))`}, {text: `notlists(ms, ms)`},
		// a list view: the gang's models but one, looped over without a list
		{text: `count(others(m), true)`}, {text: `filter(others(m), .wounds >= 0)`}, {text: `map(others(ms[0]), .name)`},
		{text: `any(others(z), true)`}, {text: `map(others(twin), .name)`}, {text: `all(others(m), # != m)`}, {text: `others(m)`},
		// a list filled for the predicate's depth, not made by the call
		{text: `count(everyone(g), .broken)`}, {text: `filter(everyone(g), .wounds > 0)`}, {text: `map(everyone(g), .name)`},
		{text: `any(everyone(g), any(everyone(#.gang), # == m))`}, {text: `find(everyone(g), .name == "Cy")`}, {text: `everyone(g)`},
		{text: `filter(filter(everyone(g), .wounds > 0), all(everyone(g), .wounds < 3))`}, {text: `count(everyone(nil), true)`, wantFail: true},
		{text: `map(everyone(g), count(everyone(#.gang), .wounds <= 1))`}, {text: `len(filter(everyone(m.gang), # != m))`},
		// a function called with its three arguments directly
		{text: `sum3(n, 1, 2)`}, {text: `count(ms, sum3(.wounds, 1, 0) > 1)`}, {text: `sum3(z.wounds, 1, 2)`, wantFail: true},
		{text: `sum3(1, 2, twice(n))`},
		// a bool of three arguments run typed, in a condition and as a value
		{text: `near3(m, twin, 1)`}, {text: `near3(m, twin, 0)`}, {text: `near3(m, z, 1)`}, {text: `count(ms, near3(m, #, 1))`},
		{text: `filter(ms, .wounds >= 0 and near3(m, #, 1) and not .broken)`}, {text: `any(ms, not near3(#, m, 0) or .broken)`},
		{text: `near3(m, twin, twice(n)) ? 1 : 2`}, {text: `[near3(z.gang.models[0], m, 1)]`, wantFail: true},
		{text: `near3(m, ms[0], 1) == near3(ms[0], m, 1)`}, {text: `near3(m, twin, boom())`, wantFail: true},
		// uniq of the common lists without reflection, of others by the built-in
		{text: `uniq(["a", "b", "a", s, "Bo"])`}, {text: `uniq(map(ms, .gang.name))`}, {text: `uniq(m.skills)`}, {text: `uniq(list)`},
		{text: `uniq(mixed)`}, {text: `len(uniq(mixed))`}, {text: `len(uniq(list))`}, {text: `len(uniq(m.skills))`},
		{text: `len(uniq([9007199254740993, 9007199254740992.0, 9007199254740992]))`}, {text: `uniq([9007199254740993, 9007199254740992.0, 9007199254740992])`},
		{text: `len(uniq(concat(["a"], map(ms, .name), [s])))`}, {text: `len(uniq(concat(m.skills, ms[0].skills))) > 1`},
		// text compared with a concatenation piecewise, the text not made; past its bound the VM fails
		{text: `s == "B" + "o"`}, {text: `"B" + "o" == s`}, {text: `s != "B" + s[1:]`}, {text: `m.name + "" != "Bo"`},
		{text: `"Bo" == s + "x"`}, {text: `s == "" + ""`}, {text: `any(ms, .name == "C" + "y")`}, {text: `filter(m.skills, # != "ner" + "ves")`},
		{text: `count(ms, "Bo" + "!" == .name + "!")`}, {text: `s == "nerves" + "ABCDEFG"`, wantFail: true}, {text: `z.name == "a" + "b"`, wantFail: true},
		// text made by string + string in the frame's slab, its parts at once
		{text: `s + "-" + m.name + "-" + s`}, {text: `"" + ""`}, {text: `len(s + s)`}, {text: `map(ms, .name + "!")`}, {text: `"a" + (s + ("b" + s))`},
		{text: `"ab" + "cdefgh" + "ijklm"`, wantFail: true}, {text: `s + "cdefghijklm"`, wantFail: true}, {text: `z.name + "x"`, wantFail: true},
		// lists of text looped over, their items boxed in the frame's slab
		{text: `filter(m.skills, # != "Bo")`}, {text: `map(m.skills, # + "!")`}, {text: `sortBy(m.skills, #)`}, {text: `count(ms[0].skills, true)`},
		{text: `lists(m.skills, ["x"])`}, {text: `find(m.skills, # startsWith "n")`}, {text: `map(mixed[4], #)`}, {text: `filter(nostrings, true)`},
		// list fields read as values, boxed in the frame's slab
		{text: `m.gang.models`}, {text: `ms[2].skills`}, {text: `z.skills`, wantFail: true}, {text: `len(m.skills) + len(g.models)`},
		// expr's built-ins, their arguments on the frame's stack, nested
		{text: `max(n, 3, f)`}, {text: `min(1, n)`}, {text: `max(list)`}, {text: `max(n, min(7, max(1, 4)), 2)`}, {text: `first(m.skills)`},
		// expr's memory budget, counted by the closures as by the VM
		{text: `len(1..2000000)`, wantFail: true}, {text: `len(map(1..2000, 1..1000))`, wantFail: true}, {text: `len(1..1000)`},
	} {
		t.Run(c.text, func(t *testing.T) {
			program, f, err := compileBoth(t, c.text)
			if err != nil {
				t.Fatalf("not compiled to closures: %v", err)
			}
			env := testEnv()
			want, werr := vm.Run(program, env)
			got, gerr := f(env)
			if (werr != nil) != c.wantFail {
				t.Fatalf("the VM gives %v, %v; the case says it fails: %v", want, werr, c.wantFail)
			}
			if werr != nil {
				if gerr == nil {
					t.Fatalf("the VM fails (%v) but the closure gives %#v", werr, got)
				}
				return
			}
			if gerr != nil {
				t.Fatalf("the closure fails (%v) where the VM gives %#v", gerr, want)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("the VM gives %#v, the closure %#v", want, got)
			}
		})
	}
}

// A slot closure run in a frame of Frames fails where a function it
// calls panics, and gives its frame back: the next runs, nested or not,
// find their frames.
func TestSlotsFramesAfterPanic(t *testing.T) {
	program, _, err := compileBoth(t, `n + panics(n)`)
	if err != nil {
		t.Fatal(err)
	}
	cfg := conf.CreateNew()
	for _, op := range append([]expr.Option{expr.Env(testEnv())}, testFunctions...) {
		op(cfg)
	}
	slot := func(name string) (int, bool) { return map[string]int{"n": 0, "m": 1}[name], name == "n" || name == "m" }
	boom, err := CompileSlots(program.Node(), map[string]*builtin.Function(cfg.Functions), slot)
	if err != nil {
		t.Fatal(err)
	}
	good, _, _ := compileBoth(t, `count(m.gang.models, .wounds >= n)`)
	count, err := CompileSlots(good.Node(), map[string]*builtin.Function(cfg.Functions), slot)
	if err != nil {
		t.Fatal(err)
	}
	var fs Frames
	vals := []any{1, testEnv()["m"]}
	for range 3 {
		if v, err := boom(&fs, vals); err == nil {
			t.Fatalf("a panic gave %v, no error", v)
		}
		if fs.used != 0 {
			t.Fatalf("%d frames left in use after a panic", fs.used)
		}
		if v, err := count(&fs, vals); err != nil || v != 2 || fs.used != 0 {
			t.Fatalf("after a panic: %v, %v, %d frames in use", v, err, fs.used)
		}
	}
}

// What the closures do not run is left to the VM, and says so.
func TestUnsupported(t *testing.T) {
	for _, text := range []string{`m?.name`, `groupBy(ms, .broken)`, `z?.name ?? "none"`, `$env.n`} {
		_, f, err := compileBoth(t, text)
		var u *Unsupported
		if f != nil || !errors.As(err, &u) {
			t.Errorf("%s: compiled (%v), want it left to the VM", text, err)
		}
	}
}

func BenchmarkClosureAny(b *testing.B) {
	for _, text := range []string{`any(ms, .wounds > 1 && .name != "x")`, `m.name == "Bo" && m.stats.ws > 3`} {
		program, f, err := compileBoth(&testing.T{}, text)
		if err != nil {
			b.Fatal(err)
		}
		env := testEnv()
		b.Run("vm/"+text, func(b *testing.B) {
			b.ReportAllocs()
			v := new(vm.VM)
			for b.Loop() {
				if _, err := v.Run(program, env); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("closure/"+text, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f(env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// selfEqualPlan finds the floats held by value, and gives up on what
// DeepEqual of a struct with itself cannot be told without reflection.
func TestSelfEqualPlan(t *testing.T) {
	type inner struct {
		F float32
		N int
	}
	for _, c := range []struct {
		typ    reflect.Type
		floats int
		ok     bool
	}{
		{reflect.TypeFor[testModel](), 1, true},
		{reflect.TypeFor[testGang](), 0, true},
		{reflect.TypeFor[struct {
			A [2]inner
			B float64
			P *float64
		}](), 3, true},
		{reflect.TypeFor[struct{ X any }](), 0, false},
		{reflect.TypeFor[struct{ F func() }](), 0, false},
		{reflect.TypeFor[struct{ C complex128 }](), 0, false},
	} {
		floats, ok := selfEqualPlan(c.typ, 0)
		if len(floats) != c.floats || ok != c.ok {
			t.Errorf("%s: %d floats, %v; want %d, %v", c.typ, len(floats), ok, c.floats, c.ok)
		}
	}
}

// Map literals run in Frames that rewind take back the maps made since
// the last Rewind, emptied, and make none anew; what was made before the
// first Rewind, or before a Forget, is never handed out again.
func TestFramesRecycleMaps(t *testing.T) {
	program, _, err := compileBoth(t, `[{"a": n}, n % 2 == 0 ? {"b": n + 1} : {"c": n + 1}]`)
	if err != nil {
		t.Fatal(err)
	}
	cfg := conf.CreateNew()
	for _, op := range append([]expr.Option{expr.Env(testEnv())}, testFunctions...) {
		op(cfg)
	}
	slot := func(name string) (int, bool) { return 0, name == "n" }
	f, err := CompileSlots(program.Node(), map[string]*builtin.Function(cfg.Functions), slot)
	if err != nil {
		t.Fatal(err)
	}
	var fs Frames
	vals := make([]any, 1)
	run := func(n int) any {
		vals[0] = n
		v, err := f(&fs, vals)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	want := func(n int) any {
		if n%2 == 0 {
			return []any{map[string]any{"a": n}, map[string]any{"b": n + 1}}
		}
		return []any{map[string]any{"a": n}, map[string]any{"c": n + 1}}
	}
	kept := run(1) // before the first Rewind: its own for good
	for n := 2; n < 6; n++ {
		fs.Rewind()
		if got := run(n); !reflect.DeepEqual(got, want(n)) {
			t.Fatalf("run %d after a Rewind: %v, want %v", n, got, want(n))
		}
	}
	fs.Forget()
	forgotten := run(7)
	fs.Rewind()
	run(8)
	if !reflect.DeepEqual(kept, want(1)) || !reflect.DeepEqual(forgotten, want(7)) {
		t.Fatalf("kept %v and %v, want %v and %v", kept, forgotten, want(1), want(7))
	}
	if n := testing.AllocsPerRun(20, func() { fs.Rewind(); run(3) }); n != 0 {
		t.Errorf("a rewound run of map literals allocates %.1f objects", n)
	}
}
