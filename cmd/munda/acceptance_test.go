package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munda-rules/munda/rulesets"
)

// The acceptance test of munda check: the shipped rules, copied to a
// directory and broken in one place the way an editor breaks them, give
// exit 1 and, first, an error at the place broken that says what is wrong.

// copyShippedPack copies the embedded core-2023 pack into a new temporary
// directory and returns the pack's directory there.
func copyShippedPack(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "core-2023")
	err := fs.WalkDir(rulesets.FS, "core-2023", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(strings.TrimPrefix(p, "core-2023")))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(rulesets.FS, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// runCLI runs the CLI in process and returns its exit code and output.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// editOnce replaces old, which must occur exactly once in the file, by new,
// and returns the 1-based line and column where new begins.
func editOnce(t *testing.T, path, old, new string) (line, col int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, old); n != 1 {
		t.Fatalf("%s: %q occurs %d times, want once", path, old, n)
	}
	i := strings.Index(text, old)
	text = text[:i] + new + text[i+len(old):]
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	before := text[:i]
	line = strings.Count(before, "\n") + 1
	col = i - strings.LastIndex(before, "\n")
	return line, col
}

// checkFailsFirst checks munda check's text output and returns its first
// line (the first diagnostic's header) and the rest.
func checkFailsFirst(t *testing.T, dir string) (first string, out string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", "check", dir)
	if code != exitFailed {
		t.Fatalf("munda check %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", dir, code, exitFailed, stdout, stderr)
	}
	if stderr != "" {
		t.Errorf("munda check %s: stderr %q, want nothing", dir, stderr)
	}
	first, _, _ = strings.Cut(stdout, "\n")
	return first, stdout
}

