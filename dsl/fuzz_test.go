package dsl

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"

	"github.com/munda-rules/munda/dsl/syntax"
)

// FuzzCheck: checking never panics, whatever parses.
func FuzzCheck(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := syntax.Parse("fuzz.munda", src)
		if file == nil {
			return
		}
		lp := &LoadedPack{Pack: &Pack{}, Files: []*syntax.File{file}}
		rules, ds := Assemble(nil, []*LoadedPack{lp}, nil)
		diags = append(diags, ds...)
		var houses []string
		for _, h := range rules.Houses() {
			houses = append(houses, h.ID.Name)
		}
		_ = rules.Select(houses)
		Check(rules)
	})
}

// addSeeds seeds a fuzz target with every .munda file in the repository's
// testdata and rulesets.
func addSeeds(f *testing.F) {
	for _, dir := range []string{"testdata", filepath.Join("..", "rulesets"), filepath.Join("..", "testdata")} {
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".munda") {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
}

// FuzzPreparse: what is done ahead of a check (preparse.go) changes
// nothing it says, and every parse it takes from there is its own parse.
func FuzzPreparse(f *testing.F) {
	addSeeds(f)
	defer runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))) // parsing ahead needs two
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	f.Fuzz(func(t *testing.T, src []byte) {
		check := func(on bool) []string {
			preparseOff, preparseWait = !on, on
			defer func() { preparseOff, preparseWait = false, false }()
			resetShared()
			file, _ := syntax.Parse("fuzz.munda", src)
			if file == nil {
				return nil
			}
			rules, ds := Assemble(nil, []*LoadedPack{{Pack: &Pack{}, Files: []*syntax.File{file}}}, nil)
			ds = append(ds, Check(rules)...)
			var out []string
			for _, d := range ds {
				out = append(out, d.Error())
			}
			return out
		}
		preparseAudit = func(c *checker, e *syntax.Expr, env types.Map, tree *exprparser.Tree) {
			if own, err := c.exprc.Parse(e.Text, env); err != nil || !reflect.DeepEqual(own, tree) {
				t.Errorf("the parse of %q taken differs from the checker's own (%v)", e.Text, err)
			}
		}
		defer func() { preparseAudit = nil }()
		if off, on := check(false), check(true); !slices.Equal(off, on) {
			t.Errorf("parsing ahead, the check said\n%s\nwithout:\n%s", strings.Join(on, "\n"), strings.Join(off, "\n"))
		}
	})
}
