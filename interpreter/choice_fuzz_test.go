package interpreter

import (
	"testing"
)

// FuzzChooseAnswer: any --choose answer, to any kind of choice, is either
// refused with an error or is a possible answer: one of the options, a
// split whose counts add up, a pick of distinct items of the right number,
// or a value of the default's type. It never panics.
func FuzzChooseAnswer(f *testing.F) {
	for _, s := range []string{"ammo=shot:1,slugs:2", "posted=c,a", "x=3", "x=2.5", "x=yes", "ammo=1:3", "posted=", "x=NaN", "ammo=shot:-1,slugs:4", "posted=1,1", "ammo=shot:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, flag string) {
		choices, err := ParseChoices([]string{flag})
		if err != nil {
			return
		}
		upTo := pickRequest()
		upTo.UpTo = true
		for _, req := range []*ChoiceRequest{splitRequest(), pickRequest(), upTo,
			{Name: "x", Default: 2.5}, {Name: "x", Default: 3}, {Name: "x", Default: true}, {Name: "x", Default: "a"},
			{Name: "x", Default: "a", Options: []any{"a", "b"}}} {
			req.Name = ChoiceName(flag)
			v, ok, err := choices.Choose(req)
			if err != nil || !ok {
				continue
			}
			switch {
			case req.Multi == MultiSplit:
				m, isMap := v.(map[string]any)
				total := 0
				for _, c := range m {
					n, _ := c.(int)
					if n < 0 {
						t.Fatalf("%q: a negative count in %v", flag, m)
					}
					total += n
				}
				if !isMap || total != req.Count {
					t.Fatalf("%q: split %v does not add up to %d", flag, v, req.Count)
				}
			case req.Multi == MultiPick:
				l, isList := v.([]any)
				if !isList || (!req.UpTo && len(l) != req.Count) || len(l) > req.Count {
					t.Fatalf("%q: pick %v is not %d items", flag, v, req.Count)
				}
				seen := map[any]bool{}
				for _, x := range l {
					if seen[x] {
						t.Fatalf("%q: %v picked twice", flag, x)
					}
					seen[x] = true
				}
			case req.Options != nil:
				found := false
				for _, o := range req.Options {
					found = found || o == v
				}
				if !found {
					t.Fatalf("%q: %v is not an option", flag, v)
				}
			default:
				switch req.Default.(type) {
				case float64:
					if _, ok := v.(float64); !ok {
						t.Fatalf("%q: %#v is not a number", flag, v)
					}
				case int:
					if _, ok := v.(int); !ok {
						t.Fatalf("%q: %#v is not a whole number", flag, v)
					}
				case bool:
					if _, ok := v.(bool); !ok {
						t.Fatalf("%q: %#v is not true or false", flag, v)
					}
				}
			}
		}
	})
}
