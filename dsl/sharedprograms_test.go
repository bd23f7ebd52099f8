package dsl

import (
	"fmt"
	"regexp"
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
)

// sharedPack declares a function that is inlined, a lookup table (a
// function of each check's own) and a procedure whose lets use them: the
// same texts under other declarations and types must not share a
// compilation.
func sharedPack(param, fn, low string) string {
	return fmt.Sprintf(`function g(x: int) "G" = %s
table t(x: int) "T" {
  by x
  1-3 low "Low" = %s
  4+ high "High" = 99
}
procedure p(v: %s) "P" {
  let a = v + v
  let b = g(2)
  let c = t(2)
  emit "{a} {b} {c}"
}
`, fn, low, param)
}

// sharedLets checks a pack and returns its procedure's lets' values.
func sharedLets(t testing.TB, src string) []*syntax.Expr {
	t.Helper()
	rules, errs := checkSource(t, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []*syntax.Expr
	for _, st := range rules.Index.Procedures["p"].Decl.Body.Stmts {
		if let, ok := st.(*syntax.Let); ok {
			out = append(out, let.Value)
		}
	}
	return out
}

func evalShared(t testing.TB, e *syntax.Expr, v any) string {
	t.Helper()
	got, err := Eval(e, map[string]any{"v": v})
	if err != nil {
		t.Fatalf("%s: %v", e.Text, err)
	}
	vm, err := EvalVM(e, map[string]any{"v": v})
	if err != nil {
		t.Fatalf("%s by the VM: %v", e.Text, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(vm) {
		t.Fatalf("%s: closures give %v, the VM %v", e.Text, got, vm)
	}
	return fmt.Sprint(got)
}

// TestSharedProgramsKey: a second check of the same text under the same
// types and functions gets the first's compilation; other types, another
// body of an inlined function, or a function of the check's own get their
// own, which behave as their declarations say.
func TestSharedProgramsKey(t *testing.T) {
	a1 := sharedLets(t, sharedPack("int", "x + 1", "10"))
	a2 := sharedLets(t, sharedPack("int", "x + 1", "10"))
	b := sharedLets(t, sharedPack("int", "x * 3", "30"))
	c := sharedLets(t, sharedPack("string", "x + 1", "10"))
	before := a1[0].Program.Node().String() + a1[1].Program.Node().String()

	// v + v: a hit for the same types, a miss for a string.
	if a1[0].Program != a2[0].Program || a1[0].Program != b[0].Program {
		t.Error("v + v over an int was compiled again, not shared")
	}
	if c[0].Program == a1[0].Program {
		t.Fatal("v + v over a string got the program compiled for an int")
	}
	if got := evalShared(t, a2[0], 2); got != "4" {
		t.Errorf("v + v over 2 = %s, want 4", got)
	}
	if got := evalShared(t, c[0], "ab"); got != "abab" {
		t.Errorf(`v + v over "ab" = %s, want abab`, got)
	}

	// g(2): shared while g's body is the same, not once it changes.
	if a1[1].Program != a2[1].Program {
		t.Error("g(2) with the same body was compiled again, not shared")
	}
	if b[1].Program == a1[1].Program {
		t.Fatal("g(2) got the program compiled with another body of g")
	}
	if got := evalShared(t, a2[1], nil); got != "3" {
		t.Errorf("g(2) with x + 1 = %s, want 3", got)
	}
	if got := evalShared(t, b[1], nil); got != "6" {
		t.Errorf("g(2) with x * 3 = %s, want 6", got)
	}

	// t(2) calls this check's own lookup table: never shared.
	if a1[2].Program == a2[2].Program {
		t.Error("t(2), a call of a check's own table, was shared between checks")
	}
	if got := evalShared(t, a2[2], nil); got != "10" {
		t.Errorf("t(2) = %s, want 10", got)
	}
	if got := evalShared(t, b[2], nil); got != "30" {
		t.Errorf("t(2) with the other table = %s, want 30", got)
	}

	// Checking and running again changed nothing that is shared.
	if after := a1[0].Program.Node().String() + a1[1].Program.Node().String(); after != before {
		t.Errorf("a shared program changed after other checks:\n%s\nnow\n%s", before, after)
	}
}

// TestSharedProgramsLeftCalls: where inlining stops at its bound, the
// compiled expression calls the check's own functions, and is not shared.
func TestSharedProgramsLeftCalls(t *testing.T) {
	src := doublingPack(20, 2)
	first, second := sharedLets(t, src)[0], sharedLets(t, src)[0]
	if !regexp.MustCompile(`\bf\d+\(`).MatchString(first.Program.Node().String()) {
		t.Fatalf("inlining left no call: %s", first.Program.Node())
	}
	if first.Program == second.Program {
		t.Error("an expression calling the check's own functions was shared between checks")
	}
	small := doublingPack(3, 2)
	if sharedLets(t, small)[0].Program != sharedLets(t, small)[0].Program {
		t.Error("an expression with every call inlined was not shared")
	}
}

// TestSharedProgramsConcurrent checks packs that share some expressions
// and not others from several goroutines (run it with -race).
func TestSharedProgramsConcurrent(t *testing.T) {
	type variant struct {
		param, fn, low string
		v              any
		want           []string
	}
	variants := []variant{
		{"int", "x + 1", "10", 2, []string{"4", "3", "10"}},
		{"int", "x * 3", "30", 3, []string{"6", "6", "30"}},
		{"string", "x + 2", "20", "q", []string{"qq", "4", "20"}},
	}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				vr := variants[(g+i)%len(variants)]
				lets := sharedLets(t, sharedPack(vr.param, vr.fn, vr.low))
				for j, e := range lets {
					if got := evalShared(t, e, vr.v); got != vr.want[j] {
						t.Errorf("%s with %s, %s, %s: %s, want %s", e.Text, vr.param, vr.fn, vr.low, got, vr.want[j])
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestProgramStoreBound: the store keeps at most its bound, and what was
// used since the last turn survives it.
func TestProgramStoreBound(t *testing.T) {
	s := newProgramStore(8)
	kept := &cachedProgram{calls: "k"}
	s.store("kept", kept)
	for i := range 100 {
		s.store(fmt.Sprint("text ", i), &cachedProgram{})
		if n := s.len(); n > 8 {
			t.Fatalf("after %d stores the store holds %d, over its bound of 8", i+2, n)
		}
		if i%3 == 0 && s.lookup("kept", nil, nil, "k", nil) != kept {
			t.Fatalf("after %d stores the program in use was dropped", i+2)
		}
	}
	if s.lookup("text 0", nil, nil, "", nil) != nil {
		t.Error("the first program stored is still there after 100 more")
	}
	if s.lookup("text 99", nil, nil, "", nil) == nil {
		t.Error("the last program stored is not there")
	}
}

// TestKeptParseOverridden: a name the rules declare as a function is a
// call of it, not expr's built-in of the same name, however often the
// same text was parsed the other way before.
func TestKeptParseOverridden(t *testing.T) {
	const use = `procedure p() "P" {
  let a = upper("x")
  emit "{a}"
}
`
	const declared = `function upper(s: string) "Upper" = s + "!"
` + use
	for i, src := range []string{use, use, declared, declared, use, declared} {
		want := "X"
		if src == declared {
			want = "x!"
		}
		if got := evalShared(t, sharedLets(t, src)[0], nil); got != want {
			t.Errorf("check %d: upper(\"x\") = %s, want %s", i+1, got, want)
		}
	}
}
