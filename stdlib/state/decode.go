package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/internal/yamldoc"
	"gopkg.in/yaml.v3"
)

// Limits on state files, which may come from anyone.
const (
	MaxStateBytes = 16 << 20  // bytes in a state file
	MaxModels     = 10_000    // models in all gangs together
	MaxStateNodes = 1_000_000 // YAML nodes (keys, values, list items)
	MaxProblems   = 50        // problems reported before giving up
)

// Problems in a state file are diag.Diagnostics, one a problem, each with
// a code (diag.CodeState…), the field path at fault (Path, e.g.
// gangs[1].models[3].stats.cl) and, when the place is known, a Subject in
// the file; their one-line form is file:line:col: path: message.

// ReadFile reads and decodes a state file (YAML, or JSON for .json).
func ReadFile(path string) (*State, error) {
	// A pipe blocks on open and a device never ends: a regular file only.
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxStateBytes+1))
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode reads a battle state from YAML or JSON (one schema: JSON is read
// as YAML). Field names are the `json` tags of the structs in state.go,
// unknown fields and wrong types are errors, and the result is checked by
// Validate. The error, if any, is a diag.Diagnostics listing each problem
// (up to MaxProblems) with its code, field path and place in the file.
// Back-pointers (Gang.State, Model.Gang) are set. No input makes Decode
// panic.
func Decode(name string, data []byte) (*State, error) { return DecodeWith(name, data, nil) }

// DecodeWith is Decode for a state that meets rules: it also checks the
// state's words against the rules' vocabulary (see ValidateWith).
func DecodeWith(name string, data []byte, voc *Vocabulary) (st *State, err error) {
	d := &decoder{name: name, data: data, voc: voc}
	defer func() {
		if r := recover(); r != nil { // a bug in a parser must not take the caller down
			st, err = nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeStateInternal, Subject: &diag.Range{Filename: name},
				Summary: fmt.Sprintf("internal error reading the state: %v", r)}}
		}
	}()
	if line, col, what := notText(data); what != "" {
		d.problem(diag.CodeStateSyntax, line, col, "", what)
		return nil, d.problems
	}
	root := d.parse(data)
	if root == nil {
		if len(d.problems) == 0 { // parse always says why; never return a nil list as an error
			d.problem(diag.CodeStateInternal, 0, 0, "", "internal error: the state was not read, and no reason was given")
		}
		return nil, d.problems
	}
	st = new(State)
	d.decodeStruct(root, reflect.ValueOf(st).Elem(), stateSchema)
	if len(d.problems) > 0 {
		return nil, d.problems
	}
	st.link()
	if verr := ValidateWith(st, voc); verr != nil {
		var ds diag.Diagnostics
		if !errors.As(verr, &ds) {
			return nil, verr
		}
		for _, p := range ds {
			line, col := 0, 0
			if p.Path != "" {
				line, col = locate(root, p.Path)
			}
			d.problem(p.Code, line, col, p.Path, p.Summary)
		}
		return nil, d.problems
	}
	return st, nil
}

// link sets the back-pointers.
func (s *State) link() {
	for _, g := range s.Gangs {
		if g == nil {
			continue
		}
		g.State = s
		for _, m := range g.Models {
			if m != nil {
				m.Gang = g
			}
		}
	}
}

type decoder struct {
	name     string // the file, as diagnostics show it
	data     []byte
	lines    *diag.Lines // where lines start, once needed
	voc      *Vocabulary // the rules' words, for hints; nil for none
	problems diag.Diagnostics
	stop     bool     // too many problems, or a limit was hit
	path     []string // field names and "[i]" of the node being read
	models   int
}

// add records a problem at node n (nil for none) on the current path plus
// extra.
func (d *decoder) add(n *yaml.Node, code, extra, msg string) {
	if d.stop {
		return
	}
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	d.problem(code, line, col, d.pathString(extra), msg)
	if len(d.problems) >= MaxProblems {
		d.fatal(nil, diag.CodeStateLimit, "too many problems; stopping here")
	}
}

// fatal records a problem and stops reading.
func (d *decoder) fatal(n *yaml.Node, code, msg string) {
	if d.stop {
		return
	}
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	d.problem(code, line, col, "", msg)
	d.stop = true
}

