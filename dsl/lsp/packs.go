package lsp

// This file decides which pack a document belongs to, and how the pack is
// loaded: the rules an editor checks a file with are those `munda check`
// would check it with.

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/rulesets"
)

// packRef says where a pack is and how to load it.
type packRef struct {
	key  string // one per pack: what documents of the same pack share
	kind packKind

	// A pack on disk: the directory, and, for a file checked on its own,
	// that file (relative to dir).
	dir  string
	file string
	// A shipped pack: its directory in rulesets.FS ("core-2023").
	shipped string
	// A document with no file behind it (an untitled buffer): its URI.
	loose string

	display string // how the pack's paths are shown in diagnostics
}

// packKind says where a pack's files are.
type packKind int

const (
	onDisk  packKind = iota // a directory, or one file of it (file)
	shipped                 // built into munda (rulesets.FS)
	loose                   // one document with no file
)

// maxPackClimb bounds how many directories up a pack may reach.
const maxPackClimb = 8

// findPack finds the pack of a document. root, if not "", is the
// workspace's directory, which a pack does not reach above.
//
//   - A file of a shipped pack (a munda: URI) is checked as that pack.
//   - A file on disk belongs to the pack `munda check DIR` would check it
//     in: its directory, and the directories above it for as long as they
//     hold .munda files of their own (rulesets/core-2023/tables/x.munda is
//     of rulesets/core-2023). A pack with a ruleset header is a base;
//     one without is checked on top of core-2023 with its house rules on.
//   - A file alone in its directory (no other .munda file there or in
//     the directories just below) is checked on its own, on top of
//     core-2023, as `munda check FILE` does; so is a document with no file.
func findPack(uri, root string) *packRef {
	if rel := shippedPath(uri); rel != "" {
		for _, dir := range rulesets.Dirs() {
			if strings.HasPrefix(rel, dir+"/") {
				return &packRef{key: "shipped:" + dir, kind: shipped, shipped: dir, display: path.Join("rulesets", dir)}
			}
		}
		return &packRef{key: "loose:" + uri, kind: loose, loose: uri}
	}
	file := uriPath(uri)
	if file == "" {
		return &packRef{key: "loose:" + uri, kind: loose, loose: uri}
	}
	dir := path.Dir(file)
	top := dir
	for i := 0; i < maxPackClimb && top != root; i++ {
		parent := path.Dir(top)
		if parent == top || !holdsMunda(parent, "") {
			break
		}
		top = parent
	}
	ref := &packRef{dir: top}
	if top == dir && (!holdsMunda(dir, path.Base(file)) && !subdirsHoldMunda(dir) || isHomeOrRoot(dir)) {
		ref.file = path.Base(file)
		ref.key = "file:" + file
	} else {
		ref.key = "dir:" + top
	}
	ref.display = top
	if root != "" {
		if rel, ok := relTo(root, top); ok {
			ref.display = rel
		}
	}
	return ref
}

// holdsMunda reports whether dir holds a .munda file other than except.
func holdsMunda(dir, except string) bool {
	entries, err := os.ReadDir(filepath.FromSlash(dir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".munda") && e.Name() != except {
			return true
		}
	}
	return false
}

// subdirsHoldMunda reports whether a directory just below dir holds a
// .munda file (a pack's tests/ beside its one file of rules).
func subdirsHoldMunda(dir string) bool {
	entries, err := os.ReadDir(filepath.FromSlash(dir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && holdsMunda(path.Join(dir, e.Name()), "") {
			return true
		}
	}
	return false
}

// isHomeOrRoot reports whether dir is a file system's root or the user's
// home: never a pack to walk through whole.
func isHomeOrRoot(dir string) bool {
	if path.Dir(dir) == dir {
		return true
	}
	home, err := os.UserHomeDir()
	return err == nil && filepath.ToSlash(filepath.Clean(home)) == dir
}

// contains reports whether a document (its URI, and its path on disk if
// it has one) is one of the pack's files.
func (r *packRef) contains(uri, file string) bool {
	switch {
	case r.kind == loose:
		return uri == r.loose
	case r.kind == shipped:
		return strings.HasPrefix(shippedPath(uri), r.shipped+"/")
	case file == "":
		return false
	case r.file != "":
		return file == path.Join(r.dir, r.file)
	}
	_, ok := relTo(r.dir, file)
	return ok
}

// selection is how rulesets.Load loads the pack, with the open documents
// over its files (docs: the pack's open documents), on top of what sel
// asks for. The returned closer releases the directory, once loading is
// done.
func (r *packRef) selection(sel rulesets.Selection, docs []*document) (rulesets.Selection, func(), error) {
	files := map[string]string{}
	none := func() {}
	switch r.kind {
	case loose:
		name := looseName(r.loose)
		for _, d := range docs {
			files[name] = d.text
		}
		sel.Pack = &dsl.Pack{FS: &overlay{files: files}, Root: ".", Files: []string{name}}
		return sel, none, nil
	case shipped:
		for _, d := range docs {
			files[shippedPath(d.uri)] = d.text
		}
		sel.Pack = &dsl.Pack{FS: &overlay{base: rulesets.FS, files: files}, Root: r.shipped, Display: r.display}
		return sel, none, nil
	}
	root, err := os.OpenRoot(filepath.FromSlash(r.dir))
	var base fs.FS
	closer := none
	if err == nil {
		// A symbolic link that leads out of the pack fails to open, as
		// for munda check.
		base, closer = root.FS(), func() { root.Close() }
	} else if len(docs) == 0 {
		return sel, none, err
	}
	for _, d := range docs {
		if rel, ok := relTo(r.dir, d.path); ok {
			files[rel] = d.text
		}
	}
	sel.Pack = &dsl.Pack{FS: &overlay{base: base, files: files}, Root: ".", Display: r.display}
	if r.file != "" {
		sel.Pack.Files = []string{r.file}
	}
	return sel, closer, nil
}

// looseName is how a document with no file is named in diagnostics: the
// last part of its URI, if it makes a file name.
func looseName(uri string) string {
	name := uri
	if i := strings.LastIndexAny(name, "/:"); i >= 0 {
		name = name[i+1:]
	}
	if !fs.ValidPath(name) || name == "." {
		return "untitled.munda"
	}
	return name
}
