package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// wantError checks that a response is an error with a code.
func wantError(t *testing.T, what string, m message, code int64) {
	t.Helper()
	if m.Error == nil {
		t.Errorf("%s: got result %s, want error %d", what, m.Result, code)
		return
	}
	if m.Error.Code != code {
		t.Errorf("%s: got error %d (%s), want %d", what, m.Error.Code, m.Error.Message, code)
	}
}

// alive checks that the server still answers.
func alive(t *testing.T, c *client) {
	t.Helper()
	c.nextID++
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": "shutdown-probe"})
	wantError(t, "a request after bad input", c.response(fmt.Sprint(c.nextID)), jsonrpc2.CodeMethodNotFound)
}

// TestLSPGarbage: a client that sends what is not a message, or a message
// the server does not know, gets an error response, and the server goes
// on serving.
func TestLSPGarbage(t *testing.T) {
	c := startServer(t, Options{})

	// Before initialize, a request is refused and a notification dropped.
	wantError(t, "hover before initialize", c.call("textDocument/hover", at("file:///x.munda", 0, 0)), codeServerNotInitialized)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///x.munda", "text": "x"}})
	c.initialize(t.TempDir())

	c.sendBody(`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {`)
	wantError(t, "a message that is not JSON", c.response("null"), jsonrpc2.CodeParseError)
	alive(t, c)

	c.sendBody(`[1, 2, 3]`)
	wantError(t, "a JSON array", c.response("null"), jsonrpc2.CodeInvalidRequest)
	c.sendBody(`{"jsonrpc": "2.0", "id": 77, "params": {}}`)
	wantError(t, "a request without a method", c.response("77"), jsonrpc2.CodeInvalidRequest)
	c.sendBody(`{"jsonrpc": "2.0", "id": {"an": "object"}, "method": "shutdown"}`)
	wantError(t, "an id that is an object", c.response("null"), jsonrpc2.CodeInvalidRequest)
	alive(t, c)

	// Header lines that are junk, a header without a length, a length
	// that is not a number, a message over the limit.
	c.sendRaw("hello there\r\n")
	c.send(map[string]any{"jsonrpc": "2.0", "id": 78, "method": "nosuch"})
	wantError(t, "junk before a header", c.response("null"), jsonrpc2.CodeParseError)
	wantError(t, "the message after junk", c.response("78"), jsonrpc2.CodeMethodNotFound)
	c.sendRaw("Content-Type: x\r\n\r\n")
	wantError(t, "a header without a Content-Length", c.response("null"), jsonrpc2.CodeParseError)
	c.sendRaw("Content-Length: lots\r\n\r\n")
	wantError(t, "a Content-Length that is no number", c.response("null"), jsonrpc2.CodeParseError)
	c.sendRaw(strings.Repeat("x", 10000) + "\r\n\r\n")
	wantError(t, "a very long header line", c.response("null"), jsonrpc2.CodeParseError)
	alive(t, c)

	// Methods the server does not know, and params of the wrong shape.
	wantError(t, "an unknown method", c.call("textDocument/unknownThing", map[string]any{}), jsonrpc2.CodeMethodNotFound)
	c.notify("$/unknownNotification", map[string]any{})
	wantError(t, "hover with a position that is a string", c.call("textDocument/hover",
		map[string]any{"textDocument": map[string]any{"uri": "file:///x.munda"}, "position": "here"}), jsonrpc2.CodeInvalidParams)
	wantError(t, "hover of a document that is not open", c.call("textDocument/hover", at("file:///nowhere.munda", 0, 0)), codeRequestFailed)
	wantError(t, "munda/source of a file that is not shipped", c.call(MethodSource, map[string]any{"uri": "file:///etc/passwd"}), jsonrpc2.CodeInvalidParams)
	wantError(t, "munda/source leaving the rulesets", c.call(MethodSource, map[string]any{"uri": "munda:/rulesets/../../etc/passwd"}), jsonrpc2.CodeInvalidParams)
	alive(t, c)
}

// TestLSPOverLimit: a message larger than the limit is skipped whole,
// answered, and the next is read.
func TestLSPOverLimit(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(t.TempDir())
	c.sendRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n", MaxMessage+1))
	chunk := strings.Repeat(" ", 1<<20)
	for n := 0; n < MaxMessage+1; n += len(chunk) {
		c.sendRaw(chunk[:min(len(chunk), MaxMessage+1-n)])
	}
	wantError(t, "a message over the limit", c.response("null"), jsonrpc2.CodeInvalidRequest)
	alive(t, c)
}

