package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/munda-rules/munda/dsl/diag"
)

// Limits on a single rule file. Rule packs may be untrusted: these keep the
// parser's time and memory bounded whatever the input.
const (
	MaxFileSize   = 4 << 20 // bytes
	MaxLineLength = 4096    // bytes
	MaxNesting    = 64      // open brackets and braces
)

// DeclKinds returns one zero value of each kind of top-level declaration
// the grammar knows, in the order the parser tries them. Tests that must
// cover every kind (what a mod may write) range over it, so a new kind
// added here without a case fails them.
func DeclKinds() []Decl {
	return []Decl{&TestDecl{}, &Feature{}, &Procedure{}, &Table{}, &Function{}, &HouseRule{},
		&Characteristic{}, &Event{}, &Dice{}, &Replace{}, &House{}, &Enum{}, &ModelKind{}, &Ruleset{}, &Include{}}
}

var parser = participle.MustBuild[File](parserOptions...)

// parserOptions build the parser; parse errors build parsers of single
// items with them too (see explain.go).
//
// Members of a union are tried in order, and each that fails costs
// participle a branch and a struct, so the most frequent come first: by
// count in the shipped rules and the generated pack of dsl's benchmarks
// together. Members that start with distinct keywords may go in any order:
// it changes what is tried, never what matches.
var parserOptions = []participle.Option{
	participle.Lexer(ruleLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.Union[Decl](DeclKinds()...),
	participle.Union[RulesetItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Extends{}, &StandIn{}),
	participle.Union[DiceItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Faces{}, &Face{}, &Sum{}, &Digits{}),
	participle.Union[CharItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &CharCheck{}, &CharNatural{},
		&CharTarget{}, &CharField{}, &CharLimits{}),
	participle.Union[KindItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Status{}, &Carries{}, &Warn{}),
	// Metadata before members, as for table rows.
	participle.Union[EnumItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &Member{}),
	// Metadata before rows: `source "…"` would also read as a row keyed "source".
	participle.Union[TableItem](&SourceItem{}, &TableRoll{}, &Require{}, &TextItem{}, &TableBy{}, &TableChoose{}, &TitleItem{}, &Row{}),
	participle.Union[RowKey](&RangeKey{}, &FaceKey{}),
	participle.Union[FeatureItem](&TextItem{}, &SourceItem{}, &Property{}, &Modify{}, &Hook{}, &TextOnly{}, &On{},
		&Available{}, &ActionBody{}, &Override{}, &Flag{}, &Reroll{}, &Grant{}, &ExtraDice{}, &Prevent{}, &Replace{}, &TitleItem{}, &Holder{}),
	participle.Union[HouseItem](&SourceItem{}, &TextItem{}, &TitleItem{}, &HouseRule{}),
	// The four that start with `expect` keep their order: a plain
	// expectation would also read `expect error "…"`.
	participle.Union[TestItem](&TestState{}, &TestRun{}, &TestDice{}, &TestChoose{}, &TestExpectError{},
		&TestExpectEmit{}, &TestExpectSignal{}, &TestExpect{}, &TestRules{}, &TestHouse{}, &TestSeed{}),
	participle.Union[Stmt](&Set{}, &Emit{}, &If{}, &Let{}, &Add{}, &Roll{}, &Call{}, &Choose{}, &TextItem{}, &SourceItem{},
		&ForEach{}, &Require{}, &Stop{}, &Step{}, &Change{}, &Remove{}, &Signal{}, &TestStmt{}, &Apply{}, &Perform{},
		&While{}, &TitleItem{}),
	participle.UseLookahead(2),
}

// Grammar returns the grammar as EBNF (kept as a golden file).
func Grammar() string { return parser.String() }

// Parse parses one rule file. name is how the file is shown in diagnostics.
// It never panics: any input gives a File or positioned diagnostics.
func Parse(name string, src []byte) (*File, diag.Diagnostics) {
	if d := checkEncoding(name, src); d != nil {
		return nil, diag.Diagnostics{d}
	}
	if f := parseByDeclarations(name, src, minRun); f != nil {
		return f, nil
	}
	return parseWhole(name, src)
}

// parseWhole parses a file in one piece: it alone reports errors.
func parseWhole(name string, src []byte) (*File, diag.Diagnostics) {
	file := &File{Name: name, Source: src}
	// The grammar sees only significant tokens: whitespace and comments
	// never reach participle (which would copy them into its token slice
	// and step over them on every peek). Comments are kept aside for the
	// formatter; expressions take their text straight from the source; and
	// restoreEndPositions puts back the end positions that participle reads
	// off the token after a node.
	stream := &significantTokens{scanner: scanner{src: string(src), pos: lexer.Position{Filename: name, Line: 1, Column: 1}}, file: file}
	peek, err := lexer.Upgrade(stream)
	if err != nil {
		if d, ok := err.(*streamError); ok {
			return nil, diag.Diagnostics{d.d}
		}
		return nil, diag.Diagnostics{lexError(name, src, err)}
	}
	if stream.tooDeep != nil {
		return nil, diag.Diagnostics{stream.tooDeep}
	}
	if stream.significant == 0 {
		start := lexer.Position{Filename: name, Line: 1, Column: 1}
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeEmptyFile, Subject: diag.RangeOf(start, start),
			Summary: "file has no declarations",
			Detail:  "A rule file must declare something: a ruleset, dice, a table, a procedure, a skill, a house rule or a test."}}
	}
	// Expressions find the source through their token stream (see
	// sourceOf): participle gives Parseable nodes nothing else.
	tokens := peek.Range(0, lexer.RawCursor(stream.significant+1))
	key := &tokens[0]
	parsing.Store(key, src)
	defer parsing.Delete(key)
	parsed, err := parser.ParseFromLexer(peek)
	if err != nil {
		// Errors are explained from every token, whitespace and comments
		// too: lexing again costs nothing next to a parse.
		d := parseError(name, src, allTokens(name, src), err)
		if strings.HasPrefix(d.Summary, "unexpected end of file") && len(stream.open) > 0 {
			open := stream.open[len(stream.open)-1]
			d.Detail = fmt.Sprintf("The %q at line %d, column %d is never closed.", open.Value, open.Pos.Line, open.Pos.Column)
		}
		return nil, diag.Diagnostics{d}
	}
	restoreEndPositions(parsed, tokens, lexer.Position{Filename: name, Line: 1, Column: 1})
	parsed.Pos = lexer.Position{Filename: name, Line: 1, Column: 1}
	parsed.Name, parsed.Source, parsed.Comments = file.Name, file.Source, file.Comments
	return parsed, nil
}

