package yaktribe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// FuzzImport checks Import never panics; that it fails only with error
// diagnostics of the import's codes, each placed in the file, and then
// gives no gang; and that a gang it gives is a valid state under the
// rules, whose warnings are the import's. Crashers found are kept in
// testdata/fuzz/FuzzImport.
func FuzzImport(f *testing.F) {
	cfg := shippedConfig(f)
	rules, _ := rulesets.LoadShared(rulesets.Selection{})
	exports, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "yaktribe", "*.json"))
	for _, path := range exports {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(export(ganger("1", ""), ganger("2", `"status": "Dead", "equipment": [{"name": "Mesh Armor", "qty": 1}, {"name": "Las-cutter"}]`))))
	f.Add([]byte(`{"campaign": {}}`))
	f.Add([]byte(`{"gang": {"gang_id": "7", "gangers": [{"ws": "4+"}]}}`))
	f.Add([]byte(`{"gang_id": 1, "gang_name": "x", "gangers": [], "stash": [{"name": "\ud83d\ude00"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		gang, diags := Import("fuzz.json", data, cfg)
		for _, d := range diags {
			if d == nil || d.Subject == nil || d.Subject.Filename != "fuzz.json" || !strings.HasPrefix(d.Code, "import_") {
				t.Fatalf("a diagnostic not of the import, or not placed: %#v", d)
			}
			if d.Subject.Start.Offset > len(data) {
				t.Fatalf("a diagnostic past the end of the file: %v", d)
			}
		}
		if diags.HasErrors() {
			if gang != nil {
				t.Fatalf("errors, and a gang: %v", diags)
			}
			for _, d := range diags {
				if d.Severity != diag.Error {
					t.Fatalf("a failed import with a warning: %v", d)
				}
			}
			return
		}
		if gang == nil {
			t.Fatal("no errors, and no gang")
		}
		st := &state.State{Gangs: []*state.Gang{gang}}
		if err := state.ValidateWith(st, allowUnknown(rules.Index.Vocabulary)); err != nil {
			t.Fatalf("the gang imported is not a valid state: %v", err)
		}
		if _, err := state.Encode(st, "yaml"); err != nil {
			t.Fatalf("the gang imported cannot be written: %v", err)
		}
	})
}
