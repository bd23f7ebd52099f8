package main

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl/lsp"
)

func newLSPCmd() *cobra.Command {
	var rf ruleFlags
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (for editors) on stdin and stdout",
		Long: `Lsp runs munda's language server: an editor starts it and talks to it
over stdin and stdout with the Language Server Protocol. It checks a rule
file as you type (the diagnostics of munda check, for the whole pack the
file belongs to), shows what munda rules show says of the declaration
under the cursor, goes to definitions and finds references, completes
ids, fields and functions, formats with munda fmt, outlines the file's
declarations, and puts an "odds" lens (command munda.odds, arguments: the
id, "procedure" or "table", the file's URI) on each procedure and table.

A file belongs to the pack munda check DIR would check it in: its
directory, and the directories above it as long as they hold .munda
files too. A file alone in its directory is checked on its own, as munda
check FILE does. As for check, a pack without a "ruleset" header is
checked on top of --rules (default core-2023), and --house and --with
add to every pack.

To use it, tell your editor to run "munda lsp" for .munda files. Neovim
(0.11 or later):

  vim.filetype.add({ extension = { munda = "munda" } })
  vim.lsp.config("munda", { cmd = { "munda", "lsp" }, filetypes = { "munda" },
    root_markers = { ".git" } })
  vim.lsp.enable("munda")

Helix (languages.toml):

  [language-server.munda]
  command = "munda"
  args = ["lsp"]
  [[language]]
  name = "munda"
  scope = "source.munda"
  file-types = ["munda"]
  language-servers = ["munda"]

Emacs (eglot): (add-to-list 'eglot-server-programs '(munda-mode "munda" "lsp"))

Messages about the server itself go to stderr. Exit code 0 after the
client's shutdown and exit (or when stdin ends), 1 after an exit without
a shutdown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			collectAsUsual()
			sel, err := rf.selection()
			if err != nil {
				return err
			}
			srv := lsp.New(lsp.Options{Debounce: lsp.DefaultDebounce, Log: cmd.ErrOrStderr(), Version: mundaVersion(), Rules: sel})
			rw := stdio{in: cmd.InOrStdin(), out: cmd.OutOrStdout()}
			err = srv.Serve(context.Background(), rw)
			if errors.Is(err, lsp.ErrExitWithoutShutdown) {
				return failed("%v", err)
			}
			return err
		},
	}
	rf.register(cmd)
	return cmd
}

// stdio is the command's standard input and output as one connection.
// Closing it closes neither: the process ends soon after.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error                { return nil }

// collectAsUsual gives the garbage collector Go's defaults back, unless
// GOGC or GOMEMLIMIT says otherwise: a short command may put off
// collecting, but the server lives as long as the editor, and its heap
// holds the packs it has checked.
func collectAsUsual() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcPacing.Store(false)
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}

// mundaVersion is the module's version, as the go command recorded it.
func mundaVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
