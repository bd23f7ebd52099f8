package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"testing"

	"gopkg.in/yaml.v3"
)

// base is a small valid state; the error cases edit it.
const base = `battle:
  round: 1
  priority: a
gangs:
  - id: a
    name: A
    starting_crew: 2
    eligible_models: 2
    models:
      - id: a1
        kind: fighter
        status: standing
        secondary: active
        stats: {m: 5, ws: 4+, cl: 7+}
        weapons:
          - {id: knife, name: Knife, s: S, ap: -1, d: 1}
        base: 25
      - id: v1
        kind: vehicle
        status: mobile
        base: 60
  - id: b
    name: B
    starting_crew: 1
    eligible_models: 1
    models:
      - id: b1
        kind: fighter
        status: prone
        secondary: pinned
        base: 25
`

// testVocabulary is the words the core rules declare (rulesets/core-2023/
// vocabulary.munda), for the cases that check a state against them.
var testVocabulary = &Vocabulary{Kinds: []ModelKind{
	{ID: "fighter", Statuses: []Status{
		{ID: "standing", Secondaries: []string{"active", "engaged"}},
		{ID: "prone", Secondaries: []string{"pinned", "seriously_injured"}},
		{ID: "out_of_action"},
	}},
	{ID: "vehicle", Carries: []string{"fighter"}, Statuses: []Status{
		{ID: "mobile"},
		{ID: "stationary", Secondaries: []string{"stalled", "wrecked"}},
	}},
}}

