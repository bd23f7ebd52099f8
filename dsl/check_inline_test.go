package dsl_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// TestCheckErrorsInline checks the files in testdata/semantics/errors,
// whose expected diagnostics are written next to the lines that cause
// them, as starlark-go's tests do:
//
//	call bottle_chek(gang)   // want "bottle_chek" "bottle_check"
//
// Each `want` is one diagnostic expected at that line, matching every
// pattern after it (regular expressions, quoted as Go strings, matched
// against "SEVERITY: SUMMARY DETAIL"). A comment line holding only wants
// applies to the next line that is not one. Every expected diagnostic must
// appear, and no other: an error or warning no `want` names fails the test.
//
// Patterns name the stable part of a message, such as the name that is
// unknown, so rewording a message does not break them; codes are not
// matched.
//
// Each file is checked as `munda check --rules none FILE` checks it (a
// pack of its own, its house groups switched on); a directory is one pack.
func TestCheckErrorsInline(t *testing.T) {
	dir := filepath.Join("..", "testdata", "semantics", "errors")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		var pack *dsl.Pack
		switch {
		case e.IsDir():
			pack = &dsl.Pack{FS: os.DirFS(filepath.Join(dir, name)), Root: ".", Display: name}
		case strings.HasSuffix(name, ".munda"):
			pack = &dsl.Pack{FS: os.DirFS(dir), Root: ".", Display: ".", Files: []string{name}}
		default:
			continue
		}
		n++
		t.Run(strings.TrimSuffix(name, ".munda"), func(t *testing.T) {
			wants, err := readWants(pack)
			if err != nil {
				t.Fatal(err)
			}
			if len(wants) == 0 {
				t.Fatal("no `// want` comments: a case of errors must expect some")
			}
			sel := rulesets.Selection{Base: rulesets.None, Pack: pack}
			_, diags := rulesets.Load(sel)
			for _, d := range diags {
				if i := slices.IndexFunc(wants, func(w *want) bool { return !w.met && w.matches(d) }); i >= 0 {
					wants[i].met = true
					continue
				}
				t.Errorf("unexpected diagnostic: %s", describe(d))
			}
			for _, w := range wants {
				if !w.met {
					var there []string
					for _, d := range diags {
						if d.Subject != nil && d.Subject.Filename == w.file && d.Subject.Start.Line == w.line {
							there = append(there, "\n    "+describe(d))
						}
					}
					t.Errorf("%s:%d: no diagnostic matches %q; at that line:%s", w.file, w.line, w.patterns, strings.Join(there, ""))
				}
			}
		})
	}
	if n == 0 {
		t.Fatalf("no cases in %s", dir)
	}
}

// want is one expected diagnostic.
type want struct {
	file     string // as diagnostics name it
	line     int
	patterns []*regexp.Regexp
	met      bool
}

func (w *want) matches(d *diag.Diagnostic) bool {
	if d.Subject == nil || d.Subject.Filename != w.file || d.Subject.Start.Line != w.line {
		return false
	}
	text := d.Severity.String() + ": " + d.Summary + " " + d.Detail
	for _, p := range w.patterns {
		if !p.MatchString(text) {
			return false
		}
	}
	return true
}

func describe(d *diag.Diagnostic) string {
	s := d.Error()
	if d.Detail != "" {
		s += " (" + d.Detail + ")"
	}
	return s
}

// readWants collects the `// want` comments of a pack's .munda files.
func readWants(p *dsl.Pack) ([]*want, error) {
	files := p.Files
	if files == nil {
		err := fs.WalkDir(p.FS, p.Root, func(name string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(name, ".munda") {
				files = append(files, name)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	var out []*want
	for _, f := range files {
		src, err := p.ReadFile(f, syntax.MaxFileSize)
		if err != nil {
			return nil, err
		}
		ws, err := parseWants(p.DisplayPath(f), src)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}

var wantComment = regexp.MustCompile(`//\s*(want\s.*)$`)

// parseWants reads the wants of one file. A `//` inside a string would
// confuse it; the cases keep their strings free of `// want`.
func parseWants(name string, src []byte) ([]*want, error) {
	var out, pending []*want
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		m := wantComment.FindStringSubmatchIndex(text)
		if m == nil {
			for _, w := range pending {
				w.line = line
			}
			out, pending = append(out, pending...), nil
			continue
		}
		ws, err := parseWantClauses(text[m[2]:m[3]])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		for _, w := range ws {
			w.file = name
		}
		if strings.TrimSpace(text[:m[0]]) == "" {
			pending = append(pending, ws...) // for the next line
			continue
		}
		for _, w := range ws {
			w.line = line
		}
		out = append(out, ws...)
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("%s: a want comment at the end of the file names no line", name)
	}
	return out, sc.Err()
}

// parseWantClauses reads `want "p" "q" want "r"`: one want per clause.
func parseWantClauses(s string) ([]*want, error) {
	var out []*want
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		rest, ok := strings.CutPrefix(s, "want")
		if !ok {
			return nil, fmt.Errorf("want comment: expected `want`, found %q", s)
		}
		w := &want{}
		for s = strings.TrimSpace(rest); s != "" && !strings.HasPrefix(s, "want"); s = strings.TrimSpace(s) {
			quoted, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("want comment: expected a quoted pattern at %q", s)
			}
			pattern, _ := strconv.Unquote(quoted)
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, fmt.Errorf("want comment: %v", err)
			}
			w.patterns = append(w.patterns, re)
			s = s[len(quoted):]
		}
		if len(w.patterns) == 0 {
			return nil, fmt.Errorf("want comment: a want with no pattern")
		}
		out = append(out, w)
	}
	return out, nil
}
