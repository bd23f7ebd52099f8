package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// Every example in the README and in the --help texts runs, so that what
// the documentation shows stays true (issue 10: a documented `munda roll
// … --arg vehicle=quad` failed). Examples name files as a user would:
// battle.yaml (a copy of the example battle), mymod/ (a copy of the
// example mod), rules.munda and house/mine.munda (small packs made here),
// and testdata/ and rulesets/ of the repository. A README block that
// starts with `$ munda …` shows its output too: every line of it that is
// not elided with … must be printed, in that order.

// example is one documented command line, and the output it shows.
type example struct {
	where string   // "README.md:120" or "munda run --help"
	line  string   // as written
	shown []string // output lines the documentation shows
	code  int      // the exit code it must end with: 1 when its comment says "exit 1"
}

// notRunHere are examples that .ci/run runs itself, or that wait for a
// person at the table (tested in run.txtar with typed-in dice); here they
// are only parsed.
var notRunHere = map[string]string{
	"munda check --all-variants": ".ci/run runs it",
	"munda test":                 ".ci/run runs it",
	"munda run end-phase --state battle.yaml --dice prompt":                          "it asks for dice",
	"munda run end-phase --state battle.yaml --house aa --dice prompt -o after.yaml": "it asks for dice",
	"munda serve":                       "it serves until stopped (web's browser test serves the page)",
	"munda serve --addr 127.0.0.1:9000": "it serves until stopped",
	"munda serve --dir /tmp/site":       "it serves until stopped",
}

// Running every example loads the rules again for most of them: about
// half a minute of CPU on this project's 2-core machine, a third of what
// `go test ./...` may take. So they run with MUNDA_LONG=1, as .ci/run
// does; otherwise each is only parsed as a command line (a renamed verb
// or flag still fails).
func runExamples() bool { return os.Getenv("MUNDA_LONG") != "" }

func TestDocumentedExamples(t *testing.T) {
	examples := append(readmeExamples(t), helpExamples()...)
	if len(examples) < 40 {
		t.Fatalf("found only %d examples", len(examples))
	}
	dir := exampleFixtures(t)
	t.Chdir(dir)
	type result struct {
		code   int
		stdout string
		stderr bytes.Buffer
	}
	ran := map[string]*result{}
	for _, ex := range examples {
		args, err := splitWords(strings.TrimPrefix(ex.line, "munda "))
		if err != nil {
			t.Errorf("%s: %s: %v", ex.where, ex.line, err)
			continue
		}
		if why, ok := notRunHere[ex.line]; ok || !runExamples() {
			if !ok {
				why = "set MUNDA_LONG=1 to run the examples"
			}
			if _, _, err := newRootCmd(nil, nil, nil).Find(args); err != nil {
				t.Errorf("%s: %s: %v (not run: %s)", ex.where, ex.line, err, why)
			}
			continue
		}
		// A line documented twice (in the README and in --help) runs once.
		r, ok := ran[ex.line]
		if !ok {
			r = &result{}
			start := time.Now()
			var stdout bytes.Buffer
			stdin := strings.NewReader(strings.Repeat("3\n", 500))
			r.code = run(args, stdin, &stdout, &r.stderr)
			r.stdout = stdout.String()
			if d := time.Since(start); d > time.Second {
				t.Logf("%s: %s took %v", ex.where, ex.line, d.Round(time.Millisecond))
			}
			ran[ex.line] = r
		}
		code, stdout, stderr := r.code, r.stdout, &r.stderr
		if code != ex.code {
			t.Errorf("%s: %s: exit %d, want %d\n%s", ex.where, ex.line, code, ex.code, firstLines(stderr.String(), 5))
			continue
		}
		if missing := missingLines(stdout, ex.shown); missing != "" {
			t.Errorf("%s: %s: the documented output line %q is not printed (in that order)", ex.where, ex.line, missing)
		}
	}
}

// readmeExamples are the `munda …` lines of the README's sh blocks, and
// the `$ munda …` blocks with their output.
func readmeExamples(t *testing.T) []example {
	data, err := os.ReadFile(repoPath("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	var block string // the fence's language; "" outside a block
	inBlock := false
	var cur *example
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence, ok := strings.CutPrefix(line, "```"); ok {
			if inBlock && cur != nil {
				out = append(out, *cur)
			}
			inBlock, block, cur = !inBlock, fence, nil
			continue
		}
		if !inBlock {
			continue
		}
		where := "README.md:" + itoa(n)
		switch {
		case block == "sh" && strings.HasPrefix(line, "munda "):
			out = append(out, example{where: where, line: dropComment(line), code: commentedCode(line)})
		case block == "" && strings.HasPrefix(line, "$ munda ") && cur == nil:
			cur = &example{where: where, line: strings.TrimPrefix(line, "$ ")}
		case cur != nil:
			cur.shown = append(cur.shown, line)
		}
	}
	return out
}

// helpExamples are the example lines of every verb's --help.
func helpExamples() []example {
	var out []example
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "munda ") {
				out = append(out, example{where: "munda " + c.CommandPath() + " --help", line: dropComment(line), code: commentedCode(line)})
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(nil, nil, nil))
	return out
}

// exampleFixtures makes the directory examples run in.
func exampleFixtures(t *testing.T) string {
	dir := t.TempDir()
	root, err := filepath.Abs(repoPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"testdata", "rulesets"} {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	copyState(t, dir, "goliaths-vs-eschers.yaml")
	if err := os.Rename(filepath.Join(dir, "goliaths-vs-eschers.yaml"), filepath.Join(dir, "battle.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "mymod"), os.DirFS(filepath.Join(root, "testdata", "mods", "grim-resolve"))); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"mymod/mine.munda": "house mine \"Our house rules\" {\n  rule herald \"Herald\" {\n    source \"ours\"\n" +
			"    text \"Read aloud before each battle.\"\n  }\n}\n",
		"rules.munda": "dice d6 \"D6\" {\n  faces 1, 2, 3, 4, 5, 6\n}\n",
		"house/mine.munda": "house mine \"Our house rules\" {\n  rule herald \"Herald\" {\n    source \"ours\"\n" +
			"    text \"Read aloud before each battle.\"\n  }\n}\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// commentedCode is the exit code an example's comment promises: 1 when it
// says "exit 1" (an example of what munda refuses), else 0.
func commentedCode(line string) int {
	if i := strings.Index(line, "  #"); i >= 0 && strings.Contains(line[i:], "exit 1") {
		return exitFailed
	}
	return exitOK
}

// dropComment cuts a trailing "  # comment" off a command line.
func dropComment(line string) string {
	if i := strings.Index(line, "  #"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// splitWords splits a command line as a shell would: blanks separate
// words; '…' and "…" quote.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, errUnclosedQuote
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

var errUnclosedQuote = &failure{msg: "an unclosed quote"}

// missingLines returns the first shown line (… elides) not found in out,
// in order, or "".
func missingLines(out string, shown []string) string {
	lines := strings.Split(out, "\n")
	i := 0
	for _, want := range shown {
		if strings.Contains(want, "…") || strings.TrimSpace(want) == "" {
			continue
		}
		for i < len(lines) && strings.TrimRight(lines[i], " ") != strings.TrimRight(want, " ") {
			i++
		}
		if i == len(lines) {
			return want
		}
		i++
	}
	return ""
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func itoa(n int) string { return strconv.Itoa(n) }
