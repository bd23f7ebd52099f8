package playground

import (
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
)

// answerError is an Error as the page reads it.
type answerError struct {
	Message     string       `json:"message"`
	Diagnostics []answerDiag `json:"diagnostics"`
}

type answerDiag struct {
	Severity string      `json:"severity"`
	Code     string      `json:"code"`
	Summary  string      `json:"summary"`
	Subject  *diag.Range `json:"range"`
}

// shared keeps the rules its tests load, as a page does.
var shared = New()

// exampleState is the shipped state the page opens with.
const exampleState = "core-2023/tests/states/end_phase.yaml"

func readExample(t *testing.T) string {
	t.Helper()
	data, err := fs.ReadFile(rulesets.FS, exampleState)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// ask calls the playground and decodes the answer into out; it returns
// the error the answer holds, if any.
func ask(t *testing.T, p *Playground, method string, req any, out any) *answerError {
	t.Helper()
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	answer := p.Call(method, data)
	var failed struct {
		Error *answerError `json:"error"`
	}
	if err := json.Unmarshal(answer, &failed); err != nil {
		t.Fatalf("%s: answer is not JSON: %v\n%s", method, err, answer)
	}
	if failed.Error != nil {
		return failed.Error
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("%s: %v\n%s", method, err, answer)
		}
	}
	return nil
}

func TestCatalog(t *testing.T) {
	var c Catalog
	if err := ask(t, shared, "catalog", nil, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Rulesets) < 2 || c.Rulesets[0].Title == "" {
		t.Errorf("rulesets: %+v", c.Rulesets)
	}
	if len(c.Houses) < 3 || len(c.Houses[0].Rules) == 0 {
		t.Errorf("houses: %+v", c.Houses)
	}
	found := false
	for _, s := range c.States {
		found = found || s == exampleState
	}
	if !found {
		t.Errorf("states %v lack %s", c.States, exampleState)
	}
	if len(c.Files["core-2023"]) < 10 || len(c.Files["house/aa"]) == 0 {
		t.Errorf("files: %v", c.Files)
	}
	for _, f := range c.Files["core-2023"] {
		if !strings.HasPrefix(f, "core-2023/") || !strings.HasSuffix(f, ".munda") {
			t.Errorf("file %q", f)
		}
	}
}

func TestRunEndPhase(t *testing.T) {
	p := shared
	req := RunRequest{Selection: Selection{Ruleset: "core-2023"}, Question: Question{State: readExample(t), Procedure: "end-phase"}, Seed: 1}
	var a, again RunAnswer
	if err := ask(t, p, "run", req, &a); err != nil {
		t.Fatal(err)
	}
	if a.Error != nil || !strings.Contains(a.Narration, "Bottle") || len(a.Events) == 0 || a.State == "" {
		t.Fatalf("run: error %v, narration:\n%s", a.Error, a.Narration)
	}
	// Seeded dice: the same seed, the same narration.
	if err := ask(t, p, "run", req, &again); err != nil || again.Narration != a.Narration {
		t.Errorf("second run differs (%v)", err)
	}
}

// An action declared with parameters runs as munda run runs it.
func TestRunAction(t *testing.T) {
	data, err := fs.ReadFile(rulesets.FS, "core-2023/tests/states/shooting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	req := RunRequest{Question: Question{State: string(data), Procedure: "shoot",
		Args: map[string]string{"attacker": "ace", "target": "mark", "weapon": "stubber"}, Choose: []string{"cover=partial"}}, Seed: 2}
	var a struct {
		Narration string `json:"narration"`
	}
	if err := ask(t, shared, "run", req, &a); err != nil {
		t.Fatalf("%s: %+v", err.Message, err.Diagnostics)
	}
	if !strings.Contains(a.Narration, "Ace") {
		t.Errorf("narration:\n%s", a.Narration)
	}
	req.Args["attacker"] = "nobody"
	if err := ask(t, shared, "run", req, nil); err == nil || !strings.Contains(err.Message, `"nobody"`) {
		t.Errorf("a bad attacker: %+v", err)
	}
}

