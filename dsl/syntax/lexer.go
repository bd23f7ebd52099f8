package syntax

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// munda's lexer. Rule files and the expr-lang expressions inside them share
// one token stream: the grammar captures an expression as a run of tokens
// (see Expr.Parse) and hands the exact source text to expr, so the lexer only
// has to know enough of expr's syntax to keep strings, brackets and operators
// whole.
//
// The token rules, in the order they are tried:
//
//	Comment     //… to the end of the line, or /* … */
//	OpenComment /* with no */ after it (reported as such)
//	Whitespace  [ \t\r\n]+
//	RawString   `…`
//	String      "…" with \ escapes, on one line
//	Char        '…' with \ escapes, on one line (expr's other string)
//	Dice        [0-9]*[dD][0-9]+ as a whole word: d6, D66, 2d6
//	Float       [0-9][0-9_]*\.[0-9][0-9_]*([eE][-+]?[0-9]+)?
//	Int         0[xX][0-9a-fA-F_]+ or [0-9][0-9_]*
//	Ident       [a-zA-Z_$][a-zA-Z0-9_]*
//	Punct       ?? ?. ... .. == != <= >= && || ** or one of -+*/%^!<>=(){}[],.:;?#|&~@
//
// It is written by hand because the regexp lexer participle builds from
// such rules spent about 3µs on every token. The rules above describe it;
// what checks it is the parser's and the formatter's tests (which lex every
// rule file of the repository) and FuzzParse.
var ruleLexer = &ruleLexerDef{}

// Token types. EOF is participle's; the rest count down from it, as
// participle's own lexers do.
const (
	tokComment lexer.TokenType = -(iota + 2)
	tokOpenComment
	tokWhitespace
	tokRawString
	tokString
	tokChar
	tokDice
	tokFloat
	tokInt
	tokIdent
	tokPunct
)

var ruleSymbols = map[string]lexer.TokenType{
	"EOF":         lexer.EOF,
	"Comment":     tokComment,
	"OpenComment": tokOpenComment,
	"Whitespace":  tokWhitespace,
	"RawString":   tokRawString,
	"String":      tokString,
	"Char":        tokChar,
	"Dice":        tokDice,
	"Float":       tokFloat,
	"Int":         tokInt,
	"Ident":       tokIdent,
	"Punct":       tokPunct,
}

type ruleLexerDef struct{}

func (*ruleLexerDef) Symbols() map[string]lexer.TokenType { return ruleSymbols }

func (d *ruleLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (*ruleLexerDef) LexString(filename, s string) (lexer.Lexer, error) {
	return &scanner{src: s, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

// scanner produces tokens from a string.
type scanner struct {
	src string
	pos lexer.Position
}

// Next returns the next token, or an error naming the first byte that
// starts no token.
func (s *scanner) Next() (lexer.Token, error) {
	rest := s.src[s.pos.Offset:]
	if rest == "" {
		return lexer.EOFToken(s.pos), nil
	}
	typ, n := scanToken(rest)
	if n == 0 {
		r, _ := utf8.DecodeRuneInString(rest)
		return lexer.Token{}, &lexer.Error{Msg: fmt.Sprintf("invalid input text %q", string(r)), Pos: s.pos}
	}
	tok := lexer.Token{Type: typ, Value: rest[:n], Pos: s.pos}
	s.pos.Advance(tok.Value)
	return tok, nil
}

// scanToken finds the token at the start of s: its type and length (0 if
// none matches).
func scanToken(s string) (lexer.TokenType, int) {
	c := s[0]
	switch {
	case c == '/' && len(s) > 1 && s[1] == '/':
		n := 2
		for n < len(s) && s[n] != '\n' {
			n++
		}
		return tokComment, n
	case c == '/' && len(s) > 1 && s[1] == '*':
		for n := 2; n+1 < len(s); n++ {
			if s[n] == '*' && s[n+1] == '/' {
				return tokComment, n + 2
			}
		}
		return tokOpenComment, 2
	case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		n := 1
		for n < len(s) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\r' || s[n] == '\n') {
			n++
		}
		return tokWhitespace, n
	case c == '`':
		for n := 1; n < len(s); n++ {
			if s[n] == '`' {
				return tokRawString, n + 1
			}
		}
		return 0, 0
	case c == '"' || c == '\'':
		typ := tokString
		if c == '\'' {
			typ = tokChar
		}
		for n := 1; n < len(s); n++ {
			switch s[n] {
			case '\\':
				if n+1 >= len(s) || s[n+1] == '\n' {
					return 0, 0
				}
				// An escape takes the next character whole (it may be a
				// multi-byte rune).
				_, size := utf8.DecodeRuneInString(s[n+1:])
				n += size
			case c:
				return typ, n + 1
			case '\n':
				return 0, 0
			}
		}
		return 0, 0
	}
	if n := scanDice(s); n > 0 {
		return tokDice, n
	}
	if isDigit(c) {
		return scanNumber(s)
	}
	if isLetter(c) || c == '$' {
		n := 1
		for n < len(s) && isWord(s[n]) {
			n++
		}
		return tokIdent, n
	}
	return scanPunct(s)
}

// scanDice matches [0-9]*[dD][0-9]+ followed by a word boundary.
func scanDice(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n >= len(s) || (s[n] != 'd' && s[n] != 'D') {
		return 0
	}
	n++
	start := n
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == start || (n < len(s) && isWord(s[n])) {
		return 0
	}
	return n
}

func scanNumber(s string) (lexer.TokenType, int) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && (isHex(s[2]) || s[2] == '_') {
		n := 3
		for n < len(s) && (isHex(s[n]) || s[n] == '_') {
			n++
		}
		return tokInt, n
	}
	n := 1
	for n < len(s) && (isDigit(s[n]) || s[n] == '_') {
		n++
	}
	if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
		n += 2
		for n < len(s) && (isDigit(s[n]) || s[n] == '_') {
			n++
		}
		if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
			m := n + 1
			if m < len(s) && (s[m] == '+' || s[m] == '-') {
				m++
			}
			if m < len(s) && isDigit(s[m]) {
				for m < len(s) && isDigit(s[m]) {
					m++
				}
				n = m
			}
		}
		return tokFloat, n
	}
	return tokInt, n
}

var multiPunct = []string{"??", "?.", "...", "..", "==", "!=", "<=", ">=", "&&", "||", "**"}

func scanPunct(s string) (lexer.TokenType, int) {
	for _, p := range multiPunct {
		if len(s) >= len(p) && s[:len(p)] == p {
			return tokPunct, len(p)
		}
	}
	switch s[0] {
	case '-', '+', '*', '/', '%', '^', '!', '<', '>', '=', '(', ')', '{', '}', '[', ']',
		',', '.', ':', ';', '?', '#', '|', '&', '~', '@':
		return tokPunct, 1
	}
	return 0, 0
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// mustLex returns a lexer over src; lexing errors come from its Next.
func mustLex(name string, src []byte) lexer.Lexer {
	return &scanner{src: string(src), pos: lexer.Position{Filename: name, Line: 1, Column: 1}}
}
