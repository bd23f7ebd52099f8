package dsl

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file checks that the caches shared between the checks of one
// process (sharedprograms.go, parsecache.go, inlinestates.go) never make
// a check say or do anything a fresh check would not: each case checks
// packs that write the same texts with other meanings, first each alone
// with every cache emptied, then one after the other in one process, in
// both orders, and compares the diagnostics and the values of procedure
// p's lets.

// auditOutcome is what a check of some packs said and what p's lets give.
type auditOutcome struct {
	diags []string
	lets  []string
}

// auditCheck checks packs (the first the base, the rest on top of it, as
// --with) and runs procedure p's lets in order, each seeing the earlier
// ones' values.
func auditCheck(t testing.TB, packs []string) auditOutcome {
	t.Helper()
	var loaded []*LoadedPack
	var out auditOutcome
	for i, src := range packs {
		name := fmt.Sprintf("p%d.munda", i)
		lp, diags := LoadPack(&Pack{FS: fstest.MapFS{name: {Data: []byte(src)}}, Root: ".", Display: fmt.Sprint("p", i)})
		for _, d := range diags {
			out.diags = append(out.diags, d.Error())
		}
		loaded = append(loaded, lp)
	}
	rules, ds := Assemble(loaded[0], loaded[1:], nil)
	if !ds.HasErrors() {
		ds = append(ds, Check(rules)...)
	}
	for _, d := range ds {
		out.diags = append(out.diags, d.Error())
	}
	if ds.HasErrors() || rules.Index.Procedures["p"] == nil {
		return out
	}
	// A model for procedures that take one (auditParamProc).
	vars := map[string]any{"m": &state.Model{ID: "m", Kind: "fighter", Stats: state.Stats{Cl: 4}}}
	for _, st := range rules.Index.Procedures["p"].Decl.Body.Stmts {
		let, ok := st.(*syntax.Let)
		if !ok {
			continue
		}
		got, err := Eval(let.Value, vars)
		vm, vmErr := EvalVM(let.Value, vars)
		res := fmt.Sprintf("%s = %#v (%v) / VM %#v (%v)", let.Name.Name, got, err, vm, vmErr)
		out.lets = append(out.lets, res)
		vars[let.Name.Name] = got
	}
	return out
}

// auditSameAsFresh checks each selection of packs alone with the shared
// caches emptied, then all of them in order and in reverse order in one
// process (so that each is checked after each other one, and after
// itself), and reports any difference.
func auditSameAsFresh(t *testing.T, selections ...[]string) []auditOutcome {
	t.Helper()
	fresh := make([]auditOutcome, len(selections))
	for i, packs := range selections {
		resetShared()
		fresh[i] = auditCheck(t, packs)
	}
	resetShared()
	order := make([]int, 0, 2*len(selections))
	for i := range selections {
		order = append(order, i)
	}
	for i := range selections {
		order = append(order, len(selections)-1-i)
	}
	for step, i := range order {
		got := auditCheck(t, selections[i])
		if !slices.Equal(got.diags, fresh[i].diags) {
			t.Errorf("selection %d, check %d of %v in one process: diagnostics\n  %s\nbut alone\n  %s",
				i, step+1, order, strings.Join(got.diags, "\n  "), strings.Join(fresh[i].diags, "\n  "))
		}
		if !slices.Equal(got.lets, fresh[i].lets) {
			t.Errorf("selection %d, check %d of %v in one process: lets\n  %s\nbut alone\n  %s",
				i, step+1, order, strings.Join(got.lets, "\n  "), strings.Join(fresh[i].lets, "\n  "))
		}
	}
	resetShared()
	return fresh
}

