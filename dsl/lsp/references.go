package lsp

// This file finds where things are declared and where they are named, in
// every file of an analysis (the pack and the rulesets beneath it): for
// go-to-definition and find-references, and for hover to know what is
// under the cursor. Names are resolved as the checker resolves them:
// dice, characteristics, tables, procedures, functions and events share
// one namespace; each kind of feature has its own; a table's rows and a
// procedure's lets, rolls, tests and steps are named through it.

import (
	"sort"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// Namespaces of symbolKey (a feature's is its kind: "skill", "trait" …).
const (
	nsCore  = "core"  // dice, characteristics, tables, procedures, functions, events
	nsKind  = "kind"  // kinds of model
	nsEnum  = "enum"  // enums
	nsHouse = "house" // house groups
	nsRule  = "rule"  // house rules ("aa.x") and standing rules ("x")
	nsRow   = "row"   // a table's rows: "table.row"
	nsSite  = "site"  // a procedure's lets, rolls, tests and steps: "procedure.name"
)

// symbolKey names something declared.
type symbolKey struct{ ns, id string }

// occurrence is a place where something is declared or named.
type occurrence struct {
	file       *fileInfo
	start, end lexer.Position
	key        symbolKey
	decl       bool
	node       any // what declares it, for declarations
}

func (o *occurrence) location() protocol.Location {
	return protocol.Location{URI: o.file.uri, Range: o.file.lines.span(o.start, o.end)}
}

// xrefIndex holds every occurrence of an analysis.
type xrefIndex struct {
	byFile map[string][]*occurrence // by URI, in order
	byKey  map[symbolKey][]*occurrence
	// coreKinds maps the ids of the core namespace to the kind of their
	// declaration ("procedure", "table" …), as written.
	coreKinds map[string]string
	// features maps feature kinds to their ids; rowTables a row id to the
	// tables that have a row of that id.
	features  map[string]map[string]bool
	rowTables map[string][]string
}

func newXrefIndex() *xrefIndex {
	return &xrefIndex{byFile: map[string][]*occurrence{}, byKey: map[symbolKey][]*occurrence{},
		coreKinds: map[string]string{}, features: map[string]map[string]bool{}, rowTables: map[string][]string{}}
}

// walkCtx is where a node sits: in which procedure, table or house group.
type walkCtx struct{ proc, table, house string }

// walkNode calls visit for root and every node below it, knowing the
// procedure, table or house group each is in.
func walkNode(root any, c walkCtx, visit func(any, walkCtx)) {
	syntax.Inspect(root, func(n any) bool {
		if n != root {
			switch d := n.(type) {
			case *syntax.Procedure:
				walkNode(d, walkCtx{proc: d.ID.Name}, visit)
				return false
			case *syntax.Table:
				walkNode(d, walkCtx{table: d.ID.Name}, visit)
				return false
			case *syntax.House:
				walkNode(d, walkCtx{house: d.ID.Name}, visit)
				return false
			case *syntax.Replace:
				if d.Table != nil && d.Row != nil {
					visit(d, c)
					walkNode(d.Row, walkCtx{table: d.Table.Name, house: c.house}, visit)
					return false
				}
			}
		}
		visit(n, c)
		return true
	})
}

// buildXref indexes an analysis's files.
func buildXref(a *analysis) *xrefIndex {
	x := newXrefIndex()
	var files []*fileInfo
	for _, fi := range a.files {
		if fi.ast != nil {
			files = append(files, fi)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].uri < files[j].uri })
	// What each name is, first: a reference may come before its declaration.
	for _, fi := range files {
		walkNode(fi.ast, walkCtx{}, func(n any, c walkCtx) {
			if id := syntax.IDOf(declOf(n)); id != nil && coreKind(n) != "" {
				x.coreKinds[id.Name] = coreKind(n)
			}
			switch n := n.(type) {
			case *syntax.Feature:
				if x.features[n.Kind] == nil {
					x.features[n.Kind] = map[string]bool{}
				}
				x.features[n.Kind][n.ID.Name] = true
			case *syntax.Row:
				if id := rowIdent(n); id != nil && c.table != "" {
					x.rowTables[id.Name] = append(x.rowTables[id.Name], c.table)
				}
			}
		})
	}
	for _, fi := range files {
		b := &xrefBuilder{x: x, file: fi}
		walkNode(fi.ast, walkCtx{}, b.visit)
	}
	for _, occs := range x.byFile {
		sort.SliceStable(occs, func(i, j int) bool { return occs[i].start.Offset < occs[j].start.Offset })
	}
	return x
}

