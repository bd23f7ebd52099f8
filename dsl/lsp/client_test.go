package lsp

// A client for tests: it talks to a server over a pipe, as an editor
// does over stdio, and keeps what the server sends.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// timeout bounds each wait of a test for the server. It is a bound on a
// server that hangs, not a measure of speed: generous, because a loaded
// 2-core machine (CI, or other test binaries of go test ./...) has made
// an answer take over 20 s.
const timeout = 90 * time.Second

// message is what the server sent.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type client struct {
	t      *testing.T
	in     *io.PipeWriter // what the server reads
	nextID int
	served chan error

	mu       sync.Mutex
	changed  *sync.Cond
	messages []message
	closed   bool
}

// startServer runs a server on a pipe and returns a client of it.
func startServer(t *testing.T, opts Options) *client {
	t.Helper()
	return startServerWith(t, New(opts))
}

// startServerWith runs a given server.
func startServerWith(t *testing.T, srv *Server) *client {
	t.Helper()
	srvIn, clientOut := io.Pipe()
	clientIn, srvOut := io.Pipe()
	c := &client{t: t, in: clientOut, served: make(chan error, 1)}
	c.changed = sync.NewCond(&c.mu)
	go func() {
		c.served <- srv.Serve(context.Background(), pipeConn{srvIn, srvOut})
		srvOut.Close()
	}()
	go c.read(clientIn)
	t.Cleanup(func() {
		clientOut.Close()
		select {
		case <-c.served:
		case <-time.After(timeout):
			t.Error("the server did not stop when its input ended")
		}
	})
	return c
}

type pipeConn struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (p pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeConn) Close() error                { p.r.Close(); return p.w.Close() }

func (c *client) read(r io.Reader) {
	br := bufio.NewReader(r)
	tp := textproto.NewReader(br)
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.changed.Broadcast()
		c.mu.Unlock()
	}()
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			c.t.Errorf("a message without a Content-Length: %v", h)
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the server sent what is not JSON: %q", body)
			return
		}
		c.mu.Lock()
		c.messages = append(c.messages, m)
		c.changed.Broadcast()
		c.mu.Unlock()
	}
}

// sendRaw writes bytes as they are.
func (c *client) sendRaw(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, b); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// sendBody frames a body and writes it.
func (c *client) sendBody(body string) {
	c.t.Helper()
	c.sendRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendBody(string(b))
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	c.send(req)
	return c.response(strconv.Itoa(id))
}

// response waits for the response with an id (as JSON: 3, "x", null).
func (c *client) response(id string) message {
	c.t.Helper()
	return c.waitFor("the response "+id, func(m message) bool {
		return m.Method == "" && string(m.ID) == id
	})
}

// waitFor waits for a message the server sent that matches, and takes it
// out of what is kept.
func (c *client) waitFor(what string, match func(message) bool) message {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
		c.mu.Lock()
		c.changed.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i, m := range c.messages {
			if match(m) {
				c.messages = append(c.messages[:i:i], c.messages[i+1:]...)
				return m
			}
		}
		if c.closed || time.Now().After(deadline) {
			c.t.Fatalf("waiting for %s: the server sent only %s", what, summarize(c.messages))
		}
		c.changed.Wait()
	}
}

// diagnostics waits for the diagnostics of a document at a version.
func (c *client) diagnostics(uri string, version int) json.RawMessage {
	c.t.Helper()
	m := c.waitFor(fmt.Sprintf("diagnostics of %s version %d", uri, version), func(m message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p struct {
			URI     string `json:"uri"`
			Version *int   `json:"version"`
		}
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri && p.Version != nil && *p.Version == version
	})
	return m.Params
}

func summarize(ms []message) string {
	var parts []string
	for _, m := range ms {
		b, _ := json.Marshal(m)
		s := string(b)
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "\n")
}

// initialize starts the session with root as the workspace.
func (c *client) initialize(root string) message {
	c.t.Helper()
	m := c.call("initialize", map[string]any{"processId": nil, "rootUri": pathURI(filepath.ToSlash(root)), "capabilities": map[string]any{}})
	if m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error.Message)
	}
	c.notify("initialized", map[string]any{})
	return m
}

// open opens a file (its text from disk unless text is given) and
// returns its URI.
func (c *client) open(path, text string) string {
	c.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		c.t.Fatal(err)
	}
	if text == "" {
		b, err := os.ReadFile(abs)
		if err != nil {
			c.t.Fatal(err)
		}
		text = string(b)
	}
	uri := pathURI(filepath.ToSlash(abs))
	c.openURI(uri, text)
	return uri
}

func (c *client) openURI(uri, text string) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "munda", "version": 1, "text": text}})
}

func (c *client) change(uri string, version int, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// at is a position in a document: line and character, 0-based.
func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

func lspPos(line, char uint32) protocol.Position {
	return protocol.Position{Line: line, Character: char}
}

func timeoutAfter() <-chan time.Time { return time.After(timeout) }
