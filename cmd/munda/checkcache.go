package main

// This file is the on-disk cache of `munda check`, as the go command caches
// test results: the key is a hash of munda's own build, the flags and
// environment that change what check prints, and the content of every
// file it could read; the value is what it printed and its exit code. A
// hit replays the output byte for byte, so an unchanged pack costs the
// time to hash its files.
//
// The cache is an optimisation and nothing else: a missing, unreadable or
// corrupt entry is a miss (and is overwritten), a failure to write is
// ignored, and --no-cache or MUNDA_CACHE=off bypass it.

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/munda-rules/munda/dsl"
)

const (
	// cacheDirEnv names the cache's directory (default
	// os.UserCacheDir()/munda); tests point it at a temporary directory.
	cacheDirEnv = "MUNDA_CACHE_DIR"
	// cacheEnv set to "off" bypasses the cache, as --no-cache does.
	cacheEnv = "MUNDA_CACHE"

	// A check whose inputs are larger than this is not cached: hashing
	// them would cost what it saves (a file checked in a home directory
	// would hash the whole directory).
	maxCachedInputFiles = 4096
	maxCachedInputBytes = 64 << 20

	// The cache keeps at most this many entries and bytes; past either,
	// the least recently used go.
	maxCacheEntries = 512
	maxCacheBytes   = 64 << 20
	// Entries are trimmed at most this often, and a hit refreshes an
	// entry's time at most this often (a write per hit would cost more
	// than the hit).
	cacheTrimEvery = time.Hour
)

// cacheMagic starts every entry; a new format changes it.
const cacheMagic = "munda check cache 1\n"

// checkCache is the directory of check results, or nil when caching is
// off.
type checkCache struct{ dir string }

// openCheckCache finds the cache directory, or returns nil if caching is
// off or there is no place for it.
func openCheckCache(noCache bool) *checkCache {
	if noCache || strings.EqualFold(os.Getenv(cacheEnv), "off") {
		return nil
	}
	dir := os.Getenv(cacheDirEnv)
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "munda")
	}
	return &checkCache{dir: filepath.Join(dir, "check")}
}

// cachedResult is what a check printed, and how it ended.
type cachedResult struct {
	stdout, stderr []byte
	failed         bool // exit code 1
}