// problem records a diagnostic at a line and column of the file (0 when
// unknown).
// Locate gives diagnostics that carry only a field path (problems found
// once a state was read, such as a model breaking what the rules expect
// of its kind) the place in the file where that field is written.
func Locate(name string, data []byte, ds diag.Diagnostics) {
	d := &decoder{name: name, data: data}
	root := d.parse(data)
	if root == nil {
		return
	}
	for _, p := range ds {
		if p.Path == "" || p.Subject != nil {
			continue
		}
		p.Subject = &diag.Range{Filename: name}
		if line, col := locate(root, p.Path); line > 0 {
			pos := diag.Pos{Line: line, Column: col, Offset: d.offset(line, col)}
			p.Subject.Start, p.Subject.End = pos, pos
		}
	}
}

func (d *decoder) problem(code string, line, col int, path, msg string) {
	at := &diag.Range{Filename: d.name}
	if line > 0 {
		p := diag.Pos{Line: line, Column: col, Offset: d.offset(line, col)}
		at.Start, at.End = p, p
	}
	d.problems = append(d.problems, &diag.Diagnostic{Severity: diag.Error, Code: code, Summary: msg, Path: path, Subject: at})
}

// offset is the byte offset of a line and column (in characters), for
// tools that read the JSON form.
func (d *decoder) offset(line, col int) int {
	if d.lines == nil {
		d.lines = diag.NewLines(d.data)
	}
	return d.lines.Offset(line, col)
}

func (d *decoder) pathString(extra string) string {
	var b strings.Builder
	for _, s := range d.path {
		writeSeg(&b, s)
	}
	if extra != "" {
		writeSeg(&b, extra)
	}
	return b.String()
}

func writeSeg(b *strings.Builder, s string) {
	if b.Len() > 0 && s[0] != '[' {
		b.WriteByte('.')
	}
	b.WriteString(s)
}

// parse turns the bytes into the root mapping node, or records why not.
func (d *decoder) parse(data []byte) *yaml.Node {
	if len(data) > MaxStateBytes {
		d.fatal(nil, diag.CodeStateLimit, fmt.Sprintf("file too large: %d bytes, the limit is %d", len(data), MaxStateBytes))
		return nil
	}
	if n := countIndicators(data); n > MaxStateNodes {
		d.fatal(nil, diag.CodeStateLimit, fmt.Sprintf("too many entries: a state file may hold at most %d YAML nodes", MaxStateNodes))
		return nil
	}
	data = normalizeJSON(data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			d.fatal(nil, diag.CodeStateSyntax, "empty file: want a mapping with battle and gangs")
		} else {
			d.yamlError(err)
		}
		return nil
	}
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case err == io.EOF:
	case err != nil:
		d.yamlError(err)
		return nil
	default:
		d.fatal(&more, diag.CodeStateSyntax, "more than one YAML document: a state file holds one")
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.fatal(&doc, diag.CodeStateSyntax, "want a mapping with battle and gangs")
		return nil
	}
	if !d.checkNodes(&doc) {
		return nil
	}
	return doc.Content[0]
}

// yamlError records an error from the YAML parser, with its line.
func (d *decoder) yamlError(err error) {
	line, msg := yamldoc.ErrorLine(err)
	d.problem(diag.CodeStateSyntax, line, 0, "", "invalid YAML: "+msg)
	d.stop = true
}

// notText reports where a file stops being UTF-8 text (a NUL byte or an
// invalid sequence), so a binary file is called one.
func notText(data []byte) (line, col int, what string) {
	// A NUL anywhere makes the file binary, whatever comes before it (an
	// ELF file starts with DEL): name the NUL's place.
	if nul := bytes.IndexByte(data, 0); nul >= 0 {
		line, col = position(data, nul)
		return line, col, "the file is binary (it contains a NUL byte); a state file is YAML or JSON text"
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			line, col = position(data, i)
			return line, col, fmt.Sprintf("invalid UTF-8 (byte 0x%02x); a state file is YAML or JSON text", data[i])
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f, r >= 0x80 && r < 0xa0 && r != 0x85:
			// Neither YAML nor JSON allows control characters in text.
			line, col = position(data, i)
			return line, col, fmt.Sprintf("a control character (U+%04X); a state file is YAML or JSON text", r)
		}
		i += size
	}
	return 0, 0, ""
}

