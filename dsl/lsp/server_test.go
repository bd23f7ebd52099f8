package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// golden compares a JSON answer with testdata/golden/NAME.json, where
// the test data's URI reads file:///TESTDATA (go test -update rewrites).
func golden(t *testing.T, name string, raw json.RawMessage) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		t.Fatalf("%s: %v in %s", name, err, raw)
	}
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(buf.String(), pathURI(filepath.ToSlash(abs)), "file:///TESTDATA") + "\n"
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./dsl/lsp -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
	}
}

// result is a response's result, failing the test on an error.
func result(t *testing.T, m message) json.RawMessage {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("error %d: %s", m.Error.Code, m.Error.Message)
	}
	return m.Result
}

// find is the position of the nth (from 0) occurrence of needle in text,
// plus skip characters, counted as LSP does (UTF-16), independently of
// the server's own conversion.
func find(t *testing.T, text, needle string, nth, skip int) (int, int) {
	t.Helper()
	off := -1
	for i := 0; i <= nth; i++ {
		j := strings.Index(text[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q not found %d times", needle, nth+1)
		}
		off += 1 + j
	}
	off += len(needle[:skip])
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	return line, len(utf16.Encode([]rune(text[start:off])))
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLSPSession runs an editor's session against the test pack: each
// answer is compared with its golden file.
func TestLSPSession(t *testing.T) {
	c := startServer(t, Options{})
	root, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "initialize", result(t, c.initialize(root)))

	rulesText := read(t, "testdata/pack/rules.munda")
	moraleText := read(t, "testdata/pack/morale.munda")
	rules := c.open("testdata/pack/rules.munda", "")
	golden(t, "diagnostics_open", c.diagnostics(rules, 1))
	morale := c.open("testdata/pack/morale.munda", "")
	c.diagnostics(morale, 1)

	pos := func(uri, text, needle string, nth, skip int) map[string]any {
		l, ch := find(t, text, needle, nth, skip)
		return at(uri, l, ch)
	}
	// What is under the cursor: a procedure called, a function called in a
	// message after letters outside ASCII (and a four-byte emoji), a skill
	// named in quotes, a test of a procedure an effect targets, a row
	// re-rolled, a condition added to a list.
	cases := []struct {
		name string
		at   map[string]any
	}{
		{"procedure", pos(morale, moraleText, "call nerve", 0, len("call "))},
		{"function_after_non_ascii", pos(morale, moraleText, "wounded(fighter)}", 0, 2)},
		{"skill_in_quotes", pos(rules, rulesText, `"steady"`, 0, 1)},
		{"test_of_procedure", pos(rules, rulesText, "nerve.held", 0, len("nerve."))},
		{"row", pos(rules, rulesText, "reroll flesh_wound", 0, len("reroll "))},
		{"condition_in_list", pos(rules, rulesText, "add shaken", 0, len("add "))},
		{"table_declared", pos(rules, rulesText, "table injury", 0, len("table "))},
		{"dice", pos(rules, rulesText, "roll d6", 0, len("roll "))},
		{"characteristic", pos(rules, rulesText, "cl(fighter)", 0, 0)},
		{"event", pos(rules, rulesText, "on panicked", 0, len("on "))},
	}
	for _, tc := range cases {
		golden(t, "hover_"+tc.name, result(t, c.call("textDocument/hover", tc.at)))
		golden(t, "definition_"+tc.name, result(t, c.call("textDocument/definition", tc.at)))
	}
	// The function named after "Morálka 🎲 {": LSP counts the emoji as two.
	var hover struct {
		Range struct{ Start, End struct{ Line, Character int } }
	}
	if err := json.Unmarshal(result(t, c.call("textDocument/hover", cases[1].at)), &hover); err != nil {
		t.Fatal(err)
	}
	if r := hover.Range; r.Start.Line != 3 || r.Start.Character != 20 || r.End.Character != 27 {
		t.Errorf("hover on wounded after non-ASCII text: range %+v, want line 3, characters 20 to 27", r)
	}

	refs := pos(rules, rulesText, "procedure nerve", 0, len("procedure "))
	refs["context"] = map[string]any{"includeDeclaration": true}
	golden(t, "references_procedure", result(t, c.call("textDocument/references", refs)))
	refs = pos(rules, rulesText, "function wounded", 0, len("function "))
	refs["context"] = map[string]any{"includeDeclaration": false}
	golden(t, "references_function", result(t, c.call("textDocument/references", refs)))

	completions := []struct {
		name string
		at   map[string]any
	}{
		{"after_call", pos(morale, moraleText, "call nerve", 0, len("call "))},
		{"field_of_parameter", pos(morale, moraleText, "{fighter.name}", 0, len("{fighter."))},
		{"skill_in_quotes", pos(rules, rulesText, `has_skill(fighter, "steady") ?`, 0, len(`has_skill(fighter, "`))},
		{"part_of_effect_target", pos(rules, rulesText, "modify nerve.held", 0, len("modify nerve."))},
		{"after_roll", pos(rules, rulesText, "roll d6", 0, len("roll "))},
		{"row_after_reroll", pos(rules, rulesText, "reroll flesh_wound", 0, len("reroll "))},
		{"in_expression", pos(rules, rulesText, "when not wounded", 0, len("when not "))},
		{"in_message", pos(morale, moraleText, "{wounded(fighter)}", 0, 1)},
		{"in_text", pos(rules, rulesText, `text "Test Cool; on`, 0, len(`text "Test Cool; `))},
		{"in_comment", pos(rules, rulesText, "// its own", 0, len("// its "))},
	}
	for _, tc := range completions {
		golden(t, "completion_"+tc.name, result(t, c.call("textDocument/completion", tc.at)))
	}

	doc := map[string]any{"textDocument": map[string]any{"uri": rules}}
	golden(t, "documentSymbol", result(t, c.call("textDocument/documentSymbol", doc)))
	golden(t, "codeLens", result(t, c.call("textDocument/codeLens", doc)))
	golden(t, "formatting_formatted", result(t, c.call("textDocument/formatting",
		map[string]any{"textDocument": map[string]any{"uri": rules}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})))

	// Formatting a file written carelessly: the edit makes it what munda
	// fmt prints.
	messy := strings.Replace(moraleText, "  call nerve(fighter)\n", "call   nerve( fighter )\n\n\n", 1)
	c.change(morale, 2, messy)
	c.diagnostics(morale, 2)
	fm := result(t, c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": morale}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}))
	golden(t, "formatting_messy", fm)
	want, diags := syntax.FormatSource("morale.munda", []byte(messy))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := applyEdits(t, messy, fm); got != string(want) {
		t.Errorf("formatting's edits give\n%s\nwant\n%s", got, want)
	}

	// A change that breaks a name after "Morálka 🎲": the diagnostic is
	// where LSP counts it, with check's code and did-you-mean.
	broken := strings.Replace(moraleText, "{fighter.name}", "{fightr.name}", 1)
	c.change(morale, 3, broken)
	golden(t, "diagnostics_change", c.diagnostics(morale, 3))
	c.change(morale, 4, moraleText)
	golden(t, "diagnostics_fixed", c.diagnostics(morale, 4))

	// Diagnostics are the whole pack's: renaming a function in one file
	// breaks its calls in the other.
	c.change(rules, 2, strings.Replace(rulesText, "function wounded(", "function wounded_badly(", 1))
	golden(t, "diagnostics_pack_renamed", c.diagnostics(rules, 2))
	golden(t, "diagnostics_pack_other_file", c.diagnostics(morale, 4))
	c.change(rules, 3, rulesText)
	c.diagnostics(rules, 3)
	golden(t, "diagnostics_pack_fixed_other_file", c.diagnostics(morale, 4))

	// A shipped file, by the munda: URI a definition into the base gives.
	src := result(t, c.call(MethodSource, map[string]any{"uri": "munda:/rulesets/core-2023/dice.munda"}))
	var text string
	if err := json.Unmarshal(src, &text); err != nil {
		t.Fatal(err)
	}
	if want, _ := rulesets.FS.Open("core-2023/dice.munda"); want == nil || !strings.Contains(text, "dice d6") {
		t.Errorf("munda/source gave %.80q", text)
	}

	// Closing the pack's files takes its diagnostics back; shutdown and
	// exit end the session cleanly.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": morale}})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": rules}})
	if m := c.call("shutdown", nil); m.Error != nil || string(m.Result) != "null" {
		t.Errorf("shutdown: %+v", m)
	}
	if m := c.call("textDocument/hover", at(rules, 0, 0)); m.Error == nil {
		t.Errorf("a request after shutdown was answered: %s", m.Result)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
		c.served <- err
	case <-timeoutAfter():
		t.Fatal("the server did not stop at exit")
	}
}

// applyEdits applies a formatting answer to text.
func applyEdits(t *testing.T, text string, raw json.RawMessage) string {
	t.Helper()
	var edits []struct {
		Range struct {
			Start, End struct{ Line, Character uint32 }
		}
		NewText string
	}
	if err := json.Unmarshal(raw, &edits); err != nil {
		t.Fatal(err)
	}
	x := newLineIndex(text)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		start := x.offset(lspPos(e.Range.Start.Line, e.Range.Start.Character))
		end := x.offset(lspPos(e.Range.End.Line, e.Range.End.Character))
		text = text[:start] + e.NewText + text[end:]
	}
	return text
}
