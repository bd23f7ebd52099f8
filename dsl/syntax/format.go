package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/munda-rules/munda/dsl/diag"
)

// CodeFormatError marks output the formatter refuses to write: it would not
// parse, or it would parse into different rules.
const CodeFormatError = "format_error"

// errLongLine is why Format fails: an expression joined onto one line
// would make it longer than Parse accepts.
var errLongLine = fmt.Errorf("over the limit of %d", MaxLineLength)

// FormatSource parses src, formats it and checks the result: the output
// must parse again into the same syntax tree. If it does not, FormatSource
// returns no output and a CodeFormatError diagnostic: a formatter bug must
// never change what the rules mean. Parse errors are returned as they are.
func FormatSource(name string, src []byte) ([]byte, diag.Diagnostics) {
	return formatChecked(name, src, Format)
}

// formatChecked is FormatSource with the printer as a parameter, so tests
// can check that a broken printer is caught.
func formatChecked(name string, src []byte, format func(*File) ([]byte, error)) ([]byte, diag.Diagnostics) {
	f, diags := Parse(name, src)
	if diags.HasErrors() {
		return nil, diags
	}
	start := lexer.Position{Filename: name, Line: 1, Column: 1}
	const bug = "This is a bug in the formatter; the file was left as it was."
	refuse := func(at lexer.Position, summary, detail string) diag.Diagnostics {
		if at.Line == 0 {
			at = start
		}
		return diag.Diagnostics{{Severity: diag.Error, Code: CodeFormatError, Subject: diag.RangeOf(at, at), Summary: summary, Detail: detail}}
	}
	out, err := format(f)
	if errors.Is(err, errLongLine) {
		return nil, refuse(start, err.Error(), "An expression written over several lines would not fit on one; break it up with a let.")
	}
	if err != nil {
		return nil, refuse(start, err.Error(), bug)
	}
	g, diags := Parse(name, out)
	if diags.HasErrors() {
		return nil, refuse(start, "formatted output does not parse: "+diags[0].Summary, bug)
	}
	if path, at := firstDiff(f, g); path != "" {
		return nil, refuse(at, "formatting would change the rules at "+path, bug)
	}
	return out, nil
}

// Format prints a parsed file in canonical form: two-space indentation,
// one item a line, braced bodies always broken over lines (`{}` when
// empty), single spaces between tokens, one blank line between
// declarations and at most one, where the source had some, between items.
// An expression prints on one line unless a comment sits inside it; then
// it prints as written. Comments are taken from f.Comments and placed by
// their positions (so f should come from Parse): on their own line before
// what follows them, or at the end of the line they ended; a line comment
// in the middle of an item moves to the end of the item's line.
//
// Format fails only if a line would grow beyond MaxLineLength, or on a node
// type it does not know.
func Format(f *File) (out []byte, err error) {
	if f == nil {
		return nil, errors.New("format: no file")
	}
	p := newPrinter(f)
	defer func() {
		// A node the printer does not know (the grammar grew) is an error,
		// not a crash.
		switch r := recover().(type) {
		case nil:
		case unknownNode:
			out, err = nil, fmt.Errorf("format: cannot print %T", r.node)
		default:
			panic(r)
		}
	}()
	p.noBlank = true
	for i, d := range f.Decls {
		p.item(posOf(d))
		p.decl(d)
		if i < len(f.Decls)-1 {
			p.forceBlank = true
		}
	}
	// Comments after the last declaration.
	p.forceBlank = len(f.Decls) > 0
	p.linebreak()
	p.leading(math.MaxInt)
	p.linebreak()
	out = p.out.Bytes()
	for i, line := range bytes.Split(out, []byte("\n")) {
		if len(line) > MaxLineLength {
			return nil, fmt.Errorf("format: line %d would be %d bytes long: %w", i+1, len(line), errLongLine)
		}
	}
	return out, nil
}

// printer writes tokens in canonical layout and weaves the file's comments
// back in by source position: before each token it prints the comments
// that came before it in the source.
type printer struct {
	out      bytes.Buffer
	src      []byte
	toks     []lexer.Token // significant source tokens, to find keywords' positions
	comments []Comment
	ci       int       // next comment to print
	deferred []Comment // line comments met mid-line, printed when it ends

	indent     int
	lineOpen   bool // the current output line has text
	afterCmt   bool // the last thing written on the line is a comment
	noBlank    bool // no blank line may come next (after `{`, at file start)
	forceBlank bool // a blank line must come next (between declarations)

	cursor     int // source offset just after the last printed token or comment
	cursorLine int // source line of that point
}