// position is the line and column (in characters) of byte offset off.
func position(data []byte, off int) (line, col int) {
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(data[start:off])
}

// checkNodes counts the nodes and refuses aliases, so that no alias can
// expand into a bomb and no file can hold more than MaxStateNodes nodes.
func (d *decoder) checkNodes(doc *yaml.Node) bool {
	count := 0
	stack := []*yaml.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		if count > MaxStateNodes {
			d.fatal(nil, diag.CodeStateLimit, fmt.Sprintf("too many entries: a state file may hold at most %d YAML nodes", MaxStateNodes))
			return false
		}
		if n.Kind == yaml.AliasNode {
			d.fatal(n, diag.CodeStateSyntax, fmt.Sprintf("aliases (*%s) are not allowed in state files; write the value out", n.Value))
			return false
		}
		for i := len(n.Content) - 1; i >= 0; i-- { // so the first alias in the file is the one reported
			stack = append(stack, n.Content[i])
		}
	}
	return true
}

// countIndicators counts the bytes that can start a YAML node (-:,?[{).
// Every node but the root is introduced by one of them, and none brings
// more than three, so this bounds the node count before the parser spends
// memory on nodes.
func countIndicators(data []byte) int {
	n := 0
	for _, c := range data {
		switch c {
		case '-', ':', ',', '?', '[', '{':
			n++
		}
	}
	return n
}

// normalizeJSON rewrites the two JSON string escapes YAML parsers refuse:
// "\/" and surrogate pairs ("\ud83d\ude00"). It only touches valid JSON.
func normalizeJSON(data []byte) []byte {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return data
	}
	if !bytes.Contains(data, []byte(`\/`)) && !bytes.Contains(data, []byte(`\u`)) && !bytes.Contains(data, []byte(`\U`)) {
		return data
	}
	if !json.Valid(data) {
		return data
	}
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !inString:
			if c == '"' {
				inString = true
			}
			out = append(out, c)
		case c == '"':
			inString = false
			out = append(out, c)
		case c == '\\' && i+1 < len(data):
			switch data[i+1] {
			case '/':
				out = append(out, '/')
				i++
			case 'u':
				r, n := jsonEscapedRune(data[i:])
				if n == 0 {
					out = append(out, c)
					continue
				}
				if r >= 0xd800 && r <= 0xdfff { // lone surrogate
					r = utf8.RuneError
				}
				out = append(out, `\U`...)
				out = append(out, fmt.Sprintf("%08x", r)...)
				i += n - 1
			default:
				out = append(out, c, data[i+1])
				i++
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// jsonEscapedRune decodes \uXXXX (and a following low surrogate) at the
// start of b, returning the rune and the bytes used (0 if malformed).
func jsonEscapedRune(b []byte) (rune, int) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if r >= 0xd800 && r < 0xdc00 {
		if lo, ok := hex4(b[6:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
			return 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00), 12
		}
	}
	return r, 6
}