// procP is a procedure p whose lets are the given texts, a, b, c…, all
// emitted.
func procP(lets ...string) string {
	var b strings.Builder
	b.WriteString("procedure p() \"P\" {\n")
	var names []string
	for i, l := range lets {
		name := string(rune('a' + i))
		names = append(names, "{"+name+"}")
		fmt.Fprintf(&b, "  let %s = %s\n", name, l)
	}
	fmt.Fprintf(&b, "  emit \"%s\"\n}\n", strings.Join(names, " "))
	return b.String()
}

const auditTable = `table t(x: int) "T" {
  by x
  1-3 low "Low" = 10
  4+ high "High" = 99
}
`

// auditCase is packs that write the same texts with other meanings.
type auditCase struct {
	name       string
	selections [][]string
	// want, if set, is what each selection's fresh check must say
	// (diagnostics and lets, joined), a fragment each.
	want []string
}

var auditCases = []auditCase{
	{
		// A function's name read as a value, not called: in one pack a
		// lookup table's, in the other no name at all.
		name: "table read as a value",
		want: []string{`a = false`, `unknown name t`},
		selections: [][]string{
			{auditTable + procP("t != nil")},
			{procP("t != nil")},
		},
	},
	{
		name: "declared function read as a value",
		want: []string{`a = false`, `unknown name t`, `a = false`},
		selections: [][]string{
			{`function t(x: int) "T" = x + 1` + "\n" + procP("t != nil")},
			{procP("t != nil")},
			{`function t(x: int) "T" = x * 2` + "\n" + procP("t != nil")},
		},
	},
	{
		name: "table and function of the same name",
		want: []string{`a = 10`, `a = 4`, `a = "22"`},
		selections: [][]string{
			{auditTable + procP("t(2)")},
			{`function t(x: int) "T" = x * 2` + "\n" + procP("t(2)")},
			{`function t(x: string) "T" = x + x` + "\n" + procP(`t("2")`)},
		},
	},
	{
		name: "parameters in another order",
		want: []string{`a = 3`, `a = -3`},
		selections: [][]string{
			{`function g(x: int, y: int) "G" = x - y` + "\n" + procP("g(5, 2)")},
			{`function g(y: int, x: int) "G" = x - y` + "\n" + procP("g(5, 2)")},
		},
	},
	{
		name: "a body reading a name of its caller",
		want: []string{`b = 2`, `mismatched types string and int`},
		selections: [][]string{
			{`function g(x: int) "G" = x + 1` + "\n" + procP("1", "g(a)")},
			{`function g(x: int) "G" = x + 1` + "\n" + procP(`"s"`, "g(a)")},
		},
	},
	{
		name: "let named as a function",
		selections: [][]string{
			{`function g(x: int) "G" = x + 1` + "\n" + procP("2", "g(a)")},
			{procP("2", "g(a)")},
			{`function h(x: int) "H" = x + 1` + "\n" + procP("h", "g(a)")},
		},
	},
	{
		name: "a declared function shadowing expr's built-in, called from a body",
		want: []string{`a = "x!"`, `a = "X"`, `a = "x!"`},
		selections: [][]string{
			{`function upper(s: string) "U" = s + "!"` + "\n" + `function g(s: string) "G" = upper(s)` + "\n" + procP(`g("x")`, `upper("y")`)},
			{`function g(s: string) "G" = upper(s)` + "\n" + procP(`g("x")`, `upper("y")`)},
			// Declared after the function calling it, it is checked first.
			{`function g(s: string) "G" = upper(s)` + "\n" + `function upper(s: string) "U" = s + "!"` + "\n" + procP(`g("x")`, `upper("y")`)},
		},
	},
	{
		name: "a declared function shadowing a built-in of munda",
		want: []string{`a = "x?"`, `a = "xxx"`},
		selections: [][]string{
			{`function repeat(s: string, n: int) "R" = s + "?"` + "\n" + procP(`repeat("x", 3)`)},
			{procP(`repeat("x", 3)`)},
		},
	},
	{
		name: "a replaced function",
		want: []string{`a = 3`, `a = 20`},
		selections: [][]string{
			{`function g(x: int) "G" = x + 1` + "\n" + procP("g(2)")},
			{`function g(x: int) "G" = x + 1` + "\n" + procP("g(2)"), `replace function g(x: int) "G" = x * 10` + "\n"},
		},
	},
	{
		name: "a predicate's name declared",
		want: []string{`a = 3`, `a = true`, `builtin all takes only array`},
		selections: [][]string{
			{`function all(x: int, y: int) "A" = x + y` + "\n" + procP("all(1, 2)")},
			{procP("all([1, 2], {# > 0})")},
			{procP("all(1, 2)")},
		},
	},
	{
		name: "a let named as expr's built-in",
		selections: [][]string{
			{procP(`"q"`, `upper("x")`)},
			{procP(`upper("x")`)},
			{procP(`[1]`, `all(a, {# > 0})`)},
			{procP(`all([1], {# > 0})`)},
		},
	},
	{
		name: "a roll of numeric or symbolic dice",
		want: []string{`b = <nil>`, `mismatched types string and int`, `b = <nil>`},
		selections: [][]string{
			{auditDice + "procedure p() \"P\" {\n  roll x = d6\n  let a = x == 1\n  let b = x\n  emit \"{a} {b}\"\n}\n"},
			{auditDice + "procedure p() \"P\" {\n  roll x = sym\n  let a = x == 1\n  let b = x\n  emit \"{a} {b}\"\n}\n"},
			{auditDice + "procedure p() \"P\" {\n  roll x = sym\n  let a = x == \"hit\"\n  let b = x\n  emit \"{a} {b}\"\n}\n"},
		},
	},
	{
		name: "characteristics declared or not",
		want: []string{`a = true`, `unknown characteristic "cl"`, `a = false`},
		selections: [][]string{
			{auditDice + auditKind + `characteristic cl "Cool" {
  check 2d6 at_least
  target
  limits fighter 10 to 3
}
` + auditParamProc(`can_improve(m, "cl")`, `stat(m, "cl")`)},
			{auditDice + auditKind + auditParamProc(`can_improve(m, "cl")`, `stat(m, "cl")`)},
			{auditDice + auditKind + `characteristic cl "Cool" {
  check 2d6 at_least
  target
  limits fighter 9 to 4
}
` + auditParamProc(`can_improve(m, "cl")`, `stat(m, "cl")`)},
		},
	},
	{
		name: "inline states under other vocabularies",
		want: []string{``, `not a valid state`, `not a valid state`},
		selections: [][]string{
			{inlineStatePack(true)},
			{inlineStatePack(false)},
			{strings.Replace(inlineStatePack(true), "status standing", "status prone", 1)},
		},
	},
	{
		name: "a body reading the whole environment",
		selections: [][]string{
			{`function g() "G" = $env.a` + "\n" + procP("1", "g()")},
			{`function g() "G" = $env.a` + "\n" + procP(`"s"`, "g()")},
		},
	},
	{
		// The parameters' types: an inlined call's arguments are checked
		// against them, so they are part of what the function means.
		name: "parameters of other types",
		want: []string{`a = "s"`, `the argument x of g must be int, but this is string`, `a = 3.5`, `the argument x of g must be int, but this is float`},
		selections: [][]string{
			{`function g(x: any) "G" = x` + "\n" + procP(`g("s")`)},
			{`function g(x: int) "G" = x` + "\n" + procP(`g("s")`)},
			{`function g(x: float) "G" = x + 1` + "\n" + procP(`g(2.5)`)},
			{`function g(x: int) "G" = x + 1` + "\n" + procP(`g(2.5)`)},
		},
	},
	{
		// The names an inlined call binds its arguments to are the same
		// whatever was compiled before, and not names a rule can write.
		name: "a caller's name like an inlined parameter's",
		want: []string{`a = 6`, `a = 8`},
		selections: [][]string{
			{`function g(x: int) "G" = x + 1` + "\n" + `function h(x: int) "H" = x * 2` + "\n" +
				"procedure q() \"Q\" {\n  let z = h(1)\n  emit \"{z}\"\n}\n" +
				"procedure p() \"P\" {\n  let _x_2 = 5\n  let a = g(_x_2)\n  emit \"{a}\"\n}\n"},
			{`function g(x: int) "G" = x + 1` + "\n" +
				"procedure p() \"P\" {\n  let _x_1 = 5\n  let a = g(_x_1) + g(1)\n  emit \"{a}\"\n}\n"},
		},
	},
	{
		// The same body calling a lookup table in one pack, a function
		// in another.
		name: "a body calling a table or a function",
		want: []string{`a = 10`, `a = 4`},
		selections: [][]string{
			{auditTable + `function g(x: int) "G" = t(x)` + "\n" + procP("g(2)")},
			{`function t(x: int) "T" = x * 2` + "\n" + `function g(x: int) "G" = t(x)` + "\n" + procP("g(2)")},
		},
	},
	{
		// features() lists each check's own declarations.
		name: "features of other packs",
		want: []string{`a = 1`, `a = 2`},
		selections: [][]string{
			{`skill x "X" {` + "\n  text \"X.\"\n}\n" + procP(`len(features("skill"))`)},
			{`skill x "X" {` + "\n  text \"X.\"\n}\n" + `skill y "Y" {` + "\n  text \"Y.\"\n}\n" + procP(`len(features("skill"))`)},
		},
	},
	{
		// A let hides a function of the same name: g(1) calls the let.
		name: "a let hiding a declared function",
		want: []string{`g is not callable`, `a = 2`, `has_skill is not callable`},
		selections: [][]string{
			{`function g(x: int) "G" = x + 1` + "\n" + "procedure p() \"P\" {\n  let g = 5\n  let a = g(1)\n  emit \"{a} {g}\"\n}\n"},
			{`function g(x: int) "G" = x + 1` + "\n" + "procedure p() \"P\" {\n  let h = 5\n  let a = g(1)\n  emit \"{a} {h}\"\n}\n"},
			{"procedure p(has_skill: int) \"P\" {\n  let a = has_skill(1, \"x\")\n  emit \"{a}\"\n}\n"},
		},
	},
	{
		// string + compiles to munda's _concat: a declaration of that
		// name made expr panic.
		name: "a function named as an operator's",
		want: []string{"_concat is the name of a function munda compiles an operator to", "_concat is the name of a function munda compiles an operator to", `a = "ab"`},
		selections: [][]string{
			{`function _concat(a: string, b: string) "C" = "hijacked"` + "\n" + procP(`"a" + "b"`)},
			{auditTable[:len("table ")] + "_concat" + auditTable[len("table t"):] + procP(`"a" + "b"`)},
			{procP(`"a" + "b"`)},
		},
	},
	{
		// munda's bounded repeat replaces expr's: an inlined body
		// calls it too.
		name: "munda's built-in replacing expr's, called from a body",
		want: []string{`the text would be longer than 1048576 bytes`},
		selections: [][]string{
			{`function g(s: string, n: int) "G" = repeat(s, n)` + "\n" + procP(`len(g("ab", 3000000))`)},
		},
	},
}