// declOf is n as a declaration, or nil.
func declOf(n any) syntax.Decl {
	d, _ := n.(syntax.Decl)
	return d
}

// coreKind is the kind of a declaration of the core namespace, or "".
func coreKind(n any) string {
	switch n.(type) {
	case *syntax.Dice, *syntax.Characteristic, *syntax.Table, *syntax.Procedure, *syntax.Function, *syntax.Event:
		return syntax.KindOf(n.(syntax.Decl))
	}
	return ""
}

// rowIdent is a row's id: its own, or for a row keyed by a name alone
// (a condition table's), that name.
func rowIdent(r *syntax.Row) *syntax.Ident {
	if r.ID != nil {
		return r.ID
	}
	if fk, ok := r.Key.(*syntax.FaceKey); ok {
		return fk.Face
	}
	return nil
}

type xrefBuilder struct {
	x    *xrefIndex
	file *fileInfo
}

func (b *xrefBuilder) add(key symbolKey, start, end lexer.Position, decl bool, node any) {
	o := &occurrence{file: b.file, start: start, end: end, key: key, decl: decl, node: node}
	b.x.byFile[b.file.uri] = append(b.x.byFile[b.file.uri], o)
	b.x.byKey[key] = append(b.x.byKey[key], o)
}

func (b *xrefBuilder) decl(ns string, id *syntax.Ident, node any) {
	if id != nil {
		b.add(symbolKey{ns, id.Name}, id.Pos, id.EndPos, true, node)
	}
}

func (b *xrefBuilder) ref(ns string, id *syntax.Ident) {
	if id != nil {
		b.add(symbolKey{ns, id.Name}, id.Pos, id.EndPos, false, nil)
	}
}

// refIn names a part of something: a row of a table, a let of a procedure.
func (b *xrefBuilder) refIn(ns, owner string, id *syntax.Ident) {
	if id != nil && owner != "" {
		b.add(symbolKey{ns, owner + "." + id.Name}, id.Pos, id.EndPos, false, nil)
	}
}

func (b *xrefBuilder) site(c walkCtx, id *syntax.Ident, node any) {
	if id != nil && c.proc != "" {
		b.add(symbolKey{nsSite, c.proc + "." + id.Name}, id.Pos, id.EndPos, true, node)
	}
}

