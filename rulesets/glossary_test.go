package rulesets_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/rulesets"
)

// czechGlossary holds munda's Czech to the terms of the Czech translation
// of the rules (seeds/002_147a009c48cfaf85.txt, line cited): wherever an
// English title or message names a term, its translation must use the
// seed's term, in any of its grammatical cases. Longer terms are matched
// first, so "Flesh Wound" is not also read as "Wounds".
var czechGlossary = []struct {
	english string // a regexp, matched case-insensitively on word bounds ((?-i:…) for a capitalised term)
	czech   string // the seed's term
	forms   string // a regexp of its inflected forms, case-insensitive
}{
	{`End Phase`, "Konečná fáze", `Konečn\pL* fáz\pL*`},                                                // 493, 539
	{`Bottle Checks?`, "Kontrola morálky", `Kontrol\pL* morálk\pL*`},                                   // 507 "Kontrola Morálky (Bottle Checks)"
	{`Fleeing the Battlefield|Flees? the Battlefield`, "Útěk z bojiště", `(Útěk|utíká)\pL* z bojiště`}, // 498, 527
	{`Recover & Restart`, "Zotavení a Restart", `Zotavení a Restart`},                                  // 502
	{`Recovery Tests?`, "Test zotavení", `Test\pL* zotavení`},                                          // 547
	{`Rally Tests?`, "Testy povzbuzení", `Test\pL* povzbuzení`},                                        // 555
	{`Nerve Tests?`, "Test odvahy", `Test\pL* odvahy`},                                                 // 474
	{`Hit Rolls?`, "Hod na zásah", `Hod\pL* na zásah`},                                                 // "HODY NA ZÁSAH (HIT ROLLS)"
	{`Wound Rolls?`, "Hod na zranění", `Hod\pL* na zranění`},                                           // "HOD NA ZRANĚNÍ (WOUND ROLL)"
	{`Save Rolls?`, "Hod na záchranu", `Hod\pL* na záchranu`},                                          // "HOD NA ZÁCHRANU (SAVE ROLL)"
	{`Injury dice`, "Kostka zranění", `Kost\pL* zranění`},                                              // "KOSTKY ZRANĚNÍ (INJURY DICE)"
	{`Firepower dice`, "Kostka palby", `Kost\pL* palby`},                                               // 238
	{`Out of Action`, "Mimo hru", `Mimo hru`},                                                          // 467
	{`Seriously Injured`, "Vážně zraněný", `Vážně zraněn\pL*`},                                         // 467
	{`Serious Injury`, "Vážné zranění", `Vážné zranění`},                                               // "Vážné zranění (Serious Injury)"
	{`Flesh Wounds?`, "Lehké zranění", `Lehk\pL* zranění`},                                             // "Lehké zranění (Flesh Wound)"
	{`Pinned`, "Přišpendlený", `Přišpendlen\pL*`},                                                      // 467
	{`Prone`, "Ležící", `Ležící\pL*`},                                                                  // 467
	{`Standing`, "Stojící", `Stojící\pL*`},                                                             // "Stojící (Standing)"
	{`Engaged`, "Zapojený do boje", `Zapojen\pL* do boje`},                                             // "Zapojený do boje (Engaged)"
	{`Broken`, "Zlomený", `Zlomen\pL*`},                                                                // "Zlomený (Broken)"
	{`Coup de Grace`, "Doražení modelu", `Doražení`},                                                   // "Doražení modelu (Coup De Grace)"
	{`Attack dice`, "bojové kostky", `bojov\pL* kost\pL*`},                                             // "Počet bojových kostek (Attack dice)"
	{`Reaction Attacks?`, "Reakční útoky", `Reakční\pL* útok\pL*`},                                     // "7. REAKČNÍ ÚTOKY"
	{`Weapon Skill`, "Bojová dovednost", `Bojov\pL* dovednost\pL*`},                                    // "test Bojové dovednosti (Weapon Skill, WS)"
	{`Ballistic Skill`, "Střelecká dovednost", `Střeleck\pL* dovednost\pL*`},                           // "test Střelecké dovednosti (Ballistic Skill, BS)"
	{`Blast Markers?`, "šablona pro výbuch", `šablon\pL* pro výbuch`},                                  // 268
	{`Flame Templates?`, "ohnivá šablona", `ohniv\pL* šablon\pL*`},                                     // 293
	{`Stray Shots?`, "zbloudilé střely", `zbloudil\pL* střel\pL*`},                                     // "vyhodnocení zbloudilých střel"
	{`Ductways?`, "větrací šachta", `větrac\pL* šacht\pL*`},                                            // "Větrací šachty (Ductways)"
	{`Cool`, "Cool", `Cool`},                                                                           // 191, 477: the seed keeps "Cool"
	{`Strength`, "Síla", `Síl\pL*`},                                                                    // "Síla (Strength)"
	{`Toughness`, "Odolnost", `Odolnost\pL*`},                                                          // "Odolnost (Toughness)"
	{`Initiative`, "Iniciativa", `Iniciativ\pL*`},                                                      // 76
	{`(?-i:Wounds)`, "Životy", `Život\pL*`},                                                            // "Život (Wound)"
	{`Damage`, "Poškození", `Poškozen\pL*`},                                                            // "Poškození (Damage)"
}

