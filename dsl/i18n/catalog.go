package i18n

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/munda-rules/munda/dsl/diag"
)

// Catalog is one language's translations of a set of rules, checked
// against them. The interpreter looks titles and messages up by their
// English text (what it has at hand when it narrates); the overlay names
// them by declaration, so a translator never depends on English wording
// alone and the checker can say exactly what is missing.
type Catalog struct {
	Lang     string
	titles   map[string]string
	counted  map[string]string // English title → go-i18n message id of its plural forms
	messages map[string]*Message
	bundle   *goi18n.Bundle
	local    *goi18n.Localizer
	words    *Words

	Translated, Untranslated int // titles and messages, for `check --lang`
}

// pluralForms are CLDR's plural categories, as go-i18n names them.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// Untranslated says what Compile counts and lists as untranslated.
type Untranslated struct {
	List bool // each title or message left in English is a warning
	// In, when set, limits the count and the list to the declarations of
	// these files (a mod's own, not the ruleset's under it).
	In func(filename string) bool
}

// Compile checks overlays (all for lang) against the declarations of the
// rules and builds the catalog. Errors are translation_error diagnostics
// at the overlay's position; with untranslated.List, each title or message
// left in English is an `untranslated` warning at the rule's position.
func Compile(lang string, overlays []*Overlay, decls []*Declaration, untr Untranslated) (*Catalog, diag.Diagnostics) {
	tag, err := language.Parse(lang)
	if err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeTranslation, Summary: fmt.Sprintf("%q is not a language tag: %v", lang, err)}}
	}
	c := &Catalog{Lang: lang, titles: map[string]string{}, counted: map[string]string{}, messages: map[string]*Message{}, bundle: goi18n.NewBundle(tag)}
	var diags diag.Diagnostics
	if c.words, err = NewWords(lang); err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeTranslation, Summary: err.Error()}}
	}
	errorf := func(at *Text, pos lexer.Position, format string, args ...any) {
		p := pos
		if at != nil {
			p = at.Pos
		}
		diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation,
			Summary: fmt.Sprintf(format, args...), Subject: diag.RangeOf(p, p)})
	}
	byKey := map[string]*Declaration{}
	var keys []string
	for _, d := range decls {
		if _, dup := byKey[d.Key()]; !dup {
			keys = append(keys, d.Key())
		}
		byKey[d.Key()] = d
	}
	type done struct {
		title    bool
		messages map[string]bool
	}
	translated := map[string]*done{}
	for _, ov := range overlays {
		if ov.Lang != lang {
			errorf(nil, ov.Pos, "this overlay is for %q, not %q: name the file after its language", ov.Lang, lang)
			continue
		}
		for _, e := range ov.Entries {
			d := byKey[e.Key()]
			if d == nil {
				diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation,
					Summary: diag.Suggest(fmt.Sprintf("the rules have no %s", e.Key()), e.Key(), keys), Subject: diag.RangeOf(e.Pos, e.Pos)})
				continue
			}
			dn := translated[d.Key()]
			if dn == nil {
				dn = &done{messages: map[string]bool{}}
				translated[d.Key()] = dn
			}
			switch {
			case e.Title != nil:
				c.titles[d.Title] = e.Title.Value
				dn.title = true
			case e.Counted != nil:
				if e.Counted.On != nil {
					errorf(e.Counted.On, e.Pos, "a title's plural forms count no placeholder: leave out %s", e.Counted.On.Raw)
				}
				id := "title " + d.Key()
				if m, ok := c.pluralMessage(id, e.Counted, nil, errorf); ok {
					c.counted[d.Title] = id
					c.titles[d.Title] = m.Other
					dn.title = true
				}
			}
			for _, m := range e.Messages {
				if !slices.ContainsFunc(d.Messages, func(s Said) bool { return s.Text == m.English.Value }) {
					var said []string
					for _, s := range d.Messages {
						said = append(said, s.Text)
					}
					msg := fmt.Sprintf("%s says no message %s", d.Key(), m.English.Raw)
					if len(said) == 0 {
						msg = fmt.Sprintf("%s says no messages", d.Key())
					}
					diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation,
						Summary: diag.Suggest(msg, m.English.Value, said), Subject: diag.RangeOf(m.English.Pos, m.English.Pos)})
					continue
				}
				want := Placeholders(m.English.Value)
				ok := true
				if m.Text != nil {
					ok = checkPlaceholders(m.Text, want, true, errorf)
				} else {
					if m.Plural.On == nil {
						errorf(nil, m.Plural.Pos, "say which placeholder the plural forms count: plural \"n\" { … }")
						ok = false
					} else if !slices.Contains(want, m.Plural.On.Value) {
						errorf(m.Plural.On, m.Pos, "plural counts %s, which is no placeholder of the English (it has %s)", m.Plural.On.Raw, braces(want))
						ok = false
					}
					if _, good := c.pluralMessage("message "+m.English.Value, m.Plural, want, errorf); !good {
						ok = false
					}
				}
				if prev, dup := c.messages[m.English.Value]; dup && !sameTranslation(prev, m) {
					errorf(m.English, m.Pos, "%s is translated differently at %s; one English message has one translation", m.English.Raw, prev.English.Pos)
					ok = false
				}
				if ok {
					c.messages[m.English.Value] = m
					dn.messages[m.English.Value] = true
				}
			}
		}
	}
	c.local = goi18n.NewLocalizer(c.bundle, lang)
	for _, d := range decls {
		if untr.In != nil && !untr.In(d.Pos.Filename) {
			continue
		}
		untranslated := untr.List
		dn := translated[d.Key()]
		if dn != nil && dn.title {
			c.Translated++
		} else {
			c.Untranslated++
			if untranslated {
				diags = append(diags, &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeUntranslated,
					Summary: fmt.Sprintf("%s: the title %q is not translated into %s", d.Key(), d.Title, lang), Subject: diag.RangeOf(d.Pos, d.Pos)})
			}
		}
		seen := map[string]bool{}
		for _, s := range d.Messages {
			if seen[s.Text] {
				continue
			}
			seen[s.Text] = true
			if _, ok := c.messages[s.Text]; ok {
				c.Translated++
				continue
			}
			c.Untranslated++
			if untranslated {
				diags = append(diags, &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeUntranslated,
					Summary: fmt.Sprintf("%s: the message %q is not translated into %s", d.Key(), s.Text, lang), Subject: diag.RangeOf(s.Pos, s.Pos)})
			}
		}
	}
	return c, diags
}