func newPrinter(f *File) *printer {
	p := &printer{src: f.Source, comments: append([]Comment(nil), f.Comments...)}
	if f.Source != nil {
		if toks, err := lexer.ConsumeAll(mustLex(f.Name, f.Source)); err == nil {
			for _, t := range toks {
				if t.Type != tokComment && t.Type != ruleLexer.Symbols()["Whitespace"] && !t.EOF() {
					p.toks = append(p.toks, t)
				}
			}
		}
	}
	// Comments must be in source order for the merge below.
	sort.SliceStable(p.comments, func(i, j int) bool { return p.comments[i].Pos.Offset < p.comments[j].Pos.Offset })
	return p
}

// unknownNode is panicked with, and recovered by Format, on a node type
// the printer has no case for.
type unknownNode struct{ node any }

// span is where a printed token came from; off < 0 when unknown.
type span struct {
	off, end, line, endLine int
}

var noSpan = span{off: -1}

func spanOf(pos, end lexer.Position) span {
	if pos.Line == 0 {
		return noSpan
	}
	return span{off: pos.Offset, end: end.Offset, line: pos.Line, endLine: end.Line}
}

// tokenSpan is the span of a token with the given text at pos. A node's
// EndPos cannot give it: participle sets EndPos to where the next token
// starts when comments follow.
func tokenSpan(pos lexer.Position, text string) span {
	end := pos
	end.Advance(text)
	return spanOf(pos, end)
}

func isLineComment(c Comment) bool { return strings.HasPrefix(c.Text, "//") }

// commentText drops a line comment's trailing blanks (and a CRLF's \r).
func commentText(c Comment) string {
	if isLineComment(c) {
		return strings.TrimRight(c.Text, " \t\r")
	}
	return c.Text
}

func commentEnd(c Comment) (off, line int) {
	return c.Pos.Offset + len(c.Text), c.Pos.Line + strings.Count(c.Text, "\n")
}

// nextToken returns the first significant source token at or after off.
func (p *printer) nextToken(off int) *lexer.Token {
	i := sort.Search(len(p.toks), func(i int) bool { return p.toks[i].Pos.Offset >= off })
	if i == len(p.toks) {
		return nil
	}
	return &p.toks[i]
}

// lastTokenBefore returns the offset of the last significant source token
// before a node's EndPos (its closing brace), or -1 without a source.
func (p *printer) lastTokenBefore(end lexer.Position) int {
	i := sort.Search(len(p.toks), func(i int) bool { return p.toks[i].Pos.Offset >= end.Offset })
	if end.Line == 0 || i == 0 {
		return -1
	}
	return p.toks[i-1].Pos.Offset
}

// keyword finds the source position of a fixed token the grammar requires
// at this point: the next source token, if it reads the same.
func (p *printer) keyword(text string) span {
	t := p.nextToken(p.cursor)
	if t == nil || t.Value != text {
		return noSpan
	}
	return tokenSpan(t.Pos, t.Value)
}

