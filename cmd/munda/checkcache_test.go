package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// An entry reads back as written, and anything else (cut short, one
// byte changed, another format) is a miss.
func TestCheckCacheEntries(t *testing.T) {
	c := &checkCache{dir: t.TempDir()}
	key := strings.Repeat("ab", 32)
	want := &cachedResult{stdout: []byte("a.munda:1:1: error: x\n"), stderr: []byte("ok\n"), failed: true}
	c.put(key, want)
	got, ok := c.get(key)
	if !ok || !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.failed != want.failed {
		t.Fatalf("get = %+v, %v; want %+v", got, ok, want)
	}
	data, err := os.ReadFile(c.entryPath(key))
	if err != nil {
		t.Fatal(err)
	}
	damaged := map[string][]byte{
		"empty":      nil,
		"cut short":  data[:len(data)-1],
		"one byte":   append(append([]byte(nil), data[:len(cacheMagic)+20]...), append([]byte{data[len(cacheMagic)+20] ^ 1}, data[len(cacheMagic)+21:]...)...),
		"old format": append([]byte("munda check cache 0\n"), data[len(cacheMagic):]...),
		"not ours":   []byte("hello"),
	}
	for name, bad := range damaged {
		if err := os.WriteFile(c.entryPath(key), bad, 0o666); err != nil {
			t.Fatal(err)
		}
		if r, ok := c.get(key); ok {
			t.Errorf("%s: a damaged entry was a hit: %+v", name, r)
		}
		// and a new check overwrites it
		c.put(key, want)
		if _, ok := c.get(key); !ok {
			t.Errorf("%s: the entry was not rewritten", name)
		}
	}
}

// An unwritable cache is no error: nothing is stored, nothing is found.
func TestCheckCacheUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	c := &checkCache{dir: filepath.Join(file, "check")} // under a file: cannot be made
	key := strings.Repeat("cd", 32)
	c.put(key, &cachedResult{stdout: []byte("x")})
	if _, ok := c.get(key); ok {
		t.Fatal("a hit from a cache that cannot exist")
	}
}

// Trimming keeps the most recently used entries within the bounds and
// removes temporary files left by writes that died.
func TestCheckCacheTrim(t *testing.T) {
	c := &checkCache{dir: t.TempDir()}
	old := time.Now().Add(-48 * time.Hour)
	var keys []string
	for i := range 5 {
		key := strings.Repeat(string(rune('a'+i)), 64)
		keys = append(keys, key)
		c.put(key, &cachedResult{stdout: []byte("out")})
		at := old.Add(time.Duration(i) * time.Minute) // keys[4] the newest
		if err := os.Chtimes(c.entryPath(key), at, at); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(filepath.Dir(c.entryPath(keys[0])), "tmp-123")
	if err := os.WriteFile(tmp, []byte("half"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	c.trim(2, 1<<20)
	for i, key := range keys {
		_, err := os.Stat(c.entryPath(key))
		if kept := err == nil; kept != (i >= 3) {
			t.Errorf("entry %d kept = %v", i, kept)
		}
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("a stale temporary file was kept")
	}
}

// The cache is off with --no-cache or MUNDA_CACHE=off, and lives under
// MUNDA_CACHE_DIR when that is set (as in these tests).
func TestOpenCheckCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cacheDirEnv, dir)
	t.Setenv(cacheEnv, "")
	if c := openCheckCache(false); c == nil || c.dir != filepath.Join(dir, "check") {
		t.Errorf("openCheckCache = %+v, want one in %s", c, dir)
	}
	if openCheckCache(true) != nil {
		t.Error("--no-cache: a cache")
	}
	t.Setenv(cacheEnv, "off")
	if openCheckCache(false) != nil {
		t.Error("MUNDA_CACHE=off: a cache")
	}
}

func TestHiddenSource(t *testing.T) {
	for name, want := range map[string]bool{
		"pack/a.munda": false, "./a.munda": false, "../x/a.munda": false,
		"pack/.hidden/a.munda": true, ".git/a.munda": true,
	} {
		if got := hiddenSource([]string{name}); got != want {
			t.Errorf("hiddenSource(%q) = %v, want %v", name, got, want)
		}
	}
}

// A check's key covers every file under its packs but hidden directories,
// and gives up on inputs past the budget rather than hash a home
// directory.
func TestHashInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	key := func(files, bytes int64) (string, bool) {
		h := sha256.New()
		ok := hashInput(h, filepath.Join(dir, "a.munda"), &hashBudget{files: files, bytes: bytes})
		return fmt.Sprintf("%x", h.Sum(nil)), ok
	}
	write("a.munda", "dice d6 \"D6\" { faces 1, 2, 3, 4, 5, 6 }\n")
	write("states/s.yaml", "gangs: []\n")
	first, ok := key(100, 1<<20)
	if !ok {
		t.Fatal("a small directory was not hashed")
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	if again, _ := key(100, 1<<20); again != first {
		t.Error("a hidden directory changed the key")
	}
	write("states/s.yaml", "gangs: [ ]\n")
	if changed, _ := key(100, 1<<20); changed == first {
		t.Error("a changed state file left the key as it was")
	}
	if _, ok := key(2, 1<<20); ok {
		t.Error("more files than the budget were hashed")
	}
	if _, ok := key(100, 10); ok {
		t.Error("more bytes than the budget were hashed")
	}
}

// What a hostile or broken cache directory holds in an entry's place (a
// pipe no one writes, a link to /dev/zero, a file larger than the cache
// may be) is a miss, at once: a check never blocks or reads without end
// on its cache.
func TestCheckCacheEntryNotAFile(t *testing.T) {
	c := &checkCache{dir: t.TempDir()}
	key := strings.Repeat("ef", 32)
	p := c.entryPath(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	for name, build := range map[string]func() error{
		"a pipe":              func() error { return makeFifo(p) },
		"a link to /dev/zero": func() error { return os.Symlink("/dev/zero", p) },
		"a directory":         func() error { return os.Mkdir(p, 0o777) },
		"a huge file": func() error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(maxCacheBytes + 1)
		},
	} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		if err := build(); err != nil {
			t.Skipf("%s: %v", name, err)
		}
		done := make(chan bool)
		go func() {
			_, ok := c.get(key)
			done <- ok
		}()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("%s: a hit", name)
			}
		case <-time.After(time.Minute): // a hang, not a slow test
			t.Fatalf("%s: get blocked", name)
		}
	}
}

