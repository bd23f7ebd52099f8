package lsp

// This file loads and checks a pack as the editor shows it, and keeps the
// result: every request is answered from the latest analysis of the
// document's pack, and diagnostics are published from it once typing
// pauses.

import (
	"embed"
	"fmt"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// analysis is one load and check of a pack.
type analysis struct {
	ref   *packRef
	gen   uint64 // the pack's generation it was made from
	rules *dsl.Rules
	diags diag.Diagnostics
	// checked: the pack parsed and was checked, so rules.Index is set.
	checked bool
	files   map[string]*fileInfo // by URI: every file the rules were read from
	byName  map[string]*fileInfo // by the name diagnostics give it
	refs    *xrefIndex
}

// fileInfo is one file of an analysis.
type fileInfo struct {
	uri   string
	name  string // as diagnostics name it
	lines *lineIndex
	ast   *syntax.File // nil if it did not parse
}

// analyze loads and checks a pack with the open documents over its files,
// as rules asks (its base, houses and packs on top). paths maps the open
// documents' paths on disk to their URIs, so that diagnostics go to the
// URIs the editor knows.
func analyze(ref *packRef, rules rulesets.Selection, docs []*document, paths map[string]string, gen uint64) *analysis {
	a := &analysis{ref: ref, gen: gen, files: map[string]*fileInfo{}, byName: map[string]*fileInfo{}}
	sel, release, err := ref.selection(rules, docs)
	if err != nil {
		a.diags = diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeFileError, Summary: fmt.Sprintf("cannot read %s: %v", ref.display, err)}}
		a.refs = newXrefIndex()
		return a
	}
	defer release()
	a.rules, a.diags = rulesets.Load(sel)
	a.checked = a.rules != nil && a.rules.Index != nil
	if a.rules != nil {
		parsed := map[string]*syntax.File{}
		for _, f := range a.rules.Files() {
			parsed[f.Name] = f
		}
		for _, lp := range a.rules.Packs {
			mine := lp.Pack == sel.Pack
			for name, src := range lp.Sources {
				uri := packFileURI(ref, lp.Pack, mine, name, paths)
				fi := &fileInfo{uri: uri, name: name, lines: newLineIndex(string(src)), ast: parsed[name]}
				a.files[uri] = fi
				a.byName[name] = fi
			}
		}
	}
	a.refs = buildXref(a)
	return a
}

// packFileURI is the URI of a file a pack read, by the name diagnostics
// give it.
func packFileURI(ref *packRef, p *dsl.Pack, mine bool, name string, paths map[string]string) string {
	rel := name
	if d := p.Display; d != "" && d != "." {
		rel = strings.TrimPrefix(name, d+"/")
	}
	switch {
	case !mine:
		if _, ok := p.FS.(embed.FS); ok {
			return shippedURI(path.Join(p.Root, rel))
		}
		// A pack on top (--with), named by its path as given.
		dir, err := filepath.Abs(filepath.FromSlash(p.Display))
		if err != nil {
			return ""
		}
		return pathURI(path.Join(filepath.ToSlash(dir), rel))
	case ref.kind == loose:
		return ref.loose
	case ref.kind == shipped:
		return shippedURI(path.Join(ref.shipped, rel))
	}
	file := path.Join(ref.dir, rel)
	if uri, ok := paths[file]; ok {
		return uri
	}
	return pathURI(file)
}

// uriOf is the URI of a file named in a diagnostic: one the rules read,
// or another file of the pack (a test's state), or "" when unknown.
func (a *analysis) uriOf(name string) string {
	if fi := a.byName[name]; fi != nil {
		return fi.uri
	}
	ref := a.ref
	if ref.kind == onDisk {
		rel := name
		if d := ref.display; d != "" && d != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(name, d+"/"); !ok {
				return ""
			}
		}
		return pathURI(path.Join(ref.dir, rel))
	}
	return ""
}

// fileAt returns the analysis's file at a URI, or nil.
func (a *analysis) fileAt(uri string) *fileInfo {
	if a == nil {
		return nil
	}
	return a.files[uri]
}

// packState is what the server keeps of one pack.
type packState struct {
	ref *packRef
	gen uint64 // bumped at each change of one of its files (under Server.mu)

	mu       sync.Mutex // held while analysing
	latest   *analysis  // (under Server.mu)
	lastGood *analysis  // the latest that was checked: ids for completion (under Server.mu)

	timer *time.Timer // the pending publication (under Server.mu)

	pubMu        sync.Mutex
	publishedGen uint64
	published    map[string]bool // URIs that were given diagnostics
}

// analysisOf returns the pack's analysis of its current generation,
// making it if need be.
func (s *Server) analysisOf(ps *packState) *analysis {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	s.mu.Lock()
	gen := ps.gen
	if ps.latest != nil && ps.latest.gen == gen {
		s.mu.Unlock()
		return ps.latest
	}
	var docs []*document
	paths := map[string]string{}
	for _, d := range s.docs {
		if ps.ref.contains(d.uri, d.path) {
			docs = append(docs, d)
		}
		if d.path != "" {
			paths[d.path] = d.uri
		}
	}
	s.mu.Unlock()
	sort.Slice(docs, func(i, j int) bool { return docs[i].uri < docs[j].uri })
	a := s.analyzeSafely(ps.ref, docs, paths, gen)
	s.mu.Lock()
	ps.latest = a
	if a.checked {
		ps.lastGood = a
	}
	s.mu.Unlock()
	return a
}

// analyzeSafely is analyze, with a panic in the checker turned into a
// diagnostic (and its stack into the log).
func (s *Server) analyzeSafely(ref *packRef, docs []*document, paths map[string]string, gen uint64) (a *analysis) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic while checking %s: %v\n%s", ref.key, p, debug.Stack())
			a = &analysis{ref: ref, gen: gen, files: map[string]*fileInfo{}, byName: map[string]*fileInfo{}, refs: newXrefIndex(),
				diags: diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeFileError,
					Summary: fmt.Sprintf("munda could not check this pack: %v", p),
					Detail:  "This is a bug in munda; please report it with the files."}}}
		}
	}()
	return analyze(ref, s.opts.Rules, docs, paths, gen)
}

// changed notes a change to the pack's files and schedules its
// diagnostics (call with s.mu held).
func (s *Server) changed(ps *packState) {
	ps.gen++
	if ps.timer != nil {
		ps.timer.Stop()
	}
	ps.timer = time.AfterFunc(s.opts.Debounce, func() { s.publish(ps) })
}

// packFor returns the state of the pack an open document belongs to.
func (s *Server) packFor(uri string) (*packState, *document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return nil, nil
	}
	return s.packs[d.pack], d
}