func TestAcceptanceCheckShippedCopy(t *testing.T) {
	dir := copyShippedPack(t)
	slash := filepath.ToSlash(dir)

	t.Run("unchanged", func(t *testing.T) {
		code, stdout, stderr := runCLI(t, "", "check", dir)
		if code != exitOK || stdout != "" || stderr != "" {
			t.Fatalf("munda check of an unchanged copy: exit %d, stdout %q, stderr %q; want 0 and no output", code, stdout, stderr)
		}
		// Its tests pass too, as the shipped ones do.
		code, stdout, _ = runCLI(t, "", "test", dir)
		if code != exitOK || !strings.HasSuffix(stdout, " passed, 0 failed\n") || strings.HasPrefix(stdout, "0 passed") {
			t.Fatalf("munda test of an unchanged copy: exit %d, stdout %q", code, stdout)
		}
	})

	t.Run("missing closing brace", func(t *testing.T) {
		dir := copyShippedPack(t)
		slash := filepath.ToSlash(dir)
		path := filepath.Join(dir, "end_phase.munda")
		// The brace that closes procedure bottle_checks goes; the parser
		// finds out at the next procedure.
		line, _ := editOnce(t, path, "    call bottle_check(g)\n  }\n}\n\nprocedure fleeing()", "    call bottle_check(g)\n  }\n\nprocedure fleeing()")
		procLine := line + 3
		first, out := checkFailsFirst(t, dir)
		// It names the procedure left open, and where its { is.
		want := fmt.Sprintf(`%s/end_phase.munda:%d:1: error: a } is missing before this procedure: the { of procedure bottle_checks at line `, slash, procLine)
		if !strings.HasPrefix(first, want) || !strings.HasSuffix(first, " is never closed") {
			t.Errorf("first diagnostic:\n got %s\nwant %s\nall:\n%s", first, want, out)
		}
		if !strings.Contains(out, fmt.Sprintf("\n  %d | procedure fleeing() \"Fleeing the Battlefield\" {\n", procLine)) {
			t.Errorf("the source line is not quoted:\n%s", out)
		}
	})

	t.Run("missing closing brace in a table file", func(t *testing.T) {
		dir := copyShippedPack(t)
		slash := filepath.ToSlash(dir)
		path := filepath.Join(dir, "tables", "lasting_injury.munda")
		line, _ := editOnce(t, path, "goes into Convalescence\"\n  }\n\n  12 impressive_scars", "goes into Convalescence\"\n\n  12 impressive_scars")
		first, out := checkFailsFirst(t, dir)
		// It names the row left open (the one above), and where its { is.
		want := fmt.Sprintf(`%s/tables/lasting_injury.munda:%d:3: error: a } is missing before this row: the { of row `, slash, line+2)
		if !strings.HasPrefix(first, want) || !strings.HasSuffix(first, " is never closed") {
			t.Errorf("first diagnostic:\n got %s\nwant %s\nall:\n%s", first, want, out)
		}
	})

	t.Run("misspelled table", func(t *testing.T) {
		dir := copyShippedPack(t)
		slash := filepath.ToSlash(dir)
		path := filepath.Join(dir, "injuries.munda")
		line, col := editOnce(t, path, "      apply lasting_injury(fighter, attacker)\n", "      apply lasting_injurry(fighter, attacker)\n")
		col += len("      apply ")
		first, out := checkFailsFirst(t, dir)
		want := fmt.Sprintf("%s/injuries.munda:%d:%d: error: unknown table lasting_injurry; did you mean lasting_injury?", slash, line, col)
		if first != want {
			t.Errorf("first diagnostic:\n got %s\nwant %s\nall:\n%s", first, want, out)
		}
		wantOut := fmt.Sprintf("%s\n  %d |       apply lasting_injurry(fighter, attacker)\n     |             ^^^^^^^^^^^^^^^\n", want, line)
		if out != wantOut {
			t.Errorf("output:\n%s\nwant:\n%s", out, wantOut)
		}
		// The same as JSON, for tools.
		code, stdout, _ := runCLI(t, "", "check", "--format", "json", dir)
		if code != exitFailed {
			t.Fatalf("exit %d", code)
		}
		var report struct {
			Diagnostics []struct {
				Severity, Code, Summary, Detail string
				Range                           struct {
					File  string
					Start struct{ Line, Column int }
				}
			}
			Errors int
		}
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if report.Errors != 1 || len(report.Diagnostics) != 1 {
			t.Fatalf("want one error, got %s", stdout)
		}
		d := report.Diagnostics[0]
		if d.Severity != "error" || d.Code != "unknown_reference" || d.Summary != "unknown table lasting_injurry; did you mean lasting_injury?" ||
			d.Detail != "" || d.Range.File != slash+"/injuries.munda" ||
			d.Range.Start.Line != line || d.Range.Start.Column != col {
			t.Errorf("diagnostic %+v", d)
		}
	})

	t.Run("uncovered D66 result", func(t *testing.T) {
		dir := copyShippedPack(t)
		slash := filepath.ToSlash(dir)
		path := filepath.Join(dir, "tables", "lasting_injury.munda")
		line, col := editOnce(t, path, "  31-36 convalescence", "  31-35 convalescence")
		col += 2
		first, out := checkFailsFirst(t, dir)
		want := fmt.Sprintf("%s/tables/lasting_injury.munda:%d:%d: error: D66 result 36 is not covered by table lasting_injury", slash, line, col)
		if first != want {
			t.Errorf("first diagnostic:\n got %s\nwant %s\nall:\n%s", first, want, out)
		}
		wantOut := fmt.Sprintf("%s\n  %d |   31-35 convalescence \"Convalescence\" {\n     |   ^\n  Every result a D66 can give needs exactly one row.\n", want, line)
		if out != wantOut {
			t.Errorf("output:\n%s\nwant:\n%s", out, wantOut)
		}
	})

	t.Run("overlapping rows", func(t *testing.T) {
		dir := copyShippedPack(t)
		slash := filepath.ToSlash(dir)
		path := filepath.Join(dir, "tables", "lasting_injury.munda")
		line, _ := editOnce(t, path, "  31-36 convalescence", "  31-41 convalescence")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		other := strings.Count(string(data)[:strings.Index(string(data), "  41 old_battle_wound")], "\n") + 1
		first, out := checkFailsFirst(t, dir)
		want := fmt.Sprintf("%s/tables/lasting_injury.munda:%d:3: error: D66 result 41 is covered twice: by row convalescence (line %d) and row old_battle_wound", slash, other, line)
		if first != want {
			t.Errorf("first diagnostic:\n got %s\nwant %s\nall:\n%s", first, want, out)
		}
	})

	// The original copy is untouched by the subtests.
	code, stdout, stderr := runCLI(t, "", "check", dir)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("munda check %s: exit %d, stdout %q, stderr %q", slash, code, stdout, stderr)
	}
}
