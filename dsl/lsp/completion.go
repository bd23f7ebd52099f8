package lsp

// This file answers completion. What is offered depends on the text just
// before the cursor: the ids a keyword takes after it (apply a table, call
// a procedure, roll a dice, test a characteristic, signal an event, the
// target of an effect and its lets or rows), fields after a dot, the ids
// has_skill and its kin take in quotes, and in expressions the functions
// and the names in scope. The ids come from the latest analysis of the
// pack that was checked, so completion works while the file is half
// typed.

import (
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// maxContext bounds how much of the line before the cursor is looked at.
const maxContext = 512

// The contexts of completion, matched against the line before the word
// being typed.
var (
	reQuotedID   = regexp.MustCompile(`(\w+)\([^()"]*,\s*"$`)
	reMember     = regexp.MustCompile(`([A-Za-z_]\w*(?:\.\w+)*)\.$`)
	reEffect     = regexp.MustCompile(`^\s*(?:modify|reroll|extra_dice|override|before|after|instead_of)\s+$`)
	reEffectPart = regexp.MustCompile(`^\s*(?:modify|reroll|extra_dice|override|before|after|instead_of)\s+(\w+)\.$`)
	reApply      = regexp.MustCompile(`\bapply\s+$`)
	reApplyRow   = regexp.MustCompile(`\bapply\s+(\w+)\b.*\b(?:row|reroll)\s+(?:\w+\s*,\s*)*$`)
	reCall       = regexp.MustCompile(`\bcall\s+$`)
	reRun        = regexp.MustCompile(`^\s*run\s+$`)
	reDice       = regexp.MustCompile(`(?:\broll\s+\w+\s*=\s*(?:\([^()]*\)\s*|\d+\s+)?|^\s*roll\s+|\bcheck\s+|\bsum\s+\d+\s+|\bdigits\s+(?:\w+\s*,\s*)*)$`)
	reChar       = regexp.MustCompile(`(?:\btest\s+\w+\s*=\s*|\b(?:improve|worsen)\s+)$`)
	reEvent      = regexp.MustCompile(`(?:\bsignal\s+|^\s*on\s+)$`)
	reListItem   = regexp.MustCompile(`^\s*(?:add|remove)\s+$`)
	reReplaceRow = regexp.MustCompile(`\breplace\s+row\s+$`)
	reKind       = regexp.MustCompile(`(?:\blimits\s+|\bcarries\s+(?:\w+\s*,\s*)*)$`)
	reExtends    = regexp.MustCompile(`\bextends\s+$`)
	reStmtStart  = regexp.MustCompile(`^\s*$`)
	reWord       = regexp.MustCompile(`\w*$`)
)

func (s *Server) completion(_ *glsp.Context, params *protocol.CompletionParams) (any, error) {
	uri := params.TextDocument.URI
	ps, d := s.packFor(uri)
	if d == nil || ps == nil {
		return nil, requestFailed("%s is not open", uri)
	}
	s.mu.Lock()
	text := d.text
	a := ps.lastGood
	if a == nil {
		a = ps.latest
	}
	s.mu.Unlock()
	if a == nil {
		a = s.analysisOf(ps)
	}
	lines := newLineIndex(text)
	off := lines.offset(params.Position)
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	prefix := text[max(lineStart, off-maxContext):off]
	before := strings.TrimSuffix(prefix, reWord.FindString(prefix))
	c := &completer{a: a, items: map[string]protocol.CompletionItem{}}
	if fi := a.fileAt(uri); fi != nil && fi.ast != nil {
		c.decl = enclosingDecl(fi.ast, int(params.Position.Line)+1)
	}
	c.complete(before)
	return c.list(), nil
}

// completer gathers the items of one completion.
type completer struct {
	a     *analysis
	decl  syntax.Decl // the declaration the cursor is in, as last checked
	items map[string]protocol.CompletionItem
}

func (c *completer) complete(before string) {
	x := c.a.refs
	switch lineContext(before) {
	case inComment:
		return
	case inText:
		// Words of a text, a source, a message: nothing to offer, unless
		// the string is an id has_skill and its kin take.
		if m := reQuotedID.FindStringSubmatch(before); m != nil {
			c.quotedID(m[1])
		}
		return
	case inMessage:
		// An expression inside a message's braces: "{fighter.".
		before = before[strings.LastIndexByte(before, '{')+1:]
		if strings.TrimSpace(before) == "" {
			c.expression()
			return
		}
	}
	switch {
	case reQuotedID.MatchString(before):
		c.quotedID(reQuotedID.FindStringSubmatch(before)[1])
	case reEffectPart.MatchString(before):
		target := reEffectPart.FindStringSubmatch(before)[1]
		switch x.coreKinds[target] {
		case "procedure":
			c.parts(nsSite, target)
		case "table":
			c.parts(nsRow, target)
		}
	case reMember.MatchString(before):
		c.fields(reMember.FindStringSubmatch(before)[1])
	case reEffect.MatchString(before):
		c.core("procedure", "table", "characteristic", "event")
	case reApplyRow.MatchString(before):
		c.parts(nsRow, reApplyRow.FindStringSubmatch(before)[1])
	case reApply.MatchString(before), reReplaceRow.MatchString(before):
		c.core("table")
	case reCall.MatchString(before):
		c.core("procedure")
	case reRun.MatchString(before):
		c.core("procedure", "table")
	case reDice.MatchString(before):
		c.core("dice")
	case reChar.MatchString(before):
		c.core("characteristic")
	case reEvent.MatchString(before):
		c.core("event")
	case reListItem.MatchString(before):
		kinds := make([]string, 0, len(x.features))
		for k := range x.features {
			kinds = append(kinds, k)
		}
		c.features(kinds...)
		for id, tables := range x.rowTables {
			for _, t := range tables {
				c.symbol(symbolKey{nsRow, t + "." + id}, id, protocol.CompletionItemKindEnumMember)
			}
		}
	case reKind.MatchString(before):
		c.all(nsKind, protocol.CompletionItemKindInterface)
	case reExtends.MatchString(before):
		for _, b := range rulesets.Bases() {
			c.add(dsl.NormalizeID(b), "ruleset", protocol.CompletionItemKindModule)
		}
	case reStmtStart.MatchString(before):
		// The start of a statement or declaration: keywords, not ids.
	default:
		c.expression()
	}
}

// quotedID offers the ids a built-in takes in quotes: has_skill's
// skills, can_improve's characteristics.
func (c *completer) quotedID(callee string) {
	kind, ok := dsl.ReferenceKind(callee)
	switch {
	case !ok:
	case kind == "characteristic":
		c.core(kind)
	default:
		c.features(kind)
	}
}

// Where the end of a line's text is (lineContext).
const (
	inCode    = iota
	inText    // a string literal
	inMessage // braces inside a string: an expression of a message
	inComment
)

// lineContext says where the end of a line's text is. A string begun on
// an earlier line (a raw one) is not seen.
func lineContext(line string) int {
	str, depth := false, 0
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; {
		case !str && ch == '"':
			str, depth = true, 0
		case !str && ch == '/' && i+1 < len(line) && line[i+1] == '/':
			return inComment
		case !str:
		case ch == '\\':
			i++
		case ch == '"' && depth == 0:
			str = false
		case ch == '{' && i+1 < len(line) && line[i+1] == '{':
			i++ // {{ is a brace
		case ch == '{':
			depth++
		case ch == '}' && depth > 0:
			depth--
		}
	}
	switch {
	case str && depth > 0:
		return inMessage
	case str:
		return inText
	}
	return inCode
}

