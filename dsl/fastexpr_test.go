package dsl_test

import (
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// The closures of dsl/fastexpr against expr's VM, on every expression of
// the shipped rules: on random states and random values of each
// expression's names, both must succeed with equal values, or both fail.

// shippedExpressions are the checked expressions of every shipped base
// ruleset, with the rules' index, loaded once.
type shippedExpr struct {
	idx   *dsl.Index
	expr  *syntax.Expr
	names map[string]reflect.Type // the names it reads besides the globals
	words []string                // its string literals and member names
}

var (
	shippedOnce  sync.Once
	shippedExprs []shippedExpr
	shippedStats []dsl.ClosureStats
	shippedNames []string // of the selections, as shippedStats
	shippedWords []string
	shippedErr   error
)

func loadShippedExprs(t testing.TB) []shippedExpr {
	t.Helper()
	shippedOnce.Do(func() {
		words := map[string]bool{}
		// Each base ruleset, and the default one with every house rule
		// switched on (which replaces some of its declarations).
		var houses []string
		for _, d := range rulesets.HouseDirs() {
			houses = append(houses, strings.TrimPrefix(d, "house/"))
		}
		var selections []rulesets.Selection
		for _, base := range rulesets.Bases() {
			selections = append(selections, rulesets.Selection{Base: base})
		}
		selections = append(selections, rulesets.Selection{Houses: houses})
		for _, sel := range selections {
			name := sel.Base
			if name == "" {
				name = "default with " + strings.Join(houses, ", ")
			}
			r, diags := rulesets.Load(sel)
			if diags.HasErrors() {
				shippedErr = fmt.Errorf("%s: %v", name, diags)
				return
			}
			shippedStats = append(shippedStats, r.Index.Closures)
			shippedNames = append(shippedNames, name)
			for _, kind := range r.Index.Features {
				for id := range kind {
					words[id] = true
				}
			}
			seen := map[*syntax.Expr]bool{}
			for _, e := range collectExprs(r.Packs) {
				if e.Program == nil || seen[e] {
					continue
				}
				seen[e] = true
				se := shippedExpr{idx: r.Index, expr: e, names: map[string]reflect.Type{}}
				node := e.Program.Node()
				ast.Walk(&node, visitFunc(func(n *ast.Node) {
					switch n := (*n).(type) {
					case *ast.IdentifierNode:
						if n.Type() != nil {
							se.names[n.Value] = n.Type()
						}
					case *ast.StringNode:
						se.words = append(se.words, n.Value)
						words[n.Value] = true
					}
				}))
				shippedExprs = append(shippedExprs, se)
			}
		}
		for w := range words {
			shippedWords = append(shippedWords, w)
		}
		sort.Strings(shippedWords)
	})
	if shippedErr != nil {
		t.Fatal(shippedErr)
	}
	return shippedExprs
}

type visitFunc func(*ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }

// collectExprs finds every *syntax.Expr reachable from v.
func collectExprs(v any) []*syntax.Expr {
	var out []*syntax.Expr
	seen := map[uintptr]bool{}
	exprType := reflect.TypeOf(&syntax.Expr{})
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			if v.Type() == exprType {
				out = append(out, v.Interface().(*syntax.Expr))
				return
			}
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Value())
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// randomState is a battle of 1–3 gangs of 0–6 models with random fields:
// numbers, flags, and words (statuses, skills, conditions, traits) drawn
// from the ids and literals the rules use, so that comparisons hit.
func randomState(r *rand.Rand, words []string) *state.State {
	st := &state.State{}
	fillRandom(reflect.ValueOf(&st.Battle).Elem(), r, words)
	for gi := 0; gi < 1+r.Intn(3); gi++ {
		g := &state.Gang{}
		fillRandom(reflect.ValueOf(g).Elem(), r, words)
		g.ID = fmt.Sprintf("g%d", gi)
		for mi := 0; mi < r.Intn(7); mi++ {
			m := &state.Model{}
			fillRandom(reflect.ValueOf(m).Elem(), r, words)
			m.ID = fmt.Sprintf("g%dm%d", gi, mi)
			m.Kind = []string{"fighter", "vehicle"}[r.Intn(2)]
			for wi := 0; wi < r.Intn(3); wi++ {
				w := &state.Weapon{}
				fillRandom(reflect.ValueOf(w).Elem(), r, words)
				m.Weapons = append(m.Weapons, w)
			}
			if r.Intn(3) == 0 {
				a := &state.Armour{}
				fillRandom(reflect.ValueOf(a).Elem(), r, words)
				m.Armour = append(m.Armour, a)
			}
			m.Gang = g
			g.Models = append(g.Models, m)
		}
		g.State = st
		st.Gangs = append(st.Gangs, g)
	}
	return st
}

func fillRandom(v reflect.Value, r *rand.Rand, words []string) {
	for i := 0; i < v.NumField(); i++ {
		f, ft := v.Field(i), v.Type().Field(i)
		if !ft.IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(int64(r.Intn(9) - 1))
		case reflect.Bool:
			f.SetBool(r.Intn(3) == 0)
		case reflect.Float64:
			f.SetFloat(float64(r.Intn(60)) / 2)
		case reflect.String:
			if r.Intn(4) > 0 {
				f.SetString(words[r.Intn(len(words))])
			}
		case reflect.Struct:
			fillRandom(f, r, words)
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				var list []string
				for j := 0; j < r.Intn(4); j++ {
					list = append(list, words[r.Intn(len(words))])
				}
				f.Set(reflect.ValueOf(list))
			}
		}
	}
}

