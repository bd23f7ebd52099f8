package dsl

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// MaxExprNodes bounds the size of one expression.
const MaxExprNodes = 2000

// referenceCalls are built-ins whose second argument names a declaration;
// a literal there is checked like any other reference.
var referenceCalls = map[string]string{
	"has_skill":     "skill",
	"has_power":     "power",
	"has_condition": "condition",
	"has_trait":     "trait",
	"trait_value":   "trait",
	"can_improve":   "characteristic",
	"can_worsen":    "characteristic",
}

// ReferenceKind says what a literal id passed to a built-in names (the
// last argument: has_skill(m, "iron_will") names a skill), for tools
// that follow references; ok is false for other functions.
func ReferenceKind(callee string) (kind string, ok bool) {
	kind, ok = referenceCalls[callee]
	return kind, ok
}

// compile compiles an expression in a scope, records the program and its
// type on the node, marks the names it uses, and reports any error at the
// exact place in the file. want, if not nil, is the type the context needs.
func (c *checker) compile(e *syntax.Expr, sc *scope, want reflect.Type, what string) reflect.Type {
	if e == nil {
		return nil
	}
	env := sc.exprEnv() // its nature (sc.envNature) only for what is parsed or compiled here
	c.inline.startExpression(env)
	// A parse kept from an earlier check (parsecache.go) is only read.
	tree := c.keptParseOf(e.Text, env)
	kept := tree != nil
	if !kept {
		tree = c.takeParse(e, env)
	}
	if tree == nil {
		var err error
		if tree, err = c.exprc.parseIn(e.Text, env, sc.envNature()); err != nil {
			c.exprError(e, err, sc)
			return nil
		}
	}
	// Uses are read from the expression as written, before expr's checker
	// inlines declared functions, which would hide their calls and bring
	// in their parameters' names.
	c.markUses(e, tree.Node, sc)
	// The same text, reading names of the same types and calling the same
	// functions, compiles the same.
	cp, key := c.findProgram(e.Text, tree.Node, env)
	if cp != nil {
		if !kept {
			c.keepParse(e.Text, tree, env)
		}
		e.Program, e.Fast, e.Slotted, e.Type = cp.program, cp.fast, cp.slotted, cp.typ
		c.countClosure(cp.fast != nil, cp.why)
		return c.wantType(e, cp.typ, want, what)
	}
	if kept {
		// Compiling changes the tree: this one is the expression's own.
		if tree = c.takeParse(e, env); tree == nil {
			var err error
			if tree, err = c.exprc.parseIn(e.Text, env, sc.envNature()); err != nil {
				c.exprError(e, err, sc)
				return nil
			}
		}
	}
	mark := len(c.diags.list)
	program, err := c.exprc.compileTreeIn(tree, env, sc.envNature())
	if err != nil {
		// The error goes before the uses' diagnostics, as it always did.
		uses := slices.Clone(c.diags.list[mark:])
		c.diags.list = c.diags.list[:mark]
		c.exprError(e, err, sc)
		c.diags.list = append(c.diags.list, uses...)
		return nil
	}
	if !c.checkInlinedArgs(e) {
		return nil
	}
	e.Program = program
	why := c.compileClosure(e)
	t := resultType(program.Node())
	e.Type = t
	c.keepProgram(key, &cachedProgram{program: program, fast: e.Fast, slotted: e.Slotted, why: why, typ: t})
	return c.wantType(e, t, want, what)
}

// wantType reports an expression whose type t is not the type want its
// context needs, and returns t.
func (c *checker) wantType(e *syntax.Expr, t, want reflect.Type, what string) reflect.Type {
	if want != nil && !assignable(t, want) {
		if !(want == typeFloat && isNumber(t)) {
			c.diags.errorf(diag.CodeTypeError, diag.RangeOf(e.Pos, e.EndPos), "%s must be %s, but this is %s", what, TypeName(want), TypeName(t))
		}
	}
	return t
}

var (
	reUnknownName = regexp.MustCompile(`^unknown name (\w+)`)
	reNoField     = regexp.MustCompile(`^type (.+) has no (?:field|method) (\w+)`)
	reUnknownFunc = regexp.MustCompile(`^unknown func (\w+)`)
)