// expression offers what an expression may name: functions, and the
// names in scope where the cursor is.
func (c *completer) expression() {
	for _, name := range dsl.BuiltinNames() {
		c.add(name, "built-in function", protocol.CompletionItemKindFunction)
	}
	for _, f := range stdlib.Functions {
		if it, ok := c.items[f.Name]; ok && f.Doc != "" {
			it.Documentation = f.Doc
			c.items[f.Name] = it
		}
	}
	for id, kind := range c.a.refs.coreKinds {
		if kind == "function" || kind == "table" && c.isLookup(id) {
			c.symbol(symbolKey{nsCore, id}, id, protocol.CompletionItemKindFunction)
		}
	}
	for _, g := range []string{dsl.GlobalState, dsl.GlobalBattle, dsl.GlobalGangs, dsl.GlobalNatural, dsl.GlobalRolled} {
		c.add(g, "global", protocol.CompletionItemKindVariable)
	}
	for name, what := range c.scope() {
		c.add(name, what, protocol.CompletionItemKindVariable)
	}
}

// isLookup reports whether a table is called like a function (a band
// or condition table whose rows give values).
func (c *completer) isLookup(id string) bool {
	if c.a.checked {
		if t := c.a.rules.Index.Tables[id]; t != nil {
			return t.Lookup
		}
	}
	return false
}