// describe says what a node is, for "got …".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	v := n.Value
	if utf8.RuneCountInString(v) > 40 {
		r := []rune(v)
		v = string(r[:40]) + "…"
	}
	switch n.ShortTag() {
	case "!!str":
		return strconv.Quote(v)
	case "!!null":
		return "null"
	case "!!int", "!!float", "!!bool":
		return v
	}
	return n.ShortTag() + " " + strconv.Quote(v)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, si *structInfo) {
	if d.stop {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.add(n, diag.CodeStateType, "", "want a mapping of fields, got "+describe(n))
		return
	}
	var seen [maxFields / 64]uint64
	for i := 0; i+1 < len(n.Content) && !d.stop; i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			if k.ShortTag() == "!!merge" {
				d.add(k, diag.CodeStateSyntax, "", "merge keys (<<) are not allowed in state files")
			} else {
				d.add(k, diag.CodeStateUnknownField, "", "want a field name, got "+describe(k))
			}
			continue
		}
		name := k.Value
		j, ok := si.byName[name]
		if !ok {
			d.add(k, diag.CodeStateUnknownField, safeSeg(name), diag.Suggest("unknown field", name, si.names))
			continue
		}
		if seen[j/64]&(1<<(j%64)) != 0 {
			first := 0
			for p := 0; p < i; p += 2 {
				if c := n.Content[p]; c.Kind == yaml.ScalarNode && c.Value == name {
					first = c.Line
					break
				}
			}
			d.add(k, diag.CodeStateDuplicateField, name, fmt.Sprintf("duplicate field (first given on line %d)", first))
			continue
		}
		f := &si.fields[j]
		if isNull(val) {
			continue // null is the zero value; a required field stays missing
		}
		seen[j/64] |= 1 << (j % 64)
		d.path = append(d.path, name)
		d.decodeField(val, v, si, f)
		d.path = d.path[:len(d.path)-1]
	}
	for j := range si.fields {
		if f := &si.fields[j]; f.required && seen[j/64]&(1<<(j%64)) == 0 && !d.stop {
			msg := "required field is missing"
			if h := d.hint(f.name); h != "" {
				msg += " (" + h + ")"
			}
			d.add(n, diag.CodeStateMissingField, f.name, msg)
		}
	}
}

// requiredHints explain required fields in "missing" messages; the
// vocabulary explains the fields whose words the rules declare (kind,
// status).
var requiredHints = map[string]string{
	"id":   "a unique id, e.g. goliath_leader",
	"base": "every model needs its base diameter in millimetres, e.g. 25 or 32",
}

func (d *decoder) hint(field string) string {
	if h := requiredHints[field]; h != "" {
		return h
	}
	return d.voc.hint(field)
}

// safeSeg makes an unknown key printable in a path.
func safeSeg(s string) string {
	if s == "" {
		return `""`
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(s)
		}
	}
	return s
}

func (d *decoder) decodeField(n *yaml.Node, parent reflect.Value, si *structInfo, f *fieldInfo) {
	v := parent.Field(f.index)
	switch f.kind {
	case kindString:
		if s, ok := d.str(n); ok {
			v.SetString(s)
		}
	case kindBool:
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
			switch strings.ToLower(n.Value) {
			case "true":
				if !f.folded || !v.Bool() {
					v.SetBool(true)
				}
				return
			case "false":
				if !f.folded { // a flag set by "S+1" or "-" stays set
					v.SetBool(false)
				}
				return
			}
		}
		d.add(n, diag.CodeStateType, "", "want true or false, got "+describe(n))
	case kindInt:
		x, flag, ok := d.number(n, f.format)
		if !ok {
			return
		}
		if v.OverflowInt(x) {
			d.add(n, diag.CodeStateType, "", "want a whole number, got "+describe(n)+" (out of range)")
			return
		}
		v.SetInt(x)
		if flag && f.flag >= 0 {
			parent.Field(si.fields[f.flag].index).SetBool(true)
		}
	case kindFloat:
		if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
			if x, ok := parseFloat(n.Value); ok {
				v.SetFloat(x)
				return
			}
		}
		d.add(n, diag.CodeStateType, "", "want a finite number, got "+describe(n))
	case kindStrings:
		if n.Kind != yaml.SequenceNode {
			d.add(n, diag.CodeStateType, "", "want a list of strings like [a, b], got "+describe(n))
			return
		}
		if len(n.Content) == 0 {
			return
		}
		list := make([]string, 0, len(n.Content))
		for i, item := range n.Content {
			d.path = append(d.path, "["+strconv.Itoa(i)+"]")
			if s, ok := d.str(item); ok {
				list = append(list, s)
			}
			d.path = d.path[:len(d.path)-1]
		}
		v.Set(reflect.ValueOf(list))
	case kindStructs:
		if n.Kind != yaml.SequenceNode {
			d.add(n, diag.CodeStateType, "", "want a list, got "+describe(n))
			return
		}
		if f.elem == modelSchema {
			d.models += len(n.Content)
			if d.models > MaxModels {
				d.fatal(n, diag.CodeStateLimit, fmt.Sprintf("too many models: a state may hold at most %d", MaxModels))
				return
			}
		}
		if len(n.Content) == 0 {
			return
		}
		list := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		elems := reflect.MakeSlice(reflect.SliceOf(f.elem.typ), len(n.Content), len(n.Content)) // one allocation for all
		for i, item := range n.Content {
			if d.stop {
				break
			}
			d.path = append(d.path, "["+strconv.Itoa(i)+"]")
			e := elems.Index(i)
			list.Index(i).Set(e.Addr())
			d.decodeStruct(item, e, f.elem)
			d.path = d.path[:len(d.path)-1]
		}
		v.Set(list)
	case kindStruct:
		d.decodeStruct(n, v, f.elem)
	case kindOptFloat:
		if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
			if x, ok := parseFloat(n.Value); ok {
				v.Set(reflect.ValueOf(&x))
				return
			}
		}
		d.add(n, diag.CodeStateType, "", "want a finite number, got "+describe(n))
	case kindValues:
		if m := d.values(n); m != nil {
			v.Set(reflect.ValueOf(m))
		}
	default:
		d.add(n, diag.CodeStateInternal, "", "this field cannot be read from a state file")
	}
}

