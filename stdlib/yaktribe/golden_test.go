package yaktribe

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/catalogue"
	"github.com/munda-rules/munda/stdlib/state"
)

// shipped is the default ruleset's catalogue, mapping and rule names, as
// munda import yaktribe uses them, loaded once.
var shipped = sync.OnceValues(func() (Config, error) {
	rules, diags := rulesets.LoadShared(rulesets.Selection{})
	if diags.HasErrors() {
		return Config{}, diags
	}
	files, diags := catalogue.ReadFS(rulesets.FS, rulesets.CatalogueDir(""), "rulesets/core-2023/catalogue")
	if diags.HasErrors() {
		return Config{}, diags
	}
	cat, diags := catalogue.Build(files)
	if diags.HasErrors() {
		return Config{}, diags
	}
	m, diags := LoadMapping(rulesets.FS, rulesets.ImportMapping("", "yaktribe"), "rulesets/core-2023/import/yaktribe.yaml")
	if diags.HasErrors() {
		return Config{}, diags
	}
	skills, injuries, diags := RuleNames(rules.Index, m)
	if diags.HasErrors() {
		return Config{}, diags
	}
	return Config{Catalogue: cat, Mapping: m, Skills: skills, Injuries: injuries}, nil
})

func shippedConfig(t testing.TB) Config {
	t.Helper()
	cfg, err := shipped()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestGolden imports the sample exports of testdata/yaktribe and compares
// the state (X.golden.yaml) and the warnings (X.warnings.golden) with the
// files beside them. The state must also be valid against the rules.
func TestGolden(t *testing.T) {
	cfg := shippedConfig(t)
	rules, _ := rulesets.LoadShared(rulesets.Selection{})
	exports, err := filepath.Glob(filepath.Join("..", "..", "testdata", "yaktribe", "*.json"))
	if err != nil || len(exports) < 2 {
		t.Fatalf("want the sample exports in testdata/yaktribe, found %v (%v)", exports, err)
	}
	for _, path := range exports {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name := "testdata/yaktribe/" + filepath.Base(path)
			gang, diags := Import(name, data, cfg)
			if diags.HasErrors() {
				t.Fatalf("import: %v", diags)
			}
			st := &state.State{Gangs: []*state.Gang{gang}}
			if err := state.ValidateWith(st, allowUnknown(rules.Index.Vocabulary)); err != nil {
				t.Fatalf("the imported state is invalid: %v", err)
			}
			out, err := state.Encode(st, "yaml")
			if err != nil {
				t.Fatal(err)
			}
			var warnings bytes.Buffer
			if err := diag.WriteText(&warnings, diags, diag.Sources{name: data}); err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSuffix(path, ".json")
			compareGolden(t, base+".golden.yaml", out)
			compareGolden(t, base+".warnings.golden", warnings.Bytes())
			if _, err := state.DecodeWith("golden.yaml", out, allowUnknown(rules.Index.Vocabulary)); err != nil {
				t.Errorf("the output does not read back: %v", err)
			}
		})
	}
}

func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./stdlib/yaktribe -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update if intended); got:\n%s", golden, got)
	}
}

// allowUnknown is voc accepting names the rules lack: an import keeps them,
// warned about (the CLI writes them, to be run with --allow-unknown).
func allowUnknown(voc *state.Vocabulary) *state.Vocabulary {
	if voc == nil {
		return nil
	}
	v := *voc
	v.AllowUnknown = true
	return &v
}
