package dsl

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// munda's lexer. Rule files and the expr-lang expressions inside them share
// one token stream: the grammar captures an expression as a run of tokens
// (see Expr.Parse) and hands the exact source text to expr, so the lexer only
// has to know enough of expr's syntax to keep strings, brackets and operators
// whole.
//
// Order matters: the first rule that matches wins.
var ruleLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*(?s:.*?)\*/`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "RawString", Pattern: "`[^`]*`"},
	{Name: "String", Pattern: `"(?:\\.|[^"\\\n])*"`},
	{Name: "Char", Pattern: `'(?:\\.|[^'\\\n])*'`},
	// Dice names such as d6, D66 or 2d6 are one token, so "2d6" is not the
	// number 2 followed by an identifier.
	{Name: "Dice", Pattern: `[0-9]*[dD][0-9]+\b`},
	{Name: "Float", Pattern: `[0-9][0-9_]*\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?`},
	{Name: "Int", Pattern: `0[xX][0-9a-fA-F_]+|[0-9][0-9_]*`},
	{Name: "Ident", Pattern: `[a-zA-Z_$][a-zA-Z0-9_]*`},
	{Name: "Punct", Pattern: `\?\?|\?\.|\.\.\.?|==|!=|<=|>=|&&|\|\||\*\*|[-+*/%^!<>=(){}\[\],.:;?#|&~@]`},
})

// Token types, looked up once from the lexer's symbol table.
var (
	tokComment   = ruleLexer.Symbols()["Comment"]
	tokString    = ruleLexer.Symbols()["String"]
	tokRawString = ruleLexer.Symbols()["RawString"]
	tokChar      = ruleLexer.Symbols()["Char"]
	tokDice      = ruleLexer.Symbols()["Dice"]
	tokFloat     = ruleLexer.Symbols()["Float"]
	tokInt       = ruleLexer.Symbols()["Int"]
	tokIdent     = ruleLexer.Symbols()["Ident"]
	tokPunct     = ruleLexer.Symbols()["Punct"]
)
