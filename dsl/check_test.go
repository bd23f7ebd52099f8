package dsl

import (
	"bytes"
	"github.com/munda-rules/munda/dsl/diag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// checkCase loads a file (or a directory) of testdata/check as a pack of
// its own, with every house rule in it switched on, and checks it.
func checkCase(t testing.TB, path string) (*Rules, diag.Diagnostics) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	pack := &Pack{FS: os.DirFS(filepath.Dir(path)), Root: ".", Display: filepath.ToSlash(filepath.Dir(path)),
		Files: []string{filepath.Base(path)}}
	if info.IsDir() {
		pack = &Pack{FS: os.DirFS(path), Root: ".", Display: filepath.ToSlash(path)}
	}
	lp, diags := LoadPack(pack)
	rules, ds := Assemble(nil, []*LoadedPack{lp}, nil)
	diags = append(diags, ds...)
	var houses []string
	for _, h := range rules.Houses() {
		houses = append(houses, h.ID.Name)
	}
	if err := rules.Select(houses); err != nil {
		t.Fatal(err)
	}
	diags = append(diags, Check(rules)...)
	diags.Sort()
	return rules, diags
}

// TestCheckGolden checks each file and directory in testdata/check and
// compares the diagnostics, as `munda check` prints them, with the
// .golden file beside it. Run with -update to rewrite the golden files
// (and then read the diff).
func TestCheckGolden(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "check"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && !strings.HasSuffix(name, ".munda") {
			continue
		}
		n++
		path := filepath.Join("testdata", "check", name)
		t.Run(strings.TrimSuffix(name, ".munda"), func(t *testing.T) {
			rules, diags := checkCase(t, path)
			var got bytes.Buffer
			if err := diag.WriteText(&got, diags, rules.Sources()); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(path, ".munda") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got.String() != string(want) {
				t.Errorf("diagnostics differ from %s:\n--- got\n%s\n--- want\n%s", golden, got.String(), want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no check cases in testdata/check")
	}
}

// TestValidHasNoDiagnostics: the file that uses every construct is clean.
func TestValidHasNoDiagnostics(t *testing.T) {
	_, diags := checkCase(t, filepath.Join("testdata", "check", "valid.munda"))
	if len(diags) > 0 {
		t.Fatalf("want no diagnostics, got:\n%v", diags)
	}
}

// Replacements follow the layers: in a chain of rulesets each extending
// the one before, the last one's replacement is in force, with no
// conflict (extending is changing); two of one pack conflict.
func TestReplaceAlongExtends(t *testing.T) {
	fsys := fstest.MapFS{
		"root/r.munda": {Data: []byte(`ruleset root "Root" {}
procedure p() "P (root)" {}
`)},
		"mid/r.munda": {Data: []byte(`ruleset mid "Mid" { extends root }
replace procedure p() "P (mid)" {}
`)},
		"top/r.munda": {Data: []byte(`ruleset top "Top" { extends mid }
replace procedure p() "P (top)" {}
`)},
	}
	resolve := func(id string) (*Pack, bool) {
		if _, err := fsys.Stat(id); err != nil {
			return nil, false
		}
		return &Pack{FS: fsys, Root: id, Display: id}, true
	}
	top, diags := LoadPack(&Pack{FS: fsys, Root: "top", Display: "top"})
	rules, ds := Assemble(top, nil, resolve)
	diags = append(append(diags, ds...), Check(rules)...)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%v", diags)
	}
	if got := rules.Index.Procedures["p"].Title; got != "P (top)" {
		t.Errorf("procedure p in force is %q, want the top ruleset's", got)
	}
}