// randomValue is a value of type t for a name of an expression: a model,
// gang or weapon of the state (sometimes nil), a number, a word, …; ok is
// false for types it does not make (the name is then left unset).
func randomValue(r *rand.Rand, t reflect.Type, st *state.State, words []string) (any, bool) {
	var models []*state.Model
	var weapons []*state.Weapon
	for _, g := range st.Gangs {
		models = append(models, g.Models...)
		for _, m := range g.Models {
			weapons = append(weapons, m.Weapons...)
		}
	}
	switch t {
	case reflect.TypeOf((*state.Model)(nil)):
		if len(models) == 0 || r.Intn(10) == 0 {
			return (*state.Model)(nil), true
		}
		return models[r.Intn(len(models))], true
	case reflect.TypeOf((*state.Gang)(nil)):
		if r.Intn(10) == 0 {
			return (*state.Gang)(nil), true
		}
		return st.Gangs[r.Intn(len(st.Gangs))], true
	case reflect.TypeOf((*state.Weapon)(nil)):
		if len(weapons) == 0 || r.Intn(10) == 0 {
			return (*state.Weapon)(nil), true
		}
		return weapons[r.Intn(len(weapons))], true
	case reflect.TypeOf([]*state.Model(nil)):
		var out []*state.Model
		for _, m := range models {
			if r.Intn(2) == 0 {
				out = append(out, m)
			}
		}
		return out, true
	}
	switch t.Kind() {
	case reflect.Int:
		return r.Intn(13) - 2, true
	case reflect.Float64:
		return float64(r.Intn(40)) / 4, true
	case reflect.Bool:
		return r.Intn(2) == 0, true
	case reflect.String:
		return words[r.Intn(len(words))], true
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Int {
			out := reflect.MakeSlice(t, r.Intn(4), 4)
			for i := 0; i < out.Len(); i++ {
				out.Index(i).SetInt(int64(1 + r.Intn(6)))
			}
			return out.Interface(), true
		}
	}
	return nil, false
}

