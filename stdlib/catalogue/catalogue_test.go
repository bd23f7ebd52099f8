package catalogue

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
)

func mustRead(t *testing.T, name, src string) *File {
	t.Helper()
	f, diags := Read(name, []byte(src))
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags)
	}
	return f
}

func mustBuild(t *testing.T, layers ...[]*File) *Catalogue {
	t.Helper()
	c, diags := Build(layers...)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return c
}

const sample = `
source: "ours"
spellings: {armor: armour, w: ""}
weapons:
  - {name: Lasgun, range_short: 18", range_long: 24", acc_short: +1, acc_long: "-", s: 3, ap: "-", d: 1, am: 2+, traits: [plentiful]}
  - name: Grenade launcher
    aliases: [Nade launcher]
    profiles:
      frag: {range_short: 6", range_long: 24", s: 3, d: 1, traits: [blast(3)]}
      krak: {range_short: 6", range_long: 24", s: 6, ap: -2, d: 2}
  - {id: knife, name: Fighting knife, s: S, ap: -1, d: 1, traits: [melee], source: "the seeds"}
armour:
  - {name: Mesh armour, save: 5+}
  - {name: Refractor field, save: 5+, field: true}
wargear:
  - Photo-goggles
  - {name: Drop rig, aliases: [Droprig]}
aliases:
  Grenade launcher w/frag+krak: [grenade_launcher]
  Krak launcher: [grenade_launcher.krak]
  Kit: [lasgun, mesh_armour, photo_goggles]
`

// TestLookup finds items by name however it is written, by alias, and by
// a profile's name.
func TestLookup(t *testing.T) {
	c := mustBuild(t, []*File{mustRead(t, "c.yaml", sample)})
	cases := []struct {
		name            string
		weapons, armour string
		wargear         string
	}{
		{"Lasgun", "lasgun", "", ""},
		{"LASGUN", "lasgun", "", ""},
		{"  las-gun ", "", "", ""}, // a hyphen parts words: "las gun" is not "lasgun"
		{"Grenade launcher", "grenade_launcher_frag grenade_launcher_krak", "", ""},
		{"Grenade Launcher w/Frag+Krak", "grenade_launcher_frag grenade_launcher_krak", "", ""},
		{"Grenade launcher (krak)", "grenade_launcher_krak", "", ""},
		{"Krak launcher", "grenade_launcher_krak", "", ""},
		{"nade launcher", "grenade_launcher_frag grenade_launcher_krak", "", ""},
		{"Fighting Knife", "knife", "", ""},
		{"Mesh Armor", "", "mesh_armour", ""},
		{"Photo goggles", "", "", "photo_goggles"},
		{"droprig", "", "", "drop_rig"},
		{"Kit", "lasgun", "mesh_armour", "photo_goggles"},
	}
	for _, cs := range cases {
		f, ok := c.Lookup(cs.name)
		var w, a []string
		for _, x := range f.Weapons {
			w = append(w, x.ID)
		}
		for _, x := range f.Armour {
			a = append(a, x.ID)
		}
		got := strings.Join(w, " ") + "|" + strings.Join(a, " ") + "|" + strings.Join(f.Wargear, " ")
		want := cs.weapons + "|" + cs.armour + "|" + cs.wargear
		if got != want || ok != (want != "||") {
			t.Errorf("%q: got %s (%v), want %s", cs.name, got, ok, want)
		}
	}
	f, _ := c.Lookup("Grenade launcher")
	if w := f.Weapons[0]; w.Name != "Grenade launcher (frag)" || w.S != 3 || w.RangeLong != 24 || w.Traits[0] != "blast(3)" {
		t.Errorf("frag profile %+v", w)
	}
	f.Weapons[0].Traits[0] = "changed" // a copy
	if again, _ := c.Lookup("Grenade launcher"); again.Weapons[0].Traits[0] != "blast(3)" {
		t.Error("Lookup gives the catalogue's own profile, not a copy")
	}
	if k := c.Item("knife"); k == nil || k.Source != "the seeds" || !k.Profiles[0].UserStrength {
		t.Errorf("knife %+v", k)
	}
	if l := c.Item("lasgun"); l.Source != "ours" {
		t.Errorf("the file's source is the default: %q", l.Source)
	}
	if a := c.Item("refractor_field"); !a.Armour.Field || a.Armour.Save != 5 {
		t.Errorf("refractor %+v", a.Armour)
	}
}

