package i18n

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
)

// FuzzOverlay: any bytes as an overlay give an overlay or a positioned
// diagnostic, and compiling what parses against rules never panics; a
// translation that compiles renders every plural form.
func FuzzOverlay(f *testing.F) {
	f.Add([]byte("language cs\nprocedure bottle_check \"Kontrola morálky\" {\n  \"{check} casualties\" = plural \"check\" { one \"{check} ztráta\" other \"{check} ztrát\" }\n}\n"))
	f.Add([]byte("language cs\ndice injury plural { one \"Kostka\" }\nface injury.out_of_action \"Mimo hru\"\n"))
	f.Add([]byte("language cs\nprocedure bottle_check { \"{gang.name} hold\" = \"{x\" }"))
	overlays, _ := filepath.Glob("../../rulesets/*/i18n/*.i18n")
	more, _ := filepath.Glob("../../rulesets/house/*/i18n/*.i18n")
	for _, p := range append(overlays, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	file, diags := syntax.ParseString("rules.munda", rules)
	if diags.HasErrors() {
		f.Fatal(diags)
	}
	decls := Declarations([]*syntax.File{file})
	f.Fuzz(func(t *testing.T, src []byte) {
		ov, d := Parse("fuzz.i18n", src)
		if d != nil {
			if d.Subject == nil && len(src) <= MaxOverlayBytes {
				t.Errorf("a parse error without a position: %v", d)
			}
			return
		}
		cat, diags := Compile("cs", []*Overlay{ov}, decls, Untranslated{List: true})
		if cat == nil {
			return
		}
		for _, d := range diags {
			if d.Subject == nil {
				t.Errorf("a diagnostic without a position: %v", d)
			}
		}
		for _, n := range []int{0, 1, 2, 5} {
			cat.Message("{check} casualties", func(string) (int, bool) { return n, true })
			cat.CountedTitle("Injury dice", n)
		}
	})
}