// TestLSPPanic: a handler that panics gets an internal error response,
// and the server goes on.
func TestLSPPanic(t *testing.T) {
	srv := New(Options{})
	srv.proto.TextDocumentHover = func(*glsp.Context, *protocol.HoverParams) (*protocol.Hover, error) {
		panic("a bug")
	}
	c := startServerWith(t, srv)
	c.initialize(t.TempDir())
	wantError(t, "a handler that panics", c.call("textDocument/hover", at("file:///x.munda", 0, 0)), jsonrpc2.CodeInternalError)
	alive(t, c)
}

// TestLSPHalfTyped: a file being typed does not parse; every request on
// it is answered, and it gets its parse error.
func TestLSPHalfTyped(t *testing.T) {
	c := startServer(t, Options{})
	root, _ := filepath.Abs("testdata")
	c.initialize(root)
	moraleText := read(t, "testdata/pack/morale.munda")
	morale := c.open("testdata/pack/morale.munda", "")
	c.diagnostics(morale, 1)

	half := strings.Replace(moraleText, "  call nerve(fighter)\n", "  call nerve(fighter\n  apply inj", 1)
	c.change(morale, 2, half)
	var diags struct {
		Diagnostics []struct{ Code, Message string }
	}
	if err := json.Unmarshal(c.diagnostics(morale, 2), &diags); err != nil {
		t.Fatal(err)
	}
	if len(diags.Diagnostics) == 0 || diags.Diagnostics[0].Code != "parse_error" {
		t.Errorf("a half-typed file: diagnostics %+v, want a parse_error", diags.Diagnostics)
	}
	l, ch := find(t, half, "apply inj", 0, len("apply inj"))
	pos := at(morale, l, ch)
	for _, method := range []string{"textDocument/hover", "textDocument/definition"} {
		if m := c.call(method, pos); m.Error != nil || string(m.Result) != "null" {
			t.Errorf("%s on a half-typed file: %+v, want null", method, m)
		}
	}
	refs := at(morale, l, ch)
	refs["context"] = map[string]any{"includeDeclaration": true}
	if m := c.call("textDocument/references", refs); m.Error != nil {
		t.Errorf("references on a half-typed file: %s", m.Error.Message)
	}
	doc := map[string]any{"textDocument": map[string]any{"uri": morale}}
	for _, method := range []string{"textDocument/documentSymbol", "textDocument/codeLens"} {
		if m := c.call(method, doc); m.Error != nil || string(m.Result) != "[]" {
			t.Errorf("%s on a half-typed file: %+v, want []", method, m)
		}
	}
	// Completion still knows the pack's ids, from the last time it checked.
	var items []protocol.CompletionItem
	if err := json.Unmarshal(result(t, c.call("textDocument/completion", pos)), &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Label != "injury" {
		t.Errorf("completion after `apply inj` in a half-typed file: %+v, want the table injury", items)
	}
	wantError(t, "formatting a file that does not parse",
		c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": morale}, "options": map[string]any{}}), codeRequestFailed)
	alive(t, c)
}

// TestLSPOutsideAnyPack: a file alone in its directory is checked on its
// own on top of core-2023, as munda check FILE does; a document with no
// file (an untitled buffer) too.
func TestLSPOutsideAnyPack(t *testing.T) {
	if testing.Short() {
		t.Skip("loads core-2023")
	}
	c := startServer(t, Options{})
	dir := t.TempDir()
	c.initialize(dir)
	text := "procedure odd() \"Odd\" {\n  roll x = d7\n  emit \"{x}\"\n}\n"
	path := filepath.Join(dir, "alone.munda")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fileURI := c.open(path, text)
	c.openURI("untitled:Untitled-1", text)
	for _, uri := range []string{fileURI, "untitled:Untitled-1"} {
		var diags protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(c.diagnostics(uri, 1), &diags); err != nil {
			t.Fatal(err)
		}
		if len(diags.Diagnostics) != 1 || !strings.Contains(diags.Diagnostics[0].Message, "unknown dice d7; did you mean") ||
			diags.Diagnostics[0].Range.Start != (protocol.Position{Line: 1, Character: 11}) {
			t.Errorf("%s: diagnostics %+v, want an unknown dice d7 (with a did-you-mean from core-2023's dice) at 1:11", uri, diags.Diagnostics)
		}
	}
	// A definition in the base ruleset: a procedure of core-2023 called.
	text2 := "procedure odd() \"Odd\" {\n  call bottle_checks()\n}\n"
	c.change("untitled:Untitled-1", 2, text2)
	c.diagnostics("untitled:Untitled-1", 2)
	var locs []protocol.Location
	if err := json.Unmarshal(result(t, c.call("textDocument/definition", at("untitled:Untitled-1", 1, 8))), &locs); err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || !strings.HasPrefix(locs[0].URI, "munda:/rulesets/core-2023/") {
		t.Fatalf("definition of a core-2023 procedure: %+v, want a munda:/rulesets/core-2023/ URI", locs)
	}
	src := result(t, c.call(MethodSource, map[string]any{"uri": locs[0].URI}))
	var shipped string
	if err := json.Unmarshal(src, &shipped); err != nil {
		t.Fatal(err)
	}
	if line := strings.Split(shipped, "\n")[locs[0].Range.Start.Line]; !strings.Contains(line, "procedure bottle_checks") {
		t.Errorf("the definition's line in %s is %q", locs[0].URI, line)
	}
}

// TestLSPHugeFile: a 10 MB file is refused by the loader's limits, with a
// diagnostic; the server answers requests on it. (How fast is not
// asserted: timings belong in benchmarks, not in tests on a shared machine.)
func TestLSPHugeFile(t *testing.T) {
	c := startServer(t, Options{})
	dir := t.TempDir()
	c.initialize(dir)
	var b strings.Builder
	for b.Len() < 10<<20 {
		b.WriteString("// a comment that goes on and on, to make a file of ten megabytes\n")
	}
	b.WriteString(strings.Repeat("x", 1<<20)) // and a last line of a megabyte
	huge := b.String()
	uri := pathURI(filepath.ToSlash(filepath.Join(dir, "huge.munda")))
	c.openURI(uri, huge)
	var diags protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(c.diagnostics(uri, 1), &diags); err != nil {
		t.Fatal(err)
	}
	if len(diags.Diagnostics) != 1 || !strings.Contains(diags.Diagnostics[0].Message, "larger than the limit") {
		t.Errorf("a 10 MB file: diagnostics %+v, want one saying it is over the limit", diags.Diagnostics)
	}
	for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion"} {
		if m := c.call(method, at(uri, 100, 5)); m.Error != nil {
			t.Errorf("%s on a 10 MB file: %s", method, m.Error.Message)
		}
	}
	if m := c.call("textDocument/completion", at(uri, 200000, 1<<20)); m.Error != nil {
		t.Errorf("completion at the end of a line of a megabyte: %s", m.Error.Message)
	}
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	if m := c.call("textDocument/documentSymbol", doc); m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("symbols of a 10 MB file: %+v", m)
	}
	m := c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{}})
	wantError(t, "formatting a 10 MB file", m, codeRequestFailed)
	if m.Error != nil && !strings.Contains(m.Error.Message, fmt.Sprint(syntax.MaxFileSize)) {
		t.Errorf("formatting a 10 MB file: %q does not give the limit", m.Error.Message)
	}
	alive(t, c)
}

