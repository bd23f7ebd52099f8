package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
)

// ruleFlags are the flags every verb that loads rules takes.
type ruleFlags struct {
	base   string
	houses []string
	with   []string
}

func (f *ruleFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.base, "rules", "", `base ruleset: `+strings.Join(rulesets.Bases(), ", ")+` (default `+rulesets.DefaultBase+`), or "none"`)
	cmd.Flags().StringSliceVar(&f.houses, "house", nil, "house rules to switch on or off, e.g. aa,n17 or aa,-aa.single_lasting_injury")
	cmd.Flags().StringArrayVar(&f.with, "with", nil, "extra rule files or directories to load on top (repeatable)")
}

// selection turns the flags into a rulesets.Selection.
func (f *ruleFlags) selection() (rulesets.Selection, error) {
	sel := rulesets.Selection{Base: f.base, Houses: f.houses}
	if f.base != "" && f.base != rulesets.None {
		if _, ok := rulesets.Resolve(f.base); !ok {
			// Like an unknown house (the loader's error), exit 1.
			return sel, failed("%v", rulesets.UnknownBase(f.base))
		}
	}
	for _, w := range f.with {
		p, err := diskPack(w)
		if err != nil {
			return sel, &usageError{msg: "--with: " + err.Error()}
		}
		sel.With = append(sel.With, p)
	}
	return sel, nil
}

// diskPack makes a pack of a file or directory on disk. A file's pack is
// its directory, but only that file is loaded (plus what it includes).
func diskPack(path string) (*dsl.Pack, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return &dsl.Pack{FS: os.DirFS(path), Root: ".", Display: filepath.ToSlash(filepath.Clean(path))}, nil
	}
	dir, file := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return &dsl.Pack{FS: os.DirFS(dir), Root: ".", Display: filepath.ToSlash(filepath.Clean(dir)), Files: []string{file}}, nil
}