func TestOddsHouseRuleChangesThem(t *testing.T) {
	p := shared
	q := Question{State: readExample(t), Procedure: "end-phase"}
	// A branch limit of 5 is under the 12 branches the exact answer takes:
	// the odds fall back to Monte Carlo, with a note.
	set := OddsSettings{Of: `gang("eschers").bottled`, Samples: 200, MaxPaths: 5}
	var core OddsAnswer
	if err := ask(t, p, "odds", OddsRequest{Selection{Ruleset: "core-2023"}, q, set}, &core); err != nil {
		t.Fatal(err)
	}
	if core.Exact || core.Note == "" || len(core.Outcomes) != 2 || core.Samples != 200 {
		t.Fatalf("core odds: %+v", core)
	}
	var cmp CompareAnswer
	creq := CompareRequest{A: Selection{Ruleset: "core-2023"}, B: Selection{Ruleset: "core-2023", Houses: []string{"aa"}}, Question: q, OddsSettings: set}
	if err := ask(t, p, "compare", creq, &cmp); err != nil {
		t.Fatal(err)
	}
	// The same seed, the same rules: the same estimate.
	if cmp.A.Outcomes[1].Probability != core.Outcomes[1].Probability {
		t.Errorf("compare's A differs from the odds asked alone: %v, %v", cmp.A.Outcomes, core.Outcomes)
	}
	if cmp.B.Rules != "core-2023+aa" || cmp.B.Outcomes[1].Probability == cmp.A.Outcomes[1].Probability {
		t.Errorf("aa left the odds as they were: %v, %v", cmp.A.Outcomes, cmp.B.Outcomes)
	}
}

func TestExactOdds(t *testing.T) {
	var a OddsAnswer
	req := OddsRequest{Selection{}, Question{State: readExample(t), Procedure: "bottle-check", Args: map[string]string{"gang": "goliaths"}},
		OddsSettings{Of: `gang("goliaths").bottled`, Method: MethodExact}}
	if err := ask(t, shared, "odds", req, &a); err != nil {
		t.Fatal(err)
	}
	if !a.Exact || len(a.Outcomes) != 2 || a.Outcomes[0].P != "2/3" {
		t.Errorf("%+v", a)
	}
}

// A Yaktribe export becomes a state holding its gang, with warnings for
// what the rules or the catalogue lack; the state runs with unknown names
// accepted.
func TestImportYaktribe(t *testing.T) {
	export, err := os.ReadFile("../../testdata/yaktribe/iron-sons.json")
	if err != nil {
		t.Fatal(err)
	}
	var a ImportAnswer
	if err := ask(t, shared, "import", ImportRequest{Export: string(export)}, &struct {
		*ImportAnswer
		Warnings []answerDiag `json:"warnings"`
	}{ImportAnswer: &a}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.State, "gangs:") || !strings.Contains(a.State, "Vorst") {
		t.Fatalf("state:\n%s", a.State)
	}
	var run struct {
		Narration string       `json:"narration"`
		Warnings  []answerDiag `json:"warnings"`
	}
	req := RunRequest{Question: Question{State: a.State, Procedure: "gang-check", Args: map[string]string{"gang": "48213"}, AllowUnknown: true}}
	if err := ask(t, shared, "run", req, &run); err != nil {
		t.Fatalf("%s: %v", err.Message, err.Diagnostics)
	}
	if !strings.Contains(run.Narration, "The Iron Sons") || len(run.Warnings) == 0 {
		t.Errorf("the imported gang's check: %+v", run)
	}
	if err := ask(t, shared, "import", ImportRequest{Export: "{"}, nil); err == nil || len(err.Diagnostics) == 0 || err.Diagnostics[0].Subject == nil {
		t.Errorf("a cut-short export: %+v", err)
	}
}

func TestIDs(t *testing.T) {
	var a map[string][]Named
	if err := ask(t, shared, "ids", IDsRequest{State: readExample(t)}, &a); err != nil {
		t.Fatal(err)
	}
	if len(a["gang"]) != 2 || a["gang"][0].ID != "goliaths" || len(a["model"]) < 4 {
		t.Errorf("%+v", a)
	}
	if err := ask(t, shared, "ids", IDsRequest{State: "gangs: ["}, &a); err != nil || len(a["gang"]) != 0 {
		t.Errorf("a broken state: %v, %+v", err, a)
	}
}