// TestLayers: a user's catalogue replaces the shipped item of its id, and
// takes its names; the shipped aliases then find the user's item.
func TestLayers(t *testing.T) {
	shipped := mustRead(t, "shipped.yaml", sample)
	mine := mustRead(t, "mine.yaml", `
weapons:
  - {name: Lasgun, range_short: 12", range_long: 24", s: 4, d: 1}
  - {name: Las-cutter, s: 5, d: 2}
`)
	c := mustBuild(t, []*File{shipped}, []*File{mine})
	f, _ := c.Lookup("Kit")
	if len(f.Weapons) != 1 || f.Weapons[0].S != 4 {
		t.Errorf("the shipped alias finds %+v, want the user's lasgun", f.Weapons)
	}
	if _, ok := c.Lookup("Las-cutter"); !ok {
		t.Error("the user's new weapon is not found")
	}
	if n := len(c.Items()); n != 8 {
		t.Errorf("%d items, want 8 (7 shipped, 1 new; the lasgun replaced)", n)
	}
}

// TestReadErrors: each bad file is an error at its place, naming the
// field.
func TestReadErrors(t *testing.T) {
	cases := []struct{ src, want, code string }{
		{"weapons: [", `x.yaml:2: invalid YAML: did not find expected node content`, diag.CodeCatalogueSyntax},
		{"", `x.yaml: the file is empty`, diag.CodeCatalogueSyntax},
		{"a: &x 1\nb: *x\n", `x.yaml:2:4: aliases (*x) are not allowed`, diag.CodeCatalogueSyntax},
		{"weapns: []", `x.yaml:1:1: weapns: unknown field; did you mean weapons?`, diag.CodeCatalogueEntry},
		{"weapons: {a: 1}", `x.yaml:1:10: weapons: want a list, got a mapping`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {s: 3, d: 1}", `x.yaml:2:5: weapons[0].name: every item needs a name`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, s: three, d: 1}", `x.yaml:2:20: weapons[0].s: want a Strength like 4, "S", "S+1" or "S-1", got "three"`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, s: 3, d: 1, range: 8}", `x.yaml:2:29: weapons[0].range: unknown field`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, s: 3, ap: 1, d: 1}", `x.yaml:2:23: weapons[0].ap: want 0 or a negative AP down to -10, got 1`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun}", `x.yaml:2:5: weapons[0]: a weapon needs its profile: at least s and d`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, s: 3, d: 1, profiles: {a: {s: 1, d: 1}, b: {s: 2, d: 1}}}", `a weapon has one profile written beside its name, or several under profiles, not both`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, profiles: {a: {s: 1, d: 1}}}", `weapons[0].profiles: want 2 to 16 profiles`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, profiles: {a: {s: 1, d: 1}, b: {}}}", `x.yaml:2:48: weapons[0].profiles.b: a weapon needs its profile: at least s and d`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, profiles: {a: {s: 1, d: 1}, b: {s: ~}}}", `weapons[0].profiles.b: a weapon needs its profile: at least s and d`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, s: ~, d: ~}", `weapons[0]: a weapon needs its profile: at least s and d`, diag.CodeCatalogueEntry},
		{"weapons:\n  - {name: Gun, profiles: {a: {s: 1, d: 1}, b: {s: 2, d: 1, damaged: true}}}", `weapons[0].profiles.b.damaged: unknown field`, diag.CodeCatalogueEntry},
		{"armour:\n  - {name: Mesh}", `x.yaml:2:5: armour[0].save: armour needs its save, e.g. save: 5+`, diag.CodeCatalogueEntry},
		{"armour:\n  - {name: Mesh, save: 13+}", `armour[0].save: want a target number from 1+ to 12+`, diag.CodeCatalogueEntry},
		{"wargear:\n  - {name: '!!!'}", `wargear[0].id: want an id of lower-case letters, digits and _, got ""`, diag.CodeCatalogueEntry},
		{"wargear:\n  - {name: Kit, id: Big Kit}", `wargear[0].id: want an id of lower-case letters, digits and _, got "Big Kit"`, diag.CodeCatalogueEntry},
		{"spellings: {two words: one}", `spellings."two words": a spelling maps one word to one word`, diag.CodeCatalogueEntry},
		{"aliases: {A: []}", `aliases.A: an alias names at least one item`, diag.CodeCatalogueEntry},
		{"wargear: [Kit]\nwargear: [Rig]", `x.yaml:2:1: wargear: given twice (first on line 1)`, diag.CodeCatalogueEntry},
	}
	for _, c := range cases {
		f, diags := Read("x.yaml", []byte(c.src))
		if f != nil || len(diags) == 0 {
			t.Errorf("%q: read, want an error", c.src)
			continue
		}
		if !strings.Contains(diags[0].Error(), c.want) || diags[0].Code != c.code {
			t.Errorf("%q:\n got %v [%s]\nwant %s [%s]", c.src, diags[0], diags[0].Code, c.want, c.code)
		}
	}
}

