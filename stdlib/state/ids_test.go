package state

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
)

// TestUnknownIDs: a state's skills, powers, conditions and traits are
// checked against the ids the rules declare, with a did-you-mean; an
// error unless unknown ids are allowed, then a warning.
func TestUnknownIDs(t *testing.T) {
	const src = `gangs:
  - id: g
    models:
      - {id: f, kind: fighter, status: standing, x: 0, y: 0, base: 25,
         skills: [unstopable, nerves_of_steel], conditions: [brokn],
         weapons: [{id: w, name: W, traits: ["rapid_fire(2)", plentyful]}]}
`
	voc := &Vocabulary{IDs: map[string][]string{
		"skill":     {"nerves_of_steel", "unstoppable"},
		"condition": {"broken"},
		"trait":     {"plentiful", "rapid_fire"},
	}}
	want := []string{
		`x.yaml:5:62: gangs[0].models[0].conditions[0]: the rules have no condition "brokn"; did you mean broken?`,
		`x.yaml:5:19: gangs[0].models[0].skills[0]: the rules have no skill "unstopable"; did you mean unstoppable?`,
		`x.yaml:6:63: gangs[0].models[0].weapons[0].traits[1]: the rules have no trait "plentyful"; did you mean plentiful?`,
	}
	_, err := DecodeWith("x.yaml", []byte(src), voc)
	if err == nil {
		t.Fatal("unknown ids were accepted")
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	allow := *voc
	allow.AllowUnknown = true
	st, err := DecodeWith("x.yaml", []byte(src), &allow)
	if err != nil {
		t.Fatalf("with AllowUnknown: %v", err)
	}
	warns := UnknownIDs(st, &allow)
	Locate("x.yaml", []byte(src), warns)
	if len(warns) != 3 {
		t.Fatalf("got %d warnings, want 3: %v", len(warns), warns)
	}
	for i, w := range warns {
		if w.Severity != diag.Warning || w.Code != diag.CodeStateUnknownID {
			t.Errorf("warning %d: severity %v, code %s", i, w.Severity, w.Code)
		}
		if got, wantText := w.Error(), strings.Replace(want[i], ": gangs", ": warning: gangs", 1); got != wantText {
			t.Errorf("warning %d: %s, want %s", i, got, wantText)
		}
	}
	// No vocabulary, or one declaring no ids: nothing is checked.
	if _, err := DecodeWith("x.yaml", []byte(src), nil); err != nil {
		t.Errorf("no vocabulary: %v", err)
	}
}

// TestCampaignGangIDs: captured_by and enmities name gangs of a campaign,
// which need not be in the battle, but must be written as ids.
func TestCampaignGangIDs(t *testing.T) {
	for _, c := range []struct{ fields, want string }{
		{`captured_by: iron_sons, enmities: [venom-sisters, g]`, ""},
		{`captured_by: "iron sons"`, `captured_by: want a gang id (letters, digits, _ and -), got "iron sons"`},
		{`enmities: [ok, "x\ty"]`, `enmities[1]: want a gang id (letters, digits, _ and -), got "x\ty"`},
	} {
		src := "gangs:\n  - id: g\n    models:\n      - {id: f, kind: fighter, status: standing, x: 0, y: 0, base: 25, " + c.fields + "}\n"
		_, err := Decode("x.yaml", []byte(src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.fields, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.fields, err, c.want)
		}
	}
}
