package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
)

// TestParseBadInput feeds the parser what a broken or hostile file may
// hold. Each must give one positioned error, quickly, and never panic.
func TestParseBadInput(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		code      string
		line, col int
		summary   string
	}{
		{"empty file", "", diag.CodeEmptyFile, 1, 1, "file has no declarations"},
		{"only comments", "// nothing here\n/* or here */\n", diag.CodeEmptyFile, 1, 1, "file has no declarations"},
		{"binary", "dice d6 \"D6\" {\x00}", diag.CodeEncoding, 1, 15, "file is binary (it contains a NUL byte)"},
		{"invalid utf-8", "dice d6 \"D\xff6\" {}", diag.CodeEncoding, 1, 11, "invalid UTF-8 (byte 0xff)"},
		{"10 MB line", "// " + strings.Repeat("x", 10<<20), diag.CodeEncoding, 1, 1, "file is too large"},
		{"long line", "dice d6 \"" + strings.Repeat("x", MaxLineLength+10) + "\" {}", diag.CodeEncoding, 1, MaxLineLength + 1, "line is too long"},
		{"10,000 nested braces", "procedure p() \"P\"\n" + strings.Repeat("{\n", 10000), diag.CodeParseError, MaxNesting + 2, 1, "brackets nested too deeply"},
		{"deep parens", "function f() \"F\" =\n" + strings.Repeat("(\n", 5000) + "1" + strings.Repeat(")\n", 5000), diag.CodeParseError, MaxNesting + 2, 1, "brackets nested too deeply"},
		{"unterminated string", "dice d6 \"D6 {\n  faces 1\n}\n", diag.CodeParseError, 1, 9, "unterminated string"},
		{"unterminated comment", "dice d6 \"D6\" {} /* never closed", diag.CodeParseError, 1, 17, "unterminated comment"},
		{"stray character", "dice d6 \"D6\" { faces 1 } `", diag.CodeParseError, 1, 26, "unterminated raw string"},
		{"missing brace", "procedure p() \"P\" {\n  stop\n", diag.CodeParseError, 3, 1, "unexpected end of file"},
		{"unknown keyword", "dise d6 \"D6\" {}", diag.CodeParseError, 1, 1, `unknown declaration "dise"; did you mean dice?`},
		{"statement outside a block", "let x = 1", diag.CodeParseError, 1, 1, `let is a statement, and statements go inside a block`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := ParseString("bad.munda", tt.src)
			if f != nil || len(diags) != 1 {
				t.Fatalf("want one diagnostic and no file, got %d: %v", len(diags), diags)
			}
			d := diags[0]
			if d.Code != tt.code || !strings.HasPrefix(d.Summary, tt.summary) {
				t.Errorf("got %s %q, want %s %q", d.Code, d.Summary, tt.code, tt.summary)
			}
			if d.Subject == nil || d.Subject.Start.Line != tt.line || d.Subject.Start.Column != tt.col {
				t.Errorf("got position %v, want %d:%d", d.Subject, tt.line, tt.col)
			}
		})
	}
}

// TestExprCapture checks where an expression ends: the grammar relies on
// it to need no reserved words.
func TestExprCapture(t *testing.T) {
	tests := []struct{ src, want string }{
		{`procedure p() "P" { let a = b roll c = d6 }`, "b"},
		{`procedure p() "P" { let a = f(x, y) + g[1] stop }`, "f(x, y) + g[1]"},
		{`procedure p() "P" { let a = x.set.roll }`, "x.set.roll"},
		{`procedure p() "P" { let a = x not in [1, 2] and y stop }`, "x not in [1, 2] and y"},
		{`procedure p() "P" { let a = c ? "a" : 'b' }`, `c ? "a" : 'b'`},
		{`procedure p() "P" { let a = {x: 1}.x }`, "{x: 1}.x"},
		{`procedure p() "P" { let a = filter(xs, # > 1) | len() }`, "filter(xs, # > 1) | len()"},
		{"procedure p() \"P\" { let a = x +\n  // the rest\n  y\n}", "x +\n  // the rest\n  y"},
		{`procedure p() "P" { let a = 1..6 }`, "1..6"},
	}
	for _, tt := range tests {
		f, diags := ParseString("e.munda", tt.src)
		if diags != nil {
			t.Errorf("%s: %v", tt.src, diags)
			continue
		}
		let := f.Decls[0].(*Procedure).Body.Stmts[0].(*Let)
		if let.Value.Text != tt.want {
			t.Errorf("%s: captured %q, want %q", tt.src, let.Value.Text, tt.want)
		}
	}
}

// TestGrammarGolden keeps the grammar's EBNF as a golden file, so a change
// to the language shows up in review.
func TestGrammarGolden(t *testing.T) {
	golden := filepath.Join("testdata", "grammar.ebnf")
	got := []byte(Grammar() + "\n")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the grammar changed; if that is intended, run go test ./dsl/syntax -run TestGrammarGolden -update and review the diff")
	}
}

// FuzzParse: no input makes the parser panic, and any input either parses
// or gives positioned diagnostics.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := Parse("fuzz.munda", src)
		if file == nil && len(diags) == 0 {
			t.Fatal("no file and no diagnostics")
		}
		for _, d := range diags {
			if d.Subject == nil {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
	})
}

// addSeeds seeds a fuzz target with every .munda file in the repository's
// testdata and rulesets.
func addSeeds(f *testing.F) {
	for _, dir := range []string{"testdata", filepath.Join("..", "..", "rulesets"), filepath.Join("..", "..", "testdata")} {
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".munda") {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
}
