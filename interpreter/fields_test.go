package interpreter

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
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
	for _, dir := range []string{"../interpreter", "../dsl", "../stdlib"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel := strings.TrimPrefix(filepath.ToSlash(path), "../")
			if d.IsDir() && (rel == "stdlib/yaktribe" || rel == "dsl/lsp" || rel == "dsl/ruledoc") {
				return filepath.SkipDir // importing a roster; the editor's help; rules' documents
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed[rel] {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "//") {
					continue
				}
				if m := byGo.FindString(line); m != "" {
					t.Errorf("%s:%d reads model field %s: leave it out of droppableModelFields (fields.go), or show that only the rules read it", rel, i+1, m)
				}
				if m := byRules.FindString(line); m != "" && !tagsOnly[rel] {
					t.Errorf("%s:%d names model field %s: leave it out of droppableModelFields (fields.go), or show that only the rules read it", rel, i+1, m)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
