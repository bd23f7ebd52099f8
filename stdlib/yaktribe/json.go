package yaktribe

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a strict JSON reader (RFC 8259) that keeps where each value
// is and, when the text is not JSON, says where and inside what: a cut
// short export ends inside gang.gangers[3], and says so. encoding/json
// gives neither the place of a value nor the path of an error.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// value is a JSON value and where it starts in the file.
type value struct {
	kind  jsonKind
	text  string   // a string's value, a number's literal, "true" or "false"
	keys  []string // an object's keys, in order (repeats kept)
	keyAt []int    // where each key starts
	items []*value // an array's items, or an object's values (by key index)
	off   int
}

// get returns an object's value for key (the first, if given twice) and
// whether it has it; null counts as left out.
func (v *value) get(key string) (*value, bool) {
	for i, k := range v.keys {
		if k == key {
			if v.items[i].kind == jsonNull {
				return nil, false
			}
			return v.items[i], true
		}
	}
	return nil, false
}

// has reports whether an object has key, null or not.
func (v *value) has(key string) bool {
	for _, k := range v.keys {
		if k == key {
			return true
		}
	}
	return false
}

// describe says what a value is, for "got …".
func (v *value) describe() string {
	switch v.kind {
	case jsonNull:
		return "null"
	case jsonBool, jsonNumber:
		return v.text
	case jsonString:
		s := v.text
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return strconv.Quote(s)
	case jsonArray:
		return "a list"
	}
	return "an object"
}

// syntaxError is JSON that cannot be read: where, inside what (a path),
// and why.
type syntaxError struct {
	off  int
	path string
	msg  string
}

type jsonParser struct {
	data  []byte
	pos   int
	depth int
	nodes int
	path  []string // of the value being read
	err   *syntaxError
	limit *limitError
}

// limitError is JSON too deep or too large to read.
type limitError struct {
	off  int
	path string
	msg  string
}

// parseJSON reads data as one JSON value.
func parseJSON(data []byte) (*value, *syntaxError, *limitError) {
	p := &jsonParser{data: data}
	p.space()
	if p.pos == len(data) {
		return nil, &syntaxError{off: 0, msg: "the file is empty: want a Yaktribe gang export (JSON)"}, nil
	}
	if c := data[p.pos]; c != '{' && c != '[' {
		return nil, &syntaxError{off: p.pos, msg: "not JSON: a Yaktribe gang export is JSON, an object starting with {"}, nil
	}
	v := p.value()
	if p.err != nil || p.limit != nil {
		return nil, p.err, p.limit
	}
	p.space()
	if p.pos < len(data) {
		return nil, &syntaxError{off: p.pos, msg: "more text after the JSON object: an export holds one"}, nil
	}
	return v, nil, nil
}

func (p *jsonParser) fail(format string, args ...any) {
	if p.err == nil && p.limit == nil {
		p.err = &syntaxError{off: p.pos, path: p.pathString(), msg: fmt.Sprintf(format, args...)}
	}
}

func (p *jsonParser) pathString() string {
	var b strings.Builder
	for _, s := range p.path {
		if b.Len() > 0 && s[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// truncated reports a file that ends inside what it was reading.
func (p *jsonParser) truncated(what string) {
	p.fail("the file ends inside %s: it is cut short (a truncated download?)", what)
}

func (p *jsonParser) value() *value {
	if p.err != nil || p.limit != nil {
		return nil
	}
	if p.nodes++; p.nodes > MaxNodes {
		p.limit = &limitError{off: p.pos, path: p.pathString(), msg: fmt.Sprintf("too many values: an export may hold at most %d", MaxNodes)}
		return nil
	}
	p.space()
	if p.pos == len(p.data) {
		p.fail("the file ends where a value should be: it is cut short (a truncated download?)")
		return nil
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return &value{kind: jsonString, text: s, off: start}
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.data[p.pos:], []byte(lit)) {
				p.pos += len(lit)
				if lit == "null" {
					return &value{kind: jsonNull, text: lit, off: start}
				}
				return &value{kind: jsonBool, text: lit, off: start}
			}
			if bytes.HasPrefix([]byte(lit), p.data[p.pos:]) {
				p.truncated("a value")
				return nil
			}
		}
	}
	p.fail("want a JSON value, got %s", p.here())
	return nil
}

// here describes the text at the current position.
func (p *jsonParser) here() string {
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("the byte 0x%02x", p.data[p.pos])
	}
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("a control character (U+%04X)", r)
	}
	return strconv.QuoteRune(r)
}

