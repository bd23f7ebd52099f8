package diag

import (
	"strings"
	"testing"
)

func TestDidYouMean(t *testing.T) {
	names := []string{"id", "name", "kind", "category", "status", "secondary", "stats", "weapons", "armour", "base", "x", "y"}
	for in, want := range map[string]string{
		"modles": "", "secondery": "secondary", "stauts": "stats", "x": "",
		"weapon": "weapons", "xyzzy": "", "bsae": "base", strings.Repeat("a", 1000): "",
	} {
		if got := DidYouMean(in, names); got != want {
			t.Errorf("DidYouMean(%q, model fields) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		in    string
		cands []string
		want  string
	}{
		{"volunteer", []string{"voluntary", "helper"}, "voluntary"}, // 3 edits in 9 letters
		{"a", []string{"c"}, ""},                                    // as far as it is long
		{"ab", []string{"cd"}, ""},
		{"abc", []string{"abd", "abe"}, "abd"}, // ties: the first in order
		{"abc", []string{"abe", "abd"}, "abd"},
		{"same", []string{"same"}, ""}, // never itself
		{"lasting_injury", []string{"lasting_injurys", "lasting_injuries"}, "lasting_injurys"},
		{"", []string{"a"}, ""},
	} {
		if got := DidYouMean(c.in, c.cands); got != c.want {
			t.Errorf("DidYouMean(%q, %q) = %q, want %q", c.in, c.cands, got, c.want)
		}
	}
}

// One wording of a did-you-mean, wherever it is.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		msg, name string
		cands     []string
		want      string
	}{
		{"unknown field", "modles", []string{"models", "name"}, "unknown field; did you mean models?"},
		{"unknown procedure \"end-phse\"", "end-phse", []string{"end-phase"}, "unknown procedure \"end-phse\"; did you mean end-phase?"},
		{"no gang has the id \"the gang\"", "the gang", []string{"the gangs"}, "no gang has the id \"the gang\"; did you mean \"the gangs\"?"},
		{"unknown field", "xyzzy", []string{"models"}, "unknown field"},
	} {
		if got := Suggest(c.msg, c.name, c.cands); got != c.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", c.msg, c.name, got, c.want)
		}
	}
	if got := Suggestion("stauts", []string{"status"}); got != "did you mean status?" {
		t.Errorf("Suggestion = %q", got)
	}
	d := (&Diagnostic{Summary: "unknown dice d7"}).Suggest("d7", []string{"d6", "d3"})
	if d.Summary != "unknown dice d7; did you mean d3?" {
		t.Errorf("Diagnostic.Suggest: %q", d.Summary)
	}
}