func TestSharedAudit(t *testing.T) {
	for _, tc := range auditCases {
		t.Run(tc.name, func(t *testing.T) {
			fresh := auditSameAsFresh(t, tc.selections...)
			for i, w := range tc.want {
				if got := strings.Join(append(fresh[i].diags, fresh[i].lets...), "\n"); !strings.Contains(got, w) {
					t.Errorf("selection %d alone: %s\nwant %q in it", i, got, w)
				}
			}
			if testing.Verbose() {
				for i, f := range fresh {
					t.Logf("selection %d:\n  %s\n  %s", i, strings.Join(f.diags, "\n  "), strings.Join(f.lets, "\n  "))
				}
			}
		})
	}
}

const auditDice = `dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
dice 2d6 "2D6" { sum 2 d6 }
dice sym "Sym" {
  face hit "Hit" x 3
  face miss "Miss" x 3
}
`

const auditKind = `kind fighter "Fighter" {
  status standing "Standing"
}
`

// auditParamProc is procP with a parameter m, a model.
func auditParamProc(lets ...string) string {
	return strings.Replace(procP(lets...), "procedure p()", "procedure p(m: model)", 1)
}

// TestSharedAuditConcurrent checks every case's selections from several
// goroutines at once, each in its own order, against fresh checks (run
// it with -race).
func TestSharedAuditConcurrent(t *testing.T) {
	var all [][]string
	for _, tc := range auditCases {
		all = append(all, tc.selections...)
	}
	fresh := make([]auditOutcome, len(all))
	for i, packs := range all {
		resetShared()
		fresh[i] = auditCheck(t, packs)
	}
	resetShared()
	defer resetShared()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range all {
				i := (k*(2*g+1) + g) % len(all) // another order in each goroutine
				got := auditCheck(t, all[i])
				if !slices.Equal(got.diags, fresh[i].diags) || !slices.Equal(got.lets, fresh[i].lets) {
					t.Errorf("selection %d checked concurrently:\n  %s\n  %s\nbut alone\n  %s\n  %s", i,
						strings.Join(got.diags, "\n  "), strings.Join(got.lets, "\n  "),
						strings.Join(fresh[i].diags, "\n  "), strings.Join(fresh[i].lets, "\n  "))
				}
			}
		}()
	}
	wg.Wait()
}