// termIn is a glossary term as a regexp on word bounds.
func termIn(pattern string) *regexp.Regexp {
	if re, ok := termRegexps.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`(?i)(^|[^\pL])(` + pattern + `)($|[^\pL])`)
	termRegexps.Store(pattern, re)
	return re
}

// termRegexps are termIn's, compiled once: every message is held to every
// term.
var termRegexps sync.Map

// glossaryBreaches lists the terms an English text names whose seed term
// the translation does not use.
func glossaryBreaches(english, czech string) []string {
	// Placeholders are the rules' names (toughness_hit), not words of the
	// text: a term inside one is no term.
	english = placeholder.ReplaceAllString(english, "…")
	czech = placeholder.ReplaceAllString(czech, "…")
	var out []string
	for _, g := range czechGlossary {
		re := termIn(g.english)
		if !re.MatchString(english) {
			continue
		}
		english = re.ReplaceAllString(english, "$1…$3") // a longer term hides the shorter ones inside it
		if !termIn(g.forms).MatchString(czech) {
			out = append(out, g.czech)
		}
	}
	return out
}

// placeholder is a message template's {expression}.
var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

func TestGlossaryCatchesOtherTerms(t *testing.T) {
	for _, c := range []struct {
		english, czech string
		want           string
	}{
		{"The End Phase", "Závěrečná fáze", "Konečná fáze"},
		{"The End Phase", "Konečná fáze", ""},
		{"Cool", "Chladnokrevnost", "Cool"},
		{"{gang.name}: fail the Bottle check voluntarily?", "{gang.name}: selhat v Kontrole morálky dobrovolně?", ""},
		{"Flesh Wounds", "Lehká zranění", ""},
		{"{target.name} is wounded (S{strength} against T{toughness_hit})", "{target.name} je zraněn (S{strength} proti T{toughness_hit})", ""},
		{"Flesh Wounds", "Povrchová zranění", "Lehké zranění"},
		{"{fighter.name} recovers and becomes Prone and Pinned", "{fighter.name} je Ležící a Přitisknutý", "Přišpendlený"},
	} {
		got := strings.Join(glossaryBreaches(c.english, c.czech), ", ")
		if got != c.want {
			t.Errorf("%q → %q: breaches %q, want %q", c.english, c.czech, got, c.want)
		}
	}
}

// TestCzechGlossary: every shipped Czech overlay uses the seed's terms.
func TestCzechGlossary(t *testing.T) {
	// Every shipped house pack, so that each pack's overlay is held to
	// the glossary.
	var houses []string
	for _, d := range rulesets.HouseDirs() {
		houses = append(houses, strings.TrimPrefix(d, "house/"))
	}
	rules, diags := rulesets.Load(rulesets.Selection{Base: "core-2023", Houses: houses, SkipTests: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	legacy, diags := rulesets.Load(rulesets.Selection{Base: "legacy-2017", SkipTests: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	titles := map[string]string{}
	for _, d := range append(i18n.Declarations(rules.Files()), i18n.Declarations(legacy.Files())...) {
		titles[d.Key()] = d.Title
	}
	var overlays []string
	err := fs.WalkDir(rulesets.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && path.Base(path.Dir(p)) == "i18n" && path.Base(p) == "cs.i18n" {
			overlays = append(overlays, p)
		}
		return err
	})
	if err != nil || len(overlays) < 2 {
		t.Fatalf("overlays %v, %v", overlays, err)
	}
	checked := 0
	for _, p := range overlays {
		src, err := fs.ReadFile(rulesets.FS, p)
		if err != nil {
			t.Fatal(err)
		}
		ov, d := i18n.Parse(p, src)
		if d != nil {
			t.Fatal(d)
		}
		check := func(at i18n.Text, english, czech string) {
			checked++
			for _, term := range glossaryBreaches(english, czech) {
				t.Errorf("%s:%d:%d: %q translates %q without the seed's term %q", p, at.Pos.Line, at.Pos.Column, czech, english, term)
			}
		}
		for _, e := range ov.Entries {
			english, ok := titles[e.Key()]
			if !ok {
				t.Errorf("%s: %s: no such declaration", p, e.Key())
			}
			if e.Title != nil {
				check(*e.Title, english, e.Title.Value)
			}
			if e.Counted != nil {
				for _, f := range e.Counted.Forms {
					check(*f.Text, english, f.Text.Value)
				}
			}
			for _, m := range e.Messages {
				if m.Text != nil {
					check(*m.Text, m.English.Value, m.Text.Value)
				} else {
					for _, f := range m.Plural.Forms {
						check(*f.Text, m.English.Value, f.Text.Value)
					}
				}
			}
		}
	}
	if checked < 200 {
		t.Errorf("checked only %d translations", checked)
	}
}
