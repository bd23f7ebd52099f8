package catalogue

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/munda-rules/munda/rulesets"
)

// FuzzRead checks Read never panics, fails only with diagnostics placed in
// the file, and that what it reads builds without a panic. Crashers found
// are kept in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add([]byte(sample))
	entries, _ := fs.ReadDir(rulesets.FS, rulesets.CatalogueDir(""))
	for _, e := range entries {
		data, err := fs.ReadFile(rulesets.FS, rulesets.CatalogueDir("")+"/"+e.Name())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("weapons:\n  - {name: Gun, profiles: {a: {s: 1, d: 1}, b: {s: S+1, d: \"-\"}}}\naliases: {G: [gun.a, gun]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, diags := Read("fuzz.yaml", data)
		for _, d := range diags {
			if d.Subject == nil || d.Subject.Filename != "fuzz.yaml" || !strings.HasPrefix(d.Code, "catalogue_") {
				t.Fatalf("a problem not of the catalogue, or not placed: %#v", d)
			}
		}
		if (file == nil) == (len(diags) == 0) {
			t.Fatalf("file %v with %d problems", file != nil, len(diags))
		}
		if file != nil {
			c, _ := Build([]*File{file}, []*File{file})
			for _, n := range c.Names() {
				if _, ok := c.Lookup(n); !ok && c.Key(n) != "" {
					t.Fatalf("the name %q is listed but not found", n)
				}
			}
		}
	})
}
