// Package web is munda's playground: a static page (static/) that runs
// the rules in the browser through WebAssembly (wasm/, over playground/).
// Build writes the whole site to a directory; munda serve and
// `go run ./web/build` use it.
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed static
var static embed.FS

// Static is the page: index.html, its script, its worker and its style.
var Static, _ = fs.Sub(static, "static")

// ModulePath is the module the playground's WebAssembly is built from.
const ModulePath = "github.com/munda-rules/munda"

// WasmFile and WasmExecFile are the built files the page loads beside
// its own.
const (
	WasmFile     = "munda.wasm"
	WasmExecFile = "wasm_exec.js"
)

// ModuleRoot finds the munda module's source directory from dir (or one
// above it), as the go command does: the WebAssembly is built from the
// source, so munda serve runs in a clone.
func ModuleRoot(ctx context.Context, dir string) (string, error) {
	out, err := goCmd(ctx, dir, nil, "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return "", fmt.Errorf("cannot find the munda module from %s (run in a clone of munda, or serve a built site with --dir): %v", dir, err)
	}
	root := strings.TrimSpace(out)
	modPath, err := goCmd(ctx, dir, nil, "list", "-m")
	if err != nil || strings.TrimSpace(modPath) != ModulePath {
		if root == "" { // outside any module: go list names none
			if abs, aerr := filepath.Abs(dir); aerr == nil {
				dir = abs
			}
			return "", fmt.Errorf("%s is not inside the munda module (%s): run in a clone of munda, or serve a built site with --dir", dir, ModulePath)
		}
		return "", fmt.Errorf("%s is not the munda module (%s) but %q: run in a clone of munda, or serve a built site with --dir", root, ModulePath, strings.TrimSpace(modPath))
	}
	return root, nil
}

// Build writes the site to out: the page, the WebAssembly built with the
// local Go toolchain from the module at root, and Go's wasm_exec.js (the
// one that matches the toolchain that built it).
func Build(ctx context.Context, root, out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(Static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(Static, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("writing the page: %v", err)
	}
	wasm, err := filepath.Abs(filepath.Join(out, WasmFile))
	if err != nil {
		return err
	}
	// -s -w: no symbol table or DWARF, a third smaller to download.
	if _, err := goCmd(ctx, root, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./web/wasm"); err != nil {
		return fmt.Errorf("building the WebAssembly: %v", err)
	}
	goroot, err := goCmd(ctx, root, nil, "env", "GOROOT")
	if err != nil {
		return err
	}
	goroot = strings.TrimSpace(goroot)
	var execJS []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} { // Go 1.24 moved it to lib/
		if execJS, err = os.ReadFile(filepath.Join(goroot, filepath.FromSlash(p))); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("cannot find wasm_exec.js in %s: %v", goroot, err)
	}
	return os.WriteFile(filepath.Join(out, WasmExecFile), execJS, 0o644)
}

// goCmd runs the go command in dir and returns its output.
func goCmd(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return "", fmt.Errorf("go %s: %s", strings.Join(args, " "), strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}

// Handler serves a built site from dir, with no caching of the page (a
// rebuilt WebAssembly must not meet an old script).
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})
}
