package lsp

// This file answers formatting with `munda fmt` (syntax.FormatSource): a
// file that does not parse is not formatted, and the answer says why.

import (
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/syntax"
)

func (s *Server) formatting(_ *glsp.Context, params *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	uri := params.TextDocument.URI
	s.mu.Lock()
	d := s.docs[uri]
	var text string
	if d != nil {
		text = d.text
	}
	s.mu.Unlock()
	if d == nil {
		return nil, requestFailed("%s is not open", uri)
	}
	out, diags := syntax.FormatSource(looseName(uri), []byte(text))
	if len(diags) > 0 {
		return nil, requestFailed("not formatted: %v", diags[0])
	}
	return formatEdits(text, string(out)), nil
}

// formatEdits is one edit that turns text into formatted: the lines
// between what they begin and end with alike, so an editor keeps its
// place in what did not change.
func formatEdits(text, formatted string) []protocol.TextEdit {
	if text == formatted {
		return []protocol.TextEdit{}
	}
	// Common whole lines at the start and at the end.
	start := 0
	for {
		i := strings.IndexByte(text[start:], '\n')
		j := strings.IndexByte(formatted[start:], '\n')
		if i < 0 || i != j || text[start:start+i] != formatted[start:start+j] {
			break
		}
		start += i + 1
	}
	endT, endF := len(text), len(formatted)
	for endT > start && endF > start {
		i := strings.LastIndexByte(text[start:endT-1], '\n') + start + 1
		j := strings.LastIndexByte(formatted[start:endF-1], '\n') + start + 1
		if i <= start || j <= start || text[i:endT] != formatted[j:endF] {
			break
		}
		endT, endF = i, j
	}
	lines := newLineIndex(text)
	return []protocol.TextEdit{{
		Range:   protocol.Range{Start: lines.fromOffset(start), End: lines.fromOffset(endT)},
		NewText: formatted[start:endF],
	}}
}
