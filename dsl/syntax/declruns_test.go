package syntax

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sameParse fails t unless parsing src a run of declarations at a time
// (runs as short as can be) gives the tree parseWhole gives, positions
// included, or gives up where parseWhole reports an error.
func sameParse(t *testing.T, name string, src []byte) {
	t.Helper()
	whole, diags := parseWhole(name, src)
	byRuns := parseByDeclarations(name, src, 1)
	if byRuns == nil {
		// Giving up is always safe (Parse then parses whole), but a
		// file that parses must parse in runs too.
		if !diags.HasErrors() {
			t.Errorf("%s: parses whole but not by declarations", name)
		}
		return
	}
	if diags.HasErrors() {
		t.Fatalf("%s: parses by declarations, but whole gives %v", name, diags)
	}
	if !reflect.DeepEqual(whole, byRuns) {
		t.Errorf("%s: parsing by declarations gives another tree", name)
	}
}

// TestParseByDeclarations checks every shipped rule file and the
// formatter's test files parse the same by declarations as whole.
func TestParseByDeclarations(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../rulesets/*/*.munda", "../../rulesets/*/*/*.munda", "testdata/fmt/*.munda"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Fatal("no rule files found")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameParse(t, path, src)
	}
	for _, src := range []string{
		// A map literal ending a function, then a declaration.
		"function f() \"F\" = {a: 1}\nfunction g() \"G\" = 2\n",
		"procedure p() \"P\" when {a: 1} {}\nskill s \"S\" {}\n",
		"table t \"T\" { roll d6\n 1-6 a \"A\" {} }\nreplace row t 1-6 b \"B\" when {x: 1} = {y: 2}\ntest \"t\" {}\n",
		"procedure p() \"P\" {}\nprocedure p() \"P\" {} event e() \"E\" ends p\n",
		"/* c */ skill s \"S\" {} // d\n  \n",
	} {
		if _, diags := parseWhole("inline.munda", []byte(src)); diags.HasErrors() {
			t.Errorf("%q: %v", src, diags)
		}
		sameParse(t, "inline.munda", []byte(src))
	}
}

// FuzzParseByDeclarations: parsing by declarations never disagrees with
// parsing whole.
func FuzzParseByDeclarations(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if checkEncoding("fuzz.munda", src) != nil {
			return
		}
		sameParse(t, "fuzz.munda", src)
	})
}
