package diag

import "testing"

func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"Kontrola morálky", "Kontrola morálky"},
		{"tab\tkept", "tab\tkept"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"line\rhidden", `line\rhidden`},
		{"new\nline", `new\nline`},
		{"bell\a", `bell\a`},
		{"bad \xff byte", `bad \xff byte`},
		{"rtl \u202eevil", `rtl \u202eevil`},
		{"c1 \u0085", `c1 \u0085`},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
