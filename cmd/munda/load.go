package main

// This file is the plumbing every verb that loads rules or states shares:
// the rule flags, finding packs on disk, loading and checking a selection
// (through rulesets.Load, the one loader), and reading a state file.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
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
	registerRuleCompletions(cmd, f)
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
		fsys, err := packFS(path)
		if err != nil {
			return nil, err
		}
		return &dsl.Pack{FS: fsys, Root: ".", Display: filepath.ToSlash(filepath.Clean(path))}, nil
	}
	dir, file := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	fsys, err := packFS(dir)
	if err != nil {
		return nil, err
	}
	return &dsl.Pack{FS: fsys, Root: ".", Display: filepath.ToSlash(filepath.Clean(dir)), Files: []string{file}}, nil
}

// packFS is a pack directory on disk as a file system that cannot be left:
// a symbolic link inside the pack that points outside it (to /etc/passwd)
// fails to open, whatever the path says.
func packFS(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return root.FS(), nil
}

// packsAt finds the packs at a path on disk.
func packsAt(path string) ([]*dsl.Pack, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		p, err := diskPack(path)
		return []*dsl.Pack{p}, err
	}
	dirs, err := dsl.FindPacks(os.DirFS(path), ".")
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no .munda files", path)
	}
	var out []*dsl.Pack
	for _, d := range dirs {
		fsys, err := packFS(filepath.Join(path, d))
		if err != nil {
			return nil, err
		}
		out = append(out, &dsl.Pack{FS: fsys, Root: ".", Display: filepath.ToSlash(filepath.Join(path, d))})
	}
	return out, nil
}

// selectionsFor turns paths (or none: the shipped packs) into the rule
// selections to check or test, one per pack. A path that cannot be read
// is a file_error diagnostic, not a usage error: the command line was
// fine, the input is missing.
func selectionsFor(args []string, sel rulesets.Selection) ([]rulesets.Selection, diag.Diagnostics) {
	var out []rulesets.Selection
	if len(args) == 0 {
		for _, dir := range rulesets.Dirs() {
			s := sel
			if slices.Contains(rulesets.Bases(), dir) {
				s.Base = dir
			} else {
				s.Pack = rulesets.Pack(dir)
			}
			out = append(out, s)
		}
		return out, nil
	}
	var diags diag.Diagnostics
	for _, arg := range args {
		packs, err := packsAt(arg)
		if err != nil {
			diags = append(diags, fileError(arg, err))
			continue
		}
		for _, p := range packs {
			s := sel
			s.Pack = p
			out = append(out, s)
		}
	}
	return out, diags
}

// fileError is the diagnostic for a path named on the command line that
// cannot be read.
func fileError(path string, err error) *diag.Diagnostic {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeFileError, Summary: fmt.Sprintf("cannot read %s: %v", path, err)}
}

// housePacks parses the shipped house packs and the --with packs, and
// lists the house groups they declare. A pack that does not parse is an
// error, printed with its diagnostics.
func housePacks(cmd *cobra.Command, sel rulesets.Selection) ([]rulesets.HousePack, error) {
	packs, diags := rulesets.HousePacks(sel.With)
	if diags.HasErrors() {
		src := diag.Sources{}
		for _, p := range packs {
			for k, v := range p.Loaded.Sources {
				src[k] = v
			}
		}
		_ = diag.WriteText(cmd.ErrOrStderr(), errorsOnly(diags), src)
		return nil, failed("the rule packs have errors")
	}
	return packs, nil
}

// checkToggles applies house toggles to the house groups of the packs, as
// the loader will, and returns the house rules they switch on. An unknown
// house or house rule is an error (exit 1, as the loader's), with a
// did-you-mean; what prefixes the message.
func checkToggles(packs []rulesets.HousePack, toggles []string, what string) (map[string]bool, error) {
	on, err := rulesets.SelectIn(packs, toggles)
	if err != nil {
		return nil, failed("%s%v", what, err)
	}
	return on, nil
}

// loadRules assembles and checks a selection for a verb that uses the
// rules but not their test blocks (those are left unchecked: see
// munda check and munda test). Errors in the rules are printed, and fail
// the command; what prefixes the message.
func loadRules(cmd *cobra.Command, sel rulesets.Selection, what string) (*dsl.Rules, error) {
	sel.SkipTests = true
	rules, diags := rulesets.LoadShared(sel)
	if !diags.HasErrors() {
		return rules, nil
	}
	var src diag.Sources
	if rules != nil {
		src = rules.Sources()
	}
	_ = diag.WriteText(cmd.ErrOrStderr(), errorsOnly(diags), src)
	return nil, failed("%sthe rules have errors", what)
}

// loadProgram loads, checks and compiles the selected rules; errors are
// printed with their positions.
func loadProgram(cmd *cobra.Command, rf *ruleFlags) (*interpreter.Program, error) {
	sel, err := rf.selection()
	if err != nil {
		return nil, err
	}
	rules, err := loadRules(cmd, sel, "")
	if err != nil {
		return nil, err
	}
	return interpreter.Compile(rules)
}

func errorsOnly(diags diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range diags {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// readInput reads a file named on the command line through the one
// bounded reader (dsl.ReadLimited): a regular file, of at most limit
// bytes. Errors name the path as given.
func readInput(path string, limit int64) ([]byte, error) {
	data, err := dsl.ReadLimited(os.DirFS(filepath.Dir(path)), filepath.Base(path), limit)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Path = path
		if errors.Is(pe.Err, dsl.ErrNotRegular) {
			return nil, fmt.Errorf("%s: not a regular file (a device, a pipe or a directory)", path)
		}
		var big *dsl.TooLargeError
		if errors.As(pe.Err, &big) {
			return nil, fmt.Errorf("%s: %v", path, big)
		}
	}
	return data, err
}

// readState reads a state file for a verb that runs rules: checked
// against the rules' vocabulary (kinds, statuses, the ids of skills,
// powers, conditions and traits; with allowUnknown, ids the rules lack
// are warnings, not errors), and with a warning for each model that
// breaks what the rules expect of its kind. Warnings go to stderr with the
// line of the state file; errors fail the verb.
func readState(cmd *cobra.Command, path string, prog *interpreter.Program, allowUnknown bool) (*state.State, error) {
	if path == "" {
		return nil, usagef("--state FILE is required")
	}
	data, err := readInput(path, state.MaxStateBytes)
	if err != nil {
		return nil, failed("%v", err)
	}
	voc := stateVocabulary(prog, allowUnknown)
	st, err := state.DecodeWith(path, data, voc)
	if err != nil {
		return nil, failedWith("", err, diag.Sources{path: data})
	}
	var warns diag.Diagnostics
	if allowUnknown {
		warns = append(warns, state.UnknownIDs(st, voc)...)
	}
	warns = append(warns, prog.StateWarnings(st)...)
	if len(warns) > 0 {
		state.Locate(path, data, warns)
		_ = diag.WriteText(cmd.ErrOrStderr(), warns, diag.Sources{path: data})
	}
	return st, nil
}

// stateVocabulary is the rules' vocabulary, accepting unknown ids when
// asked (a copy: the rules may be shared).
func stateVocabulary(prog *interpreter.Program, allowUnknown bool) *state.Vocabulary {
	voc := prog.Index().Vocabulary
	if allowUnknown {
		voc = voc.Lenient()
	}
	return voc
}

// unknownName fails a verb whose argument names nothing in the rules, and
// says where the names are listed: "munda rules list procedures".
func unknownName(err error, kind string) error {
	return failed("%v (munda rules list %s lists them)", err, kind)
}
