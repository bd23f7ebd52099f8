// Command build writes the playground as a static site: the page, the
// WebAssembly and Go's wasm_exec.js, ready for any static file server.
//
//	go run ./web/build              # into web/dist
//	go run ./web/build -o /tmp/site
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/munda-rules/munda/web"
)

func main() {
	out := flag.String("o", "", "the directory to write (default: web/dist in the module)")
	flag.Parse()
	ctx := context.Background()
	root, err := web.ModuleRoot(ctx, ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join(root, filepath.FromSlash("web/dist"))
	}
	if err := web.Build(ctx, root, dir); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	fmt.Println("wrote", dir)
}
