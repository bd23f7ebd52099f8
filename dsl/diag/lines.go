package diag

import "unicode/utf8"

// Lines finds where 1-based lines and columns (in characters) of a file
// start in its bytes, for the Offset of a Pos. It indexes the line starts
// once, when first asked.
type Lines struct {
	data   []byte
	starts []int
}

// NewLines indexes data.
func NewLines(data []byte) *Lines { return &Lines{data: data} }

// Offset is the byte offset of a line and column; past the end, the end.
func (l *Lines) Offset(line, col int) int {
	if l.starts == nil {
		l.starts = []int{0}
		for i, c := range l.data {
			if c == '\n' {
				l.starts = append(l.starts, i+1)
			}
		}
	}
	if line < 1 {
		return 0
	}
	if line > len(l.starts) {
		return len(l.data)
	}
	off := l.starts[line-1]
	for i := 1; i < col && off < len(l.data) && l.data[off] != '\n'; i++ {
		_, size := utf8.DecodeRune(l.data[off:])
		off += size
	}
	return off
}