// newlineAfter reports whether only blanks separate the source offset from
// the end of its line.
func newlineAfter(src []byte, off int) bool {
	for ; off < len(src); off++ {
		switch src[off] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

func (p *printer) writeIndent() {
	for i := 0; i < p.indent; i++ {
		p.out.WriteString("  ")
	}
}

// startLine begins a new output line for something from source line
// `line`, keeping one blank line where the source had any.
func (p *printer) startLine(line int) {
	if p.forceBlank || (!p.noBlank && p.cursorLine > 0 && line-p.cursorLine >= 2) {
		p.out.WriteByte('\n')
	}
	p.forceBlank, p.noBlank = false, false
	p.writeIndent()
	p.lineOpen = true
}

func (p *printer) endLine() {
	p.out.WriteByte('\n')
	p.lineOpen, p.afterCmt = false, false
}

// linebreak ends the current line, first appending the comments that
// belong at its end: line comments met mid-line, then those that follow the
// last token on the same source line.
func (p *printer) linebreak() {
	if !p.lineOpen {
		return
	}
	pending := p.deferred
	p.deferred = nil
	next := math.MaxInt
	if t := p.nextToken(p.cursor); t != nil {
		next = t.Pos.Offset
	}
	for p.ci < len(p.comments) {
		c := p.comments[p.ci]
		if c.Pos.Offset >= next || c.Pos.Offset < p.cursor || c.Pos.Line != p.cursorLine {
			break
		}
		pending = append(pending, c)
		p.ci++
		p.cursor, p.cursorLine = commentEnd(c)
	}
	for i, c := range pending {
		if i > 0 && isLineComment(pending[i-1]) {
			// A line comment ends its line: the rest go on lines of their
			// own, at the indentation of what follows, and after the blank
			// line that follows a declaration (where the next pass will
			// find them).
			p.out.WriteByte('\n')
			if p.forceBlank {
				p.out.WriteByte('\n')
				p.forceBlank = false
			}
			p.writeIndent()
		} else {
			p.out.WriteByte(' ')
		}
		p.out.WriteString(commentText(c))
	}
	p.endLine()
}

// leading prints the comments before source offset off that start lines of
// their own: each on its own line, unless a block comment shares its line
// with what follows.
func (p *printer) leading(off int) {
	for p.ci < len(p.comments) && p.comments[p.ci].Pos.Offset < off {
		c := p.comments[p.ci]
		p.ci++
		if p.lineOpen {
			p.out.WriteByte(' ')
		} else {
			p.startLine(c.Pos.Line)
		}
		p.out.WriteString(commentText(c))
		p.lineOpen, p.afterCmt = true, true
		p.cursor, p.cursorLine = commentEnd(c)
		if isLineComment(c) || newlineAfter(p.src, p.cursor) {
			p.endLine()
		}
	}
}

// midline prints the comments before source offset off while a line is
// open: block comments stay where they are, line comments wait for the
// end of the line (they would swallow the rest of it).
func (p *printer) midline(off int) {
	for p.ci < len(p.comments) && p.comments[p.ci].Pos.Offset < off {
		c := p.comments[p.ci]
		p.ci++
		if isLineComment(c) {
			p.deferred = append(p.deferred, c)
			continue
		}
		if b := p.out.Bytes(); len(b) == 0 || b[len(b)-1] != '(' {
			p.out.WriteByte(' ')
		}
		p.out.WriteString(c.Text)
		p.afterCmt = true
		p.cursor, p.cursorLine = commentEnd(c)
	}
}

// token writes one token; space says whether it is separated from the
// previous one on the line.
func (p *printer) token(text string, s span, space bool) {
	if s.off >= 0 {
		if p.lineOpen {
			p.midline(s.off)
		} else {
			p.leading(s.off)
		}
	}
	if !p.lineOpen {
		line := s.line
		if s.off < 0 {
			line = p.cursorLine
		}
		p.startLine(line)
	} else if space || (p.afterCmt && text != "," && text != ")") {
		p.out.WriteByte(' ')
	}
	p.out.WriteString(text)
	p.afterCmt = false
	if s.off >= 0 {
		p.cursor, p.cursorLine = s.end, s.endLine
	}
}

// ---------------------------------------------------------------------------
// Pieces of syntax.

func (p *printer) kw(text string)    { p.token(text, p.keyword(text), true) }
func (p *printer) glued(text string) { p.token(text, p.keyword(text), false) }

// skip passes over a source token the canonical form leaves out (the empty
// `()` of a table or an apply), so comments around it stay in order.
func (p *printer) skip(text string) {
	if s := p.keyword(text); s.off >= 0 {
		if p.lineOpen {
			p.midline(s.off)
		}
		p.cursor, p.cursorLine = s.end, s.endLine
	}
}

func (p *printer) ident(id *Ident, space bool) {
	p.token(id.Name, tokenSpan(id.Pos, id.Name), space)
}

func (p *printer) str(s *Str) { p.token(s.Raw, tokenSpan(s.Pos, s.Raw), true) }

func (p *printer) int(n *Int, space bool) {
	if !n.Neg {
		p.token(n.Digits, tokenSpan(n.Pos, n.Digits), space)
		return
	}
	p.token("-", tokenSpan(n.Pos, "-"), space)
	// Blanks or comments may separate the sign from the digits.
	p.token(n.Digits, p.keyword(n.Digits), false)
}

// expr prints an expression on one line, or as written when a comment sits
// inside it (the comment is then printed with it, and only there).
func (p *printer) expr(e *Expr, space bool) {
	s := spanOf(e.Pos, e.EndPos)
	verbatim := false
	if s.off >= 0 {
		i := sort.Search(len(p.comments), func(i int) bool { return p.comments[i].Pos.Offset >= s.off })
		verbatim = i < len(p.comments) && p.comments[i].Pos.Offset < s.end
	}
	p.token(layoutExpr(e.Text, !verbatim), s, space)
	for p.ci < len(p.comments) && p.comments[p.ci].Pos.Offset < s.end {
		p.ci++
	}
}

// layoutExpr collapses each run of blanks outside literals to one space, or
// with collapse false only drops blanks at the ends of lines.
func layoutExpr(text string, collapse bool) string {
	if !strings.ContainsAny(text, "\"'`/") {
		// No literal or comment: every blank is layout (the fast path).
		return blanks(text, collapse)
	}
	toks, err := lexer.ConsumeAll(mustLex("", []byte(text)))
	if err != nil {
		return text
	}
	var b strings.Builder
	for _, t := range toks {
		switch {
		case t.EOF():
		case t.Type != ruleLexer.Symbols()["Whitespace"]:
			b.WriteString(t.Value)
		default:
			b.WriteString(blanks(t.Value, collapse))
		}
	}
	return b.String()
}

// blanks lays out the lexer's blanks (space, tab, CR, LF) in s: each run
// becomes one space, or with collapse false loses its blanks before line
// breaks.
func blanks(s string, collapse bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if !isBlank(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isBlank(s[j]) {
			j++
		}
		switch run := s[i:j]; {
		case collapse:
			b.WriteByte(' ')
		case strings.Contains(run, "\n"):
			lines := strings.Split(run, "\n")
			for k := range lines[:len(lines)-1] {
				lines[k] = ""
			}
			b.WriteString(strings.Join(lines, "\n"))
		default:
			b.WriteString(run)
		}
		i = j
	}
	return b.String()
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *printer) ref(r *Ref, space bool) {
	p.ident(r.Name, space)
	if r.Member != nil {
		p.glued(".")
		p.ident(r.Member, false)
	}
}

// choiceKey prints `.KEY` after a choice's name in a test's answer.
func (p *printer) choiceKey(k *ChoiceKey) {
	p.glued(".")
	switch {
	case k.Name != nil:
		p.ident(k.Name, false)
	case k.Number != nil:
		p.int(&k.Number.Int, false)
	case k.Text != nil:
		p.token(k.Text.Raw, tokenSpan(k.Text.Pos, k.Text.Raw), false)
	}
}

func (p *printer) path(pa *Path) {
	for i, part := range pa.Parts {
		if i > 0 {
			p.glued(".")
		}
		p.ident(part, i == 0)
	}
}

func (p *printer) params(ps []*Param) {
	p.glued("(")
	for i, pr := range ps {
		if i > 0 {
			p.glued(",")
		}
		p.ident(pr.Name, i > 0)
		if pr.Type != nil {
			p.glued(":")
			p.ident(pr.Type, true)
		}
		if pr.Default != nil {
			p.kw("=")
			p.expr(pr.Default, true)
		}
	}
	p.glued(")")
}

func (p *printer) args(as []*Arg) {
	p.glued("(")
	for i, a := range as {
		if i > 0 {
			p.glued(",")
		}
		if a.Name != nil {
			p.ident(a.Name, i > 0)
			p.glued(":")
			p.expr(a.Value, true)
		} else {
			p.expr(a.Value, i > 0)
		}
	}
	p.glued(")")
}

func (p *printer) idents(ids []*Ident) {
	for i, id := range ids {
		if i > 0 {
			p.glued(",")
		}
		p.ident(id, true)
	}
}

func (p *printer) ints(ns []*Int) {
	for i, n := range ns {
		if i > 0 {
			p.glued(",")
		}
		p.int(n, true)
	}
}

// when prints an optional `when EXPR`.
func (p *printer) when(e *Expr) {
	if e != nil {
		p.kw("when")
		p.expr(e, true)
	}
}

// posOf returns a node's Pos field.
func posOf(n any) lexer.Position {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return lexer.Position{}
	}
	if f := v.Elem().FieldByName("Pos"); f.IsValid() {
		if pos, ok := f.Interface().(lexer.Position); ok {
			return pos
		}
	}
	return lexer.Position{}
}

// body prints `{ items }` with one item a line; end is the node's EndPos,
// at or after its closing brace. A body with neither items nor comments
// prints as `{}`.
func body[T any](p *printer, items []T, end lexer.Position, print func(any)) {
	closeOff := p.lastTokenBefore(end)
	p.kw("{")
	if len(items) == 0 && (p.ci >= len(p.comments) || p.comments[p.ci].Pos.Offset >= closeOff) {
		p.glued("}")
		return
	}
	p.indent++
	p.noBlank = true
	for _, it := range items {
		p.item(posOf(it))
		print(it)
	}
	p.linebreak()
	if closeOff >= 0 {
		p.leading(closeOff)
		p.linebreak()
	}
	p.indent--
	p.noBlank = true
	p.kw("}")
}

func (p *printer) block(b *Block) { body(p, b.Stmts, b.EndPos, p.stmt) }

// item starts a new line for the item at pos, with the comments before it.
func (p *printer) item(pos lexer.Position) {
	p.linebreak()
	if pos.Line > 0 {
		p.leading(pos.Offset)
	}
}

// ---------------------------------------------------------------------------
// Nodes.

func (p *printer) decl(d Decl) {
	switch n := d.(type) {
	case *Ruleset:
		p.kw("ruleset")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *Include:
		p.kw("include")
		p.str(n.Path)
	case *Dice:
		p.kw("dice")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *Characteristic:
		p.kw("characteristic")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *ModelKind:
		p.kw("kind")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *Enum:
		p.kw("enum")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *Table:
		p.kw("table")
		p.ident(n.ID, true)
		if len(n.Params) > 0 {
			p.params(n.Params)
		} else {
			p.skip("(")
			p.skip(")")
		}
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *Procedure:
		p.kw("procedure")
		p.ident(n.ID, true)
		p.params(n.Params)
		p.str(n.Title)
		p.when(n.When)
		p.block(n.Body)
	case *Function:
		p.kw("function")
		p.ident(n.ID, true)
		p.params(n.Params)
		p.str(n.Title)
		p.kw("=")
		p.expr(n.Body, true)
	case *Event:
		p.kw("event")
		p.ident(n.ID, true)
		p.params(n.Params)
		p.str(n.Title)
		if n.Ends != nil {
			p.kw("ends")
			p.ident(n.Ends, true)
		}
	case *Feature:
		p.kw(n.Kind)
		p.ident(n.ID, true)
		if n.Params != nil {
			p.params(n.Params)
		}
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *House:
		p.kw("house")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)
	case *TestDecl:
		p.kw("test")
		p.str(n.Name)
		body(p, n.Items, n.EndPos, p.node)
	default: // standing rules and replacements
		p.node(d)
	}
}

