package fastexpr

import (
	"encoding/binary"
	"unsafe"
)

// textLiteral is a string literal a condition compares text with
// (m.status == "standing"). Most such literals are 8 to 16 bytes: those
// are compared as two overlapping words, read once here, where == calls
// memequal for a text of the literal's length.
type textLiteral struct {
	s          string
	head, tail uint64 // the literal's first and last 8 bytes (8 to 16 bytes long)
}

func newTextLiteral(s string) textLiteral {
	l := textLiteral{s: s}
	if n := len(s); n >= 8 && n <= 16 {
		l.head = binary.LittleEndian.Uint64([]byte(s[:8]))
		l.tail = binary.LittleEndian.Uint64([]byte(s[n-8:]))
	}
	return l
}

// equals reports whether x == l.s.
func (l *textLiteral) equals(x string) bool {
	n := len(l.s)
	if len(x) != n {
		return false
	}
	if n < 8 || n > 16 {
		return x == l.s
	}
	p := unsafe.Pointer(unsafe.StringData(x))
	return *(*uint64)(p) == l.head && *(*uint64)(unsafe.Add(p, n-8)) == l.tail
}
