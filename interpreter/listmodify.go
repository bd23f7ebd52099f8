package interpreter

import (
	"fmt"
	"reflect"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// isList reports whether v is a list value (a let a modifier adds to).
func isList(v any) bool {
	if v == nil {
		return false
	}
	k := reflect.ValueOf(v).Kind()
	return k == reflect.Slice || k == reflect.Array
}

// appendModifiers applies the modifiers in force on a list let: each one's
// list is added to the end, in the order effects combine (layer, priority,
// owner), so that several sources add up ("Shoot and Fight count as
// Simple") whatever the order of the files.
func (r *runner) appendModifiers(s *syntax.Let, f *frame, target string, v any) (any, error) {
	out, err := toList(v)
	if err != nil {
		return nil, err
	}
	out = append([]any(nil), out...)
	for _, ef := range r.p.modify[target] {
		m := ef.info.Item.(*syntax.Modify)
		ok, restore, err := r.effectApplies(ef, m.When, f)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		by, err := r.eval(f, m.By)
		restore()
		if err != nil {
			return nil, err
		}
		more, err := toList(by)
		if err != nil {
			return nil, r.errorAt(f, diag.CodeRunEffect, spanOf(m.By), fmt.Errorf("a modifier of the list %s must be a list: %v", s.Name.Name, err))
		}
		if len(more) == 0 {
			continue
		}
		out = append(out, more...)
		owner, added := ef.owner, display(more)
		if err := r.logLazy(f, func() *Event {
			return &Event{Kind: EventEffect, Rule: owner, Name: s.Name.Name,
				Text: fmt.Sprintf("%s: %s + %s", titleOf(owner), s.Name.Name, added)}
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}