// node prints any body item: metadata, dice, characteristic, table,
// feature, house and test items. Statements go through stmt.
func (p *printer) node(n any) {
	switch n := n.(type) {
	case *SourceItem:
		p.kw("source")
		p.str(n.Text)
	case *TextItem:
		p.kw("text")
		p.str(n.Text)
	case *TitleItem:
		p.kw("title")
		p.ident(n.Lang, true)
		p.str(n.Text)
	case *Extends:
		p.kw("extends")
		p.ident(n.Base, true)
	case *StandIn:
		p.kw("stand_in")
		p.str(n.Source)

	case *Status:
		p.kw("status")
		p.ident(n.ID, true)
		p.str(n.Title)
		if len(n.Secondaries) > 0 {
			body(p, n.Secondaries, n.EndPos, p.node)
		}
	case *Carries:
		p.kw("carries")
		p.idents(n.Kinds)
	case *Warn:
		p.kw("warn")
		p.str(n.Message)
		p.when(n.When)
	case *Member:
		p.ident(n.ID, true)
		p.str(n.Title)

	case *Faces:
		p.kw("faces")
		p.ints(n.Values)
	case *Face:
		p.kw("face")
		p.ident(n.ID, true)
		if n.Title != nil {
			p.str(n.Title)
		}
		if n.Value != nil {
			p.kw("value")
			p.int(n.Value, true)
		}
		if n.Count != nil {
			p.kw("x")
			p.int(n.Count, true)
		}
	case *Sum:
		p.kw("sum")
		p.int(n.Count, true)
		p.ident(n.Of, true)
	case *Digits:
		p.kw("digits")
		p.idents(n.Of)

	case *CharCheck:
		p.kw("check")
		p.ident(n.Dice, true)
		p.kw(n.Mode)
	case *CharNatural:
		p.kw("natural")
		p.int(n.Roll, true)
		p.kw(n.Outcome)
	case *CharTarget:
		p.kw("target")
	case *CharField:
		p.kw("field")
		p.ident(n.Field, true)
	case *CharLimits:
		p.kw("limits")
		p.ident(n.Kind, true)
		p.int(n.Worst, true)
		p.kw("to")
		p.int(n.Best, true)

	case *TableRoll:
		p.kw("roll")
		p.ident(n.Dice, true)
		p.sign(n.Sign, n.Mod)
	case *TableBy:
		p.kw("by")
		p.expr(n.Key, true)
	case *TableChoose:
		p.kw("choose")
		p.str(n.Prompt)
		if n.Key != nil {
			p.kw("for")
			p.expr(n.Key, true)
		}
		if n.Default != nil {
			p.kw("default")
			p.expr(n.Default, true)
		}
	case *Require:
		p.kw("require")
		p.expr(n.Cond, true)
		p.kw("else")
		p.str(n.Message)
	case *Row:
		p.row(n)

	case *Property:
		p.kw(n.Name)
		if n.Value != nil {
			p.ident(n.Value, true)
		} else {
			p.int(n.Number, true)
		}
	case *Flag:
		p.kw(n.Name)
	case *TextOnly:
		p.kw("text_only")
		p.str(n.Reason)
	case *HouseRule:
		p.kw("rule")
		p.ident(n.ID, true)
		p.str(n.Title)
		body(p, n.Items, n.EndPos, p.node)

	case *Modify:
		p.kw("modify")
		p.ref(n.Target, true)
		p.as(n.As)
		p.kw("by")
		p.expr(n.By, true)
		p.when(n.When)
		p.oncePer(n.Once)
	case *Reroll:
		p.kw("reroll")
		p.ref(n.Target, true)
		p.as(n.As)
		if n.Each {
			p.kw("each")
		}
		if n.UpTo != nil {
			p.kw("up")
			p.kw("to")
			p.expr(n.UpTo, true)
		}
		if n.Where != nil {
			p.kw("where")
			p.expr(n.Where, true)
		}
		p.when(n.When)
		p.oncePer(n.Once)
	case *ExtraDice:
		p.kw("extra_dice")
		p.ref(n.Target, true)
		p.as(n.As)
		p.int(n.Count, true)
		if n.Pick != "" {
			p.kw("pick")
			p.kw(n.Pick)
		}
		p.when(n.When)
		p.priority(n.Prio)
		p.oncePer(n.Once)
	case *Override:
		p.kw("override")
		p.ref(n.Target, true)
		p.as(n.As)
		p.kw("=")
		p.expr(n.Value, true)
		p.when(n.When)
		p.priority(n.Prio)
		p.oncePer(n.Once)
	case *Grant:
		p.kw("grant")
		p.kw(n.Kind)
		p.ident(n.ID, true)
		p.when(n.When)
	case *Prevent:
		p.kw("prevent")
		p.kw(n.Kind)
		p.ident(n.ID, true)
		p.when(n.When)
	case *Hook:
		p.kw(n.Timing)
		p.ref(n.Target, true)
		p.as(n.As)
		p.when(n.When)
		p.priority(n.Prio)
		p.oncePer(n.Once)
		p.block(n.Body)
	case *On:
		p.kw("on")
		p.ident(n.Event, true)
		p.as(n.As)
		p.when(n.When)
		p.priority(n.Prio)
		p.oncePer(n.Once)
		p.block(n.Body)
	case *Available:
		p.kw("available")
		p.kw("when")
		p.expr(n.When, true)
		if n.Message != nil {
			p.kw("else")
			p.str(n.Message)
		}
	case *ActionBody:
		p.kw("body")
		p.block(n.Body)
	case *Holder:
		p.kw("holder")
		p.ident(n.Role, true)
	case *Replace:
		p.kw("replace")
		if n.Decl != nil {
			p.decl(n.Decl)
		} else {
			p.kw("row")
			p.ident(n.Table, true)
			p.row(n.Row)
		}

	case *TestRules:
		p.kw("rules")
		p.ident(n.ID, true)
	case *TestHouse:
		p.kw("house")
		for i, t := range n.Rules {
			if i > 0 {
				p.glued(",")
			}
			if t.Off {
				p.kw("-")
			}
			p.ref(t.Ref, !t.Off)
		}
	case *TestState:
		p.kw("state")
		p.str(n.Source)
	case *TestDice:
		p.kw("dice")
		for i, v := range n.Values {
			if i > 0 {
				p.glued(",")
			}
			if v.Number != nil {
				p.int(v.Number, true)
			} else {
				p.ident(v.Face, true)
			}
		}
	case *TestSeed:
		p.kw("seed")
		p.int(n.Seed, true)
	case *TestChoose:
		p.kw("choose")
		p.ident(n.Name, true)
		for _, k := range n.Key {
			p.choiceKey(k)
		}
		p.kw("=")
		p.expr(n.Value, true)
	case *TestRun:
		p.kw("run")
		p.ident(n.Proc, true)
		p.args(n.Args)
	case *TestExpectError:
		p.kw("expect")
		p.kw("error")
		p.str(n.Text)
	case *TestExpectEmit:
		p.kw("expect")
		if n.Not {
			p.kw("not")
		}
		p.kw("emit")
		p.str(n.Text)
	case *TestExpectSignal:
		p.kw("expect")
		if n.Not {
			p.kw("not")
		}
		p.kw("signal")
		p.ident(n.Event, true)
	case *TestExpect:
		p.kw("expect")
		p.expr(n.Cond, true)
	default:
		p.stmt(n)
	}
}

