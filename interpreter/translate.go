package interpreter

import (
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/dsl/syntax"
)

// This file narrates in the run's language (Options.Translation): the
// rules' titles and messages from the language's overlay, munda's own
// words from its words file. Without a translation everything is English.

// say is one of munda's own narration words.
func (r *runner) say(id, english string) string { return r.opts.Translation.Say(id, english) }

// translatedText is a message the rules say without placeholders to
// evaluate (a step's title, a choice's question), in the run's language.
func (r *runner) translatedText(english string, f *frame) string {
	if r.opts.Translation == nil {
		return english
	}
	t, ok := r.opts.Translation.Message(english, func(placeholder string) (int, bool) {
		if f == nil {
			return 0, false
		}
		v, found := lookupPath(f, placeholder)
		if !found {
			return 0, false
		}
		n, err := toInt(v)
		return n, err == nil
	})
	if !ok {
		return english
	}
	return t
}

// translatedParts are an emit's parts in the run's language: the
// translation's text around the English message's own expressions (the
// overlay's checker made sure the placeholders are the same).
func (r *runner) translatedParts(f *frame, s *syntax.Emit) ([]*syntax.TemplatePart, error) {
	if r.opts.Translation == nil || s.Message == nil {
		return s.Parts, nil
	}
	exprs := map[string]*syntax.Expr{}
	for _, p := range s.Parts {
		if p.Expr != nil {
			exprs[trimmed(p.Expr.Text)] = p.Expr
		}
	}
	var evalErr error
	t, ok := r.opts.Translation.Message(s.Message.Value(), func(placeholder string) (int, bool) {
		e := exprs[placeholder]
		if e == nil {
			return 0, false
		}
		v, err := r.eval(f, e)
		if err != nil {
			evalErr = err
			return 0, false
		}
		n, err := toInt(v)
		return n, err == nil
	})
	if evalErr != nil {
		return nil, evalErr
	}
	if !ok {
		return s.Parts, nil
	}
	pieces, _ := i18n.Split(t)
	parts := make([]*syntax.TemplatePart, 0, len(pieces))
	for _, p := range pieces {
		switch e := exprs[p.Text]; {
		case !p.Placeholder:
			parts = append(parts, &syntax.TemplatePart{Text: p.Text})
		case e != nil:
			parts = append(parts, &syntax.TemplatePart{Expr: e})
		default: // checked away; should an overlay slip through, show it as written
			parts = append(parts, &syntax.TemplatePart{Text: "{" + p.Text + "}"})
		}
	}
	return parts, nil
}

func trimmed(s string) string {
	pieces, _ := i18n.Split("{" + s + "}")
	if len(pieces) == 1 && pieces[0].Placeholder {
		return pieces[0].Text
	}
	return s
}

// countedDiceTitle is a dice's title for n of them ("2 kostky zranění").
func (r *runner) countedDiceTitle(d *dsl.DiceInfo, n int) string {
	if t, ok := r.opts.Translation.CountedTitle(d.Title, n); ok {
		return t
	}
	return r.diceTitle(d)
}

// translatedTitle is a title that has no Meta at hand (an event's).
func (r *runner) translatedTitle(english string) string {
	if t, ok := r.opts.Translation.Title(english); ok {
		return t
	}
	return english
}
