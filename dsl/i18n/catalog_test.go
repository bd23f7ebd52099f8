package i18n

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// rules is what the overlays below translate.
const rules = `procedure bottle_check(gang) "Bottle Check" {
  let check = 3
  let threshold = 4
  choose voluntary "{gang.name}: fail the Bottle check voluntarily?" default false
  emit "{gang.name} holds ({check} is not more than {threshold})"
  emit "{check} casualties"
}
table lasting_injury "Lasting Injury" {
  roll d6
  1-6 out_cold "Out Cold" {
    emit "{fighter.name} is Out Cold"
  }
}
dice injury "Injury dice" {
  face out_of_action "Out of Action" x 6
}
`

func declarations(t *testing.T) []*Declaration {
	t.Helper()
	f, diags := syntax.ParseString("rules.munda", rules)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return Declarations([]*syntax.File{f})
}

func compile(t *testing.T, overlay string) (*Catalog, diag.Diagnostics) {
	t.Helper()
	ov, d := Parse("cs.i18n", []byte(overlay))
	if d != nil {
		return nil, diag.Diagnostics{d}
	}
	return Compile("cs", []*Overlay{ov}, declarations(t), Untranslated{})
}

// The overlay checker's errors: each names the line and column of the
// overlay at fault, and what to do.
func TestOverlayErrors(t *testing.T) {
	for _, c := range []struct {
		name, overlay, want string
	}{
		{"unknown declaration", "language cs\nprocedure botle_check \"Kontrola morálky\"\n",
			`cs.i18n:2:1: error: the rules have no procedure botle_check; did you mean "procedure bottle_check"?`},
		{"unknown kind", "language cs\ntabel lasting_injury \"Trvalé zranění\"\n",
			`cs.i18n:2:1: error: the rules have no tabel lasting_injury; did you mean "table lasting_injury"?`},
		{"unknown message", "language cs\nprocedure bottle_check {\n  \"{gang.name} hold\" = \"{gang.name} drží\"\n}\n",
			`cs.i18n:3:3: error: procedure bottle_check says no message "{gang.name} hold"`},
		{"unknown placeholder", "language cs\nprocedure bottle_check {\n  \"{gang.name} holds ({check} is not more than {threshold})\" = \"{gang} drží ({check} není víc než {threshold})\"\n}\n",
			`cs.i18n:3:64: error: the translation has the placeholder {gang}, which the English does not (it has {gang.name}, {check}, {threshold})`},
		{"missing placeholder", "language cs\nprocedure bottle_check {\n  \"{gang.name} holds ({check} is not more than {threshold})\" = \"{gang.name} drží ({check})\"\n}\n",
			`cs.i18n:3:64: error: the translation leaves out the placeholder {threshold} of the English`},
		{"unclosed placeholder", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = \"{check ztráty\"\n}\n",
			`cs.i18n:3:26: error: unclosed { in "{check ztráty"`},
		{"plural on no placeholder", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = plural \"n\" { other \"{check} ztrát\" }\n}\n",
			`cs.i18n:3:33: error: plural counts "n", which is no placeholder of the English (it has {check})`},
		{"plural form unknown", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = plural \"check\" { several \"{check} ztráty\" other \"{check} ztrát\" }\n}\n",
			`cs.i18n:3:51: error: several is no plural form; the forms are zero, one, two, few, many, other`},
		{"plural without other", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = plural \"check\" { one \"{check} ztráta\" }\n}\n",
			`cs.i18n:3:26: error: plural forms need an ` + "`other`" + ` form`},
		{"plural form with an unknown placeholder", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = plural \"check\" { one \"{n} ztráta\" other \"{check} ztrát\" }\n}\n",
			`cs.i18n:3:47: error: the translation has the placeholder {n}, which the English does not (it has {check})`},
		{"row message", "language cs\nrow lasting_injury.out_cold {\n  \"{fighter.name} is out cold\" = \"{fighter.name} je v bezvědomí\"\n}\n",
			`cs.i18n:3:3: error: row lasting_injury.out_cold says no message "{fighter.name} is out cold"; did you mean "{fighter.name} is Out Cold"?`},
		{"wrong language", "language de\nprocedure bottle_check \"Moralprüfung\"\n",
			`cs.i18n:1:1: error: this overlay is for "de", not "cs"`},
		{"two translations of one message", "language cs\nprocedure bottle_check {\n  \"{check} casualties\" = \"{check} ztráty\"\n  \"{check} casualties\" = \"{check} obětí\"\n}\n",
			`cs.i18n:4:3: error: "{check} casualties" is translated differently at cs.i18n:3:3`},
		{"parse error", "language cs\nprocedure bottle_check \"Kontrola\" = \"x\"\n",
			`cs.i18n:2:35: error: unexpected token "="`},
		{"bad escape", "language cs\nprocedure bottle_check \"Kontrola \\q\"\n",
			`cs.i18n:2:24: error: bad string`},
		{"no language line", "procedure bottle_check \"Kontrola\"\n",
			`cs.i18n:1:1: error: unexpected token "procedure"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := compile(t, c.overlay)
			if !diags.HasErrors() {
				t.Fatalf("no error; want %s", c.want)
			}
			got := diags.Error()
			if !strings.Contains(got, c.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", got, c.want)
			}
		})
	}
}

// A good overlay translates titles by id, messages by their English, and
// counts in the language's plural forms (go-i18n's CLDR rules for Czech:
// 1 one, 2–4 few, 0 and 5+ other).
func TestCatalogTranslates(t *testing.T) {
	cat, diags := compile(t, `language cs
procedure bottle_check "Kontrola morálky" {
  "{gang.name} holds ({check} is not more than {threshold})" = "{gang.name} drží ({check} není víc než {threshold})"
  "{check} casualties" = plural "check" {
    one "{check} ztráta"
    few "{check} ztráty"
    many "{check} ztráty"
    other "{check} ztrát"
  }
}
row lasting_injury.out_cold "Bezvědomí"
dice injury plural { one "Kostka zranění" few "Kostky zranění" other "Kostek zranění" }
face injury.out_of_action "Mimo hru"
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for english, want := range map[string]string{"Bottle Check": "Kontrola morálky", "Out Cold": "Bezvědomí", "Out of Action": "Mimo hru", "Injury dice": "Kostek zranění"} {
		if got, ok := cat.Title(english); !ok || got != want {
			t.Errorf("Title(%q) = %q, %v; want %q", english, got, ok, want)
		}
	}
	if _, ok := cat.Title("Lasting Injury"); ok {
		t.Errorf("an untranslated title has a translation")
	}
	got, _ := cat.Message("{gang.name} holds ({check} is not more than {threshold})", nil)
	if want := "{gang.name} drží ({check} není víc než {threshold})"; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	for n, want := range map[int]string{0: "{check} ztrát", 1: "{check} ztráta", 2: "{check} ztráty", 4: "{check} ztráty", 5: "{check} ztrát", 21: "{check} ztrát"} {
		got, ok := cat.Message("{check} casualties", func(p string) (int, bool) {
			if p != "check" {
				t.Fatalf("counted %q", p)
			}
			return n, true
		})
		if !ok || got != want {
			t.Errorf("%d casualties: %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{1: "Kostka zranění", 3: "Kostky zranění", 5: "Kostek zranění"} {
		if got, _ := cat.CountedTitle("Injury dice", n); got != want {
			t.Errorf("%d Injury dice: %q, want %q", n, got, want)
		}
	}
	// Translated: bottle_check's title and two of its three messages, the
	// row's title, the dice and the face; not the choice's question, the
	// table's title nor the row's message.
	if cat.Translated != 6 || cat.Untranslated != 3 {
		t.Errorf("translated %d, untranslated %d; want 6 and 3", cat.Translated, cat.Untranslated)
	}
}

// check --lang lists what is untranslated as warnings at the rule's
// position, never as errors.
func TestUntranslatedAreWarnings(t *testing.T) {
	ov, d := Parse("cs.i18n", []byte("language cs\nprocedure bottle_check \"Kontrola morálky\"\n"))
	if d != nil {
		t.Fatal(d)
	}
	_, diags := Compile("cs", []*Overlay{ov}, declarations(t), Untranslated{List: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := diags.Error()
	for _, want := range []string{
		`rules.munda:4:20: warning: procedure bottle_check: the message "{gang.name}: fail the Bottle check voluntarily?" is not translated into cs`,
		`rules.munda:8:7: warning: table lasting_injury: the title "Lasting Injury" is not translated into cs`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, `"Bottle Check"`) {
		t.Errorf("a translated title is listed:\n%s", got)
	}
}

// munda's own words: English without a translation, Czech with one, and
// a did-you-mean for a language munda does not speak.
func TestWords(t *testing.T) {
	var en *Words
	if got := en.Say("passed", "passed"); got != "passed" {
		t.Errorf("English: %q", got)
	}
	cs, err := NewWords("cs")
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.Say("passed", "passed"); got != "uspěl" {
		t.Errorf("cs passed: %q", got)
	}
	if got := cs.Say("no_such_word", "fallback"); got != "fallback" {
		t.Errorf("missing word: %q", got)
	}
	if err := CheckLanguage("cz"); err == nil || !strings.Contains(err.Error(), "did you mean cs?") {
		t.Errorf("CheckLanguage(cz) = %v", err)
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"{a} and {{b}} {  c.d }", []string{"a", "c.d"}, true},
		{"no placeholders", nil, true},
		{"{open", nil, false},
		{"{x == 1 ? '' : 's'}", []string{"x == 1 ? '' : 's'"}, true},
	} {
		_, ok := Split(c.in)
		got := Placeholders(c.in)
		if ok != c.ok || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Split(%q): %q %v, want %q %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