// str reads a string scalar.
func (d *decoder) str(n *yaml.Node) (string, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!str" || n.ShortTag() == "!!merge" && n.Value == "<<") {
		return n.Value, true // a plain << is only a merge key as a key
	}
	msg := "want a string, got " + describe(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" && n.Style == 0 {
		msg += fmt.Sprintf(`; write "%s" in quotes if you mean the text`, n.Value)
	}
	d.add(n, diag.CodeStateType, "", msg)
	return "", false
}

// wants says what each number format looks like, for error messages.
var wants = [...]string{
	formatPlain:    "want a whole number",
	formatTarget:   `want a target number like 7 or "7+"`,
	formatInches:   `want a distance in inches like 5 or '5"'`,
	formatModifier: `want a modifier like -1, "+1" or "-"`,
	formatStrength: `want a Strength like 4, "S", "S+1" or "S-1"`,
	formatDamage:   `want a Damage like 2 or "-"`,
}

// number reads an integer field written as format allows; flag reports a
// string form that sets the field's flag ("S+1", "-").
func (d *decoder) number(n *yaml.Node, format fieldFormat) (x int64, flag, ok bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int", "!!float":
			if x, ok := parseInt(n.Value); ok {
				return x, false, true
			}
			d.add(n, diag.CodeStateType, "", wants[format]+", got "+describe(n)+" (not a whole number in range)")
			return 0, false, false
		case "!!str":
			if x, flag, ok := parseNumberString(n.Value, format); ok {
				return x, flag, true
			}
			msg := wants[format] + ", got " + describe(n)
			if format == formatDamage && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(n.Value)), "D") {
				msg += " (random Damage is not supported)"
			}
			d.add(n, diag.CodeStateType, "", msg)
			return 0, false, false
		}
	}
	d.add(n, diag.CodeStateType, "", wants[format]+", got "+describe(n))
	return 0, false, false
}

// parseInt reads a YAML integer (decimal, 0x, 0o, 0b, underscores), or a
// float with a whole value such as 5.0.
func parseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	sign, body := "", s
	if len(body) > 0 && (body[0] == '+' || body[0] == '-') {
		sign, body = body[:1], body[1:]
	}
	base := 10
	if len(body) > 2 && body[0] == '0' {
		switch body[1] {
		case 'x', 'X':
			base, body = 16, body[2:]
		case 'o', 'O':
			base, body = 8, body[2:]
		case 'b', 'B':
			base, body = 2, body[2:]
		}
	}
	if body == "" || body[0] == '+' || body[0] == '-' {
		return 0, false
	}
	if sign == "+" {
		sign = ""
	}
	if x, err := strconv.ParseInt(sign+body, base, 64); err == nil {
		return x, true
	}
	if f, ok := parseFloat(s); ok && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f), true
	}
	return 0, false
}

// parseFloat reads a finite YAML number.
func parseFloat(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if x, ok := parseIntOnly(s); ok {
		return float64(x), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// parseIntOnly reads integers in the bases parseFloat's ParseFloat would
// misread (0x1F is hex, 0o17 octal).
func parseIntOnly(s string) (int64, bool) {
	t := strings.TrimLeft(s, "+-")
	if len(t) > 2 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])) {
		return parseInt(s)
	}
	return 0, false
}