// Bad input comes back as an error with a message (and positions where
// there are some), never a panic.
func TestBadInput(t *testing.T) {
	p := shared
	state := readExample(t)
	cases := []struct {
		name, method string
		req          any
		want         string // in the message
		positioned   bool   // the first diagnostic has a line
	}{
		{"unknown method", "nosuch", nil, `unknown method "nosuch"`, false},
		{"not JSON", "run", json.RawMessage(`"x"`), "bad request", false},
		{"unknown field", "run", map[string]any{"stat": ""}, "bad request", false},
		{"unknown ruleset", "load", Selection{Ruleset: "core-2099"}, "unknown ruleset", false},
		{"unknown house", "run", RunRequest{Selection: Selection{Houses: []string{"zz"}}, Question: Question{State: state, Procedure: "end-phase"}}, "the rules have errors", false},
		{"state not YAML", "run", RunRequest{Question: Question{State: "gangs: [", Procedure: "end-phase"}}, "the state is not valid", true},
		{"state with a bad field", "run", RunRequest{Question: Question{State: strings.Replace(state, "gangs:", "gangz:", 1), Procedure: "end-phase"}}, "the state is not valid", true},
		{"unknown procedure", "run", RunRequest{Question: Question{State: state, Procedure: "nosuch"}}, "nosuch", false},
		{"bad argument", "run", RunRequest{Question: Question{State: state, Procedure: "bottle-check", Args: map[string]string{"gang": "nobody"}}}, "nobody", false},
		{"bad rule file", "run", RunRequest{Selection: Selection{File: &EditedFile{Text: "procedure {"}}, Question: Question{State: state, Procedure: "end-phase"}}, "the rules have errors", true},
		{"bad of", "odds", OddsRequest{Question: Question{State: state, Procedure: "end-phase"}, OddsSettings: OddsSettings{Of: "gang(("}}, "does not compile", true},
		{"too many branches", "odds", OddsRequest{Question: Question{State: state, Procedure: "end-phase"}, OddsSettings: OddsSettings{Method: MethodExact, MaxPaths: 10}}, "too many branches", false},
		{"too many samples", "odds", OddsRequest{Question: Question{State: state, Procedure: "end-phase"}, OddsSettings: OddsSettings{Method: MethodSample, Samples: MaxSamples + 1}}, "between 1 and", false},
		{"edited file not shipped", "load", Selection{File: &EditedFile{Path: "../../etc/passwd.munda", Text: ""}}, "not a shipped rule file", false},
		{"file outside", "file", FileRequest{Path: "../go.mod"}, "not a shipped", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ask(t, p, c.method, c.req, nil)
			if err == nil {
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Message, c.want) {
				t.Errorf("message %q lacks %q", err.Message, c.want)
			}
			if c.positioned && (len(err.Diagnostics) == 0 || err.Diagnostics[0].Subject == nil || err.Diagnostics[0].Subject.Start.Line == 0) {
				t.Errorf("no positioned diagnostic: %+v", err.Diagnostics)
			}
		})
	}
}

// An edited shipped file replaces the shipped one: breaking it gives a
// diagnostic in that file, and the rules without it still load.
func TestEditedFile(t *testing.T) {
	p := shared
	var file FileAnswer
	if err := ask(t, p, "file", FileRequest{Path: "house/aa/aa.munda"}, &file); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sel  Selection
		want int // errors
	}{
		{"as shipped", Selection{Houses: []string{"aa"}, File: &EditedFile{Path: file.Path, Text: file.Text}}, 0},
		{"broken", Selection{Houses: []string{"aa"}, File: &EditedFile{Path: file.Path, Text: file.Text + "\nrule {"}}, 1},
		{"a mod", Selection{File: &EditedFile{Text: "procedure greet() \"Greet\" {\n  emit \"hello\"\n}\n"}}, 0},
		{"an empty mod", Selection{File: &EditedFile{Text: " \n"}}, 0},
		{"a broken mod", Selection{File: &EditedFile{Text: "procedure x() \"X\" {\n  roll r = d7\n}\n"}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a struct {
				Errors      int          `json:"errors"`
				Diagnostics []answerDiag `json:"diagnostics"`
			}
			if err := ask(t, p, "check", c.sel, &a); err != nil {
				t.Fatal(err)
			}
			if a.Errors != c.want {
				t.Fatalf("%d errors, want %d: %v", a.Errors, c.want, a.Diagnostics)
			}
			if c.want > 0 && a.Diagnostics[0].Subject.Filename != c.sel.File.DisplayPath() {
				t.Errorf("diagnostic in %q, want %q", a.Diagnostics[0].Subject.Filename, c.sel.File.DisplayPath())
			}
		})
	}
}
