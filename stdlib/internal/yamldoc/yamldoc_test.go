package yamldoc

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
)

var codes = Codes{Syntax: diag.CodeCatalogueSyntax, Entry: diag.CodeCatalogueEntry} // errors of these print without "error:"

// TestParse: what a data file may not be, each a problem at its line.
func TestParse(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a: [1, 2\nb: 3\n", "f.yaml:2: invalid YAML: did not find expected ',' or ']'"},
		{"a: \"open\n", "f.yaml:2: invalid YAML: found unexpected end of stream"},
		{"a: 1\n---\nb: 2\n", "f.yaml:2:1: more than one YAML document"},
		{"a: &x [1]\nb: *x\n", "f.yaml:2:4: aliases (*x) are not allowed"},
		{"a: {<<: {b: 1}}\n", "f.yaml:1:5: merge keys (<<) are not allowed"},
		{"", "f.yaml: the file is empty"},
		{"a: \x00", "f.yaml: the file is not text"},
		{strings.Repeat("- 1\n", 200), "f.yaml: the file holds too many entries: the limit is 100 YAML nodes"},
		{strings.Repeat("x", 2000), "f.yaml: the file is too large: 2000 bytes, the limit is 1000"},
	}
	for _, c := range cases {
		d := Parse("f.yaml", []byte(c.src), 1000, 100, codes)
		if d.Root != nil || len(d.Problems) == 0 || d.Problems[0].Error() != c.want && !strings.HasPrefix(d.Problems[0].Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, d.Problems, c.want)
		}
	}
}

// TestFields reads a mapping field by field, reporting unknown and
// repeated names, and reads values of each kind.
func TestFields(t *testing.T) {
	d := Parse("f.yaml", []byte("name: Gun\ncount: 3\nflag: yes\nnmae: x\nname: again\nlist: [a, b]\none: c\nnothing: null\n"), 1000, 100, codes)
	fields := d.Fields(d.Root, "top", []string{"name", "count", "flag", "list", "one", "nothing"})
	var got []string
	for _, f := range fields {
		got = append(got, f.Path)
		switch f.Name {
		case "count":
			if n, ok := d.Number(f.Value, f.Path, 0, 2); ok {
				t.Errorf("3 is within 0 to 2: %v", n)
			}
		case "flag":
			if _, ok := d.Bool(f.Value, f.Path); ok {
				t.Error("yes is not a YAML 1.2 bool")
			}
		case "list":
			if l := d.Strings(f.Value, f.Path); strings.Join(l, ",") != "a,b" {
				t.Errorf("list %v", l)
			}
		case "one":
			if l := d.Strings(f.Value, f.Path); strings.Join(l, ",") != "c" {
				t.Errorf("one %v", l)
			}
		}
	}
	if strings.Join(got, " ") != "top.name top.count top.flag top.list top.one" {
		t.Errorf("fields %v", got)
	}
	var probs []string
	for _, p := range d.Problems {
		probs = append(probs, p.Error())
	}
	want := []string{
		"f.yaml:4:1: top.nmae: unknown field; did you mean name?",
		"f.yaml:5:1: top.name: given twice (first on line 1)",
		"f.yaml:2:8: top.count: want a number from 0 to 2, got 3",
		`f.yaml:3:7: top.flag: want true or false, got "yes"`,
	}
	if strings.Join(probs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(probs, "\n"), strings.Join(want, "\n"))
	}
	if Join("a", "b c") != `a."b c"` || Index("a", 2) != "a[2]" {
		t.Error("paths")
	}
}
