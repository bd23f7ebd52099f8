package yaktribe

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
)

const mappingSample = `
kind: fighter
base: 32
statuses:
  Alive: {status: standing, secondary: active}
categories:
  - {category: leader, rules: [gang_hierarchy_leader], types: [Forge Tyrant]}
  - {category: ganger, types: [Ganger]}
skills: {feature: skill, aliases: {"Steel Nerves": nerves_of_steel}}
injuries: {table: lasting_injury}
`

func TestReadMapping(t *testing.T) {
	m, diags := ReadMapping("m.yaml", []byte(mappingSample))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if m.Kind != "fighter" || m.Base != 32 || m.status("ALIVE") == nil || m.status("Dead") != nil {
		t.Errorf("mapping %+v", m)
	}
	for typ, want := range map[string]string{"Goliath Forge Tyrant": "leader", "forge-tyrant": "leader", "Goliath Ganger (Heavy)": "ganger", "Tyrant": "", "Gangers": ""} {
		got := ""
		if c := m.category(typ); c != nil {
			got = c.Category
		}
		if got != want {
			t.Errorf("category of %q: %q, want %q", typ, got, want)
		}
	}
	if m.Skills.Aliases["steel_nerves"] != "nerves_of_steel" {
		t.Errorf("aliases %v", m.Skills.Aliases)
	}
	cases := []struct{ src, want string }{
		{"kind: fighter", `m.yaml:1:1: base: required field is missing`},
		{mappingSample + "colour: red\n", `colour: unknown field`},
		{strings.Replace(mappingSample, "status: standing, ", "", 1), `statuses.Alive.status: a roster status needs the model status it stands for`},
		{strings.Replace(mappingSample, "secondary: active", "secondary: [active]", 1), `statuses.Alive.secondary: want a string, got a list`},
		{strings.Replace(mappingSample, "base: 32", "base: 0", 1), `base: want a number from 1 to 1000, got 0`},
		{strings.Replace(mappingSample, ", types: [Ganger]", "", 1), `categories[1]: a category needs its category and the types`},
		{strings.Replace(mappingSample, "table: lasting_injury", "tabel: lasting_injury", 1), `injuries.tabel: unknown field; did you mean table?`},
		{"a: [", `invalid YAML`},
	}
	for _, c := range cases {
		m, diags := ReadMapping("m.yaml", []byte(c.src))
		if m != nil || len(diags) == 0 || !strings.Contains(diags.Error(), c.want) || diags[0].Code != diag.CodeImportMapping {
			t.Errorf("%q:\n got %v\nwant %s", c.src, diags, c.want)
		}
	}
}

// TestRuleNames checks a mapping against the rules: its kind, statuses,
// feature, table and aliases must be theirs.
func TestRuleNames(t *testing.T) {
	rules, diags := rulesets.LoadShared(rulesets.Selection{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, _ := ReadMapping("m.yaml", []byte(mappingSample))
	skills, injuries, diags := RuleNames(rules.Index, m)
	if diags.HasErrors() || len(skills) < 100 || len(injuries) < 15 {
		t.Fatalf("%d skills, %d injuries: %v", len(skills), len(injuries), diags)
	}
	if skills[0].ID > skills[1].ID || injuries[0].Title == "" {
		t.Errorf("names unsorted or untitled: %v %v", skills[:2], injuries[0])
	}
	cases := []struct{ edit, want string }{
		{"kind: vehicle\n", `statuses.Alive: a vehicle's status is mobile or stationary, got "standing"`},
		{"kind: mount\n", `kind: the rules have no kind of model "mount"`},
		{"statuses:\n  Alive: {status: prone, secondary: active}\n", `statuses.Alive: a fighter that is prone is pinned or seriously_injured, got "active"`},
		{"skills: {feature: skil}\n", `skills.feature: the rules have no feature of kind "skil"`},
		{"injuries: {table: lasting_injuries}\n", `injuries.table: the rules have no table "lasting_injuries"; did you mean lasting_injury?`},
		{"injuries: {table: lasting_injury, aliases: {Deaf: deafness}}\n", `injuries.aliases: alias deaf names deafness, which the rules do not have`},
	}
	for _, c := range cases {
		src := mappingSample
		key, _, _ := strings.Cut(c.edit, ":")
		var kept []string
		skip := false
		for _, line := range strings.Split(src, "\n") {
			switch {
			case strings.HasPrefix(line, key+":"):
				skip = true
				continue
			case skip && strings.HasPrefix(line, " "):
				continue
			}
			skip = false
			kept = append(kept, line)
		}
		m, diags := ReadMapping("m.yaml", []byte(strings.Join(kept, "\n")+c.edit))
		if diags.HasErrors() {
			t.Fatalf("%s: %v", c.edit, diags)
		}
		_, _, diags = RuleNames(rules.Index, m)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.edit, diags, c.want)
		}
	}
}
