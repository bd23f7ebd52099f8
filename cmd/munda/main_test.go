package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested as CUE and the go command are: each script in
// testdata/script runs munda commands in a fresh directory and checks
// their output and exit codes.
func TestMain(m *testing.M) {
	// The tests run munda in this process hundreds of times and keep what
	// they load (shared rules, parsed files): collecting at the default
	// pace spends a fifth of the time re-marking that, for little memory.
	debug.SetGCPercent(400)
	// munda check's cache never goes into the user's: one directory of
	// this test binary's (a munda-process it starts gets it from the
	// script's environment, and keeps it), removed at the end.
	var tests testscript.TestingM = m
	if os.Getenv(cacheDirEnv) == "" {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("munda-test-cache-%d", os.Getpid()))
		os.Setenv(cacheDirEnv, dir)
		tests = removeAfter{m, dir}
	}
	testscript.Main(tests, map[string]func(){
		// munda in a process of its own (`exec munda-process`); plain
		// `munda` in a script runs in this one (mundaInProcess).
		"munda-process": func() { os.Exit(Main()) },
		"memlimit":      func() { os.Exit(maxrssMain()) },
		"exitcode":      func() { os.Exit(exitcodeMain()) },
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
			env.Setenv(cacheDirEnv, os.Getenv(cacheDirEnv))
			return nil
		},
		// -update rewrites the files a script compares with (cmp) from
		// what munda printed, as the golden tests of other packages do.
		UpdateScripts: *update,
		// [cacheoff]: MUNDA_CACHE=off in the tests' environment, which
		// the in-process munda reads.
		Condition: func(cond string) (bool, error) {
			if cond == "cacheoff" {
				return strings.EqualFold(os.Getenv(cacheEnv), "off"), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"build":      buildFile,
			"munda":      mundaInProcess,
			"munda-exit": mundaExit,
		},
	})
}

// removeAfter removes a directory after the tests ran.
type removeAfter struct {
	*testing.M
	dir string
}

func (r removeAfter) Run() int {
	code := r.M.Run()
	os.RemoveAll(r.dir)
	return code
}

// mundaInProcess is the script command "munda ARGS…": munda run in the
// test process, as `exec munda-process` runs it in a process of its own. Runs in
// one process share what they load (rulesets.LoadShared), so a script's
// hundred commands do not each parse and check the shipped rules again:
// most of this package's time went to that. It runs in the script's
// directory, one command at a time (the working directory is the
// process's). `exec munda-process` is what a script uses where the process
// matters: standard input (`stdin`), exit codes through `exitcode`, and
// memory through `memlimit`.
func mundaInProcess(ts *testscript.TestScript, neg bool, args []string) {
	code := runInDir(ts, args)
	switch {
	case neg && code == exitOK:
		ts.Fatalf("munda succeeded unexpectedly")
	case !neg && code != exitOK:
		ts.Fatalf("munda failed: exit %d", code)
	}
}

// runInDir runs munda in the test process, in the script's directory,
// and returns its exit code.
func runInDir(ts *testscript.TestScript, args []string) int {
	dir := ts.MkAbs(".")
	inProcess.Lock()
	defer inProcess.Unlock()
	back, err := os.Getwd()
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if err := os.Chdir(dir); err != nil {
		ts.Fatalf("%v", err)
	}
	defer func() {
		if err := os.Chdir(back); err != nil {
			ts.Fatalf("%v", err)
		}
	}()
	return run(args, strings.NewReader(""), ts.Stdout(), ts.Stderr())
}

// mundaExit is the script command "munda-exit CODE ARGS…": munda in the
// test process, which must exit with CODE (1, a failure; 2, a wrong
// command line), as `exec exitcode CODE munda-process …` checks it in a
// process of its own.
func mundaExit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: munda-exit CODE ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("munda-exit: %q is not an exit code", args[0])
	}
	if got := runInDir(ts, args[1:]); got != want {
		ts.Fatalf("munda exited %d, want %d", got, want)
	}
}

// inProcess lets one in-process munda command run at a time: each works
// in its script's directory.
var inProcess sync.Mutex

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
