// Package syntax is the rule language's front end: the lexer (lexer.go),
// the participle grammar and parser (parse.go; the grammar is the struct
// tags of ast.go), the syntax tree, a walker, the canonical formatter
// behind `munda fmt` (format.go) and structural comparison of trees
// (equal.go). Every node carries its position, so later stages report
// errors at the rule that caused them.
package syntax
