package lsp

// This file is the server: the connection, the table of methods, the
// lifecycle (initialize, shutdown, exit) and the open documents. Every
// request is answered, even one that makes a handler panic: with an
// error, and the server goes on.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
)

// DefaultDebounce is how long the server waits after a change before it
// checks the pack: typing is not checked keystroke by keystroke.
const DefaultDebounce = 250 * time.Millisecond

// MethodSource is munda's own request for the text of a shipped file,
// which definitions and diagnostics name by munda: URIs. Its params are
// {"uri": "munda:/rulesets/…"}; its result the text.
const MethodSource = "munda/source"

// CommandOdds is the command of the "odds" code lens; the client runs it
// (munda odds), with arguments: the id, the kind ("procedure" or
// "table") and the document's URI.
const CommandOdds = "munda.odds"

// Options configure a server.
type Options struct {
	// Debounce is how long after a change the pack is checked and its
	// diagnostics published; 0 checks at once.
	Debounce time.Duration
	// Log receives what the server has to say about itself (a message it
	// could not answer, a panic it recovered from); nil discards it.
	Log io.Writer
	// Version is munda's version, for the client's information.
	Version string
	// Rules is what every pack is loaded with, as for munda check: the
	// base a pack without a ruleset header goes on (Base), house toggles
	// (Houses) and packs on top (With). Its Pack is the document's.
	Rules rulesets.Selection
}

// Server is a language server for rule files. One serves one client.
type Server struct {
	opts  Options
	proto protocol.Handler
	log   *log.Logger

	mu          sync.Mutex
	conn        *jsonrpc2.Conn
	root        string                // the workspace's directory, "" if none
	docs        map[string]*document  // open documents by URI
	packs       map[string]*packState // packs of open documents, by key
	initialized bool                  // an initialize request was answered
	shutdown    bool                  // a shutdown request came
	exited      bool                  // an exit notification came
}

// New makes a server.
func New(opts Options) *Server {
	out := opts.Log
	if out == nil {
		out = io.Discard
	}
	s := &Server{opts: opts, log: log.New(out, "munda lsp: ", 0), docs: map[string]*document{}, packs: map[string]*packState{}}
	s.proto = protocol.Handler{
		Initialize:                 s.initialize,
		Initialized:                func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                   s.shutdownRequest,
		SetTrace:                   func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:        s.didOpen,
		TextDocumentDidChange:      s.didChange,
		TextDocumentDidClose:       s.didClose,
		TextDocumentDidSave:        s.didSave,
		TextDocumentHover:          s.hover,
		TextDocumentDefinition:     s.definition,
		TextDocumentReferences:     s.references,
		TextDocumentCompletion:     s.completion,
		TextDocumentDocumentSymbol: s.documentSymbols,
		TextDocumentFormatting:     s.formatting,
		TextDocumentCodeLens:       s.codeLens,

		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
	}
	return s
}

// ErrExitWithoutShutdown is what Serve returns when the client said exit
// without asking to shut down first (the protocol's exit code 1).
var ErrExitWithoutShutdown = errors.New("the client exited without a shutdown request")

// Serve answers the client on rwc until it exits or hangs up, or ctx
// ends. It returns nil after a shutdown and exit, or when the input
// ends.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	conn := jsonrpc2.NewConn(ctx, newStream(rwc), jsonrpc2.HandlerWithError(s.handle), jsonrpc2.SetLogger(s.log))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ps := range s.packs {
		if ps.timer != nil {
			ps.timer.Stop()
		}
	}
	if s.exited && !s.shutdown {
		return ErrExitWithoutShutdown
	}
	return nil
}

// handle answers one message. A handler that panics gets an internal
// error response; the server goes on.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic in %s: %v\n%s", req.Method, p, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
				Message: fmt.Sprintf("munda could not answer %s: %v (a bug in munda)", req.Method, p)}
		}
	}()
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	switch req.Method {
	case protocol.MethodExit:
		s.mu.Lock()
		s.exited = true
		s.mu.Unlock()
		return nil, conn.Close()
	}
	gctx := &glsp.Context{
		Method: req.Method,
		Params: params,
		Notify: func(method string, params any) {
			if err := conn.Notify(ctx, method, params); err != nil {
				s.log.Printf("%s: %v", method, err)
			}
		},
	}
	s.mu.Lock()
	down, initialized := s.shutdown, s.initialized
	s.mu.Unlock()
	switch {
	case down && !req.Notif:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shutting down: only exit is accepted"}
	case !initialized && req.Method != protocol.MethodInitialize:
		if req.Notif {
			return nil, nil // dropped, as the protocol says
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized: send initialize first"}
	case req.Method == MethodSource:
		return s.source(params)
	}
	r, validMethod, validParams, err := s.proto.Handle(gctx)
	switch {
	case !validMethod && req.Notif:
		return nil, nil // $/cancelRequest and the like: ignored, as the protocol says
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: err.Error()}
	}
	return r, nil
}

