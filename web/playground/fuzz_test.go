package playground

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzCall: whatever the page sends, the answer is JSON, a result or an
// error with a message, and never an internal error (a recovered panic).
func FuzzCall(f *testing.F) {
	state := "battle:\n  round: 1\ngangs: []\n"
	for method, req := range map[string]any{
		"catalog": nil,
		"file":    FileRequest{Path: "core-2023/dice.munda"},
		"load":    Selection{Ruleset: "core-2023", Houses: []string{"aa", "-aa.brute_xp"}},
		"check":   Selection{File: &EditedFile{Text: "procedure x() \"X\" {\n  roll r = d7\n"}}, // a parse error: checked quickly
		"run":     RunRequest{Question: Question{State: state, Procedure: "end-phase"}, Seed: 3},
		"odds":    OddsRequest{Question: Question{State: state, Procedure: "end-phase"}, OddsSettings: OddsSettings{Of: "1 + 1", Samples: 3, Method: MethodSample}},
		"compare": CompareRequest{B: Selection{Houses: []string{"n17"}}, Question: Question{State: state, Procedure: "end-phase"}, OddsSettings: OddsSettings{MaxPaths: 5}},
	} {
		data, _ := json.Marshal(req)
		f.Add(method, data)
	}
	p := shared // the rules other tests loaded are kept
	f.Fuzz(func(t *testing.T, method string, request []byte) {
		answer := p.Call(method, request)
		var v struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(answer, &v); err != nil {
			t.Fatalf("%s: the answer is not JSON: %v\n%s", method, err, answer)
		}
		if v.Error != nil && (v.Error.Message == "" || strings.HasPrefix(v.Error.Message, "internal error")) {
			t.Fatalf("%s %s: %s", method, request, v.Error.Message)
		}
	})
}