func (b *xrefBuilder) visit(n any, c walkCtx) {
	switch n := n.(type) {
	case *syntax.Dice:
		b.decl(nsCore, n.ID, n)
	case *syntax.Characteristic:
		b.decl(nsCore, n.ID, n)
	case *syntax.Table:
		b.decl(nsCore, n.ID, n)
	case *syntax.Procedure:
		b.decl(nsCore, n.ID, n)
	case *syntax.Function:
		b.decl(nsCore, n.ID, n)
	case *syntax.Event:
		b.decl(nsCore, n.ID, n)
	case *syntax.Feature:
		b.decl(n.Kind, n.ID, n)
	case *syntax.ModelKind:
		b.decl(nsKind, n.ID, n)
	case *syntax.Enum:
		b.decl(nsEnum, n.ID, n)
	case *syntax.House:
		b.decl(nsHouse, n.ID, n)
	case *syntax.HouseRule:
		if n.ID != nil {
			id := n.ID.Name
			if c.house != "" {
				id = c.house + "." + id
			}
			b.add(symbolKey{nsRule, id}, n.ID.Pos, n.ID.EndPos, true, n)
		}
	case *syntax.Row:
		if id := rowIdent(n); id != nil && c.table != "" {
			b.add(symbolKey{nsRow, c.table + "." + id.Name}, id.Pos, id.EndPos, true, n)
		}
	case *syntax.Replace:
		b.ref(nsCore, n.Table)
	case *syntax.Roll:
		b.ref(nsCore, n.Dice)
		b.site(c, n.Name, n)
	case *syntax.Let:
		b.site(c, n.Name, n)
	case *syntax.TestStmt:
		b.ref(nsCore, n.Char)
		b.site(c, n.Name, n)
	case *syntax.Step:
		b.site(c, n.ID, n)
	case *syntax.TableRoll:
		b.ref(nsCore, n.Dice)
	case *syntax.Sum:
		b.ref(nsCore, n.Of)
	case *syntax.Digits:
		for _, id := range n.Of {
			b.ref(nsCore, id)
		}
	case *syntax.CharCheck:
		b.ref(nsCore, n.Dice)
	case *syntax.CharLimits:
		b.ref(nsKind, n.Kind)
	case *syntax.Carries:
		for _, id := range n.Kinds {
			b.ref(nsKind, id)
		}
	case *syntax.Change:
		b.ref(nsCore, n.Char)
	case *syntax.Apply:
		b.ref(nsCore, n.Table)
		if n.Table != nil {
			b.refIn(nsRow, n.Table.Name, n.Row)
			for _, id := range n.Reroll {
				b.refIn(nsRow, n.Table.Name, id)
			}
		}
	case *syntax.Call:
		b.ref(nsCore, n.Proc)
	case *syntax.Signal:
		b.ref(nsCore, n.Event)
	case *syntax.On:
		b.ref(nsCore, n.Event)
	case *syntax.TestRun:
		b.ref(nsCore, n.Proc)
	case *syntax.Modify:
		b.target(n.Target)
	case *syntax.Reroll:
		b.target(n.Target)
		if n.Where != nil {
			// A pool's predicate (`#` is the die) parses inside its wrapper.
			b.expr(dsl.PoolPredicate(n.Where))
		}
	case *syntax.ExtraDice:
		b.target(n.Target)
	case *syntax.Override:
		b.target(n.Target)
	case *syntax.Hook:
		b.target(n.Target)
	case *syntax.Add:
		b.listItem(n.Item)
	case *syntax.Remove:
		b.listItem(n.Item)
	case *syntax.Toggle:
		if n.Ref != nil {
			b.ref(nsHouse, n.Ref.Name)
			if n.Ref.Name != nil {
				b.refIn(nsRule, n.Ref.Name.Name, n.Ref.Member)
			}
		}
	case *syntax.Expr:
		b.expr(n)
	}
}

// target is what an effect acts on: a procedure (or one of its lets,
// rolls, tests and steps), a table (or one of its rows), a
// characteristic or an event.
func (b *xrefBuilder) target(r *syntax.Ref) {
	if r == nil || r.Name == nil {
		return
	}
	b.ref(nsCore, r.Name)
	switch b.x.coreKinds[r.Name.Name] {
	case "table":
		b.refIn(nsRow, r.Name.Name, r.Member)
	case "procedure":
		b.refIn(nsSite, r.Name.Name, r.Member)
	}
}

// listItem is an id added to or removed from a list of the state: a
// feature's (a condition, a skill) or a row's (a lasting injury).
func (b *xrefBuilder) listItem(id *syntax.Ident) {
	if id == nil {
		return
	}
	kinds := make([]string, 0, len(b.x.features))
	for k := range b.x.features {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		if b.x.features[k][id.Name] {
			b.ref(k, id)
		}
	}
	for _, t := range b.x.rowTables[id.Name] {
		b.refIn(nsRow, t, id)
	}
}

// expr finds the declarations an expression names: the functions and
// lookup tables it calls, and the literal ids it passes to has_skill and
// its kin.
func (b *xrefBuilder) expr(e *syntax.Expr) {
	if e == nil || e.Text == "" || len(e.Text) > 64<<10 {
		return
	}
	tree, err := exprparser.Parse(e.Text)
	if err != nil {
		return
	}
	ast.Walk(&tree.Node, exprVisitor(func(n ast.Node) {
		call, ok := n.(*ast.CallNode)
		if !ok {
			return
		}
		callee, ok := call.Callee.(*ast.IdentifierNode)
		if !ok {
			return
		}
		switch b.x.coreKinds[callee.Value] {
		case "function", "table":
			b.inExpr(e, nsCore, callee.Value, callee)
		}
		kind, ok := dsl.ReferenceKind(callee.Value)
		if !ok || len(call.Arguments) == 0 {
			return
		}
		lit, ok := call.Arguments[len(call.Arguments)-1].(*ast.StringNode)
		if !ok {
			return
		}
		if b.x.coreKinds[lit.Value] == kind {
			b.inExpr(e, nsCore, lit.Value, lit)
		} else if b.x.features[kind][lit.Value] {
			b.inExpr(e, kind, lit.Value, lit)
		}
	}))
}

