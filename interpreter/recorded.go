package interpreter

import (
	"fmt"
	"reflect"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// recorded answers a choice from the state (`choose x "…" recorded KEY`):
// when battle.recorded holds KEY, its value is the answer, checked as a
// typed answer is. ok=false: nothing recorded, ask as usual.
func (r *runner) recorded(f *frame, s *syntax.Choose, req *ChoiceRequest) (any, bool, error) {
	kv, err := r.eval(f, s.Recorded)
	if err != nil {
		return nil, false, err
	}
	key, isText := kv.(string)
	if !isText {
		return nil, false, r.errorAt(f, diag.CodeRunExpr, spanOf(s.Recorded), fmt.Errorf("a recorded answer's key must be a string, got %s", display(kv)))
	}
	if r.st == nil {
		return nil, false, nil
	}
	v, ok := r.st.Battle.Recorded[key]
	if !ok {
		return nil, false, nil
	}
	got, err := recordedAnswer(req, v)
	if err != nil {
		return nil, false, r.errorAt(f, diag.CodeRunChoice, spanOf(s.Recorded),
			fmt.Errorf("choice %s: the answer recorded in the state (battle.recorded.%s = %s): %v", req.Answers(), key, display(v), err))
	}
	return got, true, r.logLazy(f, func() *Event {
		return &Event{Kind: EventChoice, At: at(s.Pos), Name: req.Answers(), Value: jsonValue(got),
			Text: fmt.Sprintf("%s: %s (recorded as %s)", req.Answers(), showAnswer(got), key)}
	})
}

// recordedAnswer checks a recorded value as a typed answer is checked: one
// of the options, a valid split or pick, or a value of the default's type.
func recordedAnswer(req *ChoiceRequest, v any) (any, error) {
	if req.Multi != "" {
		return multiAnswer(req, v)
	}
	if req.Options != nil {
		if o, ok := req.option(v); ok {
			return o, nil
		}
		return nil, fmt.Errorf("not one of the options %s", display(req.Options))
	}
	switch req.Default.(type) {
	case bool:
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("want true or false")
		}
	case int:
		n, err := toInt(v)
		if err != nil {
			return nil, err
		}
		return n, nil
	case float64:
		switch n := v.(type) {
		case float64:
			return n, nil
		case int:
			return float64(n), nil // 2 answers a measure as well as 2.0
		}
		return nil, fmt.Errorf("want a number, such as 2 or 2.5")
	case string:
		if _, ok := v.(string); !ok {
			return nil, fmt.Errorf("want a string")
		}
	default:
		if req.Default != nil && v != nil && reflect.TypeOf(v).Kind() != reflect.TypeOf(req.Default).Kind() {
			return nil, fmt.Errorf("want a value like the default, %s", display(req.Default))
		}
	}
	return v, nil
}