// parseNumberString reads the string forms of a number: "7+", '5"', "+1",
// "-", "S+1".
func parseNumberString(s string, format fieldFormat) (x int64, flag, ok bool) {
	s = strings.TrimSpace(s)
	switch format {
	case formatTarget:
		if t, found := strings.CutSuffix(s, "+"); found {
			x, ok = digits(strings.TrimSpace(t))
		}
	case formatInches:
		for _, mark := range []string{`"`, "″", "in"} {
			if t, found := strings.CutSuffix(s, mark); found {
				x, ok = digits(strings.TrimSpace(t))
				break
			}
		}
	case formatModifier:
		if isDash(s) {
			return 0, false, true
		}
		x, ok = signed(s)
	case formatStrength:
		if len(s) > 0 && (s[0] == 'S' || s[0] == 's') {
			rest := strings.ReplaceAll(s[1:], " ", "")
			if rest == "" {
				return 0, true, true
			}
			if rest[0] == '+' || rest[0] == '-' || strings.HasPrefix(rest, "−") {
				x, ok = signed(rest)
				return x, ok, ok
			}
		}
	case formatDamage:
		if isDash(s) {
			return 0, true, true
		}
	}
	return x, false, ok
}

func isDash(s string) bool {
	switch s {
	case "-", "–", "—", "−":
		return true
	}
	return false
}

// digits reads a small unsigned decimal.
func digits(s string) (int64, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	var x int64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int64(c-'0')
	}
	return x, true
}

// signed reads an optionally signed small decimal; "−" (U+2212) is a minus.
func signed(s string) (int64, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "−"):
		neg, s = true, s[len("−"):]
	}
	x, ok := digits(strings.TrimSpace(s))
	if neg {
		x = -x
	}
	return x, ok
}

// locate finds the line and column of a path (as Validate writes it) in a
// decoded file, or of its nearest existing ancestor.
func locate(root *yaml.Node, path string) (int, int) {
	n := root
	line, col := n.Line, n.Column
	for path != "" && n != nil {
		var seg string
		if path[0] == '[' {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				break
			}
			seg, path = path[:end+1], path[end+1:]
		} else {
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			seg, path = path[:end], path[end:]
		}
		path = strings.TrimPrefix(path, ".")
		var next *yaml.Node
		if seg[0] == '[' {
			i, err := strconv.Atoi(seg[1 : len(seg)-1])
			if err == nil && n.Kind == yaml.SequenceNode && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
		} else if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == seg {
					next = n.Content[i+1]
					// point at the key: values of lists start on the next line
					line, col = n.Content[i].Line, n.Content[i].Column
					break
				}
			}
			if next == nil {
				return line, col
			}
			n = next
			continue
		}
		if next == nil {
			return line, col
		}
		n = next
		line, col = n.Line, n.Column
	}
	return line, col
}

// The state-file schema is read from the structs in state.go: a field's
// name is its `json` tag, and its `state` tag says how the file writes it:
//
//	state:"required"               the field must be present (and not null)
//	state:"target"                 a target number: 7 or "7+"
//	state:"inches"                 a distance: 5 or '5"'
//	state:"modifier"               a modifier: -1, "+1", or "-" for none
//	state:"strength=user_strength" a weapon's Strength: 4, or "S", "S+1", "S-1"
//	                               (which set the named bool field)
//	state:"damage=no_damage"       a weapon's Damage: 2, or "-" (which sets
//	                               the named bool field)
//
// Options combine with commas: state:"required,target".

// fieldKind is the Go shape of a field.
type fieldKind uint8

const (
	kindUnsupported fieldKind = iota
	kindString
	kindBool
	kindInt
	kindFloat
	kindStrings  // []string
	kindStructs  // []*T
	kindStruct   // T
	kindValues   // map[string]any: plain values by key (recorded.go)
	kindOptFloat // *float64: a number the file may leave out (a model's facing)
)

// fieldFormat is how a number is written in the file.
type fieldFormat uint8

const (
	formatPlain fieldFormat = iota
	formatTarget
	formatInches
	formatModifier
	formatStrength
	formatDamage
)

