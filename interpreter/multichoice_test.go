package interpreter

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

func splitRequest() *ChoiceRequest {
	return &ChoiceRequest{Name: "ammo", Multi: MultiSplit, Count: 3, Options: []any{"shot", "shells", "slugs"},
		Default: map[string]any{"shot": 3, "shells": 0, "slugs": 0}}
}

func pickRequest() *ChoiceRequest {
	return &ChoiceRequest{Name: "posted", Multi: MultiPick, Count: 2, Options: []any{"a", "b", "c"}, Default: []any{"a", "b"}}
}

// TestChooseFlagMulti reads --choose answers to splits and picks, and
// refuses the impossible ones with a clear reason.
func TestChooseFlagMulti(t *testing.T) {
	for _, c := range []struct {
		req  *ChoiceRequest
		flag string
		want any
		err  string
	}{
		{splitRequest(), "ammo=shot:1,slugs:2", map[string]any{"shot": 1, "shells": 0, "slugs": 2}, ""},
		{splitRequest(), "ammo=shot, shot, shells", map[string]any{"shot": 2, "shells": 1, "slugs": 0}, ""},
		{splitRequest(), "ammo=1:3", map[string]any{"shot": 3, "shells": 0, "slugs": 0}, ""},
		{splitRequest(), "ammo=shot:1", nil, "add up to 1, not 3"},
		{splitRequest(), "ammo=bolts:3", nil, `"bolts" is not one of the items`},
		{splitRequest(), "ammo=shot:x", nil, "want item:count"},
		{pickRequest(), "posted=c,a", []any{"c", "a"}, ""},
		{pickRequest(), "posted=c", nil, "pick 2 of the items"},
		{pickRequest(), "posted=c,c", nil, "c is picked twice"},
		{pickRequest(), "posted=c,z", nil, `"z" is not one of the items`},
	} {
		choices, err := ParseChoices([]string{c.flag})
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := choices.Choose(c.req)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got error %v, want one containing %q", c.flag, err, c.err)
			}
		case err != nil || !ok:
			t.Errorf("%s: %v (answered %v)", c.flag, err, ok)
		case !reflect.DeepEqual(got, c.want):
			t.Errorf("%s: got %#v, want %#v", c.flag, got, c.want)
		}
	}
}

// TestChoicePromptMulti re-asks after an impossible split, and an empty
// line takes the default.
func TestChoicePromptMulti(t *testing.T) {
	var out strings.Builder
	p := NewChoicePrompt(bufio.NewReader(strings.NewReader("shot:1\nshot:1,slugs:2\n")), &out)
	req := splitRequest()
	req.Prompt = "Share the ammo"
	got, ok, err := p.Choose(req)
	if err != nil || !ok || !reflect.DeepEqual(got, map[string]any{"shot": 1, "shells": 0, "slugs": 2}) {
		t.Fatalf("got %v %v %v", got, ok, err)
	}
	for _, want := range []string{"share 3 among these", "add up to 1, not 3", "[default shot:3]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompt does not say %q:\n%s", want, out.String())
		}
	}
	p = NewChoicePrompt(bufio.NewReader(strings.NewReader("\n")), &out)
	if _, ok, err := p.Choose(pickRequest()); ok || err != nil {
		t.Errorf("an empty answer should take the default: %v %v", ok, err)
	}
}

// TestChooseFlagTyped: a typed answer takes the type of the default, so a
// measured distance typed as 3 is the number 3.0, not the text "3".
func TestChooseFlagTyped(t *testing.T) {
	for _, c := range []struct {
		def  any
		flag string
		want any
		err  string
	}{
		{2.5, "x=3", 3.0, ""},
		{2.5, "x=1.25", 1.25, ""},
		{2.5, "x=far", nil, "answer a number"},
		{2.5, "x=NaN", nil, "answer a number"},
		{4, "x=5", 5, ""},
		{false, "x=yes", true, ""},
		{"a", "x=b", "b", ""},
	} {
		choices, err := ParseChoices([]string{c.flag})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := choices.Choose(&ChoiceRequest{Name: "x", Default: c.def})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got error %v, want one containing %q", c.flag, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s with default %v: got %#v (%v), want %#v", c.flag, c.def, got, err, c.want)
		}
	}
}