// checkKey hashes what decides a check's output: munda's build, the
// command's flags and arguments, the environment it reads, and the
// content of every file under the packs it names. ok is false when the
// inputs are too large to be worth hashing.
func checkKey(cmd *cobra.Command, args []string, paths []string) (key string, ok bool) {
	h := sha256.New()
	fmt.Fprintf(h, "%s%s\x00", cacheMagic, buildIdentity())
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "no-cache" {
			return
		}
		fmt.Fprintf(h, "flag %s=%s\x00", f.Name, f.Value.String())
	})
	for _, a := range args {
		fmt.Fprintf(h, "arg %s\x00", a)
	}
	fmt.Fprintf(h, "env %s=%s\x00", langEnv, os.Getenv(langEnv))
	budget := &hashBudget{files: maxCachedInputFiles, bytes: maxCachedInputBytes}
	for _, p := range paths {
		if !hashInput(h, p, budget) {
			return "", false
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// hashBudget is what is left to hash.
type hashBudget struct{ files, bytes int64 }

// hashInput hashes what a check of path may read: a directory's files, or
// a file's and every file under its directory (what it may include).
// Hidden directories are left out, as the loader leaves them out of a
// pack (a check that reads from one is not stored: see hiddenSource).
// Only regular files are read, within the budget: a device, a pipe or a
// link out of the directory is hashed by its name and kind. ok is false
// when the budget runs out.
func hashInput(h hash.Hash, p string, budget *hashBudget) (ok bool) {
	fmt.Fprintf(h, "input %s\x00", p)
	info, err := os.Stat(p)
	if err != nil {
		fmt.Fprintf(h, "error %v\x00", err)
		return true
	}
	dir := p
	switch {
	case info.IsDir():
	case info.Mode().IsRegular():
		dir = filepath.Dir(p)
	default: // /dev/zero, a pipe: what the loader will say of it is all
		fmt.Fprintf(h, "mode %v\x00", info.Mode().Type())
		return true
	}
	fsys, err := packFS(dir)
	if err != nil {
		fmt.Fprintf(h, "error %v\x00", err)
		return true
	}
	// First the names and sizes, so a large directory costs no reading.
	type input struct {
		name string
		size int64
	}
	var files []input
	ok = true
	err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(h, "error %s %v\x00", name, err)
			return nil
		}
		if budget.files--; budget.files < 0 {
			ok = false
			return fs.SkipAll
		}
		if d.IsDir() {
			if name != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		info, err := fs.Stat(fsys, name) // through a link, if it stays inside
		switch {
		case err != nil:
			fmt.Fprintf(h, "error %s %v\x00", name, err)
		case !info.Mode().IsRegular():
			fmt.Fprintf(h, "other %s %v\x00", name, info.Mode().Type())
		default:
			if budget.bytes -= info.Size(); budget.bytes < 0 {
				ok = false
				return fs.SkipAll
			}
			files = append(files, input{name, info.Size()})
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(h, "error %v\x00", err)
	}
	if !ok {
		return false
	}
	for _, f := range files {
		// A file that changes under us (grows, turns into something
		// else) is not worth a key.
		data, err := dsl.ReadLimited(fsys, f.name, f.size)
		if err != nil {
			return false
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "file %s %x\x00", f.name, sum)
	}
	return true
}

// hiddenSource says whether a check read a file in a hidden directory,
// which the key does not cover.
func hiddenSource(names []string) bool {
	for _, n := range names {
		for _, part := range strings.Split(path.Clean(filepath.ToSlash(n)), "/") {
			if len(part) > 1 && strings.HasPrefix(part, ".") && part != ".." {
				return true
			}
		}
	}
	return false
}

// buildIdentity names munda's own build: the Go build ID of the running
// executable (a hash of what it was built from), else its path, size and
// time, with the module's version and build settings.
var buildIdentity = sync.OnceValue(func() string {
	var b strings.Builder
	if info, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&b, "%s %s %s", info.GoVersion, info.Main.Path, info.Main.Version)
		for _, s := range info.Settings {
			fmt.Fprintf(&b, " %s=%s", s.Key, s.Value)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return b.String()
	}
	if id := goBuildID(exe); id != "" {
		return b.String() + " buildid=" + id
	}
	if info, err := os.Stat(exe); err == nil {
		fmt.Fprintf(&b, " exe=%s size=%d mtime=%d", exe, info.Size(), info.ModTime().UnixNano())
	}
	return b.String()
})

// goBuildID reads the Go build ID of an executable: from its ELF note,
// else from the start of its text, where the linker puts it on other
// platforms (as cmd/internal/buildid reads it).
func goBuildID(exe string) string {
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if sec := f.Section(".note.go.buildid"); sec != nil {
			// One note: name size, description size, type, "Go\x00\x00", the ID.
			data, err := sec.Data()
			if err == nil && len(data) > 16 {
				n := f.ByteOrder.Uint32(data[4:])
				if id := data[16:]; uint32(len(id)) >= n {
					return string(id[:n])
				}
			}
		}
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	const start, end = "\xff Go build ID: \"", "\"\n \xff"
	i := bytes.Index(buf, []byte(start))
	if i < 0 {
		return ""
	}
	rest := buf[i+len(start):]
	j := bytes.Index(rest, []byte(end))
	if j <= 0 {
		return ""
	}
	return string(rest[:j])
}

// entryPath is where an entry lives: a directory per first byte of the
// key, as the go command's cache.
func (c *checkCache) entryPath(key string) string {
	return filepath.Join(c.dir, key[:2], key)
}

// get reads an entry; any problem with it is a miss.
func (c *checkCache) get(key string) (*cachedResult, bool) {
	p := c.entryPath(key)
	data, err := readEntry(p)
	if err != nil {
		return nil, false
	}
	r, ok := decodeEntry(data)
	if !ok {
		return nil, false
	}
	// The least recently used are trimmed first: a hit refreshes the time,
	// but not on every hit.
	if info, err := os.Stat(p); err == nil && time.Since(info.ModTime()) > cacheTrimEvery {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
	return r, true
}

// readEntry reads an entry's file if it is a regular file no larger than
// the whole cache may be: a pipe or a device put in its place (a link to
// /dev/zero) would block or never end, and is a miss instead.
func readEntry(p string) ([]byte, error) {
	return dsl.ReadLimited(os.DirFS(filepath.Dir(p)), filepath.Base(p), maxCacheBytes)
}

// writeAtomic writes a file in the cache as a temporary file renamed over
// it, so a reader never sees half of it and a link or a pipe in its place
// is replaced, never written through.
func writeAtomic(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// put stores an entry atomically (a temporary file renamed over it), then
// trims the cache now and then. Failures are ignored.
func (c *checkCache) put(key string, r *cachedResult) {
	p := c.entryPath(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return
	}
	if writeAtomic(p, encodeEntry(r)) != nil {
		return
	}
	c.maybeTrim()
}

// encodeEntry lays an entry out: the magic, a flags byte, the lengths of
// stdout and stderr, both, and a SHA-256 of all that before it, so a
// truncated or damaged entry is seen as one.
func encodeEntry(r *cachedResult) []byte {
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	var flags byte
	if r.failed {
		flags = 1
	}
	b.WriteByte(flags)
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(r.stdout))))
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(r.stderr))))
	b.Write(r.stdout)
	b.Write(r.stderr)
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// decodeEntry reads what encodeEntry wrote; ok is false for anything else.
func decodeEntry(data []byte) (*cachedResult, bool) {
	head := len(cacheMagic) + 1 + 16
	if len(data) < head+sha256.Size || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, false
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	flags := body[len(cacheMagic)]
	nout := binary.BigEndian.Uint64(body[len(cacheMagic)+1:])
	nerr := binary.BigEndian.Uint64(body[len(cacheMagic)+9:])
	rest := body[head:]
	if flags > 1 || nout > uint64(len(rest)) || nerr != uint64(len(rest))-nout {
		return nil, false
	}
	return &cachedResult{stdout: rest[:nout], stderr: rest[nout:], failed: flags == 1}, true
}

