package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/web"
)

func newServeCmd() *cobra.Command {
	var addr, dir string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web playground locally",
		Long: `Serve builds the web playground (web/) and serves it on a local address:
the page, and munda itself compiled to WebAssembly, which runs in the
browser. Nothing is sent back to the server.

The WebAssembly is built from munda's source with the local Go toolchain
(GOOS=js GOARCH=wasm, into a temporary directory), so serve runs in a
clone of munda. --dir serves a site built before, by go run ./web/build,
instead.`,
		Example: `  munda serve
  munda serve --addr 127.0.0.1:9000
  go run ./web/build -o /tmp/site && munda serve --dir /tmp/site`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			site := dir
			if site == "" {
				root, err := web.ModuleRoot(ctx, ".")
				if err != nil {
					return failed("%v", err)
				}
				tmp, err := os.MkdirTemp("", "munda-web-")
				if err != nil {
					return failed("%v", err)
				}
				defer os.RemoveAll(tmp)
				fmt.Fprintln(cmd.ErrOrStderr(), "munda: building the playground's WebAssembly…")
				start := time.Now()
				if err := web.Build(ctx, root, tmp); err != nil {
					return failed("%v", err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "munda: built in %v\n", time.Since(start).Round(100*time.Millisecond))
				site = tmp
			} else if _, err := os.Stat(filepath.Join(dir, web.WasmFile)); err != nil {
				return failed("--dir %s: no %s there (go run ./web/build -o %s writes it)", dir, web.WasmFile, dir)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return failed("%v", err)
			}
			srv := &http.Server{Handler: web.Handler(site), ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(cmd.OutOrStdout(), "munda: the playground is at http://%s/ (Ctrl-C stops it)\n", ln.Addr())
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				_ = srv.Shutdown(shut)
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return failed("%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to serve on")
	cmd.Flags().StringVar(&dir, "dir", "", "serve this built site (from go run ./web/build) instead of building one")
	return cmd
}

// cmdContext is the command's context, or a background one.
func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}
