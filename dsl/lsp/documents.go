package lsp

// This file keeps the documents the editor has open, and lays them over
// the files on disk, so a pack is checked as the editor shows it, saved
// or not.

import (
	"errors"
	"io"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// document is an open document: its text as the editor has it.
type document struct {
	uri     string
	path    string // the file's path on disk (slash-separated), "" if it has none
	version int32
	text    string
	pack    string // the key of its pack
}

// URI schemes of documents.
const (
	schemeFile = "file"
	// schemeShipped names a file of the rule packs built into munda:
	// munda:/rulesets/core-2023/end_phase.munda. An editor shows one with
	// the text the server gives for the request munda/source.
	schemeShipped = "munda"
)

// shippedPrefix starts the path of a shipped file's URI.
const shippedPrefix = schemeShipped + ":/rulesets/"

// uriPath returns the file path of a file: URI (slash-separated, as
// filepath.ToSlash gives it), or "" for any other URI.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != schemeFile || u.Path == "" {
		return ""
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /c:/dir → c:/dir
	}
	return path.Clean(p)
}

// pathURI returns the file: URI of a slash-separated absolute path.
func pathURI(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // c:/dir
	}
	return (&url.URL{Scheme: schemeFile, Path: p}).String()
}

// shippedURI is the URI of a file of a shipped pack, by its path in
// rulesets.FS ("core-2023/end_phase.munda").
func shippedURI(rel string) string { return shippedPrefix + rel }

// shippedPath is the path in rulesets.FS of a munda: URI, or "".
func shippedPath(uri string) string {
	if !strings.HasPrefix(uri, shippedPrefix) {
		return ""
	}
	p := path.Clean(strings.TrimPrefix(uri, shippedPrefix))
	if p == "." || strings.HasPrefix(p, "../") || p == ".." {
		return ""
	}
	return p
}

// overlay is a file system with some files' contents replaced (or added):
// a pack's directory on disk with the editor's open documents over it.
type overlay struct {
	base  fs.FS
	files map[string]string // by path in base
}

var (
	_ fs.ReadDirFS = (*overlay)(nil)
	_ fs.StatFS    = (*overlay)(nil)
)

func (o *overlay) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if text, ok := o.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(text))}, r: strings.NewReader(text)}, nil
	}
	if o.base == nil {
		if o.isDir(name) {
			return &memDir{info: memInfo{name: path.Base(name), dir: true}}, nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return o.base.Open(name)
}

func (o *overlay) Stat(name string) (fs.FileInfo, error) {
	if text, ok := o.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(text))}, nil
	}
	if o.base == nil {
		if o.isDir(name) {
			return memInfo{name: path.Base(name), dir: true}, nil
		}
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fs.Stat(o.base, name)
}

// isDir reports whether name is a directory of the overlay's own files.
func (o *overlay) isDir(name string) bool {
	if name == "." {
		return true
	}
	for p := range o.files {
		if strings.HasPrefix(p, name+"/") {
			return true
		}
	}
	return false
}

// ReadDir lists a directory of the base with the overlay's files in it
// added (a new file the editor has not saved yet).
func (o *overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	var entries []fs.DirEntry
	if o.base != nil {
		var err error
		entries, err = fs.ReadDir(o.base, name)
		if err != nil && !(o.isDir(name) && errors.Is(err, fs.ErrNotExist)) {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	for p, text := range o.files {
		dir := path.Dir(p)
		if dir == name && !seen[path.Base(p)] {
			seen[path.Base(p)] = true
			entries = append(entries, fs.FileInfoToDirEntry(memInfo{name: path.Base(p), size: int64(len(text))}))
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

// memInfo describes an overlay file or directory.
type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *strings.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct{ info memInfo }

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error)   { return 0, io.EOF }
func (d *memDir) Close() error               { return nil }

// relTo returns p relative to dir (both slash-separated), and whether p
// lies inside dir.
func relTo(dir, p string) (string, bool) {
	rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(p))
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}