// TestSharedTextBound: a text longer than maxSharedText is compiled and
// parsed for its check only, so that the caches' bounds, which count
// entries, also bound their bytes.
func TestSharedTextBound(t *testing.T) {
	resetShared()
	defer resetShared()
	// Lines are bounded (4 KB), expressions are not: a list over lines.
	var items []string
	for range 4 {
		items = append(items, `"`+strings.Repeat("x", maxSharedText/4)+`"`)
	}
	long := "[\n" + strings.Join(items, ",\n") + "]"
	for range 2 {
		lets := sharedLets(t, procP(long, "1"))
		if got := evalShared(t, lets[0], nil); len(got) < maxSharedText {
			t.Fatalf("the long list is %d bytes, want over %d", len(got), maxSharedText)
		}
		long = lets[0].Text
	}
	for _, m := range []map[string][]*cachedProgram{sharedPrograms.young, sharedPrograms.old} {
		if _, ok := m[long]; ok {
			t.Error("a text over the bound was kept in the shared cache of programs")
		}
	}
	if _, ok := keptParses.young[long]; ok {
		t.Error("a text over the bound was kept in the shared cache of parses")
	}
	if _, ok := plainParses.young[long]; ok {
		t.Error("a text over the bound was kept in the cache of plain parses")
	}
}

// TestSlotNumberingBound: a language server or the playground checks
// each edit, and so numbers every name typed (let d, let da, let dam…).
// The numbering a check starts with is a new one once the current holds
// more than maxSlotNames names (frameslots.go), so it stays bounded.
func TestSlotNumberingBound(t *testing.T) {
	defer func(saved int) { maxSlotNames = saved }(maxSlotNames)
	maxSlotNames = 64
	first := slotsForCheck()
	most := 0
	for i := range 300 {
		checkSource(t, fmt.Sprintf("procedure p() \"P\" {\n  let typed%d = 1\n  emit \"{typed%d}\"\n}\n", i, i))
		most = max(most, currentSlots.Load().Len())
	}
	if most > 2*maxSlotNames {
		t.Errorf("300 checks, each with a name of its own, numbered %d names in one numbering (bound %d)", most, maxSlotNames)
	}
	if currentSlots.Load() == first {
		t.Error("300 checks never started a new numbering")
	}
}
