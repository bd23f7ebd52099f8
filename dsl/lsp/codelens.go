package lsp

// This file answers code lens: an "odds" lens on each procedure and table,
// whose command (CommandOdds) the client runs, as `munda odds` would.

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/syntax"
)

func (s *Server) codeLens(_ *glsp.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	uri := params.TextDocument.URI
	_, f, lines, err := s.parsedDocument(uri)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	if f == nil {
		return out, nil
	}
	syntax.Inspect(f, func(n any) bool {
		var id *syntax.Ident
		switch d := n.(type) {
		case *syntax.Procedure:
			id = d.ID
		case *syntax.Table:
			id = d.ID
		case *syntax.File, *syntax.House, *syntax.HouseRule, *syntax.Feature, *syntax.Replace:
			return true // they may hold replacements of procedures and tables
		default:
			return false
		}
		if id != nil {
			kind := syntax.KindOf(n.(syntax.Decl))
			out = append(out, protocol.CodeLens{
				Range:   lines.span(id.Pos, id.EndPos),
				Command: &protocol.Command{Title: "odds", Command: CommandOdds, Arguments: []any{id.Name, kind, uri}},
			})
		}
		return false
	})
	return out, nil
}
