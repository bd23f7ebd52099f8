package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"build": buildFile,
		},
	})
}

// buildFile is the script command "build OUT PART...": it writes OUT from
// the parts in order, each a file of the script, and PART*N a file N
// times over, so a script can make a large input (10,000 gangers) without
// holding it.
func buildFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: build OUT PART... (PART*N repeats)")
	}
	var b strings.Builder
	for _, part := range args[1:] {
		name, times, found := strings.Cut(part, "*")
		n := 1
		if found {
			var err error
			if n, err = strconv.Atoi(times); err != nil || n < 0 {
				ts.Fatalf("build: %q: want FILE*N", part)
			}
		}
		data := ts.ReadFile(name)
		for range n {
			b.WriteString(data)
		}
	}
	if err := os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644); err != nil {
		ts.Fatalf("build: %v", err)
	}
}
