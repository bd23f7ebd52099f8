package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What hostile.txtar cannot build: inputs of many megabytes.

// TestLongLineIsCut: a state of one line of 10 MB with a mistake at its
// end is reported with a window of that line, not the whole of it.
func TestLongLineIsCut(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "long.json")
	filler := strings.Repeat("x", 10<<20)
	data := `{"battle": {"round": 1, "scenario": "` + filler + `"}, "gangs": [], "gnags": []}`
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "run", "end-phase", "--state", p, "--seed", "1")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\n%.500s", code, exitFailed, stderr)
	}
	if !strings.Contains(stderr, "gnags") || !strings.Contains(stderr, "unknown field") {
		t.Errorf("the error does not name the field:\n%.500s", stderr)
	}
	if n := len(stdout) + len(stderr); n > 4096 {
		t.Errorf("the error printed %d bytes for one mistake; the snippet must be cut", n)
	}
}

// TestPackSizeIsBounded: a pack whose files are each within the limit of
// one file, but together over the limit of a pack, is refused.
func TestPackSizeIsBounded(t *testing.T) {
	dir := t.TempDir()
	comment := strings.Repeat("// "+strings.Repeat("x", 200)+"\n", (3<<20)/204)
	for i := range 6 {
		src := comment + "dice d" + string(rune('a'+i)) + " \"D\" {\n  faces 1, 2\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "f"+string(rune('a'+i))+".munda"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCLI(t, "", "check", "--rules", "none", dir)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFailed, stdout, stderr)
	}
	if !strings.Contains(stdout, "the pack's files together are larger than the limit") {
		t.Errorf("no error about the pack's size:\n%.1000s", stdout)
	}
}