// parsing maps the first token of each parse in progress to its source.
var parsing sync.Map

// sourceOf finds the source being parsed through the token stream.
func sourceOf(lex *lexer.PeekingLexer) []byte {
	if src, ok := parsing.Load(&lex.Range(0, 1)[0]); ok {
		return src.([]byte)
	}
	return nil
}

// ParseString is Parse for a string.
func ParseString(name, src string) (*File, diag.Diagnostics) { return Parse(name, []byte(src)) }

// significantTokens lexes a file for the parser: it hands on only the
// tokens the grammar sees, keeps the comments aside, and bounds bracket
// depth as it goes, so deeply nested input cannot make the parser (or
// expr's) recurse without limit.
type significantTokens struct {
	scanner
	file        *File
	significant int              // tokens handed on, EOF not counted
	open        []lexer.Token    // brackets open so far
	tooDeep     *diag.Diagnostic // the first bracket nested too deeply
}

// streamError carries a diagnostic of its own out of lexer.Upgrade.
type streamError struct{ d *diag.Diagnostic }

func (e *streamError) Error() string { return e.d.Summary }

func (s *significantTokens) Next() (lexer.Token, error) {
	for {
		t, err := s.scanner.Next()
		if err != nil {
			return t, err
		}
		switch t.Type {
		case tokWhitespace:
			continue
		case tokComment:
			s.file.Comments = append(s.file.Comments, Comment{Pos: t.Pos, Text: t.Value})
			continue
		case tokOpenComment:
			return t, &streamError{&diag.Diagnostic{Severity: diag.Error, Code: diag.CodeParseError, Subject: diag.RangeOf(t.Pos, t.Pos),
				Summary: "unterminated comment", Detail: "A /* comment needs a closing */."}}
		case tokPunct:
			s.nest(t)
		}
		if !t.EOF() {
			s.significant++
		}
		return t, nil
	}
}

