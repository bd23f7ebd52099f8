package state

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// cardNode parses src, a YAML mapping, into its node.
func cardNode(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// TestDecodeCard reads profiles as a catalogue writes them: in the state's
// card notation, with its bounds, problems placed under the path given.
func TestDecodeCard(t *testing.T) {
	cases := []struct {
		src  string
		want string // the first problem, "" for none
		ok   func(w *Weapon) bool
	}{
		{`{range_short: 8", range_long: 24", acc_short: +1, acc_long: "-", s: 3, ap: "-", d: 1, am: 4+, traits: [rapid_fire(1)]}`, "",
			func(w *Weapon) bool {
				return w.RangeShort == 8 && w.RangeLong == 24 && w.AccShort == 1 && w.S == 3 && w.D == 1 && w.Am == 4 && w.Traits[0] == "rapid_fire(1)"
			}},
		{`{s: S+1, ap: -1, d: 2}`, "", func(w *Weapon) bool { return w.UserStrength && w.S == 1 && w.AP == -1 }},
		{`{s: S, d: "-"}`, "", func(w *Weapon) bool { return w.UserStrength && w.NoDamage }},
		{`{s: four, d: 1}`, `x.yaml:1:5: weapons[2].s: want a Strength like 4, "S", "S+1" or "S-1", got "four"`, nil},
		{`{s: 4, d: 1, range: 8}`, `x.yaml:1:14: weapons[2].range: unknown field`, nil},
		{`{s: 4, ap: 2, d: 1}`, `x.yaml:1:8: weapons[2].ap: want 0 or a negative AP down to -10, got 2`, nil},
		{`{s: 4, d: 1, am: 13+}`, `x.yaml:1:14: weapons[2].am: want a target number from 1+ to 12+ (or 0 for none), got 13`, nil},
		{`{no_profile: true, s: 4, d: 1}`, `x.yaml:1:2: weapons[2].no_profile: no_profile says the profile is unknown, but one is given`, nil},
		{`[s, 4]`, `x.yaml:1:1: weapons[2]: want a mapping of fields, got a list`, nil},
	}
	for _, c := range cases {
		var w Weapon
		probs := DecodeCard("x.yaml", []byte(c.src), cardNode(t, c.src), "weapons[2]", &w)
		switch {
		case c.want == "" && len(probs) > 0:
			t.Errorf("%s: %v", c.src, probs)
		case c.want != "" && (len(probs) == 0 || !strings.HasPrefix(probs[0].Error(), c.want)):
			t.Errorf("%s: got %v, want %s", c.src, probs, c.want)
		case c.ok != nil && !c.ok(&w):
			t.Errorf("%s: got %+v", c.src, w)
		}
	}
	var a Armour
	if probs := DecodeCard("x.yaml", []byte(`{save: 5+, field: true}`), cardNode(t, `{save: 5+, field: true}`), "", &a); len(probs) > 0 || a.Save != 5 || !a.Field {
		t.Errorf("armour: %+v %v", a, probs)
	}
	if probs := DecodeCard("x.yaml", []byte(`{save: 14}`), cardNode(t, `{save: 14}`), "armour[0]", &a); len(probs) == 0 || !strings.Contains(probs[0].Error(), "armour[0].save: want a target number") {
		t.Errorf("armour save 14: %v", probs)
	}
	if probs := DecodeCard("x.yaml", nil, nil, "", &a); len(probs) == 0 {
		t.Error("a nil node: no problem")
	}
	if probs := DecodeCard("x.yaml", nil, cardNode(t, `{}`), "", &Stats{}); len(probs) == 0 {
		t.Error("a *Stats: no problem")
	}
}
