package yaktribe

import (
	"fmt"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/state"
)

// ganger is one ganger of a small export; fields replace its fields or
// add more (JSON text: "ws": 3, "notes": "x").
func ganger(id, fields string) string {
	defaults := []string{`"ganger_id": "` + id + `"`, `"name": "G` + id + `"`, `"type": "Goliath Ganger"`,
		`"m": 4`, `"ws": 4`, `"bs": 5`, `"s": 3`, `"t": 4`, `"w": 1`, `"i": 5`, `"a": 1`, `"ld": 7`, `"cl": 6`, `"wil": 8`, `"int": 8`,
		`"xp": "2"`, `"kills": "1"`, `"advance_count": "0"`, `"equipment": [{"name": "Autogun", "qty": 1}]`,
		`"skills": []`, `"injuries": []`, `"status": "Alive"`}
	var own []string
	if fields != "" {
		own = splitFields(fields)
	}
	var out []string
	for _, d := range defaults {
		key, _, _ := strings.Cut(d, ":")
		replaced := false
		for _, o := range own {
			if k, _, _ := strings.Cut(o, ":"); k == key {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, d)
		}
	}
	return "{" + strings.Join(append(out, own...), ", ") + "}"
}

// splitFields splits JSON fields at the commas between them.
func splitFields(s string) []string {
	var out []string
	depth, start, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' && (i == 0 || s[i-1] != '\\'):
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// export is a gang export holding gangers.
func export(gangers ...string) string {
	return `{"gang": {"gang_id": "7", "gang_name": "Test Gang", "gang_type": "Goliath", "credits": "10", "reputation": "3", "gangers": [` + strings.Join(gangers, ", ") + `]}}`
}

// TestImportErrors: each bad export is an error (no gang) whose first
// diagnostic names the field at fault, with its code and place.
func TestImportErrors(t *testing.T) {
	cfg := shippedConfig(t)
	many := make([]string, MaxGangers+1)
	for i := range many {
		many[i] = `{}`
	}
	cases := []struct {
		name, src string
		want      string // the first diagnostic's line
		code      string
	}{
		{"empty", ``, `x.json:1:1: the file is empty: want a Yaktribe gang export (JSON)`, diag.CodeImportSyntax},
		{"not JSON", "gang:\n  gang_id: 7\n", `x.json:1:1: not JSON: a Yaktribe gang export is JSON, an object starting with {`, diag.CodeImportSyntax},
		{"HTML", `<html><body>Not found</body></html>`, `x.json:1:1: not JSON`, diag.CodeImportSyntax},
		{"truncated in a ganger", cut(export(ganger("1", "")), `"ws"`), `x.json:1:192: gang.gangers[0]: the file ends inside this object: it is cut short (a truncated download?)`, diag.CodeImportSyntax},
		{"truncated at a value", cut(export(ganger("1", "")), `4, "ws"`), `x.json:1:189: gang.gangers[0].m: the file ends where a value should be`, diag.CodeImportSyntax},
		{"truncated in a list", `{"gang": {"gang_id": "7", "gangers": [` + ganger("1", "") + `,`, `x.json:1:`, diag.CodeImportSyntax},
		{"truncated in a string", `{"gang": {"gang_name": "The Iron`, `x.json:1:33: gang.gang_name: the file ends inside a string`, diag.CodeImportSyntax},
		{"trailing comma", `{"gang": {"gang_id": "7",}}`, `x.json:1:26: gang: want a field name in quotes, got '}'`, diag.CodeImportSyntax},
		{"single quotes", `{'gang': {}}`, `x.json:1:2: want a field name in quotes, got '\''`, diag.CodeImportSyntax},
		{"two objects", `{"gang": {}} {}`, `x.json:1:14: more text after the JSON object`, diag.CodeImportSyntax},
		{"binary", "{\"gang\": \"\xff\"}", `x.json:1:11: gang: invalid UTF-8 (the byte 0xff)`, diag.CodeImportSyntax},
		{"a list", `[{"gang": {}}]`, `x.json:1:1: want a Yaktribe gang export, an object holding "gang", got a list`, diag.CodeImportShape},
		{"campaign", `{"campaign": {"campaign_id": "1", "gangs": []}}`, `x.json:1:1: campaign: this is a Yaktribe campaign file, not a gang export`, diag.CodeImportShape},
		{"another object", `{"fighters": []}`, `x.json:1:1: gang: required field is missing: want a Yaktribe gang export, an object holding "gang" (this one holds fighters)`, diag.CodeImportShape},
		{"gang not an object", `{"gang": [1]}`, `x.json:1:10: gang: want the gang, an object, got a list`, diag.CodeImportShape},
		{"no gangers", `{"gang": {"gang_id": "7", "gang_name": "G"}}`, `x.json:1:10: gang.gangers: required field is missing (the gang's members)`, diag.CodeImportMissingField},
		{"gangers not a list", `{"gang": {"gang_id": "7", "gang_name": "G", "gangers": {}}}`, `x.json:1:56: gang.gangers: want a list of gangers, got an object`, diag.CodeImportType},
		{"stat as text", export(ganger("1", `"ws": "4+"`)), `gang.gangers[0].ws: want a whole number (Yaktribe writes characteristics as numbers), got "4+"`, diag.CodeImportType},
		{"stat a fraction", export(ganger("1", `"m": 4.5`)), `gang.gangers[0].m: want a whole number, got 4.5`, diag.CodeImportType},
		{"stat out of bounds", export(ganger("1", `"ld": 13`)), `gang.gangers[0].ld: want 0 to 12, got 13`, diag.CodeImportValue},
		{"stat missing", `{"gang": {"gang_id": "7", "gang_name": "G", "gangers": [{"ganger_id": "1", "name": "A", "status": "Alive"}]}}`, `gang.gangers[0].m: required field is missing (a characteristic)`, diag.CodeImportMissingField},
		{"negative XP", export(ganger("1", `"xp": "-3"`)), `gang.gangers[0].xp: want a whole number, 0 or more (at most 1000000), got "-3"`, diag.CodeImportValue},
		{"XP as words", export(ganger("1", `"xp": "lots"`)), `gang.gangers[0].xp: want a whole number, got "lots"`, diag.CodeImportType},
		{"XP a list", export(ganger("1", `"xp": [1]`)), `gang.gangers[0].xp: want a whole number (as text, "12", or a number), got a list`, diag.CodeImportType},
		{"10,000 gangers", `{"gang": {"gang_id": "7", "gang_name": "G", "gangers": [` + strings.Repeat(`{},`, 9999) + `{}]}}`, `x.json:1:56: gang.gangers: 10000 gangers: a gang export may hold at most 1000`, diag.CodeImportLimit},
		{"duplicate ganger ids", export(ganger("1", ""), ganger("2", ""), ganger("1", "")), `gang.gangers[2].ganger_id: ganger_id "1" is also gang.gangers[0]'s: each needs its own`, diag.CodeImportDuplicate},
		{"duplicate key", strings.Replace(export(ganger("1", "")), `"ws": 4`, `"ws": 4, "ws": 3`, 1), `gang.gangers[0].ws: given twice in one object (first at x.json:1:`, diag.CodeImportDuplicate},
		{"unknown status", export(ganger("1", `"status": "Alvie"`)), `gang.gangers[0].status: want Alive, Recovery, Dead or Captured (the statuses the import mapping knows), got "Alvie"; did you mean Alive?`, diag.CodeImportValue},
		{"no ganger id", `{"gang": {"gang_id": "7", "gang_name": "G", "gangers": [{"name": "A"}]}}`, `gang.gangers[0].ganger_id: required field is missing`, diag.CodeImportMissingField},
		{"empty ganger id", export(ganger("", "")), `gang.gangers[0].ganger_id: the id is empty`, diag.CodeImportValue},
		{"ganger id a float", `{"gang": {"gang_id": 7.5, "gang_name": "G", "gangers": []}}`, `gang.gang_id: want an id (text or a whole number), got 7.5`, diag.CodeImportType},
		{"equipment not objects", export(`{"ganger_id": "1", "name": "A", "m": 4, "ws": 4, "bs": 5, "s": 3, "t": 4, "w": 1, "i": 5, "a": 1, "ld": 7, "cl": 6, "wil": 8, "int": 8, "status": "Alive", "equipment": ["Autogun"]}`), `gang.gangers[0].equipment[0]: want an item, {"name": …, "qty": …}, got "Autogun"`, diag.CodeImportType},
		{"quantity zero", export(`{"ganger_id": "1", "name": "A", "m": 4, "ws": 4, "bs": 5, "s": 3, "t": 4, "w": 1, "i": 5, "a": 1, "ld": 7, "cl": 6, "wil": 8, "int": 8, "status": "Alive", "equipment": [{"name": "Autogun", "qty": 0}]}`), `gang.gangers[0].equipment[0].qty: want 1 to 20, got 0`, diag.CodeImportValue},
		{"too deep", strings.Repeat(`{"a": `, 40) + "1" + strings.Repeat("}", 40), `a.a.a.a`, diag.CodeImportLimit},
		{"credits as words", `{"gang": {"gang_id": "7", "gang_name": "G", "credits": "many", "gangers": []}}`, `gang.credits: want a whole number, got "many"`, diag.CodeImportType},
		{"name a number", `{"gang": {"gang_id": "7", "gang_name": 12, "gangers": []}}`, `gang.gang_name: want text in quotes, got 12`, diag.CodeImportType},
	}
	for _, c := range cases {
		gang, diags := Import("x.json", []byte(c.src), cfg)
		if gang != nil || !diags.HasErrors() {
			t.Errorf("%s: imported, want an error", c.name)
			continue
		}
		first := diags[0]
		if !strings.Contains(first.Error(), c.want) || first.Code != c.code {
			t.Errorf("%s:\n got %s [%s]\nwant %s [%s]", c.name, first.Error(), first.Code, c.want, c.code)
		}
		for _, d := range diags {
			if d.Severity != diag.Error {
				t.Errorf("%s: a failed import reports a warning: %v", c.name, d)
			}
		}
	}
}

// TestImportMapping: what each part of an export becomes.
func TestImportMapping(t *testing.T) {
	cfg := shippedConfig(t)
	cases := []struct {
		name, ganger string
		check        func(m *state.Model) string // "" if right
		warning      string                      // the one warning wanted, or ""
	}{
		{"stats are target numbers", ganger("1", ""), func(m *state.Model) string {
			if s := m.Stats; s.M != 4 || s.WS != 4 || s.BS != 5 || s.S != 3 || s.T != 4 || s.W != 1 || s.I != 5 || s.A != 1 || s.Ld != 7 || s.Cl != 6 || s.Wil != 8 || s.Int != 8 {
				return fmt.Sprintf("stats %+v", s)
			}
			return ""
		}, ""},
		{"counts as text or numbers", ganger("1", `"xp": 12, "kills": "3", "advance_count": 2, "cost": "95"`), func(m *state.Model) string {
			if m.XP != 12 || m.Kills != 3 || m.Advancements != 2 || m.Cost != 95 {
				return fmt.Sprintf("xp %d kills %d advancements %d cost %d", m.XP, m.Kills, m.Advancements, m.Cost)
			}
			return ""
		}, ""},
		{"Alive", ganger("1", ""), status("standing", "active", false, false, false), ""},
		{"Recovery", ganger("1", `"status": "Recovery"`), status("standing", "active", true, false, false), ""},
		{"Dead", ganger("1", `"status": "Dead"`), status("out_of_action", "", false, true, false), ""},
		{"status in any case", ganger("1", `"status": "dead"`), status("out_of_action", "", false, true, false), ""},
		{"Captured", ganger("1", `"status": "Captured"`), status("standing", "active", false, false, true), ""},
		{"a leader", ganger("1", `"type": "Goliath Forge Tyrant"`), category("leader", "gang_hierarchy_leader"), ""},
		{"a champion", ganger("1", `"type": "Escher Gang Queen"`), category("champion", "gang_hierarchy_champion"), ""},
		{"a juve", ganger("1", `"type": "Escher Little Sister"`), category("juve", ""), ""},
		{"a type of no category", ganger("1", `"type": "Goliath Bully"`), category("", ""), ""},
		{"skills by title, id or in any case", ganger("1", `"skills": ["Nerves of Steel", "iron_will", "HIT & RUN", "Counter Attack"]`), func(m *state.Model) string {
			return want(m.Skills, "nerves_of_steel iron_will hit_and_run counter_attack")
		}, ""},
		{"an unknown skill is kept, with a did-you-mean", ganger("1", `"skills": ["Iron Wil"]`), func(m *state.Model) string {
			return want(m.Skills, "iron_wil")
		}, `gang.gangers[0].skills[0]: G1: the rules have no skill "Iron Wil": kept as iron_wil; did you mean iron_will?`},
		{"injuries by title, or an alias", ganger("1", `"injuries": ["Spinal Injury", "Deafened", "old battle wound"]`), func(m *state.Model) string {
			return want(m.LastingInjuries, "spinal_injury partially_deafened old_battle_wound")
		}, ""},
		{"an unknown injury", ganger("1", `"injuries": ["Glass Jaw"]`), func(m *state.Model) string {
			return want(m.LastingInjuries, "glass_jaw")
		}, `gang.gangers[0].injuries[0]: G1: the rules have no Lasting Injury "Glass Jaw": kept as glass_jaw`},
		{"a weapon's profile", ganger("1", ""), func(m *state.Model) string {
			if len(m.Weapons) != 1 || m.Weapons[0].ID != "autogun" || m.Weapons[0].S != 3 || m.Weapons[0].RangeLong != 24 {
				return fmt.Sprintf("weapons %v", m.Weapons)
			}
			return ""
		}, ""},
		{"two of a weapon are two weapons", ganger("1", `"equipment": [{"name": "Autopistol", "qty": 2}]`), func(m *state.Model) string {
			return weapons(m, "autopistol autopistol_2")
		}, ""},
		{"qty left out is one, and may be text", ganger("1", `"equipment": [{"name": "Autopistol"}, {"name": "Laspistol", "qty": "1"}]`), func(m *state.Model) string {
			return weapons(m, "autopistol laspistol")
		}, ""},
		{"a weapon of two profiles, spelt as Yaktribe does", ganger("1", `"equipment": [{"name": "Grenade Launcher w/Frag+Krak", "qty": 1}]`), func(m *state.Model) string {
			return weapons(m, "grenade_launcher_frag grenade_launcher_krak")
		}, ""},
		{"one profile of a weapon", ganger("1", `"equipment": [{"name": "grenade launcher (krak)", "qty": 1}]`), func(m *state.Model) string {
			return weapons(m, "grenade_launcher_krak")
		}, ""},
		{"armour, spelt American", ganger("1", `"equipment": [{"name": "Mesh Armor", "qty": 1}, {"name": "LIGHT CARAPACE", "qty": 2}]`), func(m *state.Model) string {
			if len(m.Armour) != 2 || m.Armour[0].ID != "mesh_armour" || m.Armour[0].Save != 5 || m.Armour[1].ID != "light_carapace_armour" || len(m.Weapons) != 0 {
				return fmt.Sprintf("armour %v weapons %v", m.Armour, m.Weapons)
			}
			return ""
		}, ""},
		{"wargear by name", ganger("1", `"equipment": [{"name": "Photo goggles", "qty": 1}]`), func(m *state.Model) string {
			return want(m.Wargear, "photo_goggles")
		}, ""},
		{"unknown equipment: a weapon without a profile", ganger("1", `"equipment": [{"name": "Las-cutter", "qty": 2}]`), func(m *state.Model) string {
			if len(m.Weapons) != 2 || !m.Weapons[0].NoProfile || m.Weapons[0].Name != "Las-cutter" || m.Weapons[1].ID != "las_cutter_2" {
				return fmt.Sprintf("weapons %+v", m.Weapons)
			}
			return ""
		}, `gang.gangers[0].equipment[0].name: G1: "Las-cutter" is not in the catalogue: imported as weapon las_cutter without a profile`},
		{"unknown equipment with a did-you-mean", ganger("1", `"equipment": [{"name": "Boltgn", "qty": 1}]`), func(m *state.Model) string { return weapons(m, "boltgn") },
			`"Boltgn" is not in the catalogue: imported as weapon boltgn without a profile; did you mean boltgun?`},
		{"fields Yaktribe adds are ignored", ganger("1", `"image": null, "gameStatus": [], "notes": "x", "label_id": "3"`), func(m *state.Model) string { return "" }, ""},
		{"null lists are empty", ganger("1", `"skills": null, "equipment": null`), func(m *state.Model) string { return weapons(m, "") }, ""},
	}
	for _, c := range cases {
		src := export(c.ganger)
		gang, diags := Import("x.json", []byte(src), cfg)
		if diags.HasErrors() {
			t.Errorf("%s: %v", c.name, diags)
			continue
		}
		m := gang.Models[0]
		if msg := c.check(m); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		switch {
		case c.warning == "" && len(diags) > 0:
			t.Errorf("%s: unwanted warnings: %v", c.name, diags)
		case c.warning != "" && (len(diags) != 1 || !strings.Contains(diags[0].Error(), c.warning) || diags[0].Severity != diag.Warning):
			t.Errorf("%s: got warnings %v, want %q", c.name, diags, c.warning)
		}
		if m.Gang != gang {
			t.Errorf("%s: the model's gang is not set", c.name)
		}
	}
}

// cut cuts src short before the first place of at.
func cut(src, at string) string { return src[:strings.Index(src, at)] }

func status(st, sec string, recovery, dead, captured bool) func(m *state.Model) string {
	return func(m *state.Model) string {
		if m.Status != st || m.Secondary != sec || m.InRecovery != recovery || m.Dead != dead || m.Captured != captured {
			return fmt.Sprintf("status %s/%s in_recovery %v dead %v captured %v", m.Status, m.Secondary, m.InRecovery, m.Dead, m.Captured)
		}
		return ""
	}
}

func category(cat, rule string) func(m *state.Model) string {
	return func(m *state.Model) string {
		if m.Category != cat || rule != "" && (len(m.Rules) != 1 || m.Rules[0] != rule) || rule == "" && len(m.Rules) > 0 {
			return fmt.Sprintf("category %q rules %v", m.Category, m.Rules)
		}
		return ""
	}
}

func want(got []string, want string) string {
	if strings.Join(got, " ") != want {
		return fmt.Sprintf("got %v, want %s", got, want)
	}
	return ""
}

func weapons(m *state.Model, ids string) string {
	var got []string
	for _, w := range m.Weapons {
		got = append(got, w.ID)
	}
	return want(got, ids)
}

// TestImportGang: the gang's own fields, a bare gang object and the stash.
func TestImportGang(t *testing.T) {
	cfg := shippedConfig(t)
	src := `{"gang_id": 7, "gang_name": "Bare", "gang_type": "House Orlock", "credits": 120, "reputation": "-2",
		"stash": [{"name": "Frag grenades", "qty": 2}, {"name": "Lucky charm", "qty": 1}], "gangers": [` + ganger("1", "") + `, ` + ganger("2", `"status": "Dead"`) + `]}`
	gang, diags := Import("bare.json", []byte(src), cfg)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if gang.ID != "7" || gang.Name != "Bare" || gang.House != "house_orlock" || gang.Credits != 120 || gang.Reputation != -2 {
		t.Errorf("gang %+v", gang)
	}
	if got := strings.Join(gang.Stash, " "); got != "frag_grenades frag_grenades lucky_charm" {
		t.Errorf("stash %s", got)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Error(), `bare.json:2:59: warning: stash[1].name: the stash: "Lucky charm" is not in the catalogue: kept as lucky_charm`) {
		t.Errorf("warnings %v", diags)
	}
	if gang.StartingCrew != 2 || gang.EligibleModels != 2 {
		t.Errorf("a roster counts every model until a battle lines it up: starting crew %d, eligible %d", gang.StartingCrew, gang.EligibleModels)
	}
	if _, diags := Import("x.json", []byte(export()), Config{}); !diags.HasErrors() || diags[0].Code != diag.CodeImportMapping {
		t.Errorf("no mapping: %v", diags)
	}
}