// The cache writes its files by renaming new ones into place: a link left
// where the trim stamp goes is replaced, and the file it points to is
// left as it was.
func TestCheckCacheWritesThroughNoLink(t *testing.T) {
	c := &checkCache{dir: t.TempDir()}
	outside := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour) // so the cache trims, and writes its stamp
	if err := os.Chtimes(outside, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(c.dir, "trim.txt")); err != nil {
		t.Fatal(err)
	}
	c.put(strings.Repeat("01", 32), &cachedResult{stdout: []byte("x")})
	if data, err := os.ReadFile(outside); err != nil || string(data) != "keep me\n" {
		t.Errorf("the file the stamp linked to = %q, %v; want it unchanged", data, err)
	}
	if info, err := os.Lstat(filepath.Join(c.dir, "trim.txt")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("trim.txt = %v, %v; want a regular file in place of the link", info, err)
	}
}

// A file edited while the check runs may be read as it is after the edit,
// but was hashed as it was before: that check's output is not stored
// under the old content's key (which would replay it when the edit is
// undone).
func TestCachedCheckFileChangedDuringCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.munda")
	if err := os.WriteFile(file, []byte("before\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	c := &checkCache{dir: t.TempDir()}
	cmd := &cobra.Command{}
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	runs := 0
	check := func(edit string) func(stdout, stderr io.Writer) ([]string, error) {
		return func(stdout, stderr io.Writer) ([]string, error) {
			runs++
			if edit != "" {
				if err := os.WriteFile(file, []byte(edit), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			data, _ := os.ReadFile(file)
			fmt.Fprintf(stdout, "read %q\n", data)
			return []string{"a.munda"}, nil
		}
	}
	paths := []string{file}
	// The first check reads "after" though "before" was hashed.
	if err := cachedCheck(cmd, paths, c, paths, false, check("after!\n")); err != nil {
		t.Fatal(err)
	}
	// Undo the edit: the check must run again, not replay "after".
	if err := os.WriteFile(file, []byte("before\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := cachedCheck(cmd, paths, c, paths, false, check("")); err != nil {
		t.Fatal(err)
	}
	if runs != 2 || out.String() != "read \"before\\n\"\n" {
		t.Errorf("after the edit was undone: %d runs, printed %q; want 2 runs that read before", runs, out.String())
	}
	// An unchanged file is stored and replayed as before.
	out.Reset()
	if err := cachedCheck(cmd, paths, c, paths, false, check("")); err != nil {
		t.Fatal(err)
	}
	if runs != 2 || out.String() != "read \"before\\n\"\n" {
		t.Errorf("unchanged: %d runs, printed %q; want the second run replayed", runs, out.String())
	}
}

// FuzzDecodeEntry reads whatever a cache entry's file may hold (it is
// outside munda's control): no input panics, anything decodeEntry
// accepts encodes back to the same bytes, and every entry written reads
// back as written.
func FuzzDecodeEntry(f *testing.F) {
	f.Add([]byte("a.munda:1:1: error: x\n"), []byte("ok\n"), true)
	f.Add([]byte(nil), []byte(nil), false)
	f.Add([]byte(cacheMagic), []byte("\x00\x01"), false)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, failed bool) {
		want := &cachedResult{stdout: stdout, stderr: stderr, failed: failed}
		data := encodeEntry(want)
		got, ok := decodeEntry(data)
		if !ok || !bytes.Equal(got.stdout, stdout) || !bytes.Equal(got.stderr, stderr) || got.failed != failed {
			t.Fatalf("an entry written did not read back: %+v, %v", got, ok)
		}
		// The raw bytes as an entry, and the entry cut or changed anywhere.
		for _, raw := range [][]byte{stdout, data[:len(data)/2], append(append([]byte(nil), data...), stderr...)} {
			if r, ok := decodeEntry(raw); ok && !bytes.Equal(encodeEntry(r), raw) {
				t.Fatalf("decodeEntry accepted %q, which does not encode back to itself", raw)
			}
		}
	})
}
