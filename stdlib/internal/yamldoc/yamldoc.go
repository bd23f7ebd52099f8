// Package yamldoc reads the small YAML data files of a ruleset (an
// equipment catalogue, an import mapping) strictly, for packages that
// decode them by hand: within bounds, without aliases or merge keys, with
// every field known, and every problem a diagnostic with its field path
// and place in the file. It knows nothing of what the files mean.
package yamldoc

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/munda-rules/munda/dsl/diag"
)

// MaxProblems is how many problems a file gets before reading stops.
const MaxProblems = 50

// Codes are the diagnostic codes a reader reports with: Syntax for a file
// that is not YAML it reads (or too large), Entry for a field of the
// wrong name, shape or value.
type Codes struct {
	Syntax, Entry string
}

// Doc is a file being read: its root node and the problems found so far.
type Doc struct {
	Name     string
	Data     []byte
	Root     *yaml.Node // the document's top node; nil if it did not parse
	Codes    Codes
	Problems diag.Diagnostics
	lines    *diag.Lines // where lines start, once needed
}

// Parse reads data as one YAML document of at most maxBytes bytes and
// maxNodes nodes, refusing aliases and merge keys. The Doc's Root is nil
// when it cannot be read, with the reason among its Problems.
func Parse(name string, data []byte, maxBytes, maxNodes int, codes Codes) *Doc {
	d := &Doc{Name: name, Data: data, Codes: codes}
	if len(data) > maxBytes {
		d.Add(nil, codes.Syntax, "", fmt.Sprintf("the file is too large: %d bytes, the limit is %d", len(data), maxBytes))
		return d
	}
	if i := bytes.IndexByte(data, 0); i >= 0 || !utf8.Valid(data) {
		d.Add(nil, codes.Syntax, "", "the file is not text (it is binary, or not UTF-8)")
		return d
	}
	n := 0
	for _, c := range data { // every node but the root starts with one of these
		switch c {
		case '-', ':', ',', '?', '[', '{':
			n++
		}
	}
	if n > 3*maxNodes {
		d.Add(nil, codes.Syntax, "", fmt.Sprintf("the file holds too many entries: the limit is %d YAML nodes", maxNodes))
		return d
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			d.Add(nil, codes.Syntax, "", "the file is empty")
		} else {
			d.yamlError(err)
		}
		return d
	}
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case err == io.EOF:
	case err != nil:
		d.yamlError(err)
		return d
	default:
		d.Add(&more, codes.Syntax, "", "more than one YAML document: the file holds one")
		return d
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.Add(&doc, codes.Syntax, "", "want a mapping of fields")
		return d
	}
	count := 0
	stack := []*yaml.Node{doc.Content[0]}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if count++; count > maxNodes {
			d.Add(nil, codes.Syntax, "", fmt.Sprintf("the file holds too many entries: the limit is %d YAML nodes", maxNodes))
			return d
		}
		if n.Kind == yaml.AliasNode {
			d.Add(n, codes.Syntax, "", fmt.Sprintf("aliases (*%s) are not allowed; write the value out", n.Value))
			return d
		}
		if n.ShortTag() == "!!merge" && n.Value == "<<" {
			d.Add(n, codes.Syntax, "", "merge keys (<<) are not allowed; write the fields out")
			return d
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
	d.Root = doc.Content[0]
	return d
}

// yamlError records an error of the YAML parser, with its line.
func (d *Doc) yamlError(err error) {
	line, msg := ErrorLine(err)
	d.problem(d.Codes.Syntax, line, 0, "", "invalid YAML: "+msg, diag.Error)
}

// ErrorLine reads an error of yaml.v3 as the file's line and the message
// without its "yaml: line N:" prefix. The line is that of the construct
// at fault (a flow mapping left open is reported where it opened).
// yaml.v3 counts it from 1 for scanner errors but from 0 for parser errors
// (go-yaml/yaml#205), and leaves it out when it is 0; parser errors are
// told by their message, a closed set.
func ErrorLine(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				line, msg = n, after
			}
		}
	}
	switch {
	case parserProblems[msg]:
		line++
	case line == 0:
		line = 1 // a scanner error on the first line
	}
	return line, msg
}

// parserProblems are the messages of yaml.v3's parser (parserc.go); all
// other syntax errors come from its scanner.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// Stopped reports whether reading should stop: too many problems.
func (d *Doc) Stopped() bool { return len(d.Problems) >= MaxProblems }

// Add records a problem at node n (nil for the file) with the field path.
func (d *Doc) Add(n *yaml.Node, code, path, msg string) {
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	d.problem(code, line, col, path, msg, diag.Error)
}

// Warn records a warning at node n.
func (d *Doc) Warn(n *yaml.Node, code, path, msg string) {
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	d.problem(code, line, col, path, msg, diag.Warning)
}

// At is the range of node n in the file.
func (d *Doc) At(n *yaml.Node) *diag.Range {
	r := &diag.Range{Filename: d.Name}
	if n != nil && n.Line > 0 {
		p := diag.Pos{Line: n.Line, Column: n.Column, Offset: d.offset(n.Line, n.Column)}
		r.Start, r.End = p, p
	}
	return r
}

