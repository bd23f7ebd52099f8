package dsl

import (
	"errors"
	"fmt"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Pack is a set of rule files that belong together: a ruleset (core-2023),
// a house-rule group (house/aa), a modder's pack, or a few loose files. Any
// file a pack refers to (includes, test states) must lie inside it.
type Pack struct {
	FS      fs.FS  // where the files are: os.DirFS(dir) or an embedded FS; read from several goroutines at once
	Root    string // the pack's directory inside FS ("." for the whole FS)
	Display string // how paths are shown in diagnostics, e.g. "rulesets/core-2023"
	// Files, when set, are the only files loaded (paths relative to Root);
	// otherwise every .munda file under Root is.
	Files []string
}

// DisplayPath is how a file of the pack is named in diagnostics.
func (p *Pack) DisplayPath(rel string) string {
	if p.Display == "" || p.Display == "." {
		return rel
	}
	return path.Join(p.Display, rel)
}

// fsPath is where a file of the pack is inside its FS.
func (p *Pack) fsPath(rel string) string {
	return path.Join(p.Root, rel)
}

// LoadedPack is a pack after parsing.
type LoadedPack struct {
	Pack  *Pack
	Files []*syntax.File
	// Layer is where the pack sits in a stack of rules: the base ruleset
	// (and what it extends), house rules, then mods. A change in a higher
	// layer wins over one in a lower (see Layer*).
	Layer int
	// Header is the pack's `ruleset` declaration, if it has one.
	Header *syntax.Ruleset
	// Sources holds every file read, by display name, even those that did
	// not parse, so diagnostics can quote them.
	Sources diag.Sources
}

// Owner names the pack as the author of its changes: "ruleset
// legacy_2017", or "pack mymod" for a pack without a header ("pack
// mod.munda" for a pack of one file).
func (p *LoadedPack) Owner() string {
	if p.Header != nil {
		return "ruleset " + p.Header.ID.Name
	}
	if len(p.Pack.Files) == 1 {
		return "pack " + p.Pack.DisplayPath(p.Pack.Files[0])
	}
	return "pack " + p.Pack.Display
}

// ReadFile reads a file of the pack by a path relative to the pack root,
// refusing paths that leave the pack, files that are not regular and
// files over limit bytes.
func (p *Pack) ReadFile(rel string, limit int64) ([]byte, error) {
	if p.FS == nil {
		return nil, errors.New("the pack has no files")
	}
	clean, err := packRelative(".", rel)
	if err != nil {
		return nil, err
	}
	return ReadLimited(p.FS, p.fsPath(clean), limit)
}

// packRelative resolves ref against dir (both relative to the pack root)
// and fails if the result would leave the pack.
func packRelative(dir, ref string) (string, error) {
	if ref == "" {
		return "", errors.New("empty path")
	}
	if path.IsAbs(ref) || strings.HasPrefix(ref, `\`) || strings.Contains(ref, ":") {
		return "", fmt.Errorf("%q is an absolute path; paths are relative to the file that names them", ref)
	}
	joined := path.Join(dir, ref)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "", fmt.Errorf("%q leaves the pack; files may only refer to files inside their own pack", ref)
	}
	return joined, nil
}

// LoadPack parses every file of a pack, following includes. Problems are
// returned as diagnostics; the files that did parse are returned too, so
// one broken file does not hide the problems of the others.
func LoadPack(p *Pack) (*LoadedPack, diag.Diagnostics) {
	l := &packLoader{pack: p, loaded: map[string]*syntax.File{}, state: map[string]int{}, sources: diag.Sources{}}
	files := p.Files
	if files == nil {
		var err error
		files, err = listMunda(p.FS, p.Root)
		if err != nil {
			l.diags.errorf(diag.CodeFileError, nil, "%s: %v", p.DisplayPath("."), err)
		} else if len(files) == 0 {
			l.diags.errorf(diag.CodeFileError, nil, "%s: no .munda files", p.DisplayPath("."))
		}
	}
	l.ahead = parseAhead(p, files)
	for _, f := range files {
		l.load(f, nil)
	}
	out := &LoadedPack{Pack: p, Sources: l.sources}
	for _, rel := range l.order {
		f := l.loaded[rel]
		if f == nil {
			continue
		}
		out.Files = append(out.Files, f)
		for _, d := range f.Decls {
			if r, ok := d.(*syntax.Ruleset); ok {
				if out.Header != nil {
					l.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(r.Pos, r.EndPos),
						"a pack has one ruleset header; another is at %s", diag.RangeOf(out.Header.Pos, out.Header.Pos))
					continue
				}
				out.Header = r
			}
		}
	}
	return out, l.diags.list
}

type packLoader struct {
	pack    *Pack
	loaded  map[string]*syntax.File // by path relative to the pack root; nil if it failed
	state   map[string]int          // 1 while a file's includes are being followed, 2 when done
	order   []string
	stack   []string // the chain of includes being followed
	sources diag.Sources
	diags   diagnostics
	bytes   int64                  // read so far, for MaxPackBytes
	ahead   map[string]*parsedFile // parsed in parallel, by path relative to the pack root
}

// load parses rel (relative to the pack root) and the files it includes.
// from is the include that named it, for cycle and error positions.
func (l *packLoader) load(rel string, from *syntax.Include) {
	switch l.state[rel] {
	case 1:
		// The chain from rel back to itself.
		var chain []string
		for i := len(l.stack) - 1; i >= 0; i-- {
			chain = append([]string{l.stack[i]}, chain...)
			if l.stack[i] == rel {
				break
			}
		}
		chain = append(chain, rel)
		d := l.diags.errorf(diag.CodeIncludeCycle, diag.RangeOf(from.Pos, from.EndPos), "include cycle: %s", strings.Join(chain, " includes "))
		d.Detail = "A file cannot include itself, directly or through other files."
		return
	case 2:
		return
	}
	l.state[rel] = 1
	l.stack = append(l.stack, rel)
	defer func() {
		l.state[rel] = 2
		l.stack = l.stack[:len(l.stack)-1]
	}()
	l.order = append(l.order, rel)

	name := l.pack.DisplayPath(rel)
	if len(l.order) > MaxPackFiles {
		if len(l.order) == MaxPackFiles+1 {
			l.diags.errorf(diag.CodeFileError, nil, "%s: the pack has more than %d files (the limit)", l.pack.DisplayPath("."), MaxPackFiles)
		}
		return
	}
	src, err := ReadLimited(l.pack.FS, l.pack.fsPath(rel), min(syntax.MaxFileSize, MaxPackBytes-l.bytes))
	if err != nil && l.bytes > MaxPackBytes-syntax.MaxFileSize && errors.As(err, new(*TooLargeError)) {
		err = fmt.Errorf("the pack's files together are larger than the limit of %d bytes", MaxPackBytes)
	}
	l.bytes += int64(len(src))
	if err != nil {
		var r *diag.Range
		if from != nil {
			r = diag.RangeOf(from.Path.Pos, from.Path.EndPos)
		}
		l.diags.errorf(diag.CodeFileError, r, "cannot read %s: %v", name, unwrapPathError(err))
		return
	}
	file, diags := l.parse(rel, name, src)
	if file != nil && file.Source != nil {
		// The same bytes (parses are taken by equal content): one copy
		// kept, not the tree's and this read's.
		src = file.Source
	}
	l.sources[name] = src
	l.diags.list = append(l.diags.list, diags...)
	l.loaded[rel] = file
	if file == nil {
		return
	}
	file.Rel = rel
	for _, d := range file.Decls {
		inc, ok := d.(*syntax.Include)
		if !ok {
			continue
		}
		target, err := packRelative(path.Dir(rel), inc.Path.Value())
		if err != nil {
			l.diags.errorf(diag.CodeIncludeError, diag.RangeOf(inc.Path.Pos, inc.Path.EndPos), "cannot include: %v", err)
			continue
		}
		if !strings.HasSuffix(target, ".munda") {
			l.diags.errorf(diag.CodeIncludeError, diag.RangeOf(inc.Path.Pos, inc.Path.EndPos),
				"cannot include %q: only .munda files can be included", inc.Path.Value())
			continue
		}
		l.load(target, inc)
	}
}

// unwrapPathError drops the path from a file error (the message names
// the file itself) and says in words what os.Root means by an escape.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil && err.Error() == "path escapes from parent" {
		return errors.New("it is a symbolic link that leads out of the pack; files may only refer to files inside their own pack")
	}
	return err
}

// listMunda lists the .munda files under root, relative to it, sorted.
func listMunda(fsys fs.FS, root string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".munda") {
			rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
			if root == "." {
				rel = p
			}
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, unwrapPathError(err)
}

// FindPacks splits a directory into packs: the directory itself if it holds
// .munda files directly, otherwise each subdirectory that does (searched
// recursively). This is how `munda check rulesets` finds core-2023,
// legacy-2017 and house/aa as separate packs.
func FindPacks(fsys fs.FS, root string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".munda") {
			return []string{root}, nil
		}
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, path.Join(root, e.Name()))
		}
	}
	var out []string
	for _, d := range dirs {
		sub, err := FindPacks(fsys, d)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}

// The layers of a stack of rules, lowest first.
const (
	LayerBase  = 0 // a ruleset and the rulesets it extends
	LayerHouse = 1 // house-rule packs (--house)
	LayerMod   = 2 // modders' packs (--with)
)
