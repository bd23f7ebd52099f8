package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// A file belongs to the pack munda check DIR would check it in.
func TestFindPack(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	for _, f := range []string{
		"mod/skills.munda", "mod/tests/skills_test.munda", // a pack with tests below it
		"base/rules.munda", "base/tables/injury.munda", "base/tables/more/deep.munda",
		"single/house/one.munda", "single/house/tests/one_test.munda", // one file and its tests
		"loose/alone.munda", "loose/notes.txt",
	} {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file, root string // root: the workspace, relative to the test's
		key        string // relative to the test's root
		display    string
	}{
		{"mod/skills.munda", "", "dir:mod", "mod"},
		{"mod/tests/skills_test.munda", "", "dir:mod", "mod"},
		{"base/tables/more/deep.munda", "", "dir:base", "base"},
		{"base/tables/more/deep.munda", "base/tables", "dir:base/tables", "."},
		{"single/house/one.munda", "", "dir:single/house", "single/house"},
		{"single/house/tests/one_test.munda", "", "dir:single/house", "single/house"},
		{"loose/alone.munda", "", "file:loose/alone.munda", "loose"},
		{"loose/new.munda", "", "dir:loose", "loose"}, // not saved yet, beside another
	} {
		ws := root
		if tc.root != "" {
			ws = root + "/" + tc.root
		}
		ref := findPack(pathURI(root+"/"+tc.file), ws)
		kind, rel, _ := cut(tc.key)
		if want := kind + ":" + root + "/" + rel; ref.key != want || ref.display != tc.display {
			t.Errorf("%s (workspace %s): pack %s shown as %q, want %s shown as %q", tc.file, tc.root, ref.key, ref.display, want, tc.display)
		}
	}
	for uri, want := range map[string]string{
		"munda:/rulesets/core-2023/tables/falling.munda": "shipped:core-2023",
		"munda:/rulesets/house/aa/aa.munda":              "shipped:house/aa",
		"untitled:Untitled-1":                            "loose:untitled:Untitled-1",
		"munda:/rulesets/../../etc/passwd":               "loose:munda:/rulesets/../../etc/passwd",
	} {
		if ref := findPack(uri, ""); ref.key != want {
			t.Errorf("%s: pack %s, want %s", uri, ref.key, want)
		}
	}
}

func cut(key string) (kind, rel string, ok bool) {
	for i := range key {
		if key[i] == ':' {
			return key[:i], key[i+1:], true
		}
	}
	return key, "", false
}
