package playground

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/munda-rules/munda/rulesets"
)

// What the page waits for: a check of core-2023 with one file edited (the
// live diagnostics, on every pause in typing), and a seeded End Phase on
// rules already loaded. In a browser the WebAssembly is some times slower.
func BenchmarkCheckEdited(b *testing.B) {
	text, err := fs.ReadFile(rulesets.FS, "core-2023/end_phase.munda")
	if err != nil {
		b.Fatal(err)
	}
	req, _ := json.Marshal(Selection{File: &EditedFile{Path: "core-2023/end_phase.munda", Text: string(text) + "\n"}})
	p := New()
	for b.Loop() {
		p.Call("check", req)
	}
}

func BenchmarkRunEndPhase(b *testing.B) {
	state, err := fs.ReadFile(rulesets.FS, "core-2023/tests/states/end_phase.yaml")
	if err != nil {
		b.Fatal(err)
	}
	req, _ := json.Marshal(RunRequest{Question: Question{State: string(state), Procedure: "end-phase"}, Seed: 1})
	p := New()
	p.Call("run", req) // loads the rules
	for b.Loop() {
		p.Call("run", req)
	}
}
