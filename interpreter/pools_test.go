package interpreter

import (
	"slices"
	"strings"
	"testing"
)

// TestDicePositions reads the answers naming dice of a pool: typed
// (--choose, the prompt), or values (a test's choose).
func TestDicePositions(t *testing.T) {
	allowed := []int{0, 2, 3}
	for _, c := range []struct {
		answer any
		want   []int
		err    string
	}{
		{"1,3", []int{0, 2}, ""},
		{" 4 , 1 ", []int{3, 0}, ""},
		{"none", nil, ""},
		{"", nil, ""},
		{nil, nil, ""},
		{[]int{3}, []int{2}, ""},
		{[]any{1, 4}, []int{0, 3}, ""},
		{4, []int{3}, ""},
		{"2", nil, "die 2 cannot be chosen"},
		{"1,1", nil, "chosen twice"},
		{"x", nil, "not a die's position"},
	} {
		// Through --choose: the typed text reaches the pool as it is.
		if s, ok := c.answer.(string); ok {
			req := &ChoiceRequest{Name: "hits_reroll", Default: []int{1}}
			v, answered, err := Choices{"hits_reroll": s}.Choose(req)
			if err != nil || !answered || v != strings.TrimSpace(s) && v != s {
				t.Errorf("--choose hits_reroll=%q: got %v, %v, %v", s, v, answered, err)
			}
		}
		got, err := dicePositions(c.answer, allowed)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: got %v, %v; want an error with %q", c.answer, got, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%v: got %v, %v; want %v", c.answer, got, err, c.want)
		}
	}
}
