package syntax

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestEndPosAtLastToken checks every node of every shipped rule file
// ends where its last token does (restoreEndPositions): never after the
// whitespace or comment that follows it, and at the position (line and
// column) of that byte offset.
func TestEndPosAtLastToken(t *testing.T) {
	files, _ := filepath.Glob("../../rulesets/*/*.munda")
	more, _ := filepath.Glob("../../rulesets/*/*/*.munda")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no rule files found")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := Parse(path, src)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", path, diags)
		}
		nodes := 0
		Inspect(f, func(n any) bool {
			v := reflect.ValueOf(n).Elem()
			end, ok := v.FieldByName("EndPos").Interface().(lexer.Position)
			if !ok || end.Line == 0 || end.Offset == 0 {
				return true
			}
			nodes++
			if c := src[end.Offset-1]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				t.Errorf("%s: %T ends after whitespace at %d:%d", path, n, end.Line, end.Column)
			}
			if want := positionAt(path, src, end.Offset); want != end {
				t.Errorf("%s: %T ends at %v, which is offset %d at %v", path, n, end, end.Offset, want)
			}
			return true
		})
		if nodes == 0 {
			t.Errorf("%s: no node has an EndPos", path)
		}
	}
}

// TestEndPosAcrossGaps checks nodes followed by whitespace and comments
// end at their last token, as participle set it when those were in the
// token stream.
func TestEndPosAcrossGaps(t *testing.T) {
	src := "procedure p() \"P\" {\n  let a = 1 /* c */\n  emit \"x\"   // d\n\n}  \n\n"
	f, diags := ParseString("gaps.munda", src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := f.Decls[0].(*Procedure)
	for _, tt := range []struct {
		name string
		end  lexer.Position
		want string // the source up to the end
	}{
		{"file", f.EndPos, "procedure p() \"P\" {\n  let a = 1 /* c */\n  emit \"x\"   // d\n\n}"},
		{"procedure", p.EndPos, "procedure p() \"P\" {\n  let a = 1 /* c */\n  emit \"x\"   // d\n\n}"},
		{"let", p.Body.Stmts[0].(*Let).EndPos, "procedure p() \"P\" {\n  let a = 1"},
		{"emit", p.Body.Stmts[1].(*Emit).EndPos, "procedure p() \"P\" {\n  let a = 1 /* c */\n  emit \"x\""},
	} {
		if got := src[:tt.end.Offset]; got != tt.want {
			t.Errorf("%s ends after %q, want %q", tt.name, got, tt.want)
		}
		if want := positionAt("gaps.munda", []byte(src), tt.end.Offset); want != tt.end {
			t.Errorf("%s ends at %v, want %v", tt.name, tt.end, want)
		}
	}
	if len(f.Comments) != 2 || f.Comments[0].Text != "/* c */" || f.Comments[1].Text != "// d" {
		t.Errorf("comments %v", f.Comments)
	}
}

// TestStopTargetSameLine checks `stop` takes a target only on its own
// line: comments between them do not count as a line break unless a
// line ends outside them.
func TestStopTargetSameLine(t *testing.T) {
	tests := []struct {
		between string
		target  bool
	}{
		{" ", true},
		{" /* c */ ", true},
		{" /* a\nb */ ", true},
		{"\n", false},
		{" // c\n", false},
		{" /* c */\n", false},
		{"\t\r\n  ", false},
	}
	for _, tt := range tests {
		src := "action shoot \"Shoot\" {}\nprocedure p() \"P\" {\n  stop" + tt.between + "shoot\n}\n"
		f, diags := ParseString("stop.munda", src)
		if tt.target {
			if diags.HasErrors() {
				t.Fatalf("%q: %v", tt.between, diags)
			}
			s := f.Decls[1].(*Procedure).Body.Stmts[0].(*Stop)
			if s.Target == nil || s.Target.Name != "shoot" {
				t.Errorf("%q: stop has no target", tt.between)
			}
			continue
		}
		// Without a target, `shoot` starts a statement, which it cannot.
		if !diags.HasErrors() {
			t.Errorf("%q: stop took a target on another line", tt.between)
		} else if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != 3 && d.Subject.Start.Line != 4 {
			t.Errorf("%q: error not at shoot: %v", tt.between, diags)
		}
	}
}
