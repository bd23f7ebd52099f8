package lsp

// This file publishes the check's diagnostics: the same codes and words
// as munda check, for every file of the pack, positioned as LSP counts.

import (
	"context"
	"runtime/debug"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/diag"
)

// diagnosticSource is the source of every diagnostic the server gives.
const diagnosticSource = "munda"

// publish checks the pack, if it has changed, and publishes its
// diagnostics, unless a newer change is on its way.
func (s *Server) publish(ps *packState) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic while checking %s: %v\n%s", ps.ref.key, p, debug.Stack())
		}
	}()
	a := s.analysisOf(ps)
	s.mu.Lock()
	current := a.gen == ps.gen && s.packs[ps.ref.key] == ps
	conn := s.conn
	versions := map[string]int32{}
	var open []string
	for _, d := range s.docs {
		versions[d.uri] = d.version
		if d.pack == ps.ref.key {
			open = append(open, d.uri)
		}
	}
	s.mu.Unlock()
	if !current || conn == nil {
		return
	}
	sort.Strings(open)
	byURI := a.lspDiagnostics(open)

	ps.pubMu.Lock()
	defer ps.pubMu.Unlock()
	if a.gen <= ps.publishedGen {
		return
	}
	ps.publishedGen = a.gen
	// Files that had diagnostics and have none now are cleared.
	for uri := range ps.published {
		if _, ok := byURI[uri]; !ok {
			byURI[uri] = []protocol.Diagnostic{}
		}
	}
	for _, uri := range open {
		if _, ok := byURI[uri]; !ok {
			byURI[uri] = []protocol.Diagnostic{}
		}
	}
	ps.published = map[string]bool{}
	uris := make([]string, 0, len(byURI))
	for uri := range byURI {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		params := protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: byURI[uri]}
		if v, ok := versions[uri]; ok && v >= 0 {
			version := protocol.UInteger(v)
			params.Version = &version
		}
		if len(byURI[uri]) > 0 {
			ps.published[uri] = true
		}
		if err := conn.Notify(context.Background(), protocol.ServerTextDocumentPublishDiagnostics, params); err != nil {
			s.log.Printf("publishing diagnostics: %v", err)
			return
		}
	}
}

// clearDiagnostics takes back the diagnostics published for a pack that
// is no longer open.
func (s *Server) clearDiagnostics(ps *packState) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	ps.pubMu.Lock()
	defer ps.pubMu.Unlock()
	ps.publishedGen = ^uint64(0) // nothing more from this pack
	uris := make([]string, 0, len(ps.published))
	for uri := range ps.published {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		_ = conn.Notify(context.Background(), protocol.ServerTextDocumentPublishDiagnostics,
			protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
	}
	ps.published = nil
}

// lspDiagnostics sorts the analysis's diagnostics by the file they are
// about. One with no file, or a file the server cannot name, goes to the
// open documents of the pack (open, sorted): to the one whose name it
// mentions, if any (a file that could not be read), or to all of them.
func (a *analysis) lspDiagnostics(open []string) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, d := range a.diags {
		var uri string
		if d.Subject != nil && d.Subject.Filename != "" {
			uri = a.uriOf(d.Subject.Filename)
		}
		if uri != "" {
			out[uri] = append(out[uri], a.lspDiagnostic(d, uri, false))
			continue
		}
		targets := open
		if named := a.mentionedDocument(d, open); named != "" {
			targets = []string{named}
		}
		for _, uri := range targets {
			out[uri] = append(out[uri], a.lspDiagnostic(d, uri, true))
		}
	}
	return out
}

// mentionedDocument is the open document whose name (as the pack shows
// it) a diagnostic's summary mentions, or "".
func (a *analysis) mentionedDocument(d *diag.Diagnostic, open []string) string {
	best := ""
	bestLen := 0
	for _, uri := range open {
		name := a.nameOf(uri)
		if name != "" && len(name) > bestLen && strings.Contains(d.Summary, name) {
			best, bestLen = uri, len(name)
		}
	}
	return best
}

// nameOf is how diagnostics name an open document of the pack.
func (a *analysis) nameOf(uri string) string {
	if fi := a.files[uri]; fi != nil {
		return fi.name
	}
	ref := a.ref
	switch ref.kind {
	case loose:
		if uri == ref.loose {
			return looseName(uri)
		}
	case shipped:
		if rel := shippedPath(uri); rel != "" {
			return "rulesets/" + rel
		}
	default:
		if rel, ok := relTo(ref.dir, uriPath(uri)); ok {
			if ref.display == "" || ref.display == "." {
				return rel
			}
			return ref.display + "/" + rel
		}
	}
	return ""
}

// lspDiagnostic converts one diagnostic. away: its subject is not in the
// file it is shown in (or it has none), so it sits at the file's start and
// its message says where it is.
func (a *analysis) lspDiagnostic(d *diag.Diagnostic, uri string, away bool) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	if d.Severity == diag.Warning {
		sev = protocol.DiagnosticSeverityWarning
	}
	src := diagnosticSource
	msg := d.Summary
	if d.Path != "" {
		msg = d.Path + ": " + msg
	}
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	var rng protocol.Range
	if away {
		if d.Subject != nil && d.Subject.String() != "" {
			msg = d.Subject.String() + ": " + msg
		}
	} else {
		rng = a.lspRange(uri, d.Subject)
	}
	out := protocol.Diagnostic{
		Range:    rng,
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Code},
		Source:   &src,
		Message:  msg,
	}
	if d.Context != nil && !away {
		if cu := a.uriOf(d.Context.Filename); cu != "" && cu != uri {
			out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: cu, Range: a.lspRange(cu, d.Context)},
				Message:  "the declaration",
			})
		}
	}
	return out
}

// lspRange converts a range of a file the analysis read; of another file
// (a state file of a test), as if it were plain ASCII.
func (a *analysis) lspRange(uri string, r *diag.Range) protocol.Range {
	if fi := a.files[uri]; fi != nil {
		return fi.lines.rangeOf(r)
	}
	if r == nil || r.Start.Line < 1 {
		return protocol.Range{}
	}
	pos := func(p diag.Pos) protocol.Position {
		return protocol.Position{Line: protocol.UInteger(max(p.Line-1, 0)), Character: protocol.UInteger(max(p.Column-1, 0))}
	}
	end := r.End
	if end.Line < 1 {
		end = r.Start
	}
	return protocol.Range{Start: pos(r.Start), End: pos(end)}
}
