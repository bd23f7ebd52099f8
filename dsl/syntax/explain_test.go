package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/diag"
)

// Each common mistake reads as a sentence, most with the line written the
// right way; the grammar is never shown.
func TestParseErrorMessages(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int
		summary   string
	}{
		// Declarations.
		{"parameter list", "procedure p \"P\" {\n}", 1, 13,
			`a procedure needs a parameter list, even an empty one: procedure p() "P" {`},
		{"event parameter list", "event hit \"Hit\"", 1, 11,
			`an event needs a parameter list, even an empty one: event hit() "Hit"`},
		{"title after parameters", "procedure bottle_check(gang) {\n}", 1, 30,
			`a procedure needs a title in quotes after its parameters: procedure bottle_check(gang) "Bottle check" {`},
		{"title after id", "skill iron_will {\n}", 1, 17,
			`a skill needs a title in quotes after its id: skill iron_will "Iron will" {`},
		{"title of a house rule", "house h \"H\" {\n  rule r {\n  }\n}", 2, 10,
			`a rule needs a title in quotes after its id: rule r "R" {`},
		{"id", "procedure \"P\" () {\n}", 1, 11,
			`a procedure needs an id after "procedure", a name such as bottle_check`},
		{"body brace", "procedure p() \"P\"\n  let x = 1\n}", 2, 3,
			`the body of procedure p starts with {, after its title: procedure p() "P" {`},
		{"body brace on the line", "table t \"T\" roll d6", 1, 13,
			`the body of table t starts with {, after its title: table t "T" { roll d6`},
		{"function value", "function f() \"F\" x + 1", 1, 18,
			`function needs = before its value: function f() "F" = x + 1`},
		{"include", "include foo.munda", 1, 9,
			`include takes a file name in quotes: include "foo.munda"`},
		{"unknown declaration", "procedur p() \"P\" {}", 1, 1,
			`unknown declaration "procedur"; did you mean procedure?`},
		{"statement at the top", "let x = 1", 1, 1,
			`let is a statement, and statements go inside a block: a procedure's { }, a table row's or an effect's`},
		{"stray brace", "dice d6 \"D6\" {\n  faces 1\n}\n}", 4, 1,
			`this } closes nothing: there is no { open here`},
		{"missing } before a declaration", "procedure a() \"A\" {\n  if true {\n    stop\n  }\n\nprocedure b() \"B\" {\n}", 6, 1,
			`a } is missing before this procedure: the { of procedure a at line 1 is never closed`},
		{"end of file", "procedure p() \"P\" {\n  stop\n", 3, 1, `unexpected end of file`},

		// Statements.
		{"statement misspelt", "procedure p() \"P\" {\n  lett x = 1\n}", 2, 3,
			`unknown statement "lett"; did you mean let?`},
		{"call without call", "procedure p() \"P\" {\n  foo(1)\n}", 2, 3,
			`to run a procedure, write call: call foo(1)`},
		{"expression missing", "procedure p() \"P\" {\n  let x =\n}", 3, 1,
			`let needs a value after =: let x = 1`},
		{"condition missing", "procedure p() \"P\" {\n  if {\n  }\n}", 4, 1,
			`if needs a condition before its {: if gang.bottled {`},
		{"when missing", "skill s \"S\" {\n  before p when {\n  }\n}", 4, 1,
			`when needs a condition before its {: when gang.bottled {`},
		{"= for ==", "procedure p() \"P\" {\n  if x = 1 {\n  }\n}", 2, 8,
			`a condition compares with ==; a single = gives a value: if x == 1 {`},
		{"= for == in when", "skill s \"S\" {\n  modify p.r by 1 when x = 2\n}", 2, 26,
			`a condition compares with ==; a single = gives a value: modify p.r by 1 when x == 2`},
		{"== for =", "procedure p() \"P\" {\n  set gang.bottled == true\n}", 2, 20,
			`set gives a value with a single =: set gang.bottled = true`},
		{"= missing", "procedure p() \"P\" {\n  set x 1\n}", 2, 9,
			`set needs = before its value: set x = 1`},
		{"name missing", "procedure p() \"P\" {\n  let = 3\n}", 2, 7,
			`let needs a name after "let": let name = 3`},
		{"block brace", "procedure p() \"P\" {\n  if x == 1\n    stop\n}", 3, 5,
			`if needs { to open its block, on the same line: if x == 1 {`},
		{"for each", "procedure p() \"P\" {\n  for x in y {}\n}", 2, 7,
			`a loop is written for each: for each x in y {}`},
		{"argument list", "procedure p() \"P\" {\n  call q\n}", 3, 1,
			`call needs an argument list, even an empty one: call q()`},
		{"arguments without commas", "procedure p() \"P\" {\n  call q(a b)\n}", 2, 12,
			`separate the arguments with commas: call q(a, b)`},
		{"parameters without commas", "procedure p(a b) \"P\" {}", 1, 15,
			`separate the parameters with commas: procedure p(a, b) "P" {}`},
		{"emit without quotes", "procedure p() \"P\" {\n  emit hello\n}", 2, 8,
			`emit takes a message in quotes: emit "hello"`},
		{"a string alone", "procedure p() \"P\" {\n  \"hello\"\n}", 2, 3,
			`a string cannot start a statement; to show it, write emit "hello"`},
		{"choice prompt", "procedure p() \"P\" {\n  choose x from y default 1\n}", 2, 12,
			`a choice needs a question in quotes after its name: choose x "Which one?" from y default 1`},
		{"require else", "procedure p() \"P\" {\n  require x > 1\n}", 3, 1,
			`require needs else and a message for when the condition fails: require x > 1 else "why the run cannot go on"`},
		{"roll dice", "procedure p() \"P\" {\n  roll x =\n}", 3, 1,
			`roll needs dice after =: roll check = d6 + 1`},
		{"operand missing", "procedure p() \"P\" {\n  roll x = d6 +\n}", 2, 15,
			`an expression is missing after "+"`},
		{"test brackets", "procedure p() \"P\" {\n  test x = cl model\n}", 2, 15,
			`a test names the model in brackets: test x = cl(model)`},
		{"else", "procedure p() \"P\" {\n  if x {\n  } else x {\n  }\n}", 3, 5,
			`else takes a block, or another if: } else { … }, } else if condition { … }`},
		{"word misspelt in a statement", "procedure p() \"P\" {\n  apply t() usin 3\n}", 2, 13,
			`unknown word "usin"; did you mean using?`},
		{"after a statement", "procedure p() \"P\" {\n  let x = 1 2\n}", 2, 13,
			`unexpected number 2 after the end of the statement`},
		{"block alone", "procedure p() \"P\" {\n  {\n  }\n}", 2, 3,
			`a block { … } goes after a statement that takes one: if, else, for each or step`},

		// Other blocks.
		{"skill keyword misspelt", "skill s \"S\" {\n  modifiy p.x by 1\n}", 2, 3,
			`unknown keyword "modifiy" in a skill; did you mean modify?`},
		{"test keyword misspelt", "test \"t\" {\n  rn p()\n}", 2, 3,
			`unknown keyword "rn" in a test; did you mean run?`},
		{"table keyword misspelt", "table t \"T\" {\n  rol d6\n  1-6 a \"A\" {}\n}", 2, 3,
			`unknown keyword "rol" in a table; did you mean roll?`},
		{"row key", "table t \"T\" {\n  roll d6\n  a-b x \"X\" {}\n}", 3, 4,
			`a row is keyed by a number (4), a range (3-5, or 10+ for 10 and more) or a face of the dice (hit), not a-b: 3-5 hurt "Hurt" {`},
		{"missing } before a row", "table t \"T\" {\n  roll d6\n  1-3 a \"A\" {\n    stop\n\n  4-6 b \"B\" {}\n}", 6, 3,
			`a } is missing before this row: the { of row a at line 3 is never closed`},
		{"faces without commas", "dice d6 \"D6\" {\n  faces 1 2\n}", 2, 11,
			`separate the items of a list with commas: faces 1, 2`},
		{"face with a number", "dice d6 \"D6\" {\n  face 1\n}", 2, 8,
			`face declares a symbol, with an id and a title: face hit "Hit"; numbers are written faces 1, 2, 3`},

		{"row title", "table t \"T\" {\n  roll d6\n  1-6 hit {}\n}", 3, 11,
			`a row needs a title in quotes after its id: 1-6 hit "Hit" {}`},
		{"unclosed bracket", "procedure p() \"P\" {\n  emit \"{len(gang.models}\"\n  let x = max(1, 2\n}", 4, 2,
			`a ) is missing: the ( at line 3, column 14 is never closed`},
		{"closing bracket too many", "procedure p() \"P\" {\n  let x = 1)\n}", 2, 12,
			`this ) closes nothing: a ( is missing before it, or it is one too many`},
		{"set forgotten", "procedure p() \"P\" {\n  gang.bottled = true\n}", 2, 3,
			`to change the state, write set: set gang.bottled = true`},
		{"for each without in", "procedure p() \"P\" {\n  for each m gang.models {\n  }\n}", 2, 14,
			`for each needs in before its list: for each m in gang.models {`},
		{"statement in a table", "table t \"T\" {\n  roll d6\n  1-6 a \"A\"\n    set fighter.dead = true\n  }\n}", 4, 5,
			`set is a statement, and statements cannot stand in a table: they go inside a { } block, a row's or an effect's (is a { missing above?)`},

		// What no rule knows: plain words, no grammar.
		{"fallback", "skill s \"S\" {\n  modify p.x 1\n}", 2, 14, `unexpected number 1; expected by`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := ParseString("x.munda", c.src)
			if len(diags) != 1 {
				t.Fatalf("want one diagnostic, got %v", diags)
			}
			d := diags[0]
			if d.Code != diag.CodeParseError || d.Summary != c.summary {
				t.Errorf("got  %s %s\nwant %s", d.Code, d.Summary, c.summary)
			}
			if d.Subject == nil || d.Subject.Start.Line != c.line || d.Subject.Start.Column != c.col {
				t.Errorf("at %v, want %d:%d", d.Subject, c.line, c.col)
			}
			for _, grammar := range []string{"Expr", "Str", "Block", "Ident", "(Param", "<EOF>", "unexpected token"} {
				if strings.Contains(d.Summary+d.Detail, grammar) {
					t.Errorf("the grammar shows through (%q): %s", grammar, d.Summary)
				}
			}
		})
	}
}