// TestLSPOddURIs: documents at URIs that name no file, or a file that
// cannot be, are checked as far as they can be, and every request on
// them is answered.
func TestLSPOddURIs(t *testing.T) {
	c := startServer(t, Options{Rules: rulesets.Selection{Base: rulesets.None}})
	c.initialize(t.TempDir())
	for _, uri := range []string{"", "file:///", "file://", "file:///no/such/dir/x.munda", "munda:/rulesets/", "munda:/rulesets/core-2023/nosuch.munda", "%zz", "file:///tmp/%00.munda"} {
		c.openURI(uri, "dice d6 \"D6\" {\n  faces 1, 2, 3, 4, 5, 6\n}\n")
		c.diagnostics(uri, 1)
		for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion"} {
			if m := c.call(method, at(uri, 0, 6)); m.Error != nil {
				t.Errorf("%s on %q: %s", method, uri, m.Error.Message)
			}
		}
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	alive(t, c)
}

// TestLSPWithMod: a pack on top of every pack (munda lsp --with DIR): its
// declarations are found at their files on disk.
func TestLSPWithMod(t *testing.T) {
	if testing.Short() {
		t.Skip("loads core-2023")
	}
	mod := "../../testdata/mods/grim-resolve"
	c := startServer(t, Options{Rules: rulesets.Selection{With: []*dsl.Pack{{FS: os.DirFS(mod), Root: ".", Display: mod}}}})
	c.initialize(t.TempDir())
	text := "procedure steeled(m: model) \"Steeled\" {\n  let grim = has_skill(m, \"grim_resolve\")\n}\n"
	c.openURI("untitled:mine", text)
	c.diagnostics("untitled:mine", 1)
	var locs []protocol.Location
	if err := json.Unmarshal(result(t, c.call("textDocument/definition", at("untitled:mine", 1, 30))), &locs); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(mod, "grim_resolve.munda"))
	if want := pathURI(filepath.ToSlash(abs)); len(locs) != 1 || locs[0].URI != want || locs[0].Range.Start.Line != 11 {
		t.Errorf("definition of a skill of a mod on top: %+v, want %s line 11", locs, want)
	}
}
