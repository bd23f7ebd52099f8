package stdlib

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestRatioScratch(t *testing.T) {
	files, _ := filepath.Glob("../testdata/states/*.yaml")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var doc yaml.Node
		yaml.Unmarshal(data, &doc)
		n := 0
		var walk func(*yaml.Node)
		walk = func(x *yaml.Node) { n++; for _, c := range x.Content { walk(c) } }
		walk(&doc)
		st, _ := Decode(f, data)
		out, _ := Encode(st, "yaml")
		js, _ := Encode(st, "json")
		t.Logf("%s: nodes %d, indicators %d (encoded yaml %d, json %d)", f, n, countIndicators(data), countIndicators(out), countIndicators(js))
	}
}
