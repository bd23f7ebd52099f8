package fastexpr

import (
	"encoding/binary"
	"unsafe"
)

// textLiteral is a string literal a condition compares text with
// (m.status == "standing", m.kind == "fighter"). Most such literals are 4
// to 16 bytes: those are compared as two overlapping words (of 8 bytes,
// or of 4 below 8), read once here, where == calls memequal for a text of
// the literal's length.
type textLiteral struct {
	s          string
	head, tail uint64 // the literal's first and last 8 bytes (4 bytes below 8)
}

func newTextLiteral(s string) textLiteral {
	l := textLiteral{s: s}
	switch n := len(s); {
	case n >= 8 && n <= 16:
		l.head = binary.LittleEndian.Uint64([]byte(s[:8]))
		l.tail = binary.LittleEndian.Uint64([]byte(s[n-8:]))
	case n >= 4 && n < 8:
		l.head = uint64(binary.LittleEndian.Uint32([]byte(s[:4])))
		l.tail = uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))
	}
	return l
}

// equals reports whether x == l.s.
func (l *textLiteral) equals(x string) bool {
	n := len(l.s)
	if len(x) != n {
		return false
	}
	p := unsafe.Pointer(unsafe.StringData(x))
	switch {
	case n >= 8 && n <= 16:
		return *(*uint64)(p) == l.head && *(*uint64)(unsafe.Add(p, n-8)) == l.tail
	case n >= 4 && n < 8:
		return uint64(*(*uint32)(p)) == l.head && uint64(*(*uint32)(unsafe.Add(p, n-4))) == l.tail
	}
	return x == l.s
}