// The keywords explain suggests are the grammar's.
func TestParseErrorKeywords(t *testing.T) {
	grammar := Grammar()
	for kind, words := range itemKeywords {
		for _, w := range words {
			if !strings.Contains(grammar, `"`+w+`"`) {
				t.Errorf("%s keyword %q is not in the grammar", kind, w)
			}
		}
	}
	for _, w := range []string{"using", "default", "ordered", "when"} {
		found := false
		for _, g := range grammarWords() {
			found = found || g == w
		}
		if !found {
			t.Errorf("grammarWords lacks %q", w)
		}
	}
}

// What participle expected, read from its EBNF: the first elements only.
func TestFirstOf(t *testing.T) {
	for in, want := range map[string]string{
		`"(" (Param ("," Param)*)? ")" Str ("when" Expr)? Block`: `"("`,
		`("when" Expr)? Block`:                                     `"when" Block`,
		`Ident (("+" | "-") Expr)?`:                                `Ident`,
		`(("one" "of" Expr) | (Count? Ident (("+" | "-") Expr)?))`: `"one" Count Ident`,
		`"}"`: `"}"`,
		``:    ``,
		`(`:   ``,
	} {
		if got := strings.Join(firstOf(in), " "); got != want {
			t.Errorf("firstOf(%s) = %s, want %s", in, got, want)
		}
	}
	if got := firstOf(`("when" Expr)? Block`).plain(); got != "when or {" {
		t.Errorf("plain: %q", got)
	}
}