// maybeTrim trims the cache if it was last trimmed over cacheTrimEvery
// ago: the oldest entries go until at most maxCacheEntries and
// maxCacheBytes are left, and temporary files of writes that died.
func (c *checkCache) maybeTrim() {
	stamp := filepath.Join(c.dir, "trim.txt")
	if info, err := os.Stat(stamp); err == nil && time.Since(info.ModTime()) < cacheTrimEvery {
		return
	}
	_ = writeAtomic(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
	c.trim(maxCacheEntries, maxCacheBytes)
}

// trim removes the least recently used entries past the bounds.
func (c *checkCache) trim(maxEntries int, maxBytes int64) {
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var entries []entry
	subdirs, _ := os.ReadDir(c.dir)
	for _, sd := range subdirs {
		if !sd.IsDir() {
			continue
		}
		dir := filepath.Join(c.dir, sd.Name())
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			info, err := f.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(dir, f.Name())
			if strings.HasPrefix(f.Name(), "tmp-") {
				if time.Since(info.ModTime()) > cacheTrimEvery {
					_ = os.Remove(p)
				}
				continue
			}
			entries = append(entries, entry{p, info.Size(), info.ModTime()})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.After(entries[j].mod) })
	var total int64
	for i, e := range entries {
		total += e.size
		if i >= maxEntries || total > maxBytes {
			_ = os.Remove(e.path)
		}
	}
}

// cachedCheck runs check through the cache: a hit replays the output and
// exit code of the same check; a miss runs it, printing as it goes, and
// stores what it printed. sources lists the files the check read, to
// refuse to store a check that read what the key does not cover.
func cachedCheck(cmd *cobra.Command, args []string, cache *checkCache, paths []string, verbose bool,
	check func(stdout, stderr io.Writer) (sources []string, err error)) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if cache == nil {
		_, err := check(out, errOut)
		return err
	}
	key, ok := checkKey(cmd, args, paths)
	if !ok {
		_, err := check(out, errOut)
		return err
	}
	if r, hit := cache.get(key); hit {
		if _, err := out.Write(r.stdout); err != nil {
			return err
		}
		if _, err := errOut.Write(r.stderr); err != nil {
			return err
		}
		if verbose {
			fmt.Fprintf(errOut, "(cached: the same check's output, replayed from %s)\n", cache.dir)
		}
		if r.failed {
			return &failure{}
		}
		return nil
	}
	var stdout, stderr bytes.Buffer
	sources, err := check(io.MultiWriter(out, &stdout), io.MultiWriter(errOut, &stderr))
	var failed *failure
	switch {
	case err == nil:
	case errors.As(err, &failed) && failed.msg == "" && len(failed.diags) == 0:
	default:
		return err // a usage error, or one that says more than diagnostics: not stored
	}
	// A file edited while the check ran may have been read as it is now,
	// not as it was hashed: such a check is not stored under the old key.
	if after, ok := checkKey(cmd, args, paths); ok && after == key && !hiddenSource(sources) {
		cache.put(key, &cachedResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), failed: err != nil})
	}
	return err
}

// checkInputs are the paths on disk a check reads: its arguments and
// --with, as given (diagnostics name them so).
func checkInputs(args, with []string) []string {
	return slices.Concat(args, with)
}