// exprError reports an expr compile error at its position in the file,
// with game-level type names and a did-you-mean where one helps.
func (c *checker) exprError(e *syntax.Expr, err error, sc *scope) {
	msg := err.Error()
	at := diag.RangeOf(e.Pos, e.EndPos)
	var ferr *file.Error
	if errors.As(err, &ferr) {
		msg = ferr.Message
		start := exprPosition(e, ferr.From)
		end := start
		if ferr.To > ferr.From {
			end = exprPosition(e, ferr.To)
		}
		at = diag.RangeOf(start, end)
	}
	msg = humanizeTypes.Replace(msg)
	if msg == "unexpected token EOF" {
		msg = "the expression ends too soon"
	}
	if strings.HasSuffix(msg, " is not callable") && ferr != nil {
		// expr names the type (int is not callable); the name called says
		// more, and may be a let hiding a function.
		if name := identAt(e.Text, ferr.From); name != "" && sc.lookup(name) != nil {
			msg = name + " is not callable"
		}
	}
	d := c.diags.errorf(diag.CodeTypeError, at, "%s", msg)
	switch {
	case reUnknownName.MatchString(msg):
		name := reUnknownName.FindStringSubmatch(msg)[1]
		d.Code = diag.CodeUnknownRef
		cands := append(sc.names(), c.callableNames()...)
		d.Suggest(name, cands)
	case reNoField.MatchString(msg):
		m := reNoField.FindStringSubmatch(msg)
		d.Code = diag.CodeUnknownRef
		if t := typeByName(m[1]); t != nil {
			d.Suggest(m[2], fieldNames(t))
		}
	case strings.HasSuffix(msg, " is not callable"):
		name := strings.TrimSuffix(msg, " is not callable")
		if sym := sc.lookup(name); sym != nil && sym.kind != symGlobal {
			for _, f := range c.callableNames() {
				if f == name {
					d.Detail = fmt.Sprintf("The %s %s hides the function %s(…) here; give it another name.", sym.kind, name, name)
				}
			}
		}
	case reUnknownFunc.MatchString(msg):
		d.Code = diag.CodeUnknownRef
		d.Suggest(reUnknownFunc.FindStringSubmatch(msg)[1], c.callableNames())
	}
}

// typeByName finds a state type by the name humanizeTypes gives it.
func typeByName(name string) reflect.Type {
	for _, t := range []reflect.Type{typeGang, typeModel, typeWeapon, typeState, typeBattle, statsType,
		reflect.TypeOf(stdlibMarker), reflect.TypeOf(stdlibArmour), reflect.TypeOf((*FeatureData)(nil))} {
		if TypeName(t) == name || humanizeTypes.Replace(t.String()) == name {
			return t
		}
	}
	return nil
}

// exprPosition maps a rune offset inside an expression to the file.
func exprPosition(e *syntax.Expr, runeOffset int) lexer.Position {
	byteOff := 0
	for i := 0; i < runeOffset && byteOff < len(e.Text); i++ {
		_, size := utf8.DecodeRuneInString(e.Text[byteOff:])
		byteOff += size
	}
	p := e.Pos
	p.Advance(e.Text[:byteOff])
	return p
}

// markUses marks the scope's symbols an expression reads and checks the
// references hidden inside it: natural.ROLL, rolled.ROLL and literal ids
// passed to has_skill and friends.
func (c *checker) markUses(e *syntax.Expr, node ast.Node, sc *scope) {
	v := &useVisitor{c: c, e: e, sc: sc}
	ast.Walk(&node, v)
}

type useVisitor struct {
	c  *checker
	e  *syntax.Expr
	sc *scope
}

