package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// frames writes JSON-RPC bodies as the LSP base protocol frames them.
func frames(bodies ...string) string {
	var b strings.Builder
	for _, body := range bodies {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.String()
}

// TestLSPVerb runs munda lsp on stdin and stdout: a session that shuts
// down and exits ends with 0, one that exits without shutting down with
// 1, and garbage on the way is answered, not fatal.
func TestLSPVerb(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	shutdown := `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	exit := `{"jsonrpc":"2.0","method":"exit"}`
	for _, tc := range []struct {
		name  string
		input string
		code  int
		want  []string
	}{
		{"shutdown and exit", frames(initialize, `{"garbage`, shutdown, exit), exitOK,
			[]string{`"id":1,"result":{"capabilities"`, `"code":-32700`, `"id":2,"result":null`}},
		{"exit without shutdown", frames(initialize, exit), exitFailed, []string{`"id":1,"result"`}},
		{"input ends", frames(initialize), exitOK, []string{`"id":1,"result"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"lsp"}, strings.NewReader(tc.input), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %s:\n%s", w, stdout.String())
				}
			}
		})
	}
}
