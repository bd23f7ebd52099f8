package diag

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable makes text safe to write to a terminal: control characters
// (an ESC that starts a terminal sequence, a carriage return that hides a
// line, a bell), invisible format characters (bidirectional overrides) and
// invalid UTF-8 are written as Go escapes (\x1b, \r, \u202e). Text from
// rule files and states is untrusted; JSON output escapes by itself.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r):
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune) bool {
	return r == utf8.RuneError || r == 0x7f || (r < 0x20 && r != '\t') || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Cf, r)
}

// PrintableLines is Printable for text of several lines: the line breaks
// stay, everything else is escaped.
func PrintableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Printable(l)
	}
	return strings.Join(lines, "\n")
}
