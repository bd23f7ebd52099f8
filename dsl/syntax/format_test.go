package syntax

import (
	"bytes"
	"errors"
	"fmt"
	goast "go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/munda-rules/munda/dsl/diag"
)

// fmtInputs lists the formatter's golden inputs.
func fmtInputs(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "fmt", "*.munda"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no formatter inputs in testdata/fmt: %v", err)
	}
	return files
}

func TestFormatGolden(t *testing.T) {
	for _, in := range fmtInputs(t) {
		name := strings.TrimSuffix(filepath.Base(in), ".munda")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, diags := FormatSource(in, src)
			if diags != nil {
				t.Fatalf("FormatSource: %v", diags)
			}
			golden := strings.TrimSuffix(in, ".munda") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run with -update to accept):\n%s", golden, lineDiff(want, got))
			}
			// The golden file must be a fixed point, as gofmt's are.
			again, diags := FormatSource(golden, want)
			if diags != nil {
				t.Fatalf("FormatSource(golden): %v", diags)
			}
			if !bytes.Equal(again, want) {
				t.Errorf("%s is not formatted canonically:\n%s", golden, lineDiff(want, again))
			}
		})
	}
}

// TestFormatCoversGrammar checks that the golden inputs use every kind of
// node ast.go declares, so a new declaration, item or statement cannot go
// untested (or unprinted: Format fails on a node it does not know).
func TestFormatCoversGrammar(t *testing.T) {
	astFile, err := goparser.ParseFile(token.NewFileSet(), "ast.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, d := range astFile.Decls {
		fn, ok := d.(*goast.FuncDecl)
		if !ok || fn.Name.Name != "node" || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		if star, ok := fn.Recv.List[0].Type.(*goast.StarExpr); ok {
			if id, ok := star.X.(*goast.Ident); ok {
				kinds[id.Name] = false
			}
		}
	}
	if len(kinds) == 0 {
		t.Fatal("found no node types in ast.go")
	}
	for _, in := range fmtInputs(t) {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := Parse(in, src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		Inspect(f, func(n any) bool {
			kinds[reflect.TypeOf(n).Elem().Name()] = true
			return true
		})
	}
	for kind, seen := range kinds {
		if !seen {
			t.Errorf("no input in testdata/fmt has a %s", kind)
		}
	}
}

// TestFormatRepository formats every rule file in the module twice: the
// second pass must change nothing and the first must keep the rules.
func TestFormatRepository(t *testing.T) {
	root := moduleRoot(t)
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) != ".munda" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, diags := Parse(path, src); diags.HasErrors() {
			return nil // deliberately broken test inputs
		}
		n++
		rel, _ := filepath.Rel(root, path)
		checkFormat(t, rel, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("formatted %d files", n)
}

// checkFormat checks that src formats without loss and that formatting is
// idempotent.
func checkFormat(t *testing.T, name string, src []byte) {
	t.Helper()
	orig, diags := Parse(name, src)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags)
	}
	once, err := Format(orig)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	formatted, diags := Parse(name, once)
	if diags.HasErrors() {
		t.Errorf("%s: formatted output does not parse: %v\n%s", name, diags, once)
		return
	}
	if diff := ASTDiff(orig, formatted); diff != "" {
		t.Errorf("%s: formatting changed the rules: %s", name, diff)
	}
	checkCommentPlaces(t, name, src, once)
	twice, err := Format(formatted)
	if err != nil {
		t.Errorf("%s: second pass: %v", name, err)
		return
	}
	if !bytes.Equal(once, twice) {
		t.Errorf("%s: formatting is not idempotent:\n%s", name, lineDiff(once, twice))
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

func TestEqualAST(t *testing.T) {
	parse := func(src string) *File {
		t.Helper()
		f, diags := ParseString("t.munda", src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return f
	}
	base := parse(`procedure p(gang) "P" { let x = a + b * 2
  emit "x is {x}" }`)

	same := parse(`// layout and comments do not count
procedure p( gang ) "P" {
  let x = a +
    b  *  2
  emit "x is {x}"
}`)
	if d := ASTDiff(base, same); d != "" {
		t.Errorf("equal files differ: %s", d)
	}
	if !EqualAST(base, same) {
		t.Error("EqualAST = false for files differing only in layout")
	}

	for _, tc := range []struct{ src, path string }{
		{`procedure p(gang) "P" { let x = a - b * 2
  emit "x is {x}" }`, `File.Decls[0].(*syntax.Procedure).Body.Stmts[0].(*syntax.Let).Value: "a - b * 2" vs "a + b * 2"`},
		{`procedure p(gang) "P" { let x = a + b * 2 }`, `File.Decls[0].(*syntax.Procedure).Body.Stmts: 1 vs 2 elements`},
		{`procedure p(g) "P" { let x = a + b * 2
  emit "x is {x}" }`, `File.Decls[0].(*syntax.Procedure).Params[0].Name.Name: "g" vs "gang"`},
		{`procedure p(gang) "P" { let x = a + b * 2
  stop }`, `File.Decls[0].(*syntax.Procedure).Body.Stmts[1]: *syntax.Stop vs *syntax.Emit`},
		{`procedure p(gang) "P" when x { let x = a + b * 2
  emit "x is {x}" }`, `File.Decls[0].(*syntax.Procedure).When: *syntax.Expr vs nil`},
		// Spaces inside a string are meaning.
		{`procedure p(gang) "P" { let x = a + b * 2
  emit "x is  {x}" }`, `File.Decls[0].(*syntax.Procedure).Body.Stmts[1].(*syntax.Emit).Message.Raw: "\"x is  {x}\"" vs "\"x is {x}\""`},
	} {
		other := parse(tc.src)
		if EqualAST(other, base) {
			t.Errorf("EqualAST = true for\n%s", tc.src)
		}
		if got := ASTDiff(other, base); got != tc.path {
			t.Errorf("ASTDiff =\n  %s\nwant\n  %s", got, tc.path)
		}
	}
}

func TestLayoutExpr(t *testing.T) {
	for _, tc := range []struct{ in, collapsed, verbatim string }{
		{"a  +\n\t b", "a + b", "a  +\n\t b"},
		{`"a  b" +  'c  d' + ` + "`e  \n  f`", `"a  b" + 'c  d' + ` + "`e  \n  f`", `"a  b" +  'c  d' + ` + "`e  \n  f`"},
		{"a +   \n  b", "a + b", "a +\n  b"}, // blanks at line ends go
	} {
		if got := layoutExpr(tc.in, true); got != tc.collapsed {
			t.Errorf("layoutExpr(%q, true) = %q, want %q", tc.in, got, tc.collapsed)
		}
		if got := layoutExpr(tc.in, false); got != tc.verbatim {
			t.Errorf("layoutExpr(%q, false) = %q, want %q", tc.in, got, tc.verbatim)
		}
	}
}

// TestFormatRefuses checks that FormatSource refuses output that does not
// parse or that parses into other rules, using deliberately broken printers.
func TestFormatRefuses(t *testing.T) {
	src := []byte("dice d6 \"D6\" { faces 1, 2, 3 }\nprocedure p() \"P\" { let x = 1 + 2 }\n")
	for _, tc := range []struct {
		name    string
		format  func(*File) ([]byte, error)
		summary string
		line    int // where the diagnostic points
	}{
		{"changes an expression", func(f *File) ([]byte, error) {
			out, err := Format(f)
			return bytes.Replace(out, []byte("1 + 2"), []byte("1 - 2"), 1), err
		}, "formatting would change the rules at File.Decls[1].(*syntax.Procedure).Body.Stmts[0].(*syntax.Let).Value: \"1 + 2\" vs \"1 - 2\"", 2},
		{"drops a declaration", func(f *File) ([]byte, error) {
			out, err := Format(f)
			return out[bytes.Index(out, []byte("procedure")):], err
		}, "formatting would change the rules at File.Decls[0]: *syntax.Dice vs *syntax.Procedure", 1},
		{"does not parse", func(f *File) ([]byte, error) {
			out, err := Format(f)
			return bytes.TrimSuffix(out, []byte("}\n")), err
		}, "formatted output does not parse: ", 1},
		{"fails", func(f *File) ([]byte, error) { return nil, errors.New("format: broken") }, "format: broken", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, diags := formatChecked("t.munda", src, tc.format)
			if out != nil || len(diags) != 1 {
				t.Fatalf("got %q, %v; want a refusal", out, diags)
			}
			d := diags[0]
			if d.Code != CodeFormatError || !strings.HasPrefix(d.Summary, tc.summary) || d.Subject == nil || d.Subject.Start.Line != tc.line {
				t.Errorf("got %s %q at %v, want %s %q at line %d", d.Code, d.Summary, d.Subject, CodeFormatError, tc.summary, tc.line)
			}
		})
	}

	// A parse error is passed through unchanged.
	if _, diags := FormatSource("t.munda", []byte("dice {")); len(diags) != 1 || diags[0].Code != diag.CodeParseError {
		t.Errorf("parse error: got %v", diags)
	}

	// An expression that only fits on its lines cannot be joined into one.
	long := "function f() \"F\" =" + strings.Repeat("\n  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa +", 60) + " 1\n"
	if out, diags := FormatSource("t.munda", []byte(long)); out != nil || len(diags) != 1 || diags[0].Code != CodeFormatError {
		t.Errorf("over-long line: got %v", diags)
	}
}

// FuzzFormat: whatever parses formats without panicking, into output that
// parses into the same rules with the same comments, and formats to itself.
func FuzzFormat(f *testing.F) {
	for _, in := range fmtInputs(f) {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	// Small inputs mutate into other valid ones more often than whole files.
	for _, src := range []string{
		"procedure p(a, b: int) \"P\" when a // c\n { let x = a /* b */ + 1 }",
		"dice d6 \"D6\" { faces 1, -2 /* c */ } // t\n/* end */",
		"table t \"T\" { roll d6\n 1-3 a \"A\" = 1 // c\n\n 4+ b \"B\" { stop } }",
		"skill s \"S\" { modify p.check by -1 when x\n\n// c\n reroll p.x }",
		"test \"t\" { house a, -a.b dice 1, x run p(g: 1) expect x == // c\n 1 }",
		"procedure p() \"P\" { if a { stop } /* c */ else if b {} else { roll r = (n) d6 + 1 } }",
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		orig, diags := Parse("fuzz.munda", src)
		if diags.HasErrors() {
			return
		}
		if _, err := Format(orig); errors.Is(err, errLongLine) {
			return // refusing to write an over-long line is allowed
		}
		checkFormat(t, "fuzz.munda", src)
	})
}

// TestFormatCommentsAnywhere puts comments or blank lines next to tokens
// of the golden inputs, one place at a time: wherever they are, formatting
// must keep the rules and the comments, and be idempotent. It tries one
// kind of insertion per place, cycling through the kinds (every kind at
// every place takes minutes); -short tries fewer places.
func TestFormatCommentsAnywhere(t *testing.T) {
	inserts := []string{" /* c1 */ ", " // c2\n", "\n// c3\n", "\n\n/* c4\n c4 */\n\n", "\n\n", " /* c5 */ // c6\n"}
	step := 3
	if testing.Short() {
		step = 13
	}
	k := 0
	for _, in := range fmtInputs(t) {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		toks, err := lexer.ConsumeAll(mustLex(in, src))
		if err != nil {
			t.Fatal(err)
		}
		for i, tok := range toks {
			if tok.EOF() || tok.Type == tokComment || tok.Type == ruleLexer.Symbols()["Whitespace"] || i%step != 0 {
				continue
			}
			// Before the token (often on a line of its own) and just after
			// it (a trailing comment).
			for _, at := range []int{tok.Pos.Offset, tok.Pos.Offset + len(tok.Value)} {
				ins := inserts[k%len(inserts)]
				k++
				mut := append(append(append([]byte(nil), src[:at]...), ins...), src[at:]...)
				place := fmt.Sprintf("%s with %q at byte %d", in, ins, at)
				if _, diags := Parse(in, mut); diags.HasErrors() {
					t.Fatalf("%s: the insertion breaks the parse: %v", place, diags)
				}
				checkFormat(t, place, mut)
				if ins == " // c2\n" && at == tok.Pos.Offset+len(tok.Value) && newlineAfter(src, at) {
					checkTrailing(t, place, mut, "// c2")
				}
			}
		}
	}
}

// checkTrailing checks that a comment that follows code on its line still
// does after formatting, unless another line comment took that place.
func checkTrailing(t *testing.T, name string, src []byte, comment string) {
	t.Helper()
	out, diags := FormatSource("t.munda", src)
	if diags != nil {
		t.Fatalf("%s: %v", name, diags)
	}
	lines := strings.Split(string(out), "\n")
	for i, line := range lines {
		if !strings.Contains(line, comment) {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), comment) && (i == 0 || !strings.Contains(lines[i-1], "//")) {
			t.Errorf("%s: the trailing comment is now on a line of its own:\n%s", name, out)
		}
		return
	}
}

