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