// edit replaces one piece of base (which must occur exactly once).
func edit(t testing.TB, pairs ...string) string {
	t.Helper()
	s := base
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.Count(s, pairs[i]) != 1 {
			t.Fatalf("edit: %q occurs %d times in base", pairs[i], strings.Count(s, pairs[i]))
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestDecodeBase(t *testing.T) {
	st, err := Decode("base.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	a1 := st.Model("a1")
	if a1.Stats.M != 5 || a1.Stats.WS != 4 || a1.Stats.Cl != 7 || a1.Base != 25 {
		t.Errorf("a1 stats: %+v base %v", a1.Stats, a1.Base)
	}
	if w := a1.Weapons[0]; !w.UserStrength || w.S != 0 || w.AP != -1 || w.D != 1 {
		t.Errorf("knife: %+v", w)
	}
	if a1.Gang != st.Gangs[0] || st.Gangs[0].State != st || st.Model("b1").Gang != st.Gangs[1] {
		t.Error("back-pointers not set")
	}
}

// errorCase is an input and what its error must say: each want is a line
// of the error, whole, or a substring when it starts with "~".
type errorCase struct {
	name  string
	input string
	want  []string
}

func errorCases(t testing.TB) []errorCase {
	return []errorCase{
		// Wrong types, with the line and column of the value.
		{"target number as a word", edit(t, "cl: 7+", "cl: seven"),
			[]string{`x.yaml:14:35: gangs[0].models[0].stats.cl: want a target number like 7 or "7+", got "seven"`}},
		{"target number as a float", edit(t, "ws: 4+", "ws: 4.5"),
			[]string{`x.yaml:14:27: gangs[0].models[0].stats.ws: want a target number like 7 or "7+", got 4.5 (not a whole number in range)`}},
		{"movement in words", edit(t, "m: 5,", "m: five inches,"),
			[]string{`x.yaml:14:20: gangs[0].models[0].stats.m: want a distance in inches like 5 or '5"', got "five inches"`}},
		{"strength as a letter other than S", edit(t, "s: S,", "s: T,"),
			[]string{`x.yaml:16:41: gangs[0].models[0].weapons[0].s: want a Strength like 4, "S", "S+1" or "S-1", got "T"`}},
		{"random damage", edit(t, "d: 1}", "d: D3}"),
			[]string{`~weapons[0].d: want a Damage like 2 or "-", got "D3" (random Damage is not supported)`}},
		{"ap as a word", edit(t, "ap: -1", "ap: lots"),
			[]string{`~weapons[0].ap: want a modifier like -1, "+1" or "-", got "lots"`}},
		{"string field given a number", edit(t, "name: A", "name: 7"),
			[]string{`x.yaml:6:11: gangs[0].name: want a string, got 7; write "7" in quotes if you mean the text`}},
		{"bool as yes", edit(t, "    starting_crew: 2", "    bottled: yes\n    starting_crew: 2"),
			[]string{`x.yaml:7:14: gangs[0].bottled: want true or false, got "yes"`}},
		{"position not a number", edit(t, "base: 60", "base: 60\n        x: left"),
			[]string{`x.yaml:22:12: gangs[0].models[1].x: want a finite number, got "left"`}},
		{"position NaN", edit(t, "base: 60", "base: 60\n        y: .nan"),
			[]string{`~gangs[0].models[1].y: want a finite number, got .nan`}},
		{"position infinite", edit(t, "base: 60", "base: 60\n        y: -.inf"),
			[]string{`~gangs[0].models[1].y: want a finite number, got -.inf`}},
		{"integer out of range", edit(t, "round: 1", "round: 123456789012345678901234567890"),
			[]string{`~battle.round: want a whole number, got 123456789012345678901234567890 (not a whole number in range)`}},
		{"list given a string", edit(t, "    models:\n      - id: b1", "    stash: lasgun\n    models:\n      - id: b1"),
			[]string{`~gangs[1].stash: want a list of strings like [a, b], got "lasgun"`}},
		{"list item not a string", edit(t, "    models:\n      - id: b1", "    stash: [lasgun, 3]\n    models:\n      - id: b1"),
			[]string{`~gangs[1].stash[1]: want a string, got 3`}},
		{"models as a mapping", edit(t, "    models:\n      - id: b1\n        kind: fighter\n        status: prone\n        secondary: pinned\n        base: 25\n", "    models: {}\n"),
			[]string{`~gangs[1].models: want a list, got a mapping`}},
		{"stats as a list", edit(t, "stats: {m: 5, ws: 4+, cl: 7+}", "stats: [5, 4]"),
			[]string{`~gangs[0].models[0].stats: want a mapping of fields, got a list`}},
		{"null model", edit(t, "  - id: b\n    name: B", "  - id: b\n    name: B\n    stash: [x]"),
			nil}, // a control: valid
		{"null list item", edit(t, "    models:\n      - id: b1", "    models:\n      - null\n      - id: b1"),
			[]string{`~gangs[1].models[0]: want a mapping of fields, got null`}},

		// Unknown fields, with did-you-mean.
		{"misspelt field", edit(t, "    models:\n      - id: a1", "    modles:\n      - id: a1"),
			[]string{`x.yaml:9:5: gangs[0].modles: unknown field; did you mean models?`}},
		{"misspelt stat", edit(t, "cl: 7+", "cool: 7+"),
			[]string{`~gangs[0].models[0].stats.cool: unknown field; did you mean cl?`}},
		{"unknown field", edit(t, "round: 1", "round: 1\n  weather: acid_rain"),
			[]string{`x.yaml:3:3: battle.weather: unknown field`}},
		{"back-pointer is not a field", edit(t, "base: 60", "base: 60\n        gang: a"),
			[]string{`~gangs[0].models[1].gang: unknown field`}},
		{"duplicate field", edit(t, "base: 60", "base: 60\n        base: 50"),
			[]string{`x.yaml:22:9: gangs[0].models[1].base: duplicate field (first given on line 21)`}},
		{"field name not a string", edit(t, "round: 1", "round: 1\n  7: x"),
			[]string{`~want a field name, got 7`}},

		// Missing required fields.
		{"missing gang id", edit(t, "  - id: b\n    name: B", "  - name: B"),
			[]string{`x.yaml:22:5: gangs[1].id: required field is missing (a unique id, e.g. goliath_leader)`}},
		{"missing model id", edit(t, "      - id: v1\n", "      - name: V\n"),
			[]string{`~gangs[0].models[1].id: required field is missing`}},
		{"missing kind", edit(t, "        kind: vehicle\n", ""),
			[]string{`~gangs[0].models[1].kind: required field is missing (fighter or vehicle)`}},
		{"missing status", edit(t, "        status: mobile\n", ""),
			[]string{`~gangs[0].models[1].status: required field is missing`}},
		{"null status", edit(t, "status: mobile", "status: ~"),
			[]string{`~gangs[0].models[1].status: required field is missing`}},
		{"missing base", edit(t, "        base: 60\n", ""),
			[]string{`x.yaml:18:9: gangs[0].models[1].base: required field is missing (every model needs its base diameter in millimetres, e.g. 25 or 32)`}},

		// Duplicate ids and references.
		{"duplicate gang id", edit(t, "  - id: b\n", "  - id: a\n"),
			[]string{`x.yaml:22:5: gangs[1].id: duplicate gang id "a" (also gangs[0])`}},
		{"duplicate model id across gangs", edit(t, "      - id: b1", "      - id: a1"),
			[]string{`x.yaml:27:9: gangs[1].models[0].id: duplicate model id "a1" (also gangs[0].models[0])`}},
		{"priority names no gang", edit(t, "priority: a", "priority: c"),
			[]string{`x.yaml:3:3: battle.priority: no gang has the id "c"`}},
		{"winner names no gang", edit(t, "priority: a", "priority: a\n  winner: bb"),
			[]string{`~battle.winner: no gang has the id "bb"; did you mean b?`}},
		{"aboard no vehicle", edit(t, "secondary: active\n", "secondary: active\n        aboard: v2\n"),
			[]string{`x.yaml:14:9: gangs[0].models[0].aboard: gang "a" has no vehicle with the id "v2"; did you mean v1?`}},
		{"aboard a fighter", edit(t, "secondary: pinned\n", "secondary: pinned\n        aboard: b1\n"),
			[]string{`~gangs[1].models[0].aboard: a model cannot be aboard itself`}},
		{"aboard another gang's vehicle", edit(t, "secondary: pinned\n", "secondary: pinned\n        aboard: v1\n"),
			[]string{`~gangs[1].models[0].aboard: "v1" belongs to gang "a"; fighters ride only their own gang's vehicles`}},
		{"vehicle aboard", edit(t, "status: mobile\n", "status: mobile\n        aboard: a1\n"),
			[]string{`~gangs[0].models[1].aboard: a vehicle cannot be aboard another`}},

		// Status pairs and kinds.
		{"standing and pinned", edit(t, "secondary: active", "secondary: pinned"),
			[]string{`x.yaml:13:9: gangs[0].models[0].secondary: a fighter that is standing is active or engaged, got "pinned"`}},
		{"standing without secondary", edit(t, "        secondary: active\n", ""),
			[]string{`~gangs[0].models[0].secondary: a fighter that is standing needs a secondary status: active or engaged`}},
		{"out of action and pinned", edit(t, "status: prone", "status: out_of_action"),
			[]string{`~gangs[1].models[0].secondary: a fighter that is out of action has no secondary status, got "pinned"`}},
		{"vehicle mobile and stalled", edit(t, "status: mobile", "status: mobile\n        secondary: stalled"),
			[]string{`~gangs[0].models[1].secondary: a vehicle that is mobile has no secondary status, got "stalled"`}},
		{"vehicle stationary alone", edit(t, "status: mobile", "status: stationary"),
			[]string{`~gangs[0].models[1].secondary: a vehicle that is stationary needs a secondary status: stalled or wrecked`}},
		{"fighter status of a vehicle", edit(t, "status: mobile", "status: standing"),
			[]string{`~gangs[0].models[1].status: a vehicle's status is mobile or stationary, got "standing"`}},
		{"unknown kind", edit(t, "kind: vehicle", "kind: monster"),
			[]string{`x.yaml:19:9: gangs[0].models[1].kind: want fighter or vehicle, got "monster"`}},

		// Bounds.
		{"target number too high", edit(t, "ws: 4+", "ws: 13+"),
			[]string{`~gangs[0].models[0].stats.ws: want a target number from 1+ to 12+ (or 0 for none), got 13`}},
		{"stat too high", edit(t, "m: 5,", "m: 5, s: 25,"),
			[]string{`~gangs[0].models[0].stats.s: want 0 to 20, got 25`}},
		{"negative stat", edit(t, "m: 5,", "m: -1,"),
			[]string{`~gangs[0].models[0].stats.m: want 0 to 20, got -1`}},
		{"zero base", edit(t, "base: 60", "base: 0"),
			[]string{`~gangs[0].models[1].base: want a base diameter in millimetres, more than 0 and at most 1000, got 0`}},
		{"negative wounds", edit(t, "base: 60", "base: 60\n        wounds_lost: -1"),
			[]string{`~gangs[0].models[1].wounds_lost: want 0 to 1000000, got -1`}},
		{"negative crew", edit(t, "starting_crew: 1", "starting_crew: -1"),
			[]string{`~gangs[1].starting_crew: want 0 to 10000, got -1`}},
		{"negative eligible models", edit(t, "eligible_models: 1", "eligible_models: -3"),
			[]string{`~gangs[1].eligible_models: want 0 to 10000, got -3`}},
		{"huge xp", edit(t, "base: 60", "base: 60\n        xp: 9223372036854775807"),
			[]string{`~gangs[0].models[1].xp: want 0 to 1000000, got 9223372036854775807`}},
		{"positive ap", edit(t, "ap: -1", "ap: 1"),
			[]string{`~weapons[0].ap: want 0 or a negative AP down to -10, got 1`}},
		{"no damage with damage", edit(t, "d: 1}", "d: 2, no_damage: true}"),
			[]string{`~weapons[0].d: a weapon with no Damage (no_damage, written "-") has d 0, got 2`}},

		// Hostile and malformed input.
		{"empty file", "", []string{`x.yaml: empty file: want a mapping with battle and gangs`}},
		{"comment only", "# nothing\n", []string{`x.yaml: empty file: want a mapping with battle and gangs`}},
		{"scalar document", "hello\n", []string{`x.yaml:1:1: want a mapping of fields, got "hello"`}},
		{"invalid YAML", "battle: {round: 1\ngangs: []\n", []string{`x.yaml:2: invalid YAML: did not find expected ',' or '}'`}},
		{"tab indentation", "battle:\n\tround: 1\n", []string{`x.yaml:2: invalid YAML: found character that cannot start any token`}},
		{"binary junk", "\x00\x01\x02\xff\xfe", []string{"x.yaml:1:1: the file is binary (it contains a NUL byte); a state file is YAML or JSON text"}},
		{"invalid UTF-8", "battle:\n  scenario: \"a\xffb\"\n", []string{"x.yaml:2:15: invalid UTF-8 (byte 0xff); a state file is YAML or JSON text"}},
		{"two documents", base + "---\n" + base, []string{`x.yaml:32:1: more than one YAML document: a state file holds one`}},
		{"alias", edit(t, "  - id: b\n    name: B", "  - id: b\n    name: &n B\n    house: *n"),
			[]string{`x.yaml:24:12: aliases (*n) are not allowed in state files; write the value out`}},
		{"merge key", edit(t, "  - id: b\n    name: B", "  - id: b\n    <<: {name: B}"),
			[]string{`~merge keys (<<) are not allowed in state files`}},
		{"billion laughs", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
			[]string{`x.yaml:2:8: aliases (*a) are not allowed in state files; write the value out`}},
		{"deep nesting", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), []string{`~exceeded max depth`}},
		{"nesting deeper than the schema", edit(t, "round: 1", "round: [[[[1]]]]"),
			[]string{`~battle.round: want a whole number, got a list`}},
		{"too large", strings.Repeat("#", MaxStateBytes+1), []string{`~file too large`}},
		{"too many nodes", "[" + strings.Repeat("0,", MaxStateNodes) + "0]", []string{`~too many entries`}},
		{"too many models", manyModels(MaxModels + 1), []string{`~too many models: a state may hold at most 10000`}},
		{"too many problems", manyProblems(200), nil},
		{"control characters", "battle:\n  phase: \"\x07\"\n", []string{"x.yaml:2:11: a control character (U+0007); a state file is YAML or JSON text"}},
	}
}

// manyModels is a state with n models (all valid).
func manyModels(n int) string {
	var b strings.Builder
	b.WriteString("battle: {round: 1}\ngangs:\n  - id: a\n    name: A\n    starting_crew: 1\n    eligible_models: 1\n    models:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      - {id: m%d, kind: fighter, status: standing, secondary: active, base: 25}\n", i)
	}
	return b.String()
}

// manyProblems is a state with n unknown fields.
func manyProblems(n int) string {
	var b strings.Builder
	b.WriteString("battle:\n  round: 1\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  junk%d: 1\n", i)
	}
	b.WriteString("gangs: []\n")
	return b.String()
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range errorCases(t) {
		t.Run(c.name, func(t *testing.T) {
			st, err := DecodeWith("x.yaml", []byte(c.input), testVocabulary)
			if c.want == nil && c.name != "too many problems" {
				if err != nil {
					t.Fatalf("want no error, got:\n%v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error, got none")
			}
			if st != nil {
				t.Errorf("want no state with an error")
			}
			var ds diag.Diagnostics
			if !errors.As(err, &ds) {
				t.Fatalf("want diag.Diagnostics, got %T: %v", err, err)
			}
			for _, d := range ds {
				if !strings.HasPrefix(d.Code, "state_") || d.Code == diag.CodeStateInternal || d.Severity != diag.Error {
					t.Errorf("%v: code %q", d, d.Code)
				}
			}
			if c.name == "too many problems" {
				if len(ds) != MaxProblems+1 || ds[MaxProblems].Summary != "too many problems; stopping here" || ds[MaxProblems].Code != diag.CodeStateLimit {
					t.Fatalf("want %d problems and a last line; got %d:\n%v", MaxProblems, len(ds), err)
				}
				return
			}
			lines := strings.Split(err.Error(), "\n")
			for _, w := range c.want {
				found := false
				for _, l := range lines {
					if sub, ok := strings.CutPrefix(w, "~"); ok && strings.Contains(l, sub) || l == w {
						found = true
					}
				}
				if !found {
					t.Errorf("error lacks %q; got:\n%v", w, err)
				}
			}
		})
	}
}

// TestDecodeWithoutVocabulary: with no rules, a state's words are not
// checked, but its references still are.
func TestDecodeWithoutVocabulary(t *testing.T) {
	for _, c := range []errorCase{
		{"unknown kind", edit(t, "kind: vehicle", "kind: monster"), nil},
		{"any status pair", edit(t, "secondary: active", "secondary: pinned"), nil},
		{"no secondary", edit(t, "        secondary: active\n", ""), nil},
		{"fighter aboard a fighter", edit(t, "secondary: active\n", "secondary: active\n        aboard: b1\n"), nil},
		{"missing kind", edit(t, "        kind: vehicle\n", ""),
			[]string{`x.yaml:18:9: gangs[0].models[1].kind: required field is missing`}},
		{"aboard no model", edit(t, "secondary: active\n", "secondary: active\n        aboard: v2\n"),
			[]string{`x.yaml:14:9: gangs[0].models[0].aboard: no model has the id "v2"; did you mean v1?`}},
		{"aboard itself", edit(t, "secondary: pinned\n", "secondary: pinned\n        aboard: b1\n"),
			[]string{`~gangs[1].models[0].aboard: a model cannot be aboard itself`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode("x.yaml", []byte(c.input))
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			if !slices.Equal(got, c.want) && !(len(got) == 1 && len(c.want) == 1 && strings.HasPrefix(c.want[0], "~") && strings.Contains(got[0], c.want[0][1:])) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	// A vocabulary with no kinds says nothing about them either.
	if _, err := DecodeWith("x.yaml", []byte(edit(t, "kind: vehicle", "kind: monster")), &Vocabulary{}); err != nil {
		t.Errorf("an empty vocabulary: %v", err)
	}
}

// Each problem reads file:line:col: path: message, leaving out what is
// not known; its subject points into the file.
func TestStateErrorFormat(t *testing.T) {
	src := "battle:\n  round: 1\ngangs:\n  - id: g\n    modles: []\n"
	_, err := Decode("states/x.yaml", []byte(src))
	var ds diag.Diagnostics
	if !errors.As(err, &ds) || len(ds) != 1 {
		t.Fatalf("want 1 problem, got %v", err)
	}
	if got := ds[0].Error(); got != "states/x.yaml:5:5: gangs[0].modles: unknown field; did you mean models?" {
		t.Errorf("got %q", got)
	}
	if d := ds[0]; d.Code != diag.CodeStateUnknownField || d.Path != "gangs[0].modles" || d.Summary != "unknown field; did you mean models?" ||
		d.Subject.Start.Offset != strings.Index(src, "modles") {
		t.Errorf("got %+v %+v", d, d.Subject)
	}
	// A problem Validate finds is placed in the file too.
	_, err = Decode("states/x.yaml", []byte("battle:\n  round: 1\n  priority: nobody\ngangs: []\n"))
	if err == nil || err.Error() != `states/x.yaml:3:3: battle.priority: no gang has the id "nobody"` {
		t.Errorf("got %v", err)
	}
	_, err = Decode("states/y.yaml", []byte("battle: {round: 1}\ngangs: [{id: g\n"))
	if err == nil || err.Error() != "states/y.yaml:2: invalid YAML: did not find expected ',' or '}'" {
		t.Errorf("a line without a column: got %v", err)
	}
	if got := Validate(&State{Battle: Battle{Round: -1}}).Error(); got != "battle.round: want 0 to 1000000, got -1" {
		t.Errorf("no file: got %q", got)
	}
}

// Each kind of problem has a code of its own.
func TestStateErrorCodes(t *testing.T) {
	for _, c := range []struct {
		src, code string
	}{
		{"battle: {round: 1}\ngangs: [{id: g\n", diag.CodeStateSyntax},
		{"", diag.CodeStateSyntax},
		{"battle: {round: 1}\ngangs: []\nweather: rain\n", diag.CodeStateUnknownField},
		{"battle: {round: 1}\ngangs: [{name: G}]\n", diag.CodeStateMissingField},
		{"battle: {round: 1, round: 2}\ngangs: []\n", diag.CodeStateDuplicateField},
		{"battle: {round: one}\ngangs: []\n", diag.CodeStateType},
		{"battle: {round: -1}\ngangs: []\n", diag.CodeStateValue},
		{"battle: {round: 1, priority: x}\ngangs: []\n", diag.CodeStateReference},
		{"battle: {round: 1}\ngangs: [{id: g}, {id: g}]\n", diag.CodeStateDuplicateID},
		{manyProblems(200), diag.CodeStateLimit},
	} {
		_, err := Decode("s.yaml", []byte(c.src))
		var ds diag.Diagnostics
		if !errors.As(err, &ds) {
			t.Errorf("%q: want diagnostics, got %v", c.src, err)
			continue
		}
		found := false
		for _, d := range ds {
			found = found || d.Code == c.code
		}
		if !found {
			t.Errorf("%q: want a %s problem, got %v", c.src, c.code, err)
		}
	}
}

// TestValidateInMemory checks Validate on states built in code, which have
// no lines and may lack back-pointers.
func TestValidateInMemory(t *testing.T) {
	st := &State{Gangs: []*Gang{
		{ID: "a", Models: []*Model{
			{ID: "a1", Kind: "fighter", Status: "standing", Secondary: "active", Base: 25},
			nil,
		}},
		nil,
	}}
	err := Validate(st)
	want := "gangs[0].models[1]: want a model, got null\ngangs[1]: want a gang, got null"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want\n%s", err, want)
	}
	if err := Validate(nil); err == nil {
		t.Error("nil state validated")
	}
	st.Gangs = st.Gangs[:1]
	st.Gangs[0].Models = st.Gangs[0].Models[:1]
	if err := Validate(st); err != nil {
		t.Error(err)
	}
	st.Gangs[0].Models[0].X = nanValue()
	if err := Validate(st); err == nil || !strings.Contains(err.Error(), "gangs[0].models[0].x: want a position in inches, got NaN") {
		t.Errorf("NaN position: %v", err)
	}
}

func nanValue() float64 {
	var zero float64
	return zero / zero
}

// TestNumberForms checks every way the rulebook writes a number.
func TestNumberForms(t *testing.T) {
	cases := []struct {
		stats, weapon string
		check         func(*Model) bool
	}{
		{`m: 5"`, ``, func(m *Model) bool { return m.Stats.M == 5 }},
		{`m: '5"'`, ``, func(m *Model) bool { return m.Stats.M == 5 }},
		{`m: 5`, ``, func(m *Model) bool { return m.Stats.M == 5 }},
		{`ws: "3+"`, ``, func(m *Model) bool { return m.Stats.WS == 3 }},
		{`ws: 3+`, ``, func(m *Model) bool { return m.Stats.WS == 3 }},
		{`ws: 3`, ``, func(m *Model) bool { return m.Stats.WS == 3 }},
		{`ld: 10+`, ``, func(m *Model) bool { return m.Stats.Ld == 10 }},
		{`s: 0x4`, ``, func(m *Model) bool { return m.Stats.S == 4 }},
		{`s: 010`, ``, func(m *Model) bool { return m.Stats.S == 10 }},
		{`w: 2.0`, ``, func(m *Model) bool { return m.Stats.W == 2 }},
		{``, `s: "S+1"`, func(m *Model) bool { w := m.Weapons[0]; return w.UserStrength && w.S == 1 }},
		{``, `s: S-1`, func(m *Model) bool { w := m.Weapons[0]; return w.UserStrength && w.S == -1 }},
		{``, `s: S`, func(m *Model) bool { w := m.Weapons[0]; return w.UserStrength && w.S == 0 }},
		{``, `s: 1, user_strength: true`, func(m *Model) bool { w := m.Weapons[0]; return w.UserStrength && w.S == 1 }},
		{``, `s: S+1, user_strength: false`, func(m *Model) bool { w := m.Weapons[0]; return w.UserStrength && w.S == 1 }},
		{``, `s: 4`, func(m *Model) bool { w := m.Weapons[0]; return !w.UserStrength && w.S == 4 }},
		{``, `ap: "-"`, func(m *Model) bool { return m.Weapons[0].AP == 0 }},
		{``, `ap: "–"`, func(m *Model) bool { return m.Weapons[0].AP == 0 }},
		{``, `ap: "−2"`, func(m *Model) bool { return m.Weapons[0].AP == -2 }},
		{``, `ap: -1`, func(m *Model) bool { return m.Weapons[0].AP == -1 }},
		{``, `d: "-"`, func(m *Model) bool { w := m.Weapons[0]; return w.NoDamage && w.D == 0 }},
		{``, `d: 2`, func(m *Model) bool { w := m.Weapons[0]; return !w.NoDamage && w.D == 2 }},
		{``, `am: "4+"`, func(m *Model) bool { return m.Weapons[0].Am == 4 }},
		{``, `am: 4`, func(m *Model) bool { return m.Weapons[0].Am == 4 }},
		{``, `acc_short: "+1", acc_long: -1`, func(m *Model) bool { w := m.Weapons[0]; return w.AccShort == 1 && w.AccLong == -1 }},
		{``, `acc_short: +1, acc_long: "-"`, func(m *Model) bool { w := m.Weapons[0]; return w.AccShort == 1 && w.AccLong == 0 }},
		{``, `range_short: 8", range_long: '24"'`, func(m *Model) bool { w := m.Weapons[0]; return w.RangeShort == 8 && w.RangeLong == 24 }},
	}
	for _, c := range cases {
		src := base
		if c.stats != "" {
			src = edit(t, "stats: {m: 5, ws: 4+, cl: 7+}", "stats: {"+c.stats+"}")
		}
		if c.weapon != "" {
			src = edit(t, "{id: knife, name: Knife, s: S, ap: -1, d: 1}", "{id: knife, name: Knife, "+c.weapon+"}")
		}
		st, err := Decode("x.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s%s: %v", c.stats, c.weapon, err)
			continue
		}
		if !c.check(st.Model("a1")) {
			t.Errorf("%s%s: got stats %+v weapon %+v", c.stats, c.weapon, st.Model("a1").Stats, *st.Model("a1").Weapons[0])
		}
	}
}

// TestJSON reads JSON, including what YAML parsers find hard: tabs, "\/"
// and surrogate pairs, and what encoding/json writes.
func TestJSON(t *testing.T) {
	src := "{\n\t\"battle\": {\"round\": 1, \"scenario\": \"a\\/b \\ud83d\\ude00 \\u00e9\"},\n\t\"gangs\": [{\"id\": \"g\", \"name\": \"G\", \"starting_crew\": 0, \"eligible_models\": 0, \"models\": [\n\t\t{\"id\": \"m\", \"kind\": \"fighter\", \"status\": \"standing\", \"secondary\": \"active\", \"stats\": {\"ws\": \"4+\", \"m\": 5}, \"base\": 25}]}]\n}\n"
	st, err := Decode("x.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Battle.Scenario; got != "a/b 😀 é" {
		t.Errorf("scenario %q", got)
	}
	// What encoding/json writes of a state reads back the same.
	for _, f := range exampleFiles(t) {
		st := mustDecode(t, f)
		data, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(f+".json", data)
		if err != nil {
			t.Fatalf("%s via encoding/json: %v", f, err)
		}
		if !reflect.DeepEqual(st, back) {
			t.Errorf("%s via encoding/json: states differ", f)
		}
	}
}

func exampleFiles(t testing.TB) []string {
	files, err := filepath.Glob("../../testdata/states/*.yaml")
	if err != nil || len(files) < 3 {
		t.Fatalf("example states: %v %v", files, err)
	}
	return files
}

func mustDecode(t testing.TB, path string) *State {
	t.Helper()
	st, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestExamples checks the example states read, and what they are for.
func TestExamples(t *testing.T) {
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("# ")) {
			t.Errorf("%s: want a comment header saying what it is for", f)
		}
		mustDecode(t, f)
	}

	st := mustDecode(t, "../../testdata/states/goliaths-vs-eschers.yaml")
	count := map[string]int{}
	for _, g := range st.Gangs {
		if n := len(g.Models); n < 8 || n > 10 {
			t.Errorf("%s has %d models, want 8 to 10", g.ID, n)
		}
		for _, m := range g.Models {
			count[m.Status+"/"+m.Secondary]++
			if slices.Contains(m.Conditions, "broken") {
				count["broken"]++
			}
		}
	}
	for _, k := range []string{"prone/seriously_injured", "prone/pinned", "standing/engaged", "standing/active"} {
		if count[k] == 0 {
			t.Errorf("goliaths-vs-eschers: no %s model", k)
		}
	}
	if count["out_of_action/"] != 1 || count["broken"] != 1 {
		t.Errorf("goliaths-vs-eschers: want one Out of Action and one Broken, got %v", count)
	}
	vorst := st.Model("vorst")
	if vorst.Type != "Goliath Forge Tyrant" || !slices.Contains(vorst.Rules, "gang_hierarchy_leader") || vorst.Stats.WS != 2 || vorst.Stats.M != 4 {
		t.Errorf("vorst: %+v", vorst)
	}
	if w := st.Model("sabine").Weapons[1]; w.Name != "Needle pistol" || !w.NoDamage || w.Am != 4 || w.AccShort != 2 {
		t.Errorf("needle pistol: %+v", w)
	}

	st = mustDecode(t, "../../testdata/states/vehicles.yaml")
	var stalled, mobile, aboard int
	for _, m := range st.Gangs[0].Models {
		switch {
		case m.Kind == "vehicle" && m.Status == "stationary" && m.Secondary == "stalled":
			stalled++
		case m.Kind == "vehicle" && m.Status == "mobile" && m.FleshWounds > 0:
			mobile++
		case m.Aboard != "":
			aboard++
		}
	}
	if stalled != 1 || mobile != 1 || aboard == 0 {
		t.Errorf("vehicles: stalled %d, mobile with a flesh wound %d, aboard %d", stalled, mobile, aboard)
	}

	st = mustDecode(t, "../../testdata/states/reinforcements.yaml")
	if !slices.Contains(st.Battle.Rules, "reinforcements") {
		t.Error("reinforcements: battle.rules lacks reinforcements")
	}
	if g := st.Gangs[0]; g.EligibleModels <= g.StartingCrew {
		t.Errorf("reinforcements: eligible_models %d, starting_crew %d", g.EligibleModels, g.StartingCrew)
	}
}

// TestSchema checks the reader knows every field of the state, and that the
// target-number tags agree with the core ruleset's characteristics.
func TestSchema(t *testing.T) {
	for _, si := range []*structInfo{stateSchema, battleSchema, markerSchema, gangSchema, modelSchema, statsSchema, weaponSchema, armourSchema} {
		if si.typ.NumField() > maxFields {
			t.Errorf("%s has more than %d fields", si.typ, maxFields)
		}
		for _, f := range si.fields {
			if f.kind == kindUnsupported {
				t.Errorf("%s.%s: the state reader does not support its type", si.typ, f.goName)
			}
		}
	}
	src, err := os.ReadFile("../../rulesets/core-2023/characteristics.munda")
	if err != nil {
		t.Skip(err)
	}
	ruleset := map[string]bool{}
	for _, block := range strings.Split(string(src), "\ncharacteristic ")[1:] {
		name, _, _ := strings.Cut(block, " ")
		body, _, _ := strings.Cut(block, "\n}")
		ruleset[name] = strings.Contains(body, "\n  target\n")
	}
	for _, f := range statsSchema.fields {
		target, ok := ruleset[f.name]
		if !ok {
			t.Errorf("stats.%s: not a characteristic of the core ruleset", f.name)
		} else if target != (f.format == formatTarget) {
			t.Errorf("stats.%s: the ruleset says target=%v, the state tag says %v", f.name, target, f.format == formatTarget)
		}
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.json": "json", "a.JSON": "json", "a.yaml": "yaml", "a.yml": "yaml", "a": "yaml", "json": "yaml"} {
		if got := FormatOf(path); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", path, got, want)
		}
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDocExample checks the complete example in docs/state-format.md reads,
// and that the document mentions, and the example uses, every field.
func TestDocExample(t *testing.T) {
	doc := string(mustRead(t, "../../docs/state-format.md"))
	_, rest, ok := strings.Cut(doc, "## A complete example")
	if !ok {
		t.Fatal("no complete example")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	example, _, _ := strings.Cut(rest, "```")
	if _, err := Decode("docs/state-format.md", []byte(example)); err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(example), &root); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				keys[c.Value] = true
			}
			walk(c)
		}
	}
	walk(&root)
	for _, si := range []*structInfo{stateSchema, battleSchema, markerSchema, gangSchema, modelSchema, statsSchema, weaponSchema, armourSchema} {
		for _, f := range si.fields {
			if !strings.Contains(doc, "`"+f.name+"`") {
				t.Errorf("docs/state-format.md does not describe %s.%s", si.typ.Name(), f.name)
			}
			if !keys[f.name] {
				t.Errorf("the complete example does not use %s.%s", si.typ.Name(), f.name)
			}
		}
	}
}

