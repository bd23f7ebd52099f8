package lsp

import (
	"sort"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/diag"
)

// lineIndex is a text with the byte offset of each line's start, to turn
// positions between the rules' form (1-based line, column in characters,
// byte offset) and LSP's (0-based line, character in UTF-16 code units).
type lineIndex struct {
	text   string
	starts []int
}

func newLineIndex(text string) *lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
}

// line returns the text of a 0-based line, without its line break.
func (x *lineIndex) line(n int) string {
	if n < 0 || n >= len(x.starts) {
		return ""
	}
	end := len(x.text)
	if n+1 < len(x.starts) {
		end = x.starts[n+1] - 1
	}
	s := x.text[x.starts[n]:end]
	if len(s) > 0 && s[len(s)-1] == '\r' {
		s = s[:len(s)-1]
	}
	return s
}

// fromRules converts a 1-based line and a 1-based column counted in
// characters. Past the end of a line it stops at the line's end; line 0
// (unknown) is the start of the file.
func (x *lineIndex) fromRules(line, column int) protocol.Position {
	if line < 1 {
		return protocol.Position{}
	}
	if line > len(x.starts) {
		return x.end()
	}
	text := x.line(line - 1)
	units := 0
	for i := 1; i < column && len(text) > 0; i++ {
		r, size := utf8.DecodeRuneInString(text)
		text = text[size:]
		units += utf16Len(r)
	}
	return protocol.Position{Line: protocol.UInteger(line - 1), Character: protocol.UInteger(units)}
}

// fromOffset converts a byte offset.
func (x *lineIndex) fromOffset(off int) protocol.Position {
	off = max(0, min(off, len(x.text)))
	n := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	units := 0
	for _, r := range x.text[x.starts[n]:off] {
		units += utf16Len(r)
	}
	return protocol.Position{Line: protocol.UInteger(n), Character: protocol.UInteger(units)}
}

// offset converts an LSP position to a byte offset. A character past the
// end of its line is the line's end; a line past the end is the text's.
func (x *lineIndex) offset(p protocol.Position) int {
	n := int(p.Line)
	if n >= len(x.starts) {
		return len(x.text)
	}
	text := x.line(n)
	units := 0
	for i, r := range text {
		if units >= int(p.Character) {
			return x.starts[n] + i
		}
		units += utf16Len(r)
	}
	return x.starts[n] + len(text)
}

// end is the position just after the last character.
func (x *lineIndex) end() protocol.Position { return x.fromOffset(len(x.text)) }

// rangeOf converts a diagnostic's range.
func (x *lineIndex) rangeOf(r *diag.Range) protocol.Range {
	if r == nil {
		return protocol.Range{}
	}
	start := x.fromRules(r.Start.Line, r.Start.Column)
	end := start
	if r.End.Line > 0 {
		end = x.fromRules(r.End.Line, r.End.Column)
	}
	if end.Line < start.Line || (end.Line == start.Line && end.Character < start.Character) {
		end = start
	}
	return protocol.Range{Start: start, End: end}
}

// span converts a syntax node's start and end.
func (x *lineIndex) span(start, end lexer.Position) protocol.Range {
	return x.rangeOf(diag.RangeOf(start, end))
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
