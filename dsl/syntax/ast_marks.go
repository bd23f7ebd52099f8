package syntax

import "github.com/alecthomas/participle/v2/lexer"

// TextOnly marks a feature that is only text, on purpose, and says why:
// `text_only "no rule in the sources: the seeds give only its name"`. A
// feature with neither effects nor this marker is counted as missing by
// the rulesets' coverage test.
type TextOnly struct {
	Pos    lexer.Position
	Reason *Str `parser:"'text_only' @@"`
	EndPos lexer.Position
}

func (*TextOnly) node() {}

// TextOnlyOf is the feature's text-only marker, or nil.
func TextOnlyOf(items []FeatureItem) *TextOnly {
	for _, it := range items {
		if t, ok := it.(*TextOnly); ok {
			return t
		}
	}
	return nil
}
