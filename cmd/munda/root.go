package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl/diag"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // an input is missing, unreadable or fails: rules, a state, a path, a name, a test, a run
	exitUsage  = 2 // the command line itself is wrong: verb, flag, flag value, argument count
)

// Main runs munda with os.Args and returns the exit code.
func Main() int {
	tuneGC()
	return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// tuneGC lets the heap grow to gcHeap before the garbage collector runs:
// a munda command lives a second or less and makes most of its garbage
// checking rules, so collecting early is work thrown away (a run of the
// End Phase takes about a third less time). The first collection, at
// gcHeap, hands over to a pacing by percentage (gcpace.go): a memory
// limit alone would, past it, collect almost without pause (`munda test`,
// whose heap is larger, took twice as long). GOGC or GOMEMLIMIT in the
// environment are left to rule.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcHeap)
	// Unreachable at once: its finalizer runs after the first collection.
	// (It holds a pointer, so the tiny allocator, whose objects' finalizers
	// may never run, does not take it.)
	gcPacing.Store(true)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { paceGC() })
}

type gcSentinel struct{ _ *int }

const gcHeap = 128 << 20

// run is Main with its inputs and outputs given, for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var failed *failure
	if errors.As(err, &failed) {
		failed.print(stderr)
		return exitFailed
	}
	// Anything else comes from the command line: a bad flag, a missing
	// argument, an unknown verb.
	fmt.Fprintln(stderr, "munda: "+diag.PrintableLines(err.Error()))
	if usage, ok := err.(*usageError); !ok || usage.showHelp {
		fmt.Fprintln(stderr, "Run 'munda --help' for usage.")
	}
	return exitUsage
}

// failure ends a command with exit code 1: the command ran, but what it
// checked or ran did not pass. msg, if any, is printed once; then the
// diagnostics, if any, each with the line of the file at fault (from src).
type failure struct {
	msg   string
	diags diag.Diagnostics
	src   diag.Sources
}

func (f *failure) Error() string {
	if len(f.diags) == 0 {
		return f.msg
	}
	if f.msg == "" {
		return f.diags.Error()
	}
	return f.msg + "\n" + f.diags.Error()
}

func (f *failure) print(w io.Writer) {
	switch {
	case f.msg != "":
		fmt.Fprintln(w, "munda: "+diag.PrintableLines(f.msg))
	case len(f.diags) > 0:
		fmt.Fprint(w, "munda: ")
	}
	_ = diag.WriteText(w, f.diags, f.src)
}

func failed(format string, args ...any) error { return &failure{msg: fmt.Sprintf(format, args...)} }

// failedWith fails with err, printed as diagnostics (with the lines of src
// at fault) when it is one or a list of them: a state file's problems, a
// run's error.
func failedWith(msg string, err error, src diag.Sources) error {
	var ds diag.Diagnostics
	var d *diag.Diagnostic
	switch {
	case errors.As(err, &ds):
		return &failure{msg: msg, diags: ds, src: src}
	case errors.As(err, &d):
		return &failure{msg: msg, diags: diag.Diagnostics{d}, src: src}
	case msg != "":
		return &failure{msg: msg + "\n" + err.Error()}
	}
	return &failure{msg: err.Error()}
}

// usageError is a command-line mistake found by a verb itself.
type usageError struct {
	msg      string
	showHelp bool
}

func (u *usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), showHelp: true}
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "munda",
		Short: "Necromunda's rules as data: check, format, run and test them",
		Long: strings.TrimSpace(`
munda keeps the rules of Necromunda in rule files (.munda) and runs them
against a battle's state. House rules are switched with a flag, not a
recompile.

Exit codes: 0 all is well; 1 an input is missing, unreadable or fails
(a rule file, a state, a path, a name the rules do not have, a test, a
run); 2 the command line itself is wrong (an unknown verb or flag, a flag
value that does not parse, the wrong number of arguments).`),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// `munda completion bash|zsh|fish|powershell` is cobra's; what it
	// completes is in completion.go.
	root.CompletionOptions.HiddenDefaultCmd = false
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{msg: err.Error(), showHelp: true}
	})
	root.AddCommand(
		newCheckCmd(),
		newFmtCmd(),
		newRunCmd(),
		newRollCmd(),
		newTestCmd(),
		newRulesCmd(),
		newOddsCmd(),
		newImportCmd(),
		newBattleCmd(),
		newGangCmd(),
		newLSPCmd(),
		newServeCmd(),
	)
	return root
}