// checkPlaceholders reports a translation whose placeholders are not the
// English message's: each one the English lacks, and (with all) each one
// it leaves out. A plural form may leave some out: "one" may say "jednou"
// for {times}, and the English's own {times == 1 ? ” : 's'} has no place
// in a language whose forms are written out.
func checkPlaceholders(t *Text, want []string, all bool, errorf func(*Text, lexer.Position, string, ...any)) bool {
	if _, closed := Split(t.Value); !closed {
		errorf(t, t.Pos, "unclosed { in %s", t.Raw)
		return false
	}
	got := Placeholders(t.Value)
	ok := true
	for _, g := range got {
		if !slices.Contains(want, g) {
			errorf(t, t.Pos, "the translation has the placeholder {%s}, which the English does not (it has %s)", g, braces(want))
			ok = false
		}
	}
	for _, w := range want {
		if all && !slices.Contains(got, w) {
			errorf(t, t.Pos, "the translation leaves out the placeholder {%s} of the English", w)
			ok = false
		}
	}
	return ok
}

// pluralMessage checks a plural block's forms (want: the placeholders each
// must keep, nil for a title) and adds them to the bundle under id.
func (c *Catalog) pluralMessage(id string, p *Plural, want []string, errorf func(*Text, lexer.Position, string, ...any)) (*goi18n.Message, bool) {
	m := &goi18n.Message{ID: id}
	ok := true
	for _, f := range p.Forms {
		var slot *string
		switch f.Category {
		case "zero":
			slot = &m.Zero
		case "one":
			slot = &m.One
		case "two":
			slot = &m.Two
		case "few":
			slot = &m.Few
		case "many":
			slot = &m.Many
		case "other":
			slot = &m.Other
		default:
			errorf(f.Text, f.Pos, "%s is no plural form; the forms are %s", f.Category, strings.Join(pluralForms, ", "))
			ok = false
			continue
		}
		if *slot != "" {
			errorf(f.Text, f.Pos, "the form %s is given twice", f.Category)
			ok = false
		}
		if want != nil && !checkPlaceholders(f.Text, want, false, errorf) {
			ok = false
		}
		// go-i18n would read "{{" as its own template: keep ours literal.
		*slot = f.Text.Value
	}
	if m.Other == "" {
		errorf(nil, p.Pos, "plural forms need an `other` form, used for any number the others do not cover")
		ok = false
	}
	if !ok {
		return nil, false
	}
	m.LeftDelim, m.RightDelim = "\x00[[", "]]\x00" // no go-i18n templating: the rules' {placeholders} stay as they are
	if err := c.bundle.AddMessages(c.bundle.LanguageTags()[0], m); err != nil {
		errorf(nil, p.Pos, "plural forms: %v", err)
		return nil, false
	}
	return m, true
}

func sameTranslation(a, b *Message) bool {
	if (a.Text == nil) != (b.Text == nil) {
		return false
	}
	if a.Text != nil {
		return a.Text.Value == b.Text.Value
	}
	return false // two plural blocks: keep the first, say so
}

func braces(names []string) string {
	if len(names) == 0 {
		return "no placeholders"
	}
	return "{" + strings.Join(names, "}, {") + "}"
}

// Title is the translation of an English title, if the overlay gives one.
func (c *Catalog) Title(english string) (string, bool) {
	if c == nil {
		return "", false
	}
	t, ok := c.titles[english]
	return t, ok
}

// CountedTitle is a title in the plural form for n ("2 kostky zranění"
// needs "kostky"), or the plain translation when it has no plural forms.
func (c *Catalog) CountedTitle(english string, n int) (string, bool) {
	if c == nil {
		return "", false
	}
	if id, ok := c.counted[english]; ok {
		if s, err := c.local.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n}); err == nil {
			return s, true
		}
	}
	return c.Title(english)
}

// Message is the translated template of an English message (with the same
// placeholders). count gives a placeholder's number, for plural forms.
func (c *Catalog) Message(english string, count func(placeholder string) (int, bool)) (string, bool) {
	if c == nil {
		return "", false
	}
	m, ok := c.messages[english]
	if !ok {
		return "", false
	}
	if m.Text != nil {
		return m.Text.Value, true
	}
	n, ok := count(m.Plural.On.Value)
	if !ok {
		n = 0 // not a number: the `other` form is the safe one for 0 in most languages
	}
	s, err := c.local.Localize(&goi18n.LocalizeConfig{MessageID: "message " + english, PluralCount: n})
	if err != nil {
		return "", false
	}
	return s, true
}

// Say is one of munda's own words in the catalog's language.
func (c *Catalog) Say(id, english string) string {
	if c == nil {
		return english
	}
	return c.words.Say(id, english)
}