type fieldInfo struct {
	name      string // json name
	goName    string
	index     int // Go field index
	kind      fieldKind
	format    fieldFormat
	omitEmpty bool
	required  bool
	// flag is the position in structInfo.fields of the bool a strength or
	// damage string sets ("S+1", "-"), or -1.
	flag int
	// folded marks a bool that another field's string form carries; the
	// encoder writes it only when that form cannot.
	folded bool
	elem   *structInfo // kindStruct, kindStructs
}

type structInfo struct {
	typ    reflect.Type
	fields []fieldInfo
	byName map[string]int
	names  []string // for did-you-mean
}

// maxFields bounds the fields of one struct (the decoder tracks which it
// has seen in a fixed bitset).
const maxFields = 128

var (
	stateSchema    = schemaOf(reflect.TypeOf(State{}), map[reflect.Type]*structInfo{})
	gangSchema     = stateSchema.field("gangs").elem
	modelSchema    = gangSchema.field("models").elem
	statsSchema    = modelSchema.field("stats").elem
	weaponSchema   = modelSchema.field("weapons").elem
	armourSchema   = modelSchema.field("armour").elem
	battleSchema   = stateSchema.field("battle").elem
	markerSchema   = battleSchema.field("markers").elem
	durationSchema = battleSchema.field("durations").elem
)

func (si *structInfo) field(name string) *fieldInfo {
	if i, ok := si.byName[name]; ok {
		return &si.fields[i]
	}
	return nil
}

// schemaOf builds the schema of a struct type. It never panics: a field of
// a shape the reader does not know is kindUnsupported (the tests insist
// there are none).
func schemaOf(t reflect.Type, seen map[reflect.Type]*structInfo) *structInfo {
	if si, ok := seen[t]; ok {
		return si
	}
	si := &structInfo{typ: t, byName: map[string]int{}}
	seen[t] = si
	flags := map[int]string{} // position → name of the flag it sets
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" || name == "" {
			continue
		}
		f := fieldInfo{name: name, goName: sf.Name, index: i, flag: -1, omitEmpty: hasOpt(opts, "omitempty")}
		for _, o := range strings.Split(sf.Tag.Get("state"), ",") {
			key, val, _ := strings.Cut(strings.TrimSpace(o), "=")
			switch key {
			case "required":
				f.required = true
			case "target":
				f.format = formatTarget
			case "inches":
				f.format = formatInches
			case "modifier":
				f.format = formatModifier
			case "strength":
				f.format = formatStrength
				flags[len(si.fields)] = val
			case "damage":
				f.format = formatDamage
				flags[len(si.fields)] = val
			}
		}
		switch ft := sf.Type; {
		case ft.Kind() == reflect.String:
			f.kind = kindString
		case ft.Kind() == reflect.Bool:
			f.kind = kindBool
		case ft.Kind() == reflect.Int:
			f.kind = kindInt
		case ft.Kind() == reflect.Float64:
			f.kind = kindFloat
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String:
			f.kind = kindStrings
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Pointer && ft.Elem().Elem().Kind() == reflect.Struct:
			f.kind = kindStructs
			f.elem = schemaOf(ft.Elem().Elem(), seen)
		case ft.Kind() == reflect.Struct:
			f.kind = kindStruct
			f.elem = schemaOf(ft, seen)
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Float64:
			f.kind = kindOptFloat
		case ft.Kind() == reflect.Map && ft.Key().Kind() == reflect.String && ft.Elem().Kind() == reflect.Interface:
			f.kind = kindValues
		}
		if f.kind != kindInt {
			f.format = formatPlain
		}
		si.byName[name] = len(si.fields)
		si.fields = append(si.fields, f)
		si.names = append(si.names, name)
	}
	for pos, flagName := range flags {
		if j, ok := si.byName[flagName]; ok && si.fields[j].kind == kindBool {
			si.fields[pos].flag = j
			si.fields[j].folded = true
		} else {
			si.fields[pos].format = formatPlain // a mistyped tag: fall back to a plain number
		}
	}
	if len(si.fields) > maxFields {
		si.fields = si.fields[:maxFields]
	}
	return si
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}