// scope lists the names declared in the declaration the cursor is in:
// its parameters, and a procedure's lets, rolls, tests, choices and loop
// variables.
func (c *completer) scope() map[string]string {
	out := map[string]string{}
	var params []*syntax.Param
	switch d := c.decl.(type) {
	case *syntax.Procedure:
		params = d.Params
	case *syntax.Table:
		params = d.Params
	case *syntax.Function:
		params = d.Params
	case *syntax.Event:
		params = d.Params
	}
	for _, p := range params {
		if p.Name != nil {
			out[p.Name.Name] = "parameter: " + p.TypeName()
		}
	}
	if c.decl != nil {
		syntax.Inspect(c.decl, func(n any) bool {
			switch n := n.(type) {
			case *syntax.Let:
				out[n.Name.Name] = "let"
			case *syntax.Roll:
				out[n.Name.Name] = "roll"
			case *syntax.TestStmt:
				out[n.Name.Name] = "test"
			case *syntax.Choose:
				out[n.Name.Name] = "choice"
			case *syntax.ForEach:
				out[n.Var.Name] = "loop variable"
			}
			return true
		})
	}
	return out
}

// fields offers the fields of what chain names: a parameter, a global,
// a loop variable, and fields of those; when its type is not known, the
// fields of every type of the state.
func (c *completer) fields(chain string) {
	parts := strings.Split(chain, ".")
	if parts[0] == dsl.GlobalNatural || parts[0] == dsl.GlobalRolled {
		for name, what := range c.scope() {
			if what == "roll" || what == "test" {
				c.add(name, what, protocol.CompletionItemKindVariable)
			}
		}
		return
	}
	t := c.typeOf(parts[0], 0)
	for _, p := range parts[1:] {
		if t == nil {
			break
		}
		t = fieldType(t, p)
	}
	types := []reflect.Type{t}
	if t == nil {
		types = stateTypes
	}
	for _, t := range types {
		for _, f := range fieldsOf(t) {
			c.add(f.name, dsl.TypeName(f.typ), protocol.CompletionItemKindField)
		}
	}
}

// stateTypes are the types of the state whose fields expressions read.
var stateTypes = []reflect.Type{
	reflect.TypeOf(state.State{}), reflect.TypeOf(state.Battle{}), reflect.TypeOf(state.Gang{}),
	reflect.TypeOf(state.Model{}), reflect.TypeOf(state.Weapon{}), reflect.TypeOf(state.Stats{}),
}

// typeOf is the type of a name in the declaration the cursor is in, or
// nil when it is not known.
func (c *completer) typeOf(name string, depth int) reflect.Type {
	switch name {
	case dsl.GlobalState:
		return reflect.TypeOf(state.State{})
	case dsl.GlobalBattle:
		return reflect.TypeOf(state.Battle{})
	}
	if c.decl == nil || depth > 4 {
		return nil
	}
	var found reflect.Type
	var params []*syntax.Param
	switch d := c.decl.(type) {
	case *syntax.Procedure:
		params = d.Params
	case *syntax.Table:
		params = d.Params
	case *syntax.Function:
		params = d.Params
	}
	for _, p := range params {
		if p.Name != nil && p.Name.Name == name {
			return dsl.ParamTypes[p.TypeName()]
		}
	}
	// A loop variable is an element of its list, when the list is a
	// chain of names.
	syntax.Inspect(c.decl, func(n any) bool {
		fe, ok := n.(*syntax.ForEach)
		if !ok || found != nil || fe.Var.Name != name || fe.List == nil {
			return found == nil
		}
		parts := strings.Split(strings.TrimSpace(fe.List.Text), ".")
		t := c.typeOf(parts[0], depth+1)
		if parts[0] == dsl.GlobalGangs {
			t = reflect.TypeOf([]*state.Gang(nil))
		}
		for _, p := range parts[1:] {
			if t == nil {
				break
			}
			t = fieldType(t, p)
		}
		if t != nil && t.Kind() == reflect.Slice {
			found = t.Elem()
		}
		return false
	})
	return found
}

