package interpreter

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// The fields a checkpoint's hash may leave out are read by the rules
// alone: no Go code that runs rules names them (by Go name, or by their
// name in the rules as a text), but the state's own loading, saving,
// copying and checking, and the hashing and snapshots of checkpoints.
func TestDroppableFieldsOnlyRulesRead(t *testing.T) {
	var goNames, ruleNames []string
	mt := reflect.TypeOf(state.Model{})
	for _, name := range droppableModelFields {
		f, ok := mt.FieldByName(name)
		if !ok {
			t.Fatalf("no model field %s", name)
		}
		goNames = append(goNames, name)
		ruleNames = append(ruleNames, f.Tag.Get("expr"))
	}
	byGo := regexp.MustCompile(`\.(` + strings.Join(goNames, "|") + `)\b`)
	byRules := regexp.MustCompile(`"(` + strings.Join(ruleNames, "|") + `)"`)
	allowed := map[string]bool{
		"interpreter/checkpoint.go": true, "interpreter/resume.go": true, "interpreter/fields.go": true,
		"stdlib/state/decode.go": true, "stdlib/state/encode.go": true, "stdlib/state/validate.go": true,
		"stdlib/state/buffer.go": true,
	}
	// The state's declarations name them in tags: read its code by Go
	// names only.
	tagsOnly := map[string]bool{"stdlib/state/state.go": true}
	skip := []string{"stdlib/yaktribe", "dsl/lsp", "dsl/ruledoc"} // importing a roster; the editor's help; rules' documents
	eachGoLine(t, skip, allowed, func(rel string, n int, line string) {
		if m := byGo.FindString(line); m != "" {
			t.Errorf("%s:%d reads model field %s: leave it out of droppableModelFields (fields.go), or show that only the rules read it", rel, n, m)
		}
		if m := byRules.FindString(line); m != "" && !tagsOnly[rel] {
			t.Errorf("%s:%d names model field %s: leave it out of droppableModelFields (fields.go), or show that only the rules read it", rel, n, m)
		}
	})
}

// eachGoLine calls line with each line of code (not a comment) of the Go
// sources that may run while rules run: interpreter, dsl and stdlib, but
// tests, the directories in skip and the files in except; n counts from 1.
func eachGoLine(t *testing.T, skip []string, except map[string]bool, line func(rel string, n int, line string)) {
	t.Helper()
	for _, dir := range []string{"../interpreter", "../dsl", "../stdlib"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel := strings.TrimPrefix(filepath.ToSlash(path), "../")
			if d.IsDir() && slices.Contains(skip, rel) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || except[rel] {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, l := range strings.Split(string(src), "\n") {
				if !strings.HasPrefix(strings.TrimSpace(l), "//") {
					line(rel, i+1, l)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