// TestYAMLErrorLines checks the line given for each kind of YAML syntax
// error is the file's line, whatever yaml.v3 counts from.
func TestYAMLErrorLines(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"flow mapping left open (parser)", "battle:\n  round: 1\ngangs: {a: 1\n", 3, "did not find expected ',' or '}'"},
		{"flow sequence left open (parser)", "battle: {round: 1}\ngangs: [1, 2\nx: 1\n", 2, "did not find expected ',' or ']'"},
		{"bad key on line 2 (parser)", "battle: {round: 1}\n  - x\n", 2, "did not find expected key"},
		{"tab indentation (scanner)", "battle:\n  round: 1\ngangs:\n\t- id: g\n", 4, "found character that cannot start any token"},
		{"mapping value on line 1 (scanner)", "battle: round: 1\n", 1, "mapping values are not allowed in this context"},
		// Opened on line 1, which yaml.v3 does not report: the end of the file, where the parser gave up.
		{"flow mapping left open on line 1 (parser)", "{a: 1\n", 2, "did not find expected ',' or '}'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode("s.yaml", []byte(c.src))
			var ds diag.Diagnostics
			if !errors.As(err, &ds) || len(ds) != 1 {
				t.Fatalf("got %v, want one problem", err)
			}
			p := ds[0]
			if p.Subject.Start.Line != c.line || p.Summary != "invalid YAML: "+c.msg || p.Code != diag.CodeStateSyntax {
				t.Errorf("got line %d %q, want line %d %q", p.Subject.Start.Line, p.Summary, c.line, "invalid YAML: "+c.msg)
			}
		})
	}
}

func TestControlCharacters(t *testing.T) {
	_, err := Decode("s.yaml", []byte("battle:\n  round: 1\x01\n"))
	if err == nil || !strings.Contains(err.Error(), "s.yaml:2:11: a control character (U+0001)") {
		t.Errorf("got %v", err)
	}
	if _, err := Decode("s.yaml", []byte("battle:\r\n\tround: 1\n")); err != nil && strings.Contains(err.Error(), "control") {
		t.Errorf("tab and CR are text: %v", err)
	}
}
