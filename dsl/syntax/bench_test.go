package syntax

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseShipped parses every shipped rule file once per
// iteration: what parsing costs `munda check` on real rules (BenchmarkParse
// in dsl measures a generated pack).
func BenchmarkParseShipped(b *testing.B) {
	files, _ := filepath.Glob("../../rulesets/*/*.munda")
	more, _ := filepath.Glob("../../rulesets/*/*/*.munda")
	var srcs [][]byte
	for _, p := range append(files, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	if len(srcs) == 0 {
		b.Fatal("no rule files found")
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			if _, diags := Parse("shipped.munda", src); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	}
}