func (d *Doc) problem(code string, line, col int, path, msg string, sev diag.Severity) {
	if len(d.Problems) > MaxProblems {
		return
	}
	if len(d.Problems) == MaxProblems {
		d.Problems = append(d.Problems, &diag.Diagnostic{Severity: diag.Error, Code: d.Codes.Syntax, Subject: &diag.Range{Filename: d.Name},
			Summary: "too many problems; stopping here"})
		return
	}
	at := &diag.Range{Filename: d.Name}
	if line > 0 {
		p := diag.Pos{Line: line, Column: col, Offset: d.offset(line, col)}
		at.Start, at.End = p, p
	}
	d.Problems = append(d.Problems, &diag.Diagnostic{Severity: sev, Code: code, Summary: msg, Path: path, Subject: at})
}

// offset is the byte offset of a line and column (in characters).
func (d *Doc) offset(line, col int) int {
	if d.lines == nil {
		d.lines = diag.NewLines(d.Data)
	}
	return d.lines.Offset(line, col)
}

// Field is one field of a mapping, in the file's order.
type Field struct {
	Name  string
	Key   *yaml.Node
	Value *yaml.Node
	Path  string
}

// Fields reads a mapping whose keys are field names: each known one once.
// An unknown name (with a did-you-mean), a name given twice and a key
// that is no name are problems; null values count as left out. With
// known nil, any name is accepted (a mapping of names to values). It
// returns nil if n is not a mapping.
func (d *Doc) Fields(n *yaml.Node, path string, known []string) []Field {
	if n == nil || n.Kind != yaml.MappingNode {
		d.Add(n, d.Codes.Entry, path, "want a mapping of fields, got "+Describe(n))
		return nil
	}
	var out []Field
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" && k.ShortTag() != "!!int" {
			d.Add(k, d.Codes.Entry, path, "want a name, got "+Describe(k))
			continue
		}
		name := k.Value
		sub := Join(path, name)
		if known != nil && !contains(known, name) {
			d.Add(k, d.Codes.Entry, sub, diag.Suggest("unknown field", name, known))
			continue
		}
		if first, dup := seen[name]; dup {
			d.Add(k, d.Codes.Entry, sub, fmt.Sprintf("given twice (first on line %d)", first))
			continue
		}
		seen[name] = k.Line
		if IsNull(v) {
			continue
		}
		out = append(out, Field{Name: name, Key: k, Value: v, Path: sub})
	}
	return out
}

// Join adds a field name to a path.
func Join(path, name string) string {
	seg := name
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			seg = strconv.Quote(name)
			break
		}
	}
	if path == "" {
		return seg
	}
	return path + "." + seg
}

// Index adds a list index to a path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Items reads a list; nil, with a problem, if n is not one.
func (d *Doc) Items(n *yaml.Node, path string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		d.Add(n, d.Codes.Entry, path, "want a list, got "+Describe(n))
		return nil
	}
	return n.Content
}

// String reads a string.
func (d *Doc) String(n *yaml.Node, path string) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		return n.Value, true
	}
	msg := "want a string, got " + Describe(n)
	if n.Kind == yaml.ScalarNode && n.Style == 0 && !IsNull(n) {
		msg += fmt.Sprintf(`; write "%s" in quotes if you mean the text`, n.Value)
	}
	d.Add(n, d.Codes.Entry, path, msg)
	return "", false
}

// Strings reads a list of strings, or one string as a list of one.
func (d *Doc) Strings(n *yaml.Node, path string) []string {
	if n.Kind == yaml.ScalarNode {
		if s, ok := d.String(n, path); ok {
			return []string{s}
		}
		return nil
	}
	var out []string
	for i, item := range d.Items(n, path) {
		if s, ok := d.String(item, Index(path, i)); ok {
			out = append(out, s)
		}
	}
	return out
}

// Bool reads true or false.
func (d *Doc) Bool(n *yaml.Node, path string) (bool, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		return strings.EqualFold(n.Value, "true"), true
	}
	d.Add(n, d.Codes.Entry, path, "want true or false, got "+Describe(n))
	return false, false
}

// Number reads a finite number between lo and hi.
func (d *Doc) Number(n *yaml.Node, path string, lo, hi float64) (float64, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			if f >= lo && f <= hi {
				return f, true
			}
			d.Add(n, d.Codes.Entry, path, fmt.Sprintf("want a number from %v to %v, got %s", lo, hi, n.Value))
			return 0, false
		}
	}
	d.Add(n, d.Codes.Entry, path, "want a number, got "+Describe(n))
	return 0, false
}

// Describe says what a node is, for "got …".
func Describe(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	v := n.Value
	if utf8.RuneCountInString(v) > 40 {
		v = string([]rune(v)[:40]) + "…"
	}
	switch n.ShortTag() {
	case "!!str":
		return strconv.Quote(v)
	case "!!null":
		return "null"
	}
	return v
}

// IsNull reports whether n is null (a field left out).
func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
