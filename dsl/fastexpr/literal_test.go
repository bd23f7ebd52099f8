package fastexpr

import "testing"

// TestTextLiteralEquals compares the word-wise equality with == on texts
// of every length around the words' bounds, equal or differing at each
// byte.
func TestTextLiteralEquals(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz"
	for n := 0; n <= 20; n++ {
		lit := alphabet[:n]
		l := newTextLiteral(lit)
		if !l.equals(string([]byte(lit))) {
			t.Errorf("%q: a copy is not equal", lit)
		}
		for i := 0; i < n; i++ {
			b := []byte(lit)
			b[i] = 'Z'
			if l.equals(string(b)) {
				t.Errorf("%q: equal to %q", lit, b)
			}
		}
		for _, other := range []string{alphabet[:max(n-1, 0)], alphabet[:min(n+1, len(alphabet))], ""} {
			if l.equals(other) != (other == lit) {
				t.Errorf("%q equals %q: %v", lit, other, l.equals(other))
			}
		}
	}
}

// TestBoxInt: an int boxed from the table of small negative ints is the
// int boxed by Go, at and around the table's bounds.
func TestBoxInt(t *testing.T) {
	for v := -300; v <= 300; v++ {
		if got, ok := boxInt(v).(int); !ok || got != v {
			t.Errorf("boxInt(%d) = %v", v, boxInt(v))
		}
	}
}
