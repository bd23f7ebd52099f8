package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/i18n"
)

// langEnv names the language to narrate in when --lang is not given.
const langEnv = "MUNDA_LANG"

// narrationLang is --lang, or $MUNDA_LANG, or "" (English).
func narrationLang(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv(langEnv)
}

// narrationLanguages are the languages munda can narrate in: those with
// munda's own words, and those the rules (nil: none) title things in.
func narrationLanguages(rules *dsl.Rules) []string {
	known := i18n.Languages()
	if rules != nil {
		for _, l := range languages(rules) {
			if !slices.Contains(known, l) {
				known = append(known, l)
			}
		}
	}
	slices.Sort(known)
	return known
}

// checkLang is a usage error for a language munda cannot narrate in.
func checkLang(lang string, rules *dsl.Rules) error {
	if lang == "" || lang == "en" {
		return nil
	}
	known := narrationLanguages(rules)
	if slices.Contains(known, lang) {
		return nil
	}
	return usagef("--lang (or %s): %s (munda narrates in: %s)", langEnv,
		diag.Suggest(fmt.Sprintf("unknown language %q", lang), lang, known), strings.Join(known, ", "))
}

// overlayPath is where a pack keeps its translation into lang.
func overlayPath(lang string) string { return path.Join("i18n", lang+".i18n") }

// translation reads every pack's overlay for lang (a pack may have none)
// and checks them against the rules. untr says what untranslated text is
// counted and listed as warnings. src, if not nil, receives the overlays'
// text for quoting in diagnostics.
func translation(rules *dsl.Rules, lang string, untr i18n.Untranslated, src diag.Sources) (*i18n.Catalog, diag.Diagnostics) {
	if lang == "" || lang == "en" {
		return nil, nil
	}
	var overlays []*i18n.Overlay
	var diags diag.Diagnostics
	for _, p := range rules.Packs {
		if p.Pack.FS == nil {
			continue
		}
		rel := overlayPath(lang)
		data, err := p.Pack.ReadFile(rel, i18n.MaxOverlayBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		name := p.Pack.DisplayPath(rel)
		if err != nil {
			diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation, Summary: fmt.Sprintf("%s: %v", name, err)})
			continue
		}
		if src != nil {
			src[name] = data
		}
		ov, d := i18n.Parse(name, data)
		if d != nil {
			diags = append(diags, d)
			continue
		}
		overlays = append(overlays, ov)
	}
	cat, more := i18n.Compile(lang, overlays, i18n.Declarations(rules.Files()), untr)
	return cat, append(diags, more...)
}

// packFiles tells the files (by display name) of one pack of the rules.
func packFiles(rules *dsl.Rules, pack *dsl.Pack) func(string) bool {
	files := map[string]bool{}
	for _, p := range rules.Packs {
		if p.Pack == pack || (p.Pack.Display == pack.Display && p.Pack.Root == pack.Root) {
			for name := range p.Sources {
				files[name] = true
			}
		}
	}
	return func(file string) bool { return files[file] }
}
