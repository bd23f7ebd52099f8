package i18n

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"gopkg.in/yaml.v3"

	"github.com/munda-rules/munda/dsl/diag"
)

// Munda's own narration words ("passed", "not needed", "(default)") are
// not rules: they live here, one go-i18n message file per language, so
// their plural forms follow CLDR's rules for the language.
//
//go:embed words/*.yaml
var wordFiles embed.FS

// Words says munda's own words in one language, English where the
// language's file has no entry. A nil *Words says English.
type Words struct {
	local *goi18n.Localizer
}

// Languages are those munda can narrate in: English and every language
// with a words file.
func Languages() []string {
	out := []string{"en"}
	entries, _ := wordFiles.ReadDir("words")
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	slices.Sort(out)
	return out
}

// CheckLanguage is nil for a language munda narrates in, and otherwise a
// usage error naming the nearest one.
func CheckLanguage(lang string) error {
	langs := Languages()
	if slices.Contains(langs, lang) {
		return nil
	}
	return fmt.Errorf("%s (munda narrates in: %s)", diag.Suggest(fmt.Sprintf("unknown language %q", lang), lang, langs), strings.Join(langs, ", "))
}

// NewWords loads munda's words for lang ("" or "en": English, nil).
func NewWords(lang string) (*Words, error) {
	if lang == "" || lang == "en" {
		return nil, nil
	}
	if err := CheckLanguage(lang); err != nil {
		return nil, err
	}
	tag, err := language.Parse(lang)
	if err != nil {
		return nil, err
	}
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	name := "words/" + lang + ".yaml"
	src, err := wordFiles.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if _, err := b.ParseMessageFileBytes(src, name); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &Words{local: goi18n.NewLocalizer(b, tag.String())}, nil
}

// Say is the word with this id in the language, or english.
func (w *Words) Say(id, english string) string {
	if w == nil {
		return english
	}
	s, err := w.local.Localize(&goi18n.LocalizeConfig{MessageID: id})
	if err != nil || s == "" {
		return english
	}
	return s
}