// inExpr adds a reference at a node of an expression.
func (b *xrefBuilder) inExpr(e *syntax.Expr, ns, id string, n ast.Node) {
	loc := n.Location()
	b.add(symbolKey{ns, id}, exprPosition(e, loc.From), exprPosition(e, loc.To), false, nil)
}

// exprPosition maps a character offset inside an expression (as expr
// counts) to a position in the file.
func exprPosition(e *syntax.Expr, chars int) lexer.Position {
	off := 0
	for i := 0; i < chars && off < len(e.Text); i++ {
		_, size := utf8.DecodeRuneInString(e.Text[off:])
		off += size
	}
	p := e.Pos
	p.Advance(e.Text[:off])
	return p
}

type exprVisitor func(ast.Node)

func (v exprVisitor) Visit(n *ast.Node) { v(*n) }

// at returns the occurrences under a byte offset of a file: the
// narrowest (several when one name is several things, as an id added to
// a list may be).
func (x *xrefIndex) at(uri string, off int) []*occurrence {
	var out []*occurrence
	width := -1
	for _, o := range x.byFile[uri] {
		if o.start.Offset > off {
			break
		}
		if off > o.end.Offset {
			continue
		}
		w := o.end.Offset - o.start.Offset
		switch {
		case width < 0 || w < width:
			out, width = []*occurrence{o}, w
		case w == width:
			out = append(out, o)
		}
	}
	return out
}

// declarations lists where the things under the cursor are declared.
func (x *xrefIndex) declarations(under []*occurrence) []*occurrence {
	var out []*occurrence
	for _, u := range under {
		for _, o := range x.byKey[u.key] {
			if o.decl {
				out = append(out, o)
			}
		}
	}
	return out
}

// cursor finds what is under a position of an open document.
func (s *Server) cursor(params protocol.TextDocumentPositionParams) (*analysis, *fileInfo, []*occurrence, error) {
	a, _, err := s.openAnalysis(params.TextDocument.URI)
	if err != nil {
		return nil, nil, nil, err
	}
	fi := a.fileAt(params.TextDocument.URI)
	if fi == nil || fi.ast == nil {
		return a, nil, nil, nil // it did not parse: nothing is known of it
	}
	return a, fi, a.refs.at(fi.uri, fi.lines.offset(params.Position)), nil
}

func (s *Server) definition(_ *glsp.Context, params *protocol.DefinitionParams) (any, error) {
	a, _, under, err := s.cursor(params.TextDocumentPositionParams)
	if err != nil || len(under) == 0 {
		return nil, err
	}
	return locations(a.refs.declarations(under)), nil
}

func (s *Server) references(_ *glsp.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	a, _, under, err := s.cursor(params.TextDocumentPositionParams)
	if err != nil || len(under) == 0 {
		return nil, err
	}
	var out []*occurrence
	for _, u := range under {
		for _, o := range a.refs.byKey[u.key] {
			if !o.decl || params.Context.IncludeDeclaration {
				out = append(out, o)
			}
		}
	}
	return locations(out), nil
}

// locations lists occurrences' places, by file and position, once each.
func locations(occs []*occurrence) []protocol.Location {
	sort.SliceStable(occs, func(i, j int) bool {
		if occs[i].file.uri != occs[j].file.uri {
			return occs[i].file.uri < occs[j].file.uri
		}
		return occs[i].start.Offset < occs[j].start.Offset
	})
	out := []protocol.Location{}
	seen := map[protocol.Location]bool{}
	for _, o := range occs {
		l := o.location()
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
