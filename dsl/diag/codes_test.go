package diag

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// moduleRoot is where go.mod is, from this package's directory.
const moduleRoot = "../.."

// goSources calls fn with each Go file of the module that is not a test.
func goSources(t *testing.T, fn func(path, src string)) {
	t.Helper()
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != moduleRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(path), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var codeConst = regexp.MustCompile(`(?m)^\s*(?:const\s+)?(Code\w+)\s*=\s*"([^"]*)"`)

// Every diagnostic code declared anywhere in the code base is documented
// in docs/diagnostics.md, and the page documents no code that is gone.
// None is a catch-all.
func TestCodesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "docs", "diagnostics.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^### `([^`]+)`$").FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = true
	}
	codes := map[string]string{} // code → where declared
	goSources(t, func(path, src string) {
		for _, m := range codeConst.FindAllStringSubmatch(src, -1) {
			name, code := m[1], m[2]
			if prev, ok := codes[code]; ok {
				t.Errorf("code %q is declared twice: %s and %s.%s", code, prev, path, name)
			}
			codes[code] = path + "." + name
			if code == "invalid" || code == "" || !regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`).MatchString(code) {
				t.Errorf("%s.%s = %q: codes are specific, in snake_case", path, name, code)
			}
			if !documented[code] {
				t.Errorf("%s.%s = %q is not in docs/diagnostics.md (### `%s`)", path, name, code, code)
			}
		}
	})
	if len(codes) < 40 {
		t.Fatalf("found only %d codes: is the scan looking in the right place?", len(codes))
	}
	for code := range documented {
		if _, ok := codes[code]; !ok {
			t.Errorf("docs/diagnostics.md documents %q, which no code declares", code)
		}
	}
}

// The did-you-mean is worded in one place: no code outside this package
// builds it by hand.
func TestOneDidYouMean(t *testing.T) {
	handmade := regexp.MustCompile(`(?i)did you mean`)
	goSources(t, func(path, src string) {
		if strings.Contains(path, "/dsl/diag/") {
			return
		}
		for i, line := range strings.Split(src, "\n") {
			if handmade.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s:%d builds a did-you-mean by hand; use diag.Suggest: %s", path, i+1, strings.TrimSpace(line))
			}
		}
	})
}
