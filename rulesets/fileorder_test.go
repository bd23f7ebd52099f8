package rulesets_test

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

// The order of a pack's files does not change what its rules do: effects
// of several features on one roll or let (Trick Shot with Zen Shootist,
// Parry against Parry) combine the same whichever file is read first.
// Every test block of core-2023 runs again with the files loaded in the
// reverse order, and must pass or fail as before with the same events.
// It runs the whole suite a second time, so only with MUNDA_LONG=1 (as
// .ci/run does).
func TestFileOrderDoesNotMatter(t *testing.T) {
	if os.Getenv("MUNDA_LONG") == "" {
		t.Skip("runs every test block again: set MUNDA_LONG=1")
	}
	const dir = "core-2023"
	var files []string
	err := fs.WalkDir(rulesets.FS, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".munda") {
			files = append(files, strings.TrimPrefix(p, dir+"/"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(files)
	reversed := &dsl.Pack{FS: rulesets.FS, Root: dir, Display: "rulesets/" + dir, Files: files}
	rules, diags := rulesets.Load(rulesets.Selection{Pack: reversed})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := shippedTestRuns()
	if err != nil {
		t.Fatal(err)
	}
	var before *packTestRun
	for i := range runs {
		if runs[i].dir == dir {
			before = &runs[i]
		}
	}
	// Tests are known by file and name (two files may name a test alike).
	byName := map[string]*dsl.TestInfo{}
	for _, ti := range rules.Index.Tests {
		byName[ti.Decl.Pos.Filename+"|"+ti.Name] = ti
	}
	for i, ti := range before.tests {
		again := byName[ti.Decl.Pos.Filename+"|"+ti.Name]
		if again == nil {
			t.Errorf("%s: %q is not found with the files reversed", before.results[i].At, ti.Name)
			continue
		}
		res := interpreter.RunTests(prog, []*dsl.TestInfo{again}, before.programFor)[0]
		want := before.results[i]
		if res.Passed != want.Passed {
			t.Errorf("%s: %q passed=%v in file order, %v with the files reversed: %v", want.At, ti.Name, want.Passed, res.Passed, res.Failures)
			continue
		}
		if got, exp := eventTexts(res.Events), eventTexts(want.Events); !slices.Equal(got, exp) {
			t.Errorf("%s: %q: other events with the files reversed:\n%s\nagainst\n%s", want.At, ti.Name, strings.Join(got, "\n"), strings.Join(exp, "\n"))
		}
	}
}

// eventTexts is a run's narration without positions (file:line), which a
// reordering of files does not change but a new file would.
func eventTexts(events []*interpreter.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Kind+" "+e.Rule+": "+e.Text)
	}
	return out
}
