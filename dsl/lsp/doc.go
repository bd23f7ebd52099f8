// Package lsp is munda's language server: what `munda lsp` serves to an
// editor over stdio. It speaks the Language Server Protocol (3.16) with
// the protocol types of github.com/tliron/glsp and the JSON-RPC
// connection of github.com/sourcegraph/jsonrpc2, over a framing of its
// own that answers a malformed message with an error instead of hanging
// up (transport.go).
//
// A document belongs to a pack (packs.go): the directory `munda check DIR`
// would check it in, read from disk with the editor's unsaved buffers laid
// over it (documents.go). The pack is loaded and checked by the same
// loader as every verb (rulesets.Load), after a short pause once typing
// stops (analysis.go). Each request is answered from the latest analysis:
//
//   - diagnostics.go: the check's diagnostics, for every file of the pack;
//   - hover.go: what `munda rules show` says of the declaration under the
//     cursor;
//   - references.go: where each procedure, table, row, feature, dice,
//     characteristic, function, event and kind is declared and named
//     (go-to-definition and find-references);
//   - completion.go: ids after the keywords that take them, fields after a
//     dot, functions and names in expressions;
//   - symbols.go: the document's declarations, with their rows and parts;
//   - formatting.go: `munda fmt`;
//   - codelens.go: an "odds" lens on each procedure and table.
//
// Positions are converted in position.go: the rules count 1-based lines
// and columns in characters, LSP 0-based lines and UTF-16 code units.
package lsp
