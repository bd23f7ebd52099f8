package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

func newFmtCmd() *cobra.Command {
	var list, write, diff bool
	cmd := &cobra.Command{
		Use:   "fmt [PATH]...",
		Short: "Format rule files canonically",
		Long: `Fmt prints rule files in canonical form. PATH is a .munda file or a
directory searched for them (default: the current directory). Comments are
kept; expressions keep their text, with runs of spaces collapsed. Fmt checks
that its output parses to the same tree and refuses to write otherwise.

With no flag, the formatted files are printed. Exit code 1 with -l or -d
when a file is not formatted, or when a file does not parse.`,
		Example: `  munda fmt -l rulesets
  munda fmt -w mymod/
  munda fmt -d rulesets/core-2023/dice.munda`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."}
			}
			files, err := mundaFiles(args)
			if err != nil {
				return failed("%v", err)
			}
			out := cmd.OutOrStdout()
			changed, broken := 0, 0
			for _, path := range files {
				src, err := readInput(path, syntax.MaxFileSize)
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "munda: %v\n", err)
					broken++
					continue
				}
				name := filepath.ToSlash(path)
				formatted, diags := syntax.FormatSource(name, src)
				if diags.HasErrors() {
					_ = diag.WriteText(cmd.ErrOrStderr(), diags, diag.Sources{name: src})
					broken++
					continue
				}
				same := bytes.Equal(src, formatted)
				if !same {
					changed++
				}
				switch {
				case list || diff || write:
					if list && !same {
						fmt.Fprintln(out, name)
					}
					if diff && !same {
						fmt.Fprint(out, unifiedDiff(name, string(src), string(formatted)))
					}
					if write && !same {
						if err := writeFileAtomic(path, formatted); err != nil {
							return failed("%v", err)
						}
					}
				default:
					if _, err := out.Write(formatted); err != nil {
						return err
					}
				}
			}
			if broken > 0 || ((list || diff) && !write && changed > 0) {
				return &failure{}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&list, "list", "l", false, "list files whose formatting differs")
	cmd.Flags().BoolVarP(&write, "write", "w", false, "write the result to the file instead of printing it")
	cmd.Flags().BoolVarP(&diff, "diff", "d", false, "print a diff instead of the formatted file")
	return cmd
}

// mundaFiles lists the .munda files at the given paths, in order.
func mundaFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", p, unwrapPath(err))
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".munda") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unifiedDiff is a line diff in unified format (three lines of context),
// from a longest common subsequence: rule files are small.
func unifiedDiff(name, a, b string) string {
	x := strings.SplitAfter(a, "\n")
	y := strings.SplitAfter(b, "\n")
	if len(x) > 0 && x[len(x)-1] == "" {
		x = x[:len(x)-1]
	}
	if len(y) > 0 && y[len(y)-1] == "" {
		y = y[:len(y)-1]
	}
	// lcs[i][j]: length of the common subsequence of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		line string
		ai   int // line number in a (1-based) for ' ' and '-'
		bi   int // line number in b for ' ' and '+'
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i + 1, j + 1})
			i++
			j++
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], i + 1, j})
			i++
		default:
			ops = append(ops, op{'+', y[j], i, j + 1})
			j++
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (formatted)\n", name, name)
	const ctx = 3
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(0, k-ctx)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := 0, 0, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				if aStart == 0 {
					aStart = o.ai
				}
				aLen++
			}
			if o.kind != '-' {
				if bStart == 0 {
					bStart = o.bi
				}
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart, aLen, bStart, bLen)
		for _, o := range ops[start:end] {
			line := o.line
			if !strings.HasSuffix(line, "\n") {
				line += "\n\\ No newline at end of file\n"
			}
			out.WriteString(string(o.kind) + line)
		}
		k = end
	}
	return out.String()
}
