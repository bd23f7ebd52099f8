package dsl

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Limits on a single rule file. Rule packs may be untrusted: these keep the
// parser's time and memory bounded whatever the input.
const (
	MaxFileSize   = 4 << 20 // bytes
	MaxLineLength = 4096    // bytes
	MaxNesting    = 64      // open brackets and braces
)

var parser = participle.MustBuild[File](
	participle.Lexer(ruleLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.Union[Decl](&Ruleset{}, &Include{}, &Dice{}, &Characteristic{}, &Table{},
		&Procedure{}, &Function{}, &Event{}, &Feature{}, &House{}, &HouseRule{}, &Replace{}, &TestDecl{}),
	participle.Union[RulesetItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Extends{}),
	participle.Union[DiceItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Faces{}, &Face{}, &Sum{}, &Digits{}),
	participle.Union[CharItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &CharCheck{}, &CharNatural{},
		&CharTarget{}, &CharField{}, &CharLimits{}),
	participle.Union[TableItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &TableRoll{}, &TableBy{}, &Row{}),
	participle.Union[RowKey](&RangeKey{}, &FaceKey{}),
	participle.Union[FeatureItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Property{}, &Flag{},
		&Modify{}, &Reroll{}, &ExtraDice{}, &Override{}, &Hook{}, &On{}, &Replace{}),
	participle.Union[HouseItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &HouseRule{}),
	participle.Union[TestItem](&TestRules{}, &TestHouse{}, &TestState{}, &TestDice{}, &TestSeed{},
		&TestChoose{}, &TestRun{}, &TestExpectError{}, &TestExpectEmit{}, &TestExpect{}),
	participle.Union[Stmt](&SourceItem{}, &TextItem{}, &TitleItem{}, &Let{}, &Set{}, &Roll{}, &TestStmt{}, &Change{},
		&If{}, &ForEach{}, &Add{}, &Remove{}, &Apply{}, &Call{}, &Choose{}, &Emit{}, &Signal{}, &Stop{},
		&Step{}, &Require{}),
	participle.UseLookahead(3),
)

// Grammar returns the grammar as EBNF (kept as a golden file).
func Grammar() string { return parser.String() }

// Parse parses one rule file. name is how the file is shown in diagnostics.
// It never panics: any input gives a File or positioned diagnostics.
func Parse(name string, src []byte) (*File, Diagnostics) {
	var diags diagnostics
	if d := checkEncoding(name, src); d != nil {
		return nil, Diagnostics{d}
	}
	tokens, err := lexer.ConsumeAll(mustLex(name, src))
	if err != nil {
		return nil, Diagnostics{lexError(name, src, err)}
	}
	d, unclosed := checkNesting(tokens)
	if d != nil {
		return nil, Diagnostics{d}
	}
	file := &File{Name: name, Source: src}
	significant := 0
	for _, t := range tokens {
		switch t.Type {
		case tokComment:
			file.Comments = append(file.Comments, Comment{Pos: t.Pos, Text: t.Value})
		case ruleLexer.Symbols()["Whitespace"], lexer.EOF:
		default:
			significant++
		}
	}
	if significant == 0 {
		start := lexer.Position{Filename: name, Line: 1, Column: 1}
		diags.add(Error, CodeEmptyFile, rangeOf(start, start), "file has no declarations",
			"A rule file must declare something: a ruleset, dice, a table, a procedure, a skill, a house rule or a test.")
		return nil, diags.list
	}
	peek, err := lexer.Upgrade(&sliceLexer{tokens: tokens}, tokComment, ruleLexer.Symbols()["Whitespace"])
	if err != nil {
		return nil, Diagnostics{lexError(name, src, err)}
	}
	parsed, err := parser.ParseFromLexer(peek)
	if err != nil {
		d := parseError(name, src, err)
		if strings.HasPrefix(d.Summary, "unexpected end of file") && len(unclosed) > 0 {
			open := unclosed[len(unclosed)-1]
			d.Detail = fmt.Sprintf("The %q at line %d, column %d is never closed.", open.Value, open.Pos.Line, open.Pos.Column)
		}
		return nil, Diagnostics{d}
	}
	parsed.Pos = lexer.Position{Filename: name, Line: 1, Column: 1}
	parsed.Name, parsed.Source, parsed.Comments = file.Name, file.Source, file.Comments
	return parsed, nil
}

// ParseString is Parse for a string.
func ParseString(name, src string) (*File, Diagnostics) { return Parse(name, []byte(src)) }

func mustLex(name string, src []byte) lexer.Lexer {
	lex, err := ruleLexer.LexString(name, string(src))
	if err != nil { // only for a broken lexer definition
		panic(err)
	}
	return lex
}

// sliceLexer replays tokens that were already lexed.
type sliceLexer struct {
	tokens []lexer.Token
	next   int
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	t := s.tokens[s.next]
	if s.next < len(s.tokens)-1 {
		s.next++
	}
	return t, nil
}

// checkEncoding rejects what is not a text file before the lexer sees it.
func checkEncoding(name string, src []byte) *Diagnostic {
	at := func(offset int) *Range {
		p := positionAt(name, src, offset)
		return rangeOf(p, p)
	}
	if len(src) > MaxFileSize {
		return &Diagnostic{Severity: Error, Code: CodeEncoding, Subject: at(0),
			Summary: fmt.Sprintf("file is too large (%d bytes; the limit is %d)", len(src), MaxFileSize)}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return &Diagnostic{Severity: Error, Code: CodeEncoding, Subject: at(i),
			Summary: "file is binary (it contains a NUL byte)", Detail: "Rule files are UTF-8 text."}
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return &Diagnostic{Severity: Error, Code: CodeEncoding, Subject: at(i),
			Summary: fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", src[i]), Detail: "Rule files are UTF-8 text."}
	}
	lineStart := 0
	for lineStart <= len(src) {
		end := bytes.IndexByte(src[lineStart:], '\n')
		if end < 0 {
			end = len(src) - lineStart
		}
		if end > MaxLineLength {
			return &Diagnostic{Severity: Error, Code: CodeEncoding, Subject: at(lineStart + MaxLineLength),
				Summary: fmt.Sprintf("line is too long (%d bytes; the limit is %d)", end, MaxLineLength)}
		}
		lineStart += end + 1
	}
	return nil
}

// checkNesting bounds bracket depth, so deeply nested input cannot make the
// parser (or expr's) recurse without limit. It also returns the brackets
// left open at the end, to explain an "unexpected end of file".
func checkNesting(tokens []lexer.Token) (*Diagnostic, []lexer.Token) {
	var open []lexer.Token
	for _, t := range tokens {
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(", "[", "{":
			open = append(open, t)
			if len(open) > MaxNesting {
				return &Diagnostic{Severity: Error, Code: CodeParseError, Subject: rangeOf(t.Pos, t.Pos),
					Summary: fmt.Sprintf("brackets nested too deeply (the limit is %d)", MaxNesting)}, nil
			}
		case ")", "]", "}":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	return nil, open
}

func lexError(name string, src []byte, err error) *Diagnostic {
	d := &Diagnostic{Severity: Error, Code: CodeParseError, Summary: err.Error()}
	perr, ok := err.(interface {
		Message() string
		Position() lexer.Position
	})
	if !ok {
		return d
	}
	pos := perr.Position()
	d.Subject = rangeOf(pos, pos)
	d.Summary = strings.TrimPrefix(perr.Message(), "lexer: ")
	if pos.Offset < len(src) {
		switch {
		case src[pos.Offset] == '"' || src[pos.Offset] == '\'':
			d.Summary = "unterminated string"
			d.Detail = "A string must end with a closing quote on the same line; use a `raw string` for several lines."
		case src[pos.Offset] == '`':
			d.Summary = "unterminated raw string"
		case bytes.HasPrefix(src[pos.Offset:], []byte("/*")):
			d.Summary = "unterminated comment"
		default:
			r, _ := utf8.DecodeRune(src[pos.Offset:])
			d.Summary = fmt.Sprintf("unexpected character %q", r)
		}
	}
	return d
}

func parseError(name string, src []byte, err error) *Diagnostic {
	d := &Diagnostic{Severity: Error, Code: CodeParseError, Summary: err.Error()}
	perr, ok := err.(participle.Error)
	if !ok {
		return d
	}
	pos := perr.Position()
	if pos.Filename == "" {
		pos.Filename = name
	}
	d.Subject = rangeOf(pos, pos)
	msg := perr.Message()
	if u, ok := err.(*participle.UnexpectedTokenError); ok {
		if u.Unexpected.EOF() {
			msg = "unexpected end of file"
			if u.Expect != "" {
				msg += " (expected " + u.Expect + ")"
			}
			d.Detail = "A brace or bracket may be missing its closing partner."
		}
	}
	d.Summary = msg
	return d
}

// positionAt computes the participle position of a byte offset.
func positionAt(name string, src []byte, offset int) lexer.Position {
	if offset > len(src) {
		offset = len(src)
	}
	p := lexer.Position{Filename: name, Line: 1, Column: 1}
	p.Advance(string(src[:offset]))
	return p
}

// ---------------------------------------------------------------------------
// Expressions.

// Words that expr uses as infix operators: they may follow an operand.
var exprInfixWords = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "matches": true,
	"contains": true, "startsWith": true, "endsWith": true,
}

// Parse captures an expr-lang expression: the longest run of tokens that
// could continue one. It stops, at bracket depth 0, at `,` `;` `=` a block's
// `{`, an unbalanced closing bracket, or a word or literal that directly
// follows a complete operand (expr never puts two operands side by side, so
// `… default false when x` ends the expression before `when`). This is why
// statement keywords need no reserving: `roll`, `when` or `by` end an
// expression only where one could not go on.
func (e *Expr) Parse(lex *lexer.PeekingLexer) error {
	start := lex.RawCursor()
	depth := 0
	afterOperand := false
	var first, last *lexer.Token
loop:
	for {
		t := lex.Peek()
		if t.EOF() {
			break
		}
		operandWord := false
		switch t.Type {
		case tokIdent:
			operandWord = !exprInfixWords[t.Value]
		case tokDice, tokInt, tokFloat, tokString, tokRawString, tokChar:
			operandWord = true
		case tokPunct:
			switch t.Value {
			case "(", "[":
				depth++
			case "{":
				if depth == 0 && first != nil {
					break loop
				}
				depth++
			case ")", "]", "}":
				if depth == 0 {
					break loop
				}
				depth--
			case ",", ";", "=":
				if depth == 0 {
					break loop
				}
			}
		}
		if depth == 0 && operandWord && afterOperand {
			break
		}
		t = lex.Next()
		if first == nil {
			first = t
		}
		last = t
		switch {
		case operandWord:
			afterOperand = true
		case t.Type == tokPunct:
			afterOperand = t.Value == ")" || t.Value == "]" || t.Value == "}"
		default:
			afterOperand = false
		}
	}
	if first == nil {
		return participle.NextMatch
	}
	// Rebuild the exact text, comments and line breaks included, from the
	// raw tokens between the first and the last.
	var text strings.Builder
	for _, t := range lex.Range(start, lex.RawCursor()) {
		if t.Pos.Offset >= first.Pos.Offset && t.Pos.Offset <= last.Pos.Offset {
			text.WriteString(t.Value)
		}
	}
	e.Text = text.String()
	e.Pos = first.Pos
	e.EndPos = last.Pos
	e.EndPos.Advance(last.Value)
	return nil
}