// checkCommentPlaces checks that formatting neither drops nor adds a
// comment, and moves none backwards past a token: block comments stay
// between the same tokens, line comments met in the middle of an item may
// move to the end of its line, nothing else moves. Tokens are counted
// without parentheses, as the formatter drops an empty `()`.
func checkCommentPlaces(t *testing.T, name string, src, out []byte) {
	t.Helper()
	before, after := commentPlaces(src), commentPlaces(out)
	for text, was := range before {
		now := after[text]
		if len(now) != len(was) {
			t.Errorf("%s: %q appears %d times before formatting, %d after:\n%s", name, text, len(was), len(now), out)
			continue
		}
		for i := range was {
			if now[i] < was[i] || (now[i] != was[i] && !strings.HasPrefix(text, "//")) {
				t.Errorf("%s: %q moved from after token %d to after token %d:\n%s", name, text, was[i], now[i], out)
			}
		}
	}
	for text := range after {
		if _, ok := before[text]; !ok {
			t.Errorf("%s: formatting made up the comment %q", name, text)
		}
	}
}

// commentPlaces maps each comment's text to how many tokens precede it.
func commentPlaces(src []byte) map[string][]int {
	toks, err := lexer.ConsumeAll(mustLex("", src))
	if err != nil {
		return nil
	}
	places := map[string][]int{}
	n := 0
	for _, tok := range toks {
		switch {
		case tok.Type == tokComment:
			text := strings.TrimRight(tok.Value, " \t\r")
			places[text] = append(places[text], n)
		case tok.Type == ruleLexer.Symbols()["Whitespace"] || tok.Value == "(" || tok.Value == ")":
		default:
			n++
		}
	}
	return places
}

// TestFormatWithoutSource formats a tree that has positions but neither
// the file's bytes nor its comments, as a tool that edits a parsed file
// might hand over: the layout must not depend on them. (The input has no
// comments, so its golden file is the expected output.)
func TestFormatWithoutSource(t *testing.T) {
	in := filepath.Join("testdata", "fmt", "procedures.munda")
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := Parse(in, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	f.Source, f.Comments = nil, nil
	got, err := Format(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(strings.TrimSuffix(in, ".munda") + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("without its source, %s formats differently:\n%s", in, lineDiff(want, got))
	}
}

// lineDiff shows the first differing line of two outputs, with context.
func lineDiff(want, got []byte) string {
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || (i >= len(w)) != (i >= len(g)) {
			return strings.Join([]string{
				"line " + strconv.Itoa(i+1) + ":",
				"  want: " + quoteLine(w, i),
				"  got:  " + quoteLine(g, i),
				"--- got ---",
				string(got),
			}, "\n")
		}
	}
	return ""
}

func quoteLine(lines []string, i int) string {
	if i >= len(lines) {
		return "(end of file)"
	}
	return "`" + lines[i] + "`"
}