func (p *printer) row(r *Row) {
	switch k := r.Key.(type) {
	case *RangeKey:
		p.int(&k.From.Int, true)
		if k.To != nil {
			p.glued("-")
			p.int(&k.To.Int, false)
		} else if k.OrMore {
			p.glued("+")
		}
	case *FaceKey:
		p.ident(k.Face, true)
	default:
		panic(unknownNode{r.Key})
	}
	if r.ID != nil {
		p.ident(r.ID, true)
	}
	p.str(r.Title)
	p.when(r.When)
	if r.Value != nil {
		p.kw("=")
		p.expr(r.Value, true)
	}
	if r.Body != nil {
		p.block(r.Body)
	}
}

func (p *printer) sign(sign string, mod *Expr) {
	if mod != nil {
		p.kw(sign)
		p.expr(mod, true)
	}
}

func (p *printer) stmt(s any) {
	switch n := s.(type) {
	case *SourceItem, *TextItem, *TitleItem:
		p.node(n)
	case *Let:
		p.kw("let")
		p.ident(n.Name, true)
		p.kw("=")
		p.expr(n.Value, true)
		if n.Prefer != "" {
			p.kw("prefer")
			p.kw(n.Prefer)
		}
	case *Set:
		p.kw("set")
		p.path(n.Target)
		p.kw("=")
		p.expr(n.Value, true)
	case *Roll:
		p.kw("roll")
		p.ident(n.Name, true)
		p.kw("=")
		if n.OneOf != nil {
			p.kw("one")
			p.kw("of")
			p.expr(n.OneOf, true)
			break
		}
		if c := n.Count; c != nil {
			if c.Number != nil {
				p.int(c.Number, true)
			} else {
				p.kw("(")
				p.expr(c.Expr, false)
				p.glued(")")
			}
		}
		p.ident(n.Dice, true)
		p.sign(n.Sign, n.Mod)
	case *TestStmt:
		p.kw("test")
		p.ident(n.Name, true)
		p.kw("=")
		p.ident(n.Char, true)
		p.glued("(")
		p.expr(n.Model, false)
		p.glued(")")
		p.sign(n.Sign, n.Mod)
	case *Change:
		p.kw(n.Dir)
		p.ident(n.Char, true)
		p.kw("of")
		p.expr(n.Model, true)
		if n.By != nil {
			p.kw("by")
			p.expr(n.By, true)
		}
	case *If:
		p.ifStmt(n)
	case *ForEach:
		p.kw("for")
		p.kw("each")
		p.ident(n.Var, true)
		p.kw("in")
		p.expr(n.List, true)
		if n.OrderBy != nil {
			p.kw("ordered")
			p.kw("by")
			p.expr(n.OrderBy, true)
		}
		p.block(n.Body)
	case *While:
		p.kw("while")
		p.expr(n.Cond, true)
		p.block(n.Body)
	case *Add:
		p.kw("add")
		p.ident(n.Item, true)
		p.kw("to")
		p.path(n.To)
		if n.Until != nil {
			p.kw("until")
			p.kw("end")
			p.kw("of")
			p.ident(n.Until.Period, true)
		}
	case *Remove:
		p.kw("remove")
		p.ident(n.Item, true)
		p.kw("from")
		p.path(n.From)
	case *Apply:
		p.kw("apply")
		p.ident(n.Table, true)
		if len(n.Args) > 0 {
			p.args(n.Args)
		} else {
			p.skip("(")
			p.skip(")")
		}
		if n.Using != nil {
			p.kw("using")
			p.expr(n.Using, true)
		} else if n.Row != nil {
			p.kw("row")
			p.ident(n.Row, true)
		}
		if len(n.Reroll) > 0 {
			p.kw("reroll")
			p.idents(n.Reroll)
		}
	case *Call:
		p.kw("call")
		p.ident(n.Proc, true)
		p.args(n.Args)
	case *Choose:
		p.kw("choose")
		p.ident(n.Name, true)
		p.str(n.Prompt)
		if n.Key != nil {
			p.kw("for")
			p.expr(n.Key, true)
		}
		if n.From != nil {
			p.kw("from")
			p.expr(n.From, true)
		}
		if m := n.Multi; m != nil {
			for _, w := range strings.Fields(m.Word()) { // one token each, as parsed
				p.kw(w)
			}
			p.expr(m.Count(), true)
			if m.Split != nil {
				p.kw("among")
			} else {
				p.kw("of")
			}
			p.expr(m.List, true)
		}
		if n.Recorded != nil {
			p.kw("recorded")
			p.expr(n.Recorded, true)
		}
		p.kw("default")
		p.expr(n.Default, true)
		p.when(n.When)
	case *Emit:
		p.kw("emit")
		p.str(n.Message)
	case *Signal:
		p.kw("signal")
		p.ident(n.Event, true)
		p.args(n.Args)
	case *Stop:
		p.kw("stop")
		if n.Target != nil {
			p.ident(&n.Target.Ident, true)
		}
	case *Perform:
		p.kw("perform")
		if n.Action != nil {
			p.ident(n.Action, true)
		} else {
			p.kw("(")
			p.expr(n.Dynamic, false)
			p.glued(")")
		}
		p.args(n.Args)
	case *Step:
		p.kw("step")
		p.ident(n.ID, true)
		if n.Title != nil {
			p.str(n.Title)
		}
		p.block(n.Body)
	case *Require:
		p.kw("require")
		p.expr(n.Cond, true)
		p.kw("else")
		p.str(n.Message)
	default:
		panic(unknownNode{s})
	}
}

// ifStmt prints an if with its else-if chain on the closing braces' lines.
func (p *printer) ifStmt(n *If) {
	p.kw("if")
	p.expr(n.Cond, true)
	p.block(n.Then)
	switch {
	case n.ElseIf != nil:
		p.kw("else")
		p.ifStmt(n.ElseIf)
	case n.Else != nil:
		p.kw("else")
		p.block(n.Else)
	}
}

// oncePer prints an effect's `once per PERIOD`, if any.
func (p *printer) oncePer(o *OncePer) {
	if o == nil {
		return
	}
	p.kw("once")
	p.kw("per")
	p.ident(o.Period, true)
}
