package dsl

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl/syntax"
)

// doublingPack declares depth functions, each calling the one before it
// `calls` times: inlined naively, the last one grows as calls^depth.
func doublingPack(depth, calls int) string {
	var b strings.Builder
	b.WriteString("function f0(x: int) \"f0\" = x + 1\n")
	for i := 1; i <= depth; i++ {
		terms := make([]string, calls)
		for j := range terms {
			terms[j] = fmt.Sprintf("f%d(x + %d)", i-1, j)
		}
		fmt.Fprintf(&b, "function f%d(x: int) \"f%d\" = %s\n", i, i, strings.Join(terms, " + "))
	}
	fmt.Fprintf(&b, "procedure p() \"P\" {\n  let y = f%d(1)\n  emit \"{y}\"\n}\n", depth)
	return b.String()
}

func checkSource(t testing.TB, src string) (*Rules, []string) {
	t.Helper()
	pack := &Pack{FS: fstest.MapFS{"p.munda": {Data: []byte(src)}}, Root: ".", Display: "p"}
	lp, diags := LoadPack(pack)
	rules, ds := Assemble(nil, []*LoadedPack{lp}, nil)
	diags = append(diags, ds...)
	if !diags.HasErrors() {
		diags = append(diags, Check(rules)...)
	}
	var errs []string
	for _, d := range diags {
		errs = append(errs, d.Error())
	}
	return rules, errs
}

// TestInliningIsBounded: functions that call each other many times over
// check clean and compile to a bounded program (issue 10: twenty levels
// of doubling took the checker to 4 GB and out of memory).
func TestInliningIsBounded(t *testing.T) {
	for _, depth := range []int{1, 5, 20, 31} {
		rules, errs := checkSource(t, doublingPack(depth, 2))
		if len(errs) > 0 {
			t.Fatalf("depth %d: %v", depth, errs)
		}
		let := rules.Index.Procedures["p"].Decl.Body.Stmts[0].(*syntax.Let)
		if n := countNodes(let.Value.Program.Node()); n > maxInlinedNodes+MaxExprNodes {
			t.Errorf("depth %d: the compiled expression has %d nodes, over the bound", depth, n)
		}
	}
}

// FuzzCheckInlining checks packs of functions calling each other: checking
// never panics, and stays bounded whatever the depth and fan-out.
func FuzzCheckInlining(f *testing.F) {
	f.Add(uint8(20), uint8(2))
	f.Add(uint8(3), uint8(40))
	f.Fuzz(func(t *testing.T, depth, calls uint8) {
		d, c := int(depth%40)+1, int(calls%50)+1
		checkSource(t, doublingPack(d, c))
	})
}

// BenchmarkCheckInlining checks forty functions, each calling the one
// before fifty times: each body's nodes are renamed and placed once
// whatever the depth, and a call past the budget is refused unparsed.
func BenchmarkCheckInlining(b *testing.B) {
	src := doublingPack(40, 50)
	for range b.N {
		checkSource(b, src)
	}
}
