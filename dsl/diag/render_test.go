package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type causeError struct{}

func (causeError) Error() string { return "the cause" }

// Rule, state and run diagnostics share one type; each reads as its kind
// of error on one line, and as text with the line at fault.
func TestDiagnosticKinds(t *testing.T) {
	src := Sources{
		"rules.munda": []byte("procedure p() \"P\" {\n  roll x = d7\n}\n"),
		"battle.yaml": []byte("gangs:\n  - id: g\n    modles: []\n"),
	}
	rule := &Diagnostic{Severity: Error, Code: CodeUnknownRef, Summary: "unknown dice d7",
		Subject: &Range{Filename: "rules.munda", Start: Pos{2, 12, 31}, End: Pos{2, 14, 33}}}
	warn := &Diagnostic{Severity: Warning, Code: CodeUnused, Summary: "roll x is never used",
		Subject: &Range{Filename: "rules.munda", Start: Pos{2, 8, 27}, End: Pos{2, 9, 28}}}
	state := &Diagnostic{Severity: Error, Code: CodeStateUnknownField, Summary: "unknown field; did you mean models?",
		Path: "gangs[0].modles", Subject: &Range{Filename: "battle.yaml", Start: Pos{3, 5, 0}, End: Pos{3, 5, 0}}}
	line := &Diagnostic{Severity: Error, Code: CodeStateSyntax, Summary: "invalid YAML: did not find expected key",
		Subject: &Range{Filename: "battle.yaml", Start: Pos{Line: 2}, End: Pos{Line: 2}}}
	file := &Diagnostic{Severity: Error, Code: CodeStateSyntax, Summary: "empty file", Subject: &Range{Filename: "empty.yaml"}}
	run := &Diagnostic{Severity: Error, Code: CodeRunDice, Summary: "the dice script ran out",
		Subject: &Range{Filename: "rules.munda", Start: Pos{2, 3, 22}, End: Pos{2, 14, 33}},
		Context: &Range{Filename: "rules.munda", Start: Pos{2, 3, 22}, End: Pos{2, 14, 33}},
		Rule:    "procedure p", Source: "Core Rulebook, p. 1",
		Stack: []string{"procedure p", "procedure q (×2)", "procedure r"}, Cause: causeError{}}

	for _, c := range []struct {
		d    *Diagnostic
		want string
	}{
		{rule, "rules.munda:2:12: error: unknown dice d7"},
		{warn, "rules.munda:2:8: warning: roll x is never used"},
		{state, "battle.yaml:3:5: gangs[0].modles: unknown field; did you mean models?"},
		{line, "battle.yaml:2: invalid YAML: did not find expected key"},
		{file, "empty.yaml: empty file"},
		{run, "rules.munda:2:3: in procedure p: the dice script ran out (called from procedure q (×2), from procedure r)"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}

	var b bytes.Buffer
	if err := WriteText(&b, Diagnostics{rule, warn, state, line, file, run}, src); err != nil {
		t.Fatal(err)
	}
	want := `rules.munda:2:12: error: unknown dice d7
  2 |   roll x = d7
    |            ^^
rules.munda:2:8: warning: roll x is never used
  2 |   roll x = d7
    |        ^
battle.yaml:3:5: gangs[0].modles: unknown field; did you mean models?
  3 |     modles: []
    |     ^
battle.yaml:2: invalid YAML: did not find expected key
  2 |   - id: g
empty.yaml: empty file
rules.munda:2:3: in procedure p: the dice script ran out (called from procedure q (×2), from procedure r)
  2 |   roll x = d7
    |   ^^^^^^^^^^^
  source: Core Rulebook, p. 1
`
	if b.String() != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", b.String(), want)
	}

	var cause causeError
	if !errors.As(error(run), &cause) {
		t.Error("errors.As does not find the cause through a diagnostic")
	}
	if !errors.As(error(Diagnostics{run}), new(*Diagnostic)) {
		t.Error("errors.As does not find a diagnostic in Diagnostics")
	}
}

// The JSON form keeps its field names and leaves out what is empty.
func TestDiagnosticJSON(t *testing.T) {
	d := &Diagnostic{Severity: Error, Code: CodeRunLimit, Summary: "s",
		Subject: &Range{Filename: "f", Start: Pos{1, 2, 1}, End: Pos{1, 3, 2}}, Rule: "procedure p",
		Stack: []string{"procedure p"}, Cause: causeError{}}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"severity":"error","code":"run_limit","summary":"s","range":{"file":"f","start":{"line":1,"column":2,"offset":1},"end":{"line":1,"column":3,"offset":2}},"rule":"procedure p","stack":["procedure p"]}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(b.String()), " "); got != `{ "diagnostics": [], "errors": 0, "warnings": 0 }` {
		t.Errorf("no diagnostics: %s", got)
	}
}

func TestWriteGitHub(t *testing.T) {
	var b bytes.Buffer
	err := WriteGitHub(&b, Diagnostics{
		{Severity: Warning, Code: CodeUnused, Summary: "x, unused\nreally", Subject: &Range{Filename: "a:b.munda", Start: Pos{1, 2, 1}, End: Pos{1, 4, 3}}},
		{Severity: Error, Code: CodeStateValue, Summary: "want 0 to 20", Path: "gangs[0].models[0].stats.s", Subject: &Range{Filename: "s.yaml", Start: Pos{Line: 4}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%3Ab.munda,line=1,col=2,endLine=1,endColumn=4,title=munda unused::x, unused%0Areally\n" +
		"::error file=s.yaml,line=4,title=munda state_value::gangs[0].models[0].stats.s: want 0 to 20\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// A snippet is plain text of a sane width, whatever the file holds.
func TestSnippetOfAnyLine(t *testing.T) {
	long := `{"gangs": [` + strings.Repeat(`{"id": "g"}, `, 100) + `{"id": 7}]}`
	col := strings.Index(long, "7") + 1
	src := Sources{"long.json": []byte(long), "bin.yaml": []byte("\x7fELF\x00\x01\n")}
	var b bytes.Buffer
	err := WriteText(&b, Diagnostics{
		{Code: CodeStateType, Summary: "want a string", Subject: &Range{Filename: "long.json", Start: Pos{1, col, col - 1}, End: Pos{1, col + 1, col}}},
		{Code: CodeStateSyntax, Summary: "binary", Subject: &Range{Filename: "bin.yaml", Start: Pos{1, 5, 4}, End: Pos{1, 5, 4}}},
	}, src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 5 || lines[3] != "bin.yaml:1:5: binary" {
		t.Fatalf("got:\n%s", b.String())
	}
	quoted, marker := lines[1], lines[2]
	if n := len([]rune(quoted)); n > snippetWidth+10 || !strings.Contains(quoted, "…") {
		t.Errorf("a long line is quoted whole (%d characters):\n%s", n, quoted)
	}
	at := strings.Index(marker, "^")
	if at < 0 || []rune(quoted)[len([]rune(marker[:at]))] != '7' {
		t.Errorf("the marker is not under the subject:\n%s\n%s", quoted, marker)
	}
}
