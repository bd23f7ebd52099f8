package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
