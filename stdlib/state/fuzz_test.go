package state

import (
	"bytes"
	"errors"
	"github.com/munda-rules/munda/dsl/diag"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode checks Decode never panics, fails only with diag.Diagnostics, and
// that what it reads survives Encode and Decode again, in both formats.
// Crashers found are kept in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, path := range exampleFiles(f) {
		data := mustRead(f, path)
		f.Add(data)
		st, err := Decode(path, data)
		if err != nil {
			f.Fatal(err)
		}
		js, err := Encode(st, "json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(js)
	}
	f.Add([]byte(base))
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 20 {
		out, err := Encode(randState(r), []string{"yaml", "json"}[i%2])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(out)
	}
	for _, c := range errorCases(f) {
		if len(c.input) <= 1<<16 {
			f.Add([]byte(c.input))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Decode("fuzz.yaml", data)
		if err != nil {
			var ds diag.Diagnostics
			if !errors.As(err, &ds) || len(ds) == 0 || len(ds) > MaxProblems+1 {
				t.Fatalf("want diag.Diagnostics with 1 to %d problems, got %T: %v", MaxProblems+1, err, err)
			}
			if st != nil {
				t.Fatal("a state with an error")
			}
			for _, p := range ds {
				if p.Code == diag.CodeStateInternal || !strings.HasPrefix(p.Code, "state_") {
					t.Fatalf("Decode recovered from a panic, or a problem has no state code: %v", err)
				}
			}
			return
		}
		if c := st.Clone(); !reflect.DeepEqual(st, c) {
			t.Fatal("clone differs")
		}
		for _, format := range []string{"yaml", "json"} {
			out, err := Encode(st, format)
			if err != nil {
				t.Fatalf("encode %s: %v", format, err)
			}
			back, err := Decode("fuzz."+format, out)
			if err != nil {
				t.Fatalf("decode of encoded %s: %v\n%s", format, err, out)
			}
			if !reflect.DeepEqual(st, back) {
				t.Fatalf("%s round trip differs:\n%s", format, out)
			}
			if again, err := Encode(back, format); err != nil || !bytes.Equal(out, again) {
				t.Fatalf("%s encoding not stable: %v", format, err)
			}
		}
	})
}
