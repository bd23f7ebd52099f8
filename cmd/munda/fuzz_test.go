package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/state"
)

// FuzzReadState reads a state as munda run does, from whatever the path
// turns out to be: a regular file, a link to one, a directory, a device,
// a link to a device, or a file over the limit. No input panics; every
// failure is a plain file error or state diagnostics, and a state over
// the limit is never read whole.
func FuzzReadState(f *testing.F) {
	for _, p := range []string{"goliaths-vs-eschers.yaml", "vehicles.yaml"} {
		data, err := os.ReadFile(repoPath("testdata", "states", p))
		if err != nil {
			f.Fatal(err)
		}
		for kind := range uint8(6) {
			f.Add(data, kind)
		}
	}
	f.Add([]byte("gangs: [\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		dir := t.TempDir()
		target := filepath.Join(dir, "state.yaml")
		path := target
		limit := int64(state.MaxStateBytes)
		switch kind % 6 {
		case 1:
			path = filepath.Join(dir, "link.yaml")
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
		case 2:
			path = dir
		case 3:
			path = os.DevNull
		case 4:
			path = filepath.Join(dir, "null.yaml")
			if err := os.Symlink(os.DevNull, path); err != nil {
				t.Skip(err)
			}
		case 5:
			limit = int64(len(data) / 2) // over the limit
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readInput(path, limit)
		if err != nil {
			if got != nil {
				t.Fatal("data and an error")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) && !strings.Contains(msg, filepath.Base(path)) {
				t.Errorf("the error does not name the file: %v", err)
			}
			if kind%6 == 5 && len(data) > 1 {
				var big *dsl.TooLargeError
				if !errors.As(err, &big) && !strings.Contains(msg, "larger than the limit") {
					t.Errorf("over the limit, but: %v", err)
				}
			}
			return
		}
		if int64(len(got)) > limit {
			t.Fatalf("read %d bytes, over the limit of %d", len(got), limit)
		}
		if _, err := state.Decode(path, got); err != nil {
			var ds diag.Diagnostics
			if !errors.As(err, &ds) || len(ds) == 0 {
				t.Fatalf("a state error that is no diagnostic: %v", err)
			}
		}
	})
}
