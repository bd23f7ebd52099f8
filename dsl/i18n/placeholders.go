package i18n

import "strings"

// Piece is literal text or a placeholder of a template.
type Piece struct {
	Text        string
	Placeholder bool
}

// Split cuts a template into text and {placeholders} (trimmed), the way
// the rules' checker reads an emit message: {{ and }} are literal braces.
// ok is false when a { is never closed (the rest is kept as text).
func Split(template string) (pieces []Piece, ok bool) {
	var text strings.Builder
	ok = true
	for i := 0; i < len(template); i++ {
		ch := template[i]
		switch {
		case ch == '{' && i+1 < len(template) && template[i+1] == '{':
			text.WriteByte('{')
			i++
		case ch == '}' && i+1 < len(template) && template[i+1] == '}':
			text.WriteByte('}')
			i++
		case ch == '{':
			end := strings.IndexByte(template[i+1:], '}')
			if end < 0 {
				text.WriteString(template[i:])
				i, ok = len(template), false
				continue
			}
			if text.Len() > 0 {
				pieces = append(pieces, Piece{Text: text.String()})
				text.Reset()
			}
			pieces = append(pieces, Piece{Text: strings.TrimSpace(template[i+1 : i+1+end]), Placeholder: true})
			i += end + 1
		default:
			text.WriteByte(ch)
		}
	}
	if text.Len() > 0 {
		pieces = append(pieces, Piece{Text: text.String()})
	}
	return pieces, ok
}

// Placeholders lists a template's placeholders, each once, in order.
func Placeholders(template string) []string {
	pieces, _ := Split(template)
	var out []string
	seen := map[string]bool{}
	for _, p := range pieces {
		if p.Placeholder && !seen[p.Text] {
			seen[p.Text] = true
			out = append(out, p.Text)
		}
	}
	return out
}
