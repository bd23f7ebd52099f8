package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page names only files the site has: its own, and the two Build adds.
func TestStaticPageNamesItsFiles(t *testing.T) {
	have := map[string]bool{WasmFile: true, WasmExecFile: true}
	_ = fs.WalkDir(Static, ".", func(p string, d fs.DirEntry, err error) error {
		have[p] = err == nil && !d.IsDir()
		return nil
	})
	for _, f := range []string{"index.html", "app.js", "worker.js", "style.css"} {
		if !have[f] {
			t.Errorf("static/ lacks %s", f)
		}
	}
	for file, names := range map[string][]string{
		"index.html": {"style.css", "app.js"},
		"app.js":     {"worker.js"},
		"worker.js":  {WasmExecFile, WasmFile},
	} {
		data, err := fs.ReadFile(Static, file)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if !strings.Contains(string(data), `"`+n+`"`) {
				t.Errorf("%s does not load %q", file, n)
			}
		}
	}
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html>", WasmFile: "\x00asm"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct {
		path, status, contentType string
	}{
		{"/", "200 OK", "text/html; charset=utf-8"},
		{"/" + WasmFile, "200 OK", "application/wasm"},
		{"/nosuch.js", "404 Not Found", ""},
	} {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Status != c.status || (c.contentType != "" && res.Header.Get("Content-Type") != c.contentType) {
			t.Errorf("%s: %s %q", c.path, res.Status, res.Header.Get("Content-Type"))
		}
		if res.StatusCode == http.StatusOK && res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: Cache-Control %q", c.path, res.Header.Get("Cache-Control"))
		}
	}
}