func (v *useVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if sym := v.sc.lookup(n.Value); sym != nil {
			sym.used = true
		}
	case *ast.MemberNode:
		base, ok := n.Node.(*ast.IdentifierNode)
		if !ok || (base.Value != GlobalNatural && base.Value != GlobalRolled) {
			return
		}
		prop, ok := n.Property.(*ast.StringNode)
		if !ok {
			return
		}
		sym := v.sc.lookup(prop.Value)
		if sym == nil || (sym.kind != symRoll && sym.kind != symTest) {
			at := diag.RangeOf(exprPosition(v.e, n.Location().From), exprPosition(v.e, n.Location().To))
			var rolls []string
			for _, name := range v.sc.names() {
				if s := v.sc.lookup(name); s.kind == symRoll || s.kind == symTest {
					rolls = append(rolls, name)
				}
			}
			v.c.unknown(at, "roll", prop.Value, rolls)
			return
		}
		sym.used = true
	case *ast.CallNode:
		callee, ok := n.Callee.(*ast.IdentifierNode)
		if !ok {
			return
		}
		v.c.called[callee.Value] = true
		if callee.Value == "features" && len(n.Arguments) == 1 {
			// features("skill"): a literal names a kind of feature.
			if lit, ok := n.Arguments[0].(*ast.StringNode); ok && !slices.Contains(FeatureKinds, lit.Value) {
				at := diag.RangeOf(exprPosition(v.e, lit.Location().From), exprPosition(v.e, lit.Location().To))
				v.c.unknown(at, "kind of feature", fmt.Sprintf("%q", lit.Value), FeatureKinds)
			}
			return
		}
		if callee.Value == "weapon_of" && len(n.Arguments) == 1 {
			// weapon_of({…}): a literal profile's keys are a weapon's fields,
			// and its traits are declared traits.
			if m, ok := n.Arguments[0].(*ast.MapNode); ok {
				v.weaponProfile(m)
			}
			return
		}
		if callee.Value == "stat" && len(n.Arguments) >= 2 {
			// stat(x, "ws"): a literal names a characteristic's or a profile's field.
			if lit, ok := n.Arguments[len(n.Arguments)-1].(*ast.StringNode); ok {
				v.c.statField(diag.RangeOf(exprPosition(v.e, lit.Location().From), exprPosition(v.e, lit.Location().To)), lit.Value)
			}
			return
		}
		kind, ok := referenceCalls[callee.Value]
		if !ok || len(n.Arguments) == 0 {
			return
		}
		lit, ok := n.Arguments[len(n.Arguments)-1].(*ast.StringNode)
		if !ok {
			return
		}
		at := diag.RangeOf(exprPosition(v.e, lit.Location().From), exprPosition(v.e, lit.Location().To))
		if kind == "characteristic" {
			if _, ok := v.c.lookup(nsCore, lit.Value).(*syntax.Characteristic); !ok {
				v.c.unknown(at, kind, fmt.Sprintf("%q", lit.Value), v.c.ofKind(kind))
			}
			return
		}
		if _, ok := v.c.idx.Features[kind][lit.Value]; !ok {
			v.c.unknown(at, kind, fmt.Sprintf("%q", lit.Value), keys(v.c.idx.Features[kind]))
		}
	}
}

// weaponProfile checks a literal profile given to weapon_of: each key a
// field of a weapon, each literal trait (id or id(X)) a declared trait.
func (v *useVisitor) weaponProfile(m *ast.MapNode) {
	at := func(n ast.Node) *diag.Range {
		return diag.RangeOf(exprPosition(v.e, n.Location().From), exprPosition(v.e, n.Location().To))
	}
	for _, p := range m.Pairs {
		pair, ok := p.(*ast.PairNode)
		if !ok {
			continue
		}
		key, ok := pair.Key.(*ast.StringNode)
		if !ok {
			continue
		}
		if !slices.Contains(stdlib.WeaponFields(), key.Value) {
			v.c.unknown(at(key), "weapon field", key.Value, stdlib.WeaponFields())
			continue
		}
		list, ok := pair.Value.(*ast.ArrayNode)
		if key.Value != "traits" || !ok {
			continue
		}
		for _, e := range list.Nodes {
			lit, ok := e.(*ast.StringNode)
			if !ok {
				continue
			}
			id, _, _ := strings.Cut(lit.Value, "(")
			if _, ok := v.c.idx.Features["trait"][strings.TrimSpace(id)]; !ok {
				v.c.unknown(at(lit), "trait", fmt.Sprintf("%q", lit.Value), keys(v.c.idx.Features["trait"]))
			}
		}
	}
}

// callableNames lists the functions an expression may call.
func (c *checker) callableNames() []string {
	names := keys(c.idx.Functions)
	for _, f := range builtinNames() {
		names = append(names, f)
	}
	return names
}

// parseTemplate splits an emit message into text and {expression} parts
// (templateParts), or takes the parts made ahead (preparse.go), and
// reports what is wrong in it.
func (c *checker) parseTemplate(s *syntax.Str) []*syntax.TemplatePart {
	if t := c.pre.takeTemplate(s); t != nil {
		c.diags.list = append(c.diags.list, t.diags...)
		return t.parts
	}
	var d diagnostics
	parts := templateParts(s, &d)
	c.diags.list = append(c.diags.list, d.list...)
	return parts
}