// compareWithVM runs every shipped expression both ways on one random
// state and reports disagreements; declined counts closures that failed
// where the VM succeeded (Eval then runs the VM: right, but slow).
func compareWithVM(t *testing.T, seed int64) (runs, declined, failed int) {
	exprs := loadShippedExprs(t)
	r := rand.New(rand.NewSource(seed))
	st := randomState(r, shippedWords)
	for _, se := range exprs {
		if se.expr.Fast == nil {
			continue
		}
		env := dsl.BaseEnv(st)
		natural, rolled := map[string]int{}, map[string][]int{}
		for _, w := range se.words {
			if r.Intn(4) > 0 {
				natural[w] = 1 + r.Intn(12)
				rolled[w] = []int{1 + r.Intn(6), 1 + r.Intn(6)}
			}
		}
		env[dsl.GlobalNatural], env[dsl.GlobalRolled] = natural, rolled
		names := make([]string, 0, len(se.names))
		for name := range se.names {
			names = append(names, name)
		}
		sort.Strings(names) // the same draws for the same seed
		for _, name := range names {
			if _, global := env[name]; global {
				continue
			}
			if v, ok := randomValue(r, se.names[name], st, shippedWords); ok {
				env[name] = v
			}
		}
		want, werr := dsl.EvalVM(se.expr, env)
		got, gerr := se.expr.Fast(env)
		// The slot form reads the same names from a frame's slots.
		if se.expr.Slotted == nil {
			t.Errorf("%s %q: a closure, but no slot closure", se.expr.Pos, se.expr.Text)
		} else {
			sgot, serr := se.expr.Slotted(nil, slotsOf(se.idx.Slots, env))
			switch {
			case werr != nil && serr == nil:
				t.Errorf("seed %d, %s %q: the VM fails (%v) but the slot closure gives %#v", seed, se.expr.Pos, se.expr.Text, werr, sgot)
			case werr == nil && serr == nil && !sameValue(want, sgot):
				t.Errorf("seed %d, %s %q: the VM gives %#v, the slot closure %#v", seed, se.expr.Pos, se.expr.Text, want, sgot)
			case (gerr == nil) != (serr == nil):
				t.Errorf("seed %d, %s %q: the closure's error is %v, the slot closure's %v", seed, se.expr.Pos, se.expr.Text, gerr, serr)
			}
		}
		runs++
		if werr != nil {
			failed++
		}
		switch {
		case werr != nil && gerr == nil:
			t.Errorf("seed %d, %s %q: the VM fails (%v) but the closure gives %#v", seed, se.expr.Pos, se.expr.Text, werr, got)
		case werr == nil && gerr != nil:
			declined++
		case werr == nil && !sameValue(want, got):
			t.Errorf("seed %d, %s %q: the VM gives %#v, the closure %#v", seed, se.expr.Pos, se.expr.Text, want, got)
		}
	}
	return runs, declined, failed
}

// slotsOf is env as a frame's slots, in the numbering of the rules.
func slotsOf(slots *dsl.Slots, env map[string]any) []any {
	n := 0
	for name := range env {
		n = max(n, slots.Of(name)+1)
	}
	vals := make([]any, n)
	for name, v := range env {
		vals[slots.Of(name)] = v
	}
	return vals
}

// sameValue is reflect.DeepEqual, but NaN equals NaN.
func sameValue(a, b any) bool {
	return reflect.DeepEqual(a, b) || fmt.Sprintf("%T %v", a, a) == fmt.Sprintf("%T %v", b, b) && strings.Contains(fmt.Sprint(a), "NaN")
}

func TestClosuresMatchVM(t *testing.T) {
	seeds := int64(3)
	if os.Getenv("MUNDA_LONG") != "" {
		seeds = 500
	}
	runs, declined, failed := 0, 0, 0
	for seed := int64(0); seed < seeds; seed++ {
		n, d, f := compareWithVM(t, seed)
		runs, declined, failed = runs+n, declined+d, failed+f
	}
	t.Logf("%d runs, %d failing in both, %d declined by the closures (the VM ran them)", runs, failed, declined)
	if failed == 0 || failed == runs {
		t.Errorf("%d of %d runs fail: the random states should make some fail and most not", failed, runs)
	}
	if declined*20 > runs {
		t.Errorf("the closures declined %d of %d runs: most runs should not need the VM", declined, runs)
	}
}

func FuzzClosuresMatchVM(f *testing.F) {
	for seed := int64(0); seed < 4; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) { compareWithVM(t, seed) })
}

// TestClosureFallbacks lists how many of the shipped rules' expressions
// only expr's VM runs, and why; it fails if that grows past the count
// measured when fastexpr landed, so a new construct in the rules gets
// its closure (or this bound is raised knowingly).
func TestClosureFallbacks(t *testing.T) {
	loadShippedExprs(t)
	const maxFallbacks = 0 // per base ruleset: every shipped expression runs as closures
	for i, st := range shippedStats {
		var why []string
		for w, n := range st.Why {
			why = append(why, fmt.Sprintf("%d %s", n, w))
		}
		sort.Strings(why)
		t.Logf("%s: %d expressions as closures, %d by the VM: %s", shippedNames[i], st.Compiled, st.Fallback, strings.Join(why, "; "))
		if st.Fallback > maxFallbacks {
			t.Errorf("%s: %d expressions fall back to the VM, more than %d", shippedNames[i], st.Fallback, maxFallbacks)
		}
		if st.Compiled < 10*st.Fallback {
			t.Errorf("%s: only %d expressions compile to closures against %d that do not", shippedNames[i], st.Compiled, st.Fallback)
		}
	}
}
