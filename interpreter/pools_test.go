package interpreter

import (
	"bufio"
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

// TestPoolChoicePrompt: a bad answer naming dice is refused as it is typed,
// and the prompt asks again.
func TestPoolChoicePrompt(t *testing.T) {
	req := &ChoiceRequest{Name: "hits_reroll", Prompt: "Which dice?", Default: []int{1},
		parse: func(s string) (any, error) { return dicePositions(s, []int{0, 2}) }}
	var out strings.Builder
	p := NewChoicePrompt(bufio.NewReader(strings.NewReader("2\n1,3\n")), &out)
	v, ok, err := p.Choose(req)
	if err != nil || !ok || !slices.Equal(v.([]int), []int{0, 2}) {
		t.Fatalf("got %v, %v, %v", v, ok, err)
	}
	if !strings.Contains(out.String(), "die 2 cannot be chosen") {
		t.Errorf("the prompt did not say why it asked again:\n%s", out.String())
	}
}
