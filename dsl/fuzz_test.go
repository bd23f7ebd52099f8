package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
