package lsp

import (
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The rules count columns in characters from 1; LSP counts UTF-16 code
// units from 0: "á" is one of each, "🎲" one character and two units.
func TestLineIndex(t *testing.T) {
	text := "title cs \"Kontrola morálky\"\r\n🎲🎲 x\n\nlast"
	x := newLineIndex(text)
	for _, tc := range []struct {
		line, column int // the rules'
		offset       int // bytes
		want         protocol.Position
	}{
		{1, 1, 0, protocol.Position{Line: 0, Character: 0}},
		{1, 25, 25, protocol.Position{Line: 0, Character: 24}}, // the "k" after "á"
		{1, 27, 27, protocol.Position{Line: 0, Character: 26}}, // the closing quote
		{2, 3, 38, protocol.Position{Line: 1, Character: 4}},   // the space after two emoji
		{2, 4, 39, protocol.Position{Line: 1, Character: 5}},   // x
		{4, 5, 46, protocol.Position{Line: 3, Character: 4}},   // the end
		{2, 99, -1, protocol.Position{Line: 1, Character: 6}},  // past a line's end: its end
		{0, 0, -1, protocol.Position{}},                        // unknown: the start
	} {
		if got := x.fromRules(tc.line, tc.column); got != tc.want {
			t.Errorf("fromRules(%d, %d) = %+v, want %+v", tc.line, tc.column, got, tc.want)
		}
		if tc.offset < 0 {
			continue
		}
		if got := x.fromOffset(tc.offset); got != tc.want {
			t.Errorf("fromOffset(%d) = %+v, want %+v", tc.offset, got, tc.want)
		}
		if got := x.offset(tc.want); got != tc.offset {
			t.Errorf("offset(%+v) = %d, want %d", tc.want, got, tc.offset)
		}
	}
	// A position inside a surrogate pair, past a line or past the text.
	for _, tc := range []struct {
		pos  protocol.Position
		want int
	}{
		{protocol.Position{Line: 1, Character: 1}, 34},   // the second half of 🎲: after it
		{protocol.Position{Line: 0, Character: 500}, 28}, // the end of the line, before its \r\n
		{protocol.Position{Line: 9, Character: 0}, len(text)},
	} {
		if got := x.offset(tc.pos); got != tc.want {
			t.Errorf("offset(%+v) = %d, want %d", tc.pos, got, tc.want)
		}
	}
}

// Formatting's edit, applied, gives the formatted text, whatever the
// two texts share.
func TestFormatEdits(t *testing.T) {
	for _, tc := range []struct{ text, formatted string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb\nc\n", "a\nb\nc\n"},
		{"a\n\n\nb\n", "a\n\nb\n"},
		{"x", "x\n"},
		{"a\nb", "a\nb\n"},
		{"", "a\n"},
		{"a\n", ""},
		{"héllo 🎲\nb\n", "héllo 🎲\n  b\n"},
		{"same\nx\nsame\n", "same\ny\nz\nsame\n"},
	} {
		edits := formatEdits(tc.text, tc.formatted)
		got := tc.text
		x := newLineIndex(tc.text)
		for i := len(edits) - 1; i >= 0; i-- {
			start, end := x.offset(edits[i].Range.Start), x.offset(edits[i].Range.End)
			got = got[:start] + edits[i].NewText + got[end:]
		}
		if got != tc.formatted {
			t.Errorf("%q to %q: the edits %+v give %q", tc.text, tc.formatted, edits, got)
		}
	}
}
