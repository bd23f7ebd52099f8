package interpreter_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

var (
	coreOnce sync.Once
	core     *interpreter.Program
	coreErr  error
)

// coreProgram is the shipped 2023 rules, compiled once for all tests.
func coreProgram(t testing.TB) *interpreter.Program {
	t.Helper()
	coreOnce.Do(func() {
		rules, diags := rulesets.Load(rulesets.Selection{})
		if diags.HasErrors() {
			coreErr = diags
			return
		}
		core, coreErr = interpreter.Compile(rules)
	})
	if coreErr != nil {
		t.Fatal(coreErr)
	}
	return core
}

// programOf checks and compiles rules given as source text.
func programOf(t testing.TB, src string) *interpreter.Program {
	t.Helper()
	pack := &dsl.Pack{FS: fstest.MapFS{"rules.munda": {Data: []byte(src)}}, Root: "."}
	lp, diags := dsl.LoadPack(pack)
	rules, ds := dsl.Assemble(lp, nil, nil)
	diags = append(diags, ds...)
	diags = append(diags, dsl.Check(rules)...)
	if diags.HasErrors() {
		t.Fatalf("rules: %v", diags)
	}
	p, err := interpreter.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readState(t testing.TB, path string) *state.State {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Decode(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

const exampleState = "../testdata/states/goliaths-vs-eschers.yaml"

// runEndPhase runs the End Phase on the example state with a seed and
// returns the narration, the JSON events and the new state.
func runEndPhase(t testing.TB, seed uint64) (text, jsonl, newState []byte) {
	t.Helper()
	p := coreProgram(t)
	st := readState(t, exampleState)
	var events interpreter.Events
	err := p.Run(st, "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(seed), Log: &events})
	if err != nil {
		t.Fatal(err)
	}
	var tb, jb bytes.Buffer
	if err := interpreter.WriteText(&tb, events); err != nil {
		t.Fatal(err)
	}
	if err := interpreter.WriteJSON(&jb, events); err != nil {
		t.Fatal(err)
	}
	enc, err := state.Encode(st, "yaml")
	if err != nil {
		t.Fatal(err)
	}
	return tb.Bytes(), jb.Bytes(), enc
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update and review the diff):\n%s", path, got)
	}
}

// A whole End Phase, narrated and as JSON, against golden files.
func TestEndPhaseGolden(t *testing.T) {
	text, jsonl, newState := runEndPhase(t, 1)
	golden(t, "end_phase.seed1.txt", text)
	golden(t, "end_phase.seed1.jsonl", jsonl)
	golden(t, "end_phase.seed1.state.yaml", newState)
}

// Same rules, state and seed: byte-identical events and state.
func TestDeterminism(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		t1, j1, s1 := runEndPhase(t, seed)
		t2, j2, s2 := runEndPhase(t, seed)
		if !bytes.Equal(t1, t2) || !bytes.Equal(j1, j2) || !bytes.Equal(s1, s2) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

// The seeded dice are a documented generator: this sequence must not
// change between platforms or Go versions.
func TestSeededSequence(t *testing.T) {
	d6 := coreProgram(t).Index().Dice["d6"]
	s := interpreter.NewSeeded(1)
	var got []int
	for i := 0; i < 12; i++ {
		die, err := s.Roll(&interpreter.DieRequest{Dice: d6})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, die.Value)
	}
	want := []int{6, 1, 6, 6, 2, 6, 5, 1, 4, 2, 3, 6}
	if !equalInts(got, want) {
		t.Errorf("seed 1 rolls %v, want %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDiceScriptErrors(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"runs out", "6", "the dice script ran out after 1 die: roll check in procedure bottle_check needed a D6 for bottle_check"},
		{"not a face", "7", "die 1 of the script: a D6 cannot show 7 (faces: 1, 2, 3, 4, 5, 6)"},
		{"not a number", "six", `die 1 of the script: "six" is not a number`},
	}
	p := coreProgram(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := readState(t, exampleState)
			script, err := interpreter.ParseScript(tt.script)
			if err != nil {
				t.Fatal(err)
			}
			args := map[string]any{"gang": st.Gang("goliaths")}
			err = p.Run(st, "bottle_checks", args, interpreter.Options{Dice: script})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			var se *interpreter.ScriptError
			if !errors.As(err, &se) {
				t.Errorf("want a ScriptError inside, got %T", err)
			}
		})
	}
	if _, err := interpreter.ParseScript("  "); err == nil {
		t.Error("an empty script must be an error")
	}
}

func TestPromptDice(t *testing.T) {
	p := coreProgram(t)
	st := readState(t, exampleState)
	var out bytes.Buffer
	// Garbage, a 7, then real answers.
	in := strings.NewReader("banana\n7\n3\n2\n")
	err := p.Run(st, "bottle_checks", nil, interpreter.Options{Dice: interpreter.NewPrompt(in, &out)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Roll a D6 for bottle_check [check]: ", `"banana" is not a number`, "a D6 cannot show 7"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("prompt output lacks %q:\n%s", want, out.String())
		}
	}
	// Input closed before the answer.
	st = readState(t, exampleState)
	err = p.Run(st, "bottle_checks", nil, interpreter.Options{Dice: interpreter.NewPrompt(strings.NewReader("4\n"), &out)})
	if err == nil || !strings.Contains(err.Error(), "no answer for roll check in procedure bottle_check: input closed") {
		t.Fatalf("got %v", err)
	}
}

// Rule packs may be hostile: every run is bounded.
func TestLimits(t *testing.T) {
	st := &state.State{}
	tests := []struct {
		name, src, proc, want string
	}{
		{"recursion", `procedure forever() "Forever" {
  call forever()
}`, "forever", "rules nested more than 64 deep (the limit): a procedure or table may be calling itself without end"},
		{"steps", `procedure busy() "Busy" {
  for each i in 1..600000 {
    let x = i
    set x = x + 1
  }
}`, "busy", "the run took more than 1000000 steps (the limit)"},
		{"expression memory", `procedure big() "Big" {
  let xs = map(1..10000000, # * 2)
  require len(xs) > 0 else "empty"
}`, "big", "rules.munda:2:17: in procedure big: the expression builds too large a value (expr's memory budget is the limit)"},
		{"require", `procedure refuse() "Refuse" {
  require false else "the target is already Out of Action"
}`, "refuse", "in procedure refuse: the target is already Out of Action"},
		{"pool", `dice d6 "D6" {
  faces 1, 2, 3, 4, 5, 6
}
procedure pool() "Pool" {
  roll many = (1000) d6
  require len(many) > 0 else "no dice"
}`, "pool", "cannot roll 1000 dice (0 to 100)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := programOf(t, tt.src)
			err := p.Run(st, tt.proc, nil, interpreter.Options{Dice: interpreter.NewSeeded(1)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), "rules.munda:") {
				t.Errorf("the error does not name the rule's place: %v", err)
			}
		})
	}
}

func TestBindArgs(t *testing.T) {
	p := coreProgram(t)
	st := readState(t, exampleState)
	proc, err := p.Procedure("bottle-check")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := interpreter.BindArgs(st, proc.Params, "procedure bottle_check", map[string]string{"gang": "goliaths"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args map[string]string
		want string
	}{
		{map[string]string{"gang": "goliath"}, `no gang has the id "goliath"; did you mean goliaths?`},
		{map[string]string{}, "procedure bottle_check needs --arg gang=… (gang)"},
		{map[string]string{"gang": "goliaths", "gnag": "x"}, `procedure bottle_check has no parameter "gnag"; did you mean gang?`},
	} {
		_, err := interpreter.BindArgs(st, proc.Params, "procedure bottle_check", tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want %q", tt.args, err, tt.want)
		}
	}
	if _, err := p.Procedure("end-phsae"); err == nil || !strings.Contains(err.Error(), `did you mean end-phase?`) {
		t.Errorf("got %v", err)
	}
}