// nest follows bracket depth, and the brackets left open (which explain an
// "unexpected end of file").
func (s *significantTokens) nest(t lexer.Token) {
	if s.tooDeep != nil {
		return
	}
	switch t.Value {
	case "(", "[", "{":
		s.open = append(s.open, t)
		if len(s.open) > MaxNesting {
			s.tooDeep = &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeParseError, Subject: diag.RangeOf(t.Pos, t.Pos),
				Summary: fmt.Sprintf("brackets nested too deeply (the limit is %d)", MaxNesting)}
		}
	case ")", "]", "}":
		if len(s.open) > 0 {
			s.open = s.open[:len(s.open)-1]
		}
	}
}

// allTokens lexes a file that lexed without error, whitespace and comments
// included, EOF last.
func allTokens(name string, src []byte) []lexer.Token {
	var tokens []lexer.Token
	sc := &scanner{src: string(src), pos: lexer.Position{Filename: name, Line: 1, Column: 1}}
	for {
		t, err := sc.Next()
		if err != nil {
			return tokens
		}
		tokens = append(tokens, t)
		if t.EOF() {
			return tokens
		}
	}
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
func checkEncoding(name string, src []byte) *diag.Diagnostic {
	at := func(offset int) *diag.Range {
		p := positionAt(name, src, offset)
		return diag.RangeOf(p, p)
	}
	if len(src) > MaxFileSize {
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeEncoding, Subject: at(0),
			Summary: fmt.Sprintf("file is too large (%d bytes; the limit is %d)", len(src), MaxFileSize)}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeEncoding, Subject: at(i),
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
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeEncoding, Subject: at(i),
			Summary: fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", src[i]), Detail: "Rule files are UTF-8 text."}
	}
	lineStart := 0
	for lineStart <= len(src) {
		end := bytes.IndexByte(src[lineStart:], '\n')
		if end < 0 {
			end = len(src) - lineStart
		}
		if end > MaxLineLength {
			return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeEncoding, Subject: at(lineStart + MaxLineLength),
				Summary: fmt.Sprintf("line is too long (%d bytes; the limit is %d)", end, MaxLineLength)}
		}
		lineStart += end + 1
	}
	return nil
}

func lexError(name string, src []byte, err error) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeParseError, Summary: err.Error()}
	perr, ok := err.(interface {
		Message() string
		Position() lexer.Position
	})
	if !ok {
		return d
	}
	pos := perr.Position()
	d.Subject = diag.RangeOf(pos, pos)
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
	e.Pos = first.Pos
	e.EndPos = last.Pos
	e.EndPos.Advance(last.Value)
	// The exact text, comments and line breaks included.
	if src := sourceOf(lex); src != nil && e.EndPos.Offset <= len(src) {
		e.Text = string(src[e.Pos.Offset:e.EndPos.Offset])
	}
	return nil
}

// Leaves of the tree (names, strings, numbers) are most of its nodes, so
// they parse themselves: participle's generic struct handling costs two
// allocations a node just to record positions.

// Parse takes an identifier (a dice name such as d6 counts).
func (i *Ident) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokIdent && t.Type != tokDice {
		return participle.NextMatch
	}
	lex.Next()
	i.Name, i.Pos, i.EndPos = t.Value, t.Pos, t.Pos
	i.EndPos.Advance(t.Value)
	return nil
}

// Parse takes a string literal, "…" or `…`.
func (s *Str) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokString && t.Type != tokRawString {
		return participle.NextMatch
	}
	lex.Next()
	s.Raw, s.Pos, s.EndPos = t.Value, t.Pos, t.Pos
	s.EndPos.Advance(t.Value)
	return nil
}

// Parse takes an integer, with an optional minus sign.
func (n *Int) Parse(lex *lexer.PeekingLexer) error {
	cp := lex.MakeCheckpoint()
	t := lex.Peek()
	n.Pos = t.Pos
	n.Neg = false
	if t.Type == tokPunct && t.Value == "-" {
		lex.Next()
		n.Neg = true
		t = lex.Peek()
	}
	if t.Type != tokInt {
		lex.LoadCheckpoint(cp)
		return participle.NextMatch
	}
	lex.Next()
	n.Digits, n.EndPos = t.Value, t.Pos
	n.EndPos.Advance(t.Value)
	return nil
}

// Parse takes an integer without a sign.
func (n *Nat) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokInt {
		return participle.NextMatch
	}
	lex.Next()
	n.Pos, n.Neg, n.Digits, n.EndPos = t.Pos, false, t.Value, t.Pos
	n.EndPos.Advance(t.Value)
	return nil
}
