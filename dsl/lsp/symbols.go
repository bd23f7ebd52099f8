package lsp

// This file answers document symbols: the declarations of a file as an
// outline, each with its parts (a table's rows, a procedure's steps and
// what effects can target in it, a dice's faces, an enum's members, a
// house group's rules).

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/syntax"
)

// parsedDocument parses an open document on its own, as it is now. f is
// nil when it does not parse.
func (s *Server) parsedDocument(uri string) (*document, *syntax.File, *lineIndex, error) {
	s.mu.Lock()
	d := s.docs[uri]
	var text string
	if d != nil {
		text = d.text
	}
	s.mu.Unlock()
	if d == nil {
		return nil, nil, nil, requestFailed("%s is not open", uri)
	}
	f, _ := syntax.Parse(looseName(uri), []byte(text))
	return d, f, newLineIndex(text), nil
}

func (s *Server) documentSymbols(_ *glsp.Context, params *protocol.DocumentSymbolParams) (any, error) {
	_, f, lines, err := s.parsedDocument(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentSymbol{}
	if f == nil {
		return out, nil
	}
	for _, d := range f.Decls {
		if sym, ok := declSymbol(d, lines); ok {
			out = append(out, sym)
		}
	}
	return out, nil
}

// declSymbol is a declaration as a symbol.
func declSymbol(d syntax.Decl, lines *lineIndex) (protocol.DocumentSymbol, bool) {
	var (
		name     *syntax.Ident
		title    *syntax.Str
		kind     protocol.SymbolKind
		children []protocol.DocumentSymbol
	)
	switch d := d.(type) {
	case *syntax.Ruleset:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindPackage
	case *syntax.Dice:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindEnum
		for _, it := range d.Items {
			if f, ok := it.(*syntax.Face); ok {
				children = append(children, partSymbol(f.ID, f.Title, f, protocol.SymbolKindEnumMember, lines))
			}
		}
	case *syntax.Characteristic:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindProperty
	case *syntax.ModelKind:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindInterface
		for _, st := range d.Statuses() {
			children = append(children, partSymbol(st.ID, st.Title, st, protocol.SymbolKindEnumMember, lines))
		}
	case *syntax.Enum:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindEnum
		for _, m := range d.Members() {
			children = append(children, partSymbol(m.ID, m.Title, m, protocol.SymbolKindEnumMember, lines))
		}
	case *syntax.Table:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindStruct
		for _, it := range d.Items {
			if r, ok := it.(*syntax.Row); ok {
				children = append(children, rowSymbol(r, lines))
			}
		}
	case *syntax.Procedure:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindFunction
		children = blockSymbols(d.Body, lines)
	case *syntax.Function:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindFunction
	case *syntax.Event:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindEvent
	case *syntax.Feature:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindClass
	case *syntax.House:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindNamespace
		for _, r := range d.Rules() {
			if sym, ok := declSymbol(r, lines); ok {
				children = append(children, sym)
			}
		}
	case *syntax.HouseRule:
		name, title, kind = d.ID, d.Title, protocol.SymbolKindModule
		for _, it := range d.Items {
			if rp, ok := it.(*syntax.Replace); ok {
				if sym, ok := declSymbol(rp, lines); ok {
					children = append(children, sym)
				}
			}
		}
	case *syntax.Replace:
		if d.Decl != nil {
			sym, ok := declSymbol(d.Decl, lines)
			if ok {
				detail := "replace " + syntax.KindOf(d.Decl)
				if sym.Detail != nil {
					detail += ": " + *sym.Detail
				}
				sym.Detail = &detail
				sym.Range = lines.span(syntax.Span(d))
			}
			return sym, ok
		}
		if d.Table != nil && d.Row != nil {
			sym := rowSymbol(d.Row, lines)
			sym.Name = d.Table.Name + "." + sym.Name
			sym.Range = lines.span(syntax.Span(d))
			detail := "replace row"
			if sym.Detail != nil {
				detail += ": " + *sym.Detail
			}
			sym.Detail = &detail
			return sym, true
		}
		return protocol.DocumentSymbol{}, false
	case *syntax.TestDecl:
		if d.Name == nil {
			return protocol.DocumentSymbol{}, false
		}
		detail := "test"
		return protocol.DocumentSymbol{Name: d.Name.Value(), Detail: &detail, Kind: protocol.SymbolKindMethod,
			Range: lines.span(syntax.Span(d)), SelectionRange: lines.span(d.Name.Pos, d.Name.EndPos)}, true
	case *syntax.Include:
		if d.Path == nil {
			return protocol.DocumentSymbol{}, false
		}
		detail := "include"
		return protocol.DocumentSymbol{Name: d.Path.Value(), Detail: &detail, Kind: protocol.SymbolKindFile,
			Range: lines.span(syntax.Span(d)), SelectionRange: lines.span(d.Path.Pos, d.Path.EndPos)}, true
	}
	if name == nil {
		return protocol.DocumentSymbol{}, false
	}
	sym := partSymbol(name, title, d, kind, lines)
	sym.Children = children
	return sym, true
}

// partSymbol is a named thing with a title, spanning node.
func partSymbol(name *syntax.Ident, title *syntax.Str, node any, kind protocol.SymbolKind, lines *lineIndex) protocol.DocumentSymbol {
	sym := protocol.DocumentSymbol{Name: name.Name, Kind: kind, Range: lines.span(syntax.Span(node)),
		SelectionRange: lines.span(name.Pos, name.EndPos)}
	if title != nil {
		t := title.Value()
		sym.Detail = &t
	}
	return sym
}

// rowSymbol is a table's row: named by its id (its key when it has
// none), with its key and title as detail.
func rowSymbol(r *syntax.Row, lines *lineIndex) protocol.DocumentSymbol {
	start, end := syntax.Span(r.Key)
	key := rowKeyText(r.Key)
	name := key
	if id := rowIdent(r); id != nil {
		name = id.Name
		start, end = id.Pos, id.EndPos
	}
	detail := key + " " + r.Title.Value()
	if name == key {
		detail = r.Title.Value()
	}
	return protocol.DocumentSymbol{Name: name, Detail: &detail, Kind: protocol.SymbolKindEnumMember,
		Range: lines.span(syntax.Span(r)), SelectionRange: lines.span(start, end)}
}

// blockSymbols lists a procedure body's steps, lets, rolls and tests:
// what effects can target. Those inside a step are its children.
func blockSymbols(block *syntax.Block, lines *lineIndex) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	if block == nil {
		return out
	}
	for _, st := range block.Stmts {
		syntax.Inspect(st, func(n any) bool {
			var id *syntax.Ident
			detail := ""
			switch n := n.(type) {
			case *syntax.Step:
				sym := partSymbol(n.ID, n.Title, n, protocol.SymbolKindNamespace, lines)
				sym.Children = blockSymbols(n.Body, lines)
				out = append(out, sym)
				return false
			case *syntax.Let:
				id, detail = n.Name, "let"
			case *syntax.Roll:
				id, detail = n.Name, "roll"
			case *syntax.TestStmt:
				id, detail = n.Name, "test"
			default:
				return true
			}
			if id != nil {
				out = append(out, protocol.DocumentSymbol{Name: id.Name, Detail: &detail, Kind: protocol.SymbolKindVariable,
					Range: lines.span(syntax.Span(n)), SelectionRange: lines.span(id.Pos, id.EndPos)})
			}
			return true
		})
	}
	return out
}

// rowKeyText is a row's key as written: "15-26", "7+", "glancing".
func rowKeyText(k syntax.RowKey) string {
	switch k := k.(type) {
	case *syntax.RangeKey:
		s := k.From.Digits
		switch {
		case k.To != nil:
			s += "-" + k.To.Digits
		case k.OrMore:
			s += "+"
		}
		return s
	case *syntax.FaceKey:
		return k.Face.Name
	}
	return ""
}
