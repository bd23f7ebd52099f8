package dsl

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// This file parses a pack's files in parallel before the loader follows
// them in order: parsing is most of loading, and participle's parsers may
// be shared between goroutines. The loader still reads each file itself
// (for its limits and errors) and takes a parse made here only for the
// very same bytes, so what it loads does not depend on this.

// parsedFile is a file parsed ahead of the loader.
type parsedFile struct {
	src   []byte
	file  *syntax.File
	diags diag.Diagnostics
}

// parseAhead parses the named files of a pack (paths relative to its
// root) on every core, up to the pack's limits, and returns what parsed,
// by path.
func parseAhead(p *Pack, files []string) map[string]*parsedFile {
	if len(files) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	files = files[:min(len(files), MaxPackFiles)]
	out := make([]*parsedFile, len(files))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64 // bytes read, for MaxPackBytes
		next  = make(chan int)
	)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, err := ReadLimited(p.FS, p.fsPath(files[i]), syntax.MaxFileSize)
				if err != nil {
					continue
				}
				mu.Lock()
				total += int64(len(src))
				over := total > MaxPackBytes
				mu.Unlock()
				if over {
					continue
				}
				file, diags := syntax.ParseCached(p.DisplayPath(files[i]), src)
				out[i] = &parsedFile{src: src, file: file, diags: diags}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	byPath := make(map[string]*parsedFile, len(files))
	for i, f := range out {
		if f != nil {
			byPath[files[i]] = f
		}
	}
	return byPath
}

// parse parses a file the loader read, or takes the parse made ahead of
// the same bytes.
func (l *packLoader) parse(rel, name string, src []byte) (*syntax.File, diag.Diagnostics) {
	if pre, ok := l.ahead[rel]; ok && bytes.Equal(pre.src, src) {
		delete(l.ahead, rel) // each tree goes to one caller: the checker writes into it
		return pre.file, pre.diags
	}
	return syntax.ParseCached(name, src)
}