// field is a field expressions can read.
type field struct {
	name string
	typ  reflect.Type
}

// fieldsOf lists the fields of a struct type (through pointers) as
// expressions name them: by their expr tags.
func fieldsOf(t reflect.Type) []field {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []field
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("expr"); tag != "" && tag != "-" {
			out = append(out, field{tag, t.Field(i).Type})
		}
	}
	return out
}

func fieldType(t reflect.Type, name string) reflect.Type {
	for _, f := range fieldsOf(t) {
		if f.name == name {
			return f.typ
		}
	}
	return nil
}

// core offers the core namespace's ids of some kinds of declaration.
func (c *completer) core(kinds ...string) {
	for id, kind := range c.a.refs.coreKinds {
		for _, k := range kinds {
			if kind == k {
				c.symbol(symbolKey{nsCore, id}, id, completionKind(kind))
			}
		}
	}
}

// features offers the ids of features of some kinds.
func (c *completer) features(kinds ...string) {
	for _, k := range kinds {
		for id := range c.a.refs.features[k] {
			c.symbol(symbolKey{k, id}, id, protocol.CompletionItemKindClass)
		}
	}
}

// parts offers the rows of a table or the lets, rolls, tests and steps
// of a procedure.
func (c *completer) parts(ns, owner string) {
	for key := range c.a.refs.byKey {
		if key.ns == ns && strings.HasPrefix(key.id, owner+".") {
			kind := protocol.CompletionItemKindEnumMember
			if ns == nsSite {
				kind = protocol.CompletionItemKindVariable
			}
			c.symbol(key, strings.TrimPrefix(key.id, owner+"."), kind)
		}
	}
}

// all offers every declared id of a namespace.
func (c *completer) all(ns string, kind protocol.CompletionItemKind) {
	for key := range c.a.refs.byKey {
		if key.ns == ns {
			c.symbol(key, key.id, kind)
		}
	}
}

// symbol offers a declared thing, with its kind and title as detail.
func (c *completer) symbol(key symbolKey, label string, kind protocol.CompletionItemKind) {
	detail := key.ns
	if key.ns == nsCore {
		detail = c.a.refs.coreKinds[key.id]
	}
	for _, o := range c.a.refs.byKey[key] {
		if o.decl {
			if key.ns == nsSite {
				detail = siteKind(o.node)
			}
			if t := titleOf(o.node); t != "" {
				detail += ": " + t
			}
			break
		}
	}
	c.add(label, detail, kind)
}

func (c *completer) add(label, detail string, kind protocol.CompletionItemKind) {
	if _, ok := c.items[label]; ok {
		return
	}
	k := kind
	c.items[label] = protocol.CompletionItem{Label: label, Kind: &k, Detail: &detail}
}

func (c *completer) list() []protocol.CompletionItem {
	out := make([]protocol.CompletionItem, 0, len(c.items))
	for _, it := range c.items {
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// titleOf is a declaration's (or row's, or step's) title, if it has one.
func titleOf(node any) string {
	v := reflect.ValueOf(node)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return ""
	}
	if f := v.Elem().FieldByName("Title"); f.IsValid() {
		if s, ok := f.Interface().(*syntax.Str); ok && s != nil {
			return s.Value()
		}
	}
	return ""
}

func completionKind(declKind string) protocol.CompletionItemKind {
	switch declKind {
	case "procedure", "function":
		return protocol.CompletionItemKindFunction
	case "table":
		return protocol.CompletionItemKindStruct
	case "dice":
		return protocol.CompletionItemKindEnum
	case "characteristic":
		return protocol.CompletionItemKindProperty
	case "event":
		return protocol.CompletionItemKindEvent
	}
	return protocol.CompletionItemKindReference
}

// enclosingDecl is the top-level declaration whose lines hold line
// (1-based), or nil.
func enclosingDecl(f *syntax.File, line int) syntax.Decl {
	for _, d := range f.Decls {
		start, end := syntax.Span(d)
		if start.Line <= line && line <= end.Line {
			if rp, ok := d.(*syntax.Replace); ok && rp.Decl != nil {
				return rp.Decl
			}
			return d
		}
	}
	return nil
}
