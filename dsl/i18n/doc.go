// Package i18n translates what munda says into other languages without
// touching the rule files: a per-language overlay (rulesets/core-2023/
// i18n/cs.i18n) maps declarations, by kind and id, to their titles, and
// the English messages inside them (emit, choose, step) to translated
// templates that keep the same {placeholders}. Catalog checks an overlay
// against the rules it translates and serves the translations to the
// interpreter; Words holds munda's own narration words, whose plural
// forms (Czech one/few/many/other) come from go-i18n's CLDR rules.
package i18n
