package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested as CUE and the go command are: each script in
// testdata/script runs munda commands in a fresh directory and checks
// their output and exit codes.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"munda":    func() { os.Exit(Main()) },
		"memlimit": func() { os.Exit(maxrssMain()) },
		"exitcode": func() { os.Exit(exitcodeMain()) },
	})
}

func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join(root, "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			// Scripts can reach the repository's shipped files.
			env.Setenv("REPO", root)
			return nil
		},
		// -update rewrites the files a script compares with (cmp) from
		// what munda printed, as the golden tests of other packages do.
		UpdateScripts: *update,
	})
}