// Whatever token goes missing from a good file, the error is one
// sentence in plain words: never the grammar, never participle's raw
// message (what a panic in explain would leave).
func TestParseErrorOfEveryDeletion(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "check", "valid.munda"))
	if err != nil {
		t.Fatal(err)
	}
	f, diags := Parse("valid.munda", src)
	if diags != nil {
		t.Fatal(diags)
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	var tokens []lexer.Token
	sc := &scanner{src: string(src), pos: lexer.Position{Line: 1, Column: 1}}
	for {
		tok, err := sc.Next()
		if err != nil || tok.EOF() {
			break
		}
		if tok.Type != tokWhitespace && tok.Type != tokComment {
			tokens = append(tokens, tok)
		}
	}
	_ = f
	for k := 0; k < len(tokens); k += step {
		tok := tokens[k]
		broken := string(src[:tok.Pos.Offset]) + string(src[tok.Pos.Offset+len(tok.Value):])
		_, diags := ParseString("broken.munda", broken)
		for _, d := range diags {
			for _, raw := range []string{"unexpected token", "(expected", "Expr", "Block", "Ident", "<EOF>"} {
				if strings.Contains(d.Summary+d.Detail, raw) {
					t.Errorf("without %q at %d:%d: %s", tok.Value, tok.Pos.Line, tok.Pos.Column, d.Summary)
				}
			}
		}
	}
}