// codeRequestFailed is LSP's error for a request that was understood but
// could not be done (a document that is not open, a file that does not
// parse for formatting).
const codeRequestFailed = -32803

// codeServerNotInitialized answers a request that comes before initialize.
const codeServerNotInitialized = -32002

func requestFailed(format string, args ...any) error {
	return &jsonrpc2.Error{Code: codeRequestFailed, Message: fmt.Sprintf(format, args...)}
}

func (s *Server) initialize(_ *glsp.Context, params *protocol.InitializeParams) (any, error) {
	root := ""
	switch {
	case len(params.WorkspaceFolders) > 0:
		root = uriPath(params.WorkspaceFolders[0].URI)
	case params.RootURI != nil:
		root = uriPath(*params.RootURI)
	case params.RootPath != nil:
		root = strings.TrimSuffix(*params.RootPath, "/")
	}
	s.mu.Lock()
	s.root, s.initialized = root, true
	s.mu.Unlock()
	yes := true
	full := protocol.TextDocumentSyncKindFull
	info := &protocol.InitializeResultServerInfo{Name: "munda"}
	if s.opts.Version != "" {
		info.Version = &s.opts.Version
	}
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &full, Save: true},
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{".", "\""},
			},
			HoverProvider:              true,
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			CodeLensProvider:           &protocol.CodeLensOptions{},
		},
		ServerInfo: info,
	}, nil
}

func (s *Server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	return nil
}

// didOpen keeps the document and checks its pack.
func (s *Server) didOpen(_ *glsp.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	d := &document{uri: td.URI, path: uriPath(td.URI), version: td.Version, text: td.Text}
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	ref := findPack(d.uri, root) // reads directories: not under the lock
	d.pack = ref.key
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[d.uri] = d
	if s.packs[ref.key] == nil {
		s.packs[ref.key] = &packState{ref: ref}
	}
	s.changedDoc(d)
	return nil
}

// didChange takes the document's new text (the server asks for whole
// texts) and checks its pack again.
func (s *Server) didChange(_ *glsp.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[params.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("%s is not open", params.TextDocument.URI)
	}
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.text = c.Text
		case protocol.TextDocumentContentChangeEvent:
			// Not asked for, but applied all the same.
			x := newLineIndex(d.text)
			start, end := x.offset(c.Range.Start), x.offset(c.Range.End)
			if end < start {
				start, end = end, start
			}
			d.text = d.text[:start] + c.Text + d.text[end:]
		}
	}
	d.version = params.TextDocument.Version
	s.changedDoc(d)
	return nil
}

// didClose forgets the document: its pack is read from disk again, and a
// pack with no open document left is forgotten, its diagnostics cleared.
func (s *Server) didClose(ctx *glsp.Context, params *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[params.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	delete(s.docs, d.uri)
	s.changedDoc(d)
	var gone []*packState
	for key, ps := range s.packs {
		open := false
		for _, o := range s.docs {
			if o.pack == key {
				open = true
			}
		}
		if !open {
			if ps.timer != nil {
				ps.timer.Stop()
			}
			delete(s.packs, key)
			gone = append(gone, ps)
		}
	}
	s.mu.Unlock()
	for _, ps := range gone {
		s.clearDiagnostics(ps)
	}
	return nil
}

// didSave: the file on disk is now what the editor has; nothing changes.
func (s *Server) didSave(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil }

// didChangeWatchedFiles checks again every pack a changed file belongs to.
func (s *Server) didChangeWatchedFiles(_ *glsp.Context, params *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range params.Changes {
		file := uriPath(ch.URI)
		for _, ps := range s.packs {
			if ps.ref.contains(ch.URI, file) {
				s.changed(ps)
			}
		}
	}
	return nil
}

// changedDoc notes a change of a document in every pack it is part of
// (call with s.mu held).
func (s *Server) changedDoc(d *document) {
	for _, ps := range s.packs {
		if ps.ref.contains(d.uri, d.path) {
			s.changed(ps)
		}
	}
}

// openAnalysis returns the analysis of an open document's pack and the
// document, or an error for a document that is not open.
func (s *Server) openAnalysis(uri string) (*analysis, *document, error) {
	ps, d := s.packFor(uri)
	if d == nil || ps == nil {
		return nil, nil, requestFailed("%s is not open", uri)
	}
	return s.analysisOf(ps), d, nil
}

// source answers munda/source: the text of a shipped file.
func (s *Server) source(params json.RawMessage) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	rel := shippedPath(p.URI)
	if rel == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("not a shipped file: %q (want %s…)", p.URI, shippedPrefix)}
	}
	data, err := dsl.ReadLimited(rulesets.FS, rel, 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, requestFailed("no shipped file %s", rel)
	}
	if err != nil {
		return nil, requestFailed("%s: %v", rel, err)
	}
	return string(data), nil
}