func (p *jsonParser) enter() bool {
	if p.depth++; p.depth > MaxDepth {
		p.limit = &limitError{off: p.pos, path: p.pathString(), msg: fmt.Sprintf("nested more than %d deep: not a Yaktribe gang export", MaxDepth)}
		return false
	}
	return true
}

func (p *jsonParser) object() *value {
	v := &value{kind: jsonObject, off: p.pos}
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	p.pos++ // {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v
	}
	for {
		p.space()
		if p.pos == len(p.data) {
			p.truncated("this object")
			return nil
		}
		if p.data[p.pos] != '"' {
			p.fail("want a field name in quotes, got %s", p.here())
			return nil
		}
		keyAt := p.pos
		k, ok := p.str()
		if !ok {
			return nil
		}
		p.space()
		if p.pos == len(p.data) {
			p.truncated("this object")
			return nil
		}
		if p.data[p.pos] != ':' {
			p.fail("want : after the field name %q, got %s", k, p.here())
			return nil
		}
		p.pos++
		p.path = append(p.path, seg(k))
		item := p.value()
		p.path = p.path[:len(p.path)-1]
		if item == nil {
			return nil
		}
		v.keys = append(v.keys, k)
		v.keyAt = append(v.keyAt, keyAt)
		v.items = append(v.items, item)
		p.space()
		if p.pos == len(p.data) {
			p.truncated("this object")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v
		default:
			p.fail("want , or } after the value of %q, got %s", k, p.here())
			return nil
		}
	}
}

func (p *jsonParser) array() *value {
	v := &value{kind: jsonArray, off: p.pos}
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	p.pos++ // [
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v
	}
	for {
		p.path = append(p.path, "["+strconv.Itoa(len(v.items))+"]")
		item := p.value()
		p.path = p.path[:len(p.path)-1]
		if item == nil {
			return nil
		}
		v.items = append(v.items, item)
		p.space()
		if p.pos == len(p.data) {
			p.truncated("this list")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v
		default:
			p.fail("want , or ] after a list item, got %s", p.here())
			return nil
		}
	}
}

// str reads a string literal at p.pos.
func (p *jsonParser) str() (string, bool) {
	p.pos++ // "
	var b strings.Builder
	for {
		if p.pos >= len(p.data) {
			p.truncated("a string")
			return "", false
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), true
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				p.truncated("a string")
				return "", false
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", false
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
						save := p.pos
						p.pos += 2
						lo, ok := p.hex4()
						if !ok {
							return "", false
						}
						if r2 = utf16.DecodeRune(r, lo); r2 == utf8.RuneError {
							p.pos = save
						}
					}
					r = r2
				}
				b.WriteRune(r)
			default:
				p.pos -= 2
				p.fail(`want an escape such as \n or \u00e9 in a string, got \%c`, e)
				return "", false
			}
		case c < 0x20:
			p.fail("a string holds %s: JSON writes it escaped", p.here())
			return "", false
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				p.fail("invalid UTF-8 (the byte 0x%02x): a Yaktribe export is UTF-8 text", c)
				return "", false
			}
			b.Write(p.data[p.pos : p.pos+size])
			p.pos += size
		}
	}
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		p.truncated("a string")
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 16)
	if err != nil {
		p.fail(`want four hexadecimal digits after \u, got %q`, p.data[p.pos:p.pos+4])
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}

// number reads a number literal as RFC 8259 writes it.
func (p *jsonParser) number() *value {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos == len(p.data):
		p.truncated("a number")
		return nil
	case p.data[p.pos] == '0':
		p.pos++
	case digits() == 0:
		p.fail("want a digit, got %s", p.here())
		return nil
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			if p.pos == len(p.data) {
				p.truncated("a number")
			} else {
				p.fail("want a digit after the decimal point, got %s", p.here())
			}
			return nil
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			if p.pos == len(p.data) {
				p.truncated("a number")
			} else {
				p.fail("want a digit in the exponent, got %s", p.here())
			}
			return nil
		}
	}
	if p.pos-start > 40 {
		p.pos = start
		p.fail("a number more than 40 characters long")
		return nil
	}
	return &value{kind: jsonNumber, text: string(p.data[start:p.pos]), off: start}
}

// seg is a field name as a path segment.
func seg(name string) string {
	if name == "" {
		return `""`
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(name)
		}
	}
	return name
}