// templateParts splits an emit message into text and {expression} parts.
// Braces are doubled to print them: {{ and }}. What is wrong goes to
// diags.
func templateParts(s *syntax.Str, diags *diagnostics) []*syntax.TemplatePart {
	raw := s.Raw
	// Decode the literal while remembering where each decoded byte came
	// from, so an expression's errors point into the file exactly.
	decoded, origin := decodeWithOrigins(raw)
	var parts []*syntax.TemplatePart
	var text strings.Builder
	posAt := func(i int) lexer.Position {
		p := s.Pos
		p.Advance(raw[:origin[i]])
		return p
	}
	for i := 0; i < len(decoded); i++ {
		ch := decoded[i]
		switch {
		case ch == '{' && i+1 < len(decoded) && decoded[i+1] == '{':
			text.WriteByte('{')
			i++
		case ch == '}' && i+1 < len(decoded) && decoded[i+1] == '}':
			text.WriteByte('}')
			i++
		case ch == '{':
			end := strings.IndexByte(decoded[i+1:], '}')
			if end < 0 {
				p := posAt(i)
				diags.errorf(diag.CodeParseError, diag.RangeOf(p, p), "unclosed { in message")
				return parts
			}
			if text.Len() > 0 {
				parts = append(parts, &syntax.TemplatePart{Text: text.String()})
				text.Reset()
			}
			src := decoded[i+1 : i+1+end]
			e := &syntax.Expr{Text: src, Pos: posAt(i + 1)}
			e.EndPos = e.Pos
			e.EndPos.Advance(src)
			if strings.TrimSpace(src) == "" {
				diags.errorf(diag.CodeParseError, diag.RangeOf(e.Pos, e.EndPos), "empty {} in message")
			}
			parts = append(parts, &syntax.TemplatePart{Expr: e})
			i += end + 1
		case ch == '}':
			p := posAt(i)
			diags.errorf(diag.CodeParseError, diag.RangeOf(p, p), "unmatched } in message (write }} for a brace)")
		default:
			text.WriteByte(ch)
		}
	}
	if text.Len() > 0 {
		parts = append(parts, &syntax.TemplatePart{Text: text.String()})
	}
	return parts
}

// decodeWithOrigins unquotes a string literal, returning for each decoded
// byte the offset in raw it came from.
func decodeWithOrigins(raw string) (string, []int) {
	if len(raw) < 2 {
		return "", nil
	}
	var out []byte
	var origin []int
	if raw[0] == '`' {
		for i := 1; i < len(raw)-1; i++ {
			out = append(out, raw[i])
			origin = append(origin, i)
		}
		return string(out), origin
	}
	for i := 1; i < len(raw)-1; {
		if raw[i] != '\\' {
			out = append(out, raw[i])
			origin = append(origin, i)
			i++
			continue
		}
		// Decode one escape with strconv's rules.
		j := i + 2
		for j <= len(raw)-1 {
			if v, err := unquoteOne(raw[i:j]); err == nil {
				for k := 0; k < len(v); k++ {
					out = append(out, v[k])
					origin = append(origin, i)
				}
				break
			}
			j++
		}
		if j > len(raw)-1 {
			out = append(out, raw[i])
			origin = append(origin, i)
			j = i + 1
		}
		i = j
	}
	return string(out), origin
}

var (
	stdlibMarker = (*state.Marker)(nil)
	stdlibArmour = (*state.Armour)(nil)
)

// unquoteOne decodes a single escape sequence such as \n or \u00e9.
func unquoteOne(esc string) (string, error) { return strconv.Unquote(`"` + esc + `"`) }

// BuiltinNames lists the functions every expression may call besides the
// rules' own: expr's built-ins and munda's.
func BuiltinNames() []string { return builtinNames() }

// builtinNames lists expr's and munda's built-in functions.
func builtinNames() []string {
	names := append(stdlib.FunctionNames(), "can_improve", "can_worsen", "features")
	for _, b := range builtin.Builtins {
		if !slices.Contains(stdlib.DisabledBuiltins, b.Name) {
			names = append(names, b.Name)
		}
	}
	return names
}

// resultType is an expression's type as expr's checker found it. A list
// built by filter() or map() is []any to Go, but expr knows its elements:
// report them, so a loop over the list is typed. nil means unknown.
func resultType(node ast.Node) reflect.Type {
	n := node.Nature()
	t := node.Type()
	if n != nil && n.Type != nil {
		t = n.Type
	}
	if t == nil || t.Kind() == reflect.Interface {
		return nil
	}
	if n != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t.Elem().Kind() == reflect.Interface &&
		n.Ref != nil && n.Ref.Type != nil && n.Ref.Type.Kind() != reflect.Interface {
		return reflect.SliceOf(n.Ref.Type)
	}
	return t
}

// identAt is the name that starts at a rune offset of an expression's
// text, or "".
func identAt(text string, runeOffset int) string {
	i := 0
	for n := 0; n < runeOffset && i < len(text); n++ {
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	j := i
	for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || j > i && text[j] >= '0' && text[j] <= '9') {
		j++
	}
	return text[i:j]
}