// TestBuildErrors: names given twice in a layer, aliases naming nothing.
func TestBuildErrors(t *testing.T) {
	cases := []struct {
		files []string
		want  string
		code  string
	}{
		{[]string{"wargear: [Kit, Kit]"}, `wargear "Kit" has the id kit, as wargear "Kit" has`, diag.CodeCatalogueDuplicate},
		{[]string{"wargear: [Kit]", "wargear: [{name: KIT, id: kit2}]"}, `the name "KIT" of wargear kit2 is already a name of wargear kit`, diag.CodeCatalogueDuplicate},
		{[]string{"wargear: [Kit]\naliases: {Kit: [kit]}"}, `alias "Kit" is already a name of wargear kit`, diag.CodeCatalogueDuplicate},
		{[]string{"wargear: [Kit]\naliases: {Bag: [kitt]}"}, `alias "Bag" names kitt, which is the id of no item; did you mean kit?`, diag.CodeCatalogueReference},
		{[]string{"wargear: [Kit]\naliases: {Bag: [kit.red]}"}, `alias "Bag" names profile red of kit, which has no profile of that name`, diag.CodeCatalogueReference},
	}
	for _, c := range cases {
		var files []*File
		for i, src := range c.files {
			files = append(files, mustRead(t, "f"+string(rune('0'+i))+".yaml", src))
		}
		_, diags := Build(files)
		if len(diags) == 0 || !strings.Contains(diags[0].Error(), c.want) || diags[0].Code != c.code {
			t.Errorf("%q:\n got %v\nwant %s [%s]", c.files, diags, c.want, c.code)
		}
	}
}

func TestKeyAndSlug(t *testing.T) {
	c := mustBuild(t, []*File{mustRead(t, "s.yaml", "spellings: {armor: armour, w: \"\"}")})
	for in, want := range map[string]string{
		"Mesh Armor":                   "mesh armour",
		"  MESH-armour ":               "mesh armour",
		"Grenade Launcher w/Frag+Krak": "grenade launcher frag krak",
		"Ämulet of Ürz":                "ämulet of ürz",
		"":                             "",
	} {
		if got := c.Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Slug("Photo-goggles (x2)"); got != "photo_goggles_x2" {
		t.Errorf("Slug: %q", got)
	}
}

// TestShipped: the shipped catalogue builds, every item says where it
// comes from, every trait is one the rules declare, and the profiles the
// seeds give are as the seeds give them.
func TestShipped(t *testing.T) {
	files, diags := ReadFS(rulesets.FS, rulesets.CatalogueDir(""), "rulesets/core-2023/catalogue")
	if diags.HasErrors() || len(files) < 3 {
		t.Fatalf("%d files: %v", len(files), diags)
	}
	c := mustBuild(t, files)
	rules, diags := rulesets.LoadShared(rulesets.Selection{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	traits := rules.Index.Features["trait"]
	param := regexp.MustCompile(`^([a-z_]+)(\(\d+\))?$`)
	kinds := map[Kind]int{}
	for _, it := range c.Items() {
		kinds[it.Kind]++
		if it.Source == "" {
			t.Errorf("%s says nowhere where it comes from", it.ID)
		}
		for _, p := range it.Profiles {
			for _, tr := range p.Traits {
				m := param.FindStringSubmatch(tr)
				if m == nil || traits[m[1]] == nil {
					t.Errorf("%s: trait %q is not one the rules declare", p.ID, tr)
				}
			}
		}
	}
	if kinds[Weapon] < 25 || kinds[Armour] < 5 || kinds[Wargear] < 10 {
		t.Errorf("the catalogue holds %d weapons, %d armour, %d wargear", kinds[Weapon], kinds[Armour], kinds[Wargear])
	}
	for name, want := range map[string]string{
		// 004 §Weapon Profiles: Heavy stubber 20"/40", -/-1, 4, -1, 1, 4+, Rapid Fire (2), Unwieldy.
		"Heavy stubber": "20 40 0 -1 4 -1 1 4 [rapid_fire(2) unwieldy]",
	} {
		f, _ := c.Lookup(name)
		w := f.Weapons[0]
		got := fmt.Sprint(w.RangeShort, w.RangeLong, w.AccShort, w.AccLong, w.S, w.AP, w.D, w.Am, w.Traits)
		if got != want || !strings.HasPrefix(c.Item(Slug(name)).Source, "004") {
			t.Errorf("%s: %s (source %q), want %s from 004", name, got, c.Item(Slug(name)).Source, want)
		}
	}
	for name, save := range map[string]int{"Mesh armour": 5, "Displacer field": 4} { // 003 §Make a Save Roll
		if f, _ := c.Lookup(name); len(f.Armour) != 1 || f.Armour[0].Save != save || !strings.HasPrefix(c.Item(Slug(name)).Source, "003") {
			t.Errorf("%s: %+v, source %q", name, f.Armour, c.Item(Slug(name)).Source)
		}
	}
}
