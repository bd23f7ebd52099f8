package state

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// awkward are strings YAML writers are known to get wrong.
var awkward = []string{
	"", " ", "  lead", "trail  ", "yes", "No", "ON", "off", "y", "n", "null", "Null", "~", "true", "False",
	"-", "--", "---", "...", "- x", "? x", ": x", "a: b", "a #b", "#c", "[x]", "{x}", "x, y", "&a", "*a", "!t", "|", ">",
	"%YAML", "@x", "`x", "'", "''", "\"", "\\", "\\n", "0", "007", "010", "0x1F", "0o17", "0b11", "1_000", "+1", "-1",
	"1e3", ".5", "1.", ".inf", "-.Inf", ".NaN", "12:30", "1:2:3", "2001-12-14", "=", "<<",
	"\t", "a\tb", "\n", "a\nb", "a\n", "\r", "a\r\nb", "\x00", "\x07", "\x1b[31m", "\x7f", "\u0085", "\u00a0", "\u2028", "\u2029",
	"\ufeff", "\ufffd", "é", "😀", "ÿ", "日本語", "S+1", "4+", "5\"",
}

func randString(r *rand.Rand) string {
	s := awkward[r.IntN(len(awkward))]
	if r.IntN(3) == 0 {
		s += awkward[r.IntN(len(awkward))]
	}
	return s
}

func randStrings(r *rand.Rand) []string {
	n := r.IntN(4)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = randString(r)
	}
	return out
}

// randID is a random id, or "": gang ids of a campaign are ids, not any text.
func randID(r *rand.Rand) string {
	const chars = "abcxyzAZ019_-"
	b := make([]byte, r.IntN(6))
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

func randIDs(r *rand.Rand) []string {
	var out []string
	for range r.IntN(3) {
		if id := randID(r); id != "" {
			out = append(out, id)
		}
	}
	return out
}

func randFloat(r *rand.Rand) float64 {
	switch r.IntN(5) {
	case 0:
		return 0
	case 1:
		return float64(r.IntN(60))
	case 2:
		return r.Float64() * 48
	case 3:
		return -r.Float64() * 1e-3
	}
	return math.Round(r.NormFloat64()*1e5) / 7
}

// randState is a random valid state.
func randState(r *rand.Rand) *State {
	st := &State{Battle: Battle{Round: r.IntN(10), Phase: randString(r), Scenario: randString(r), Rules: randStrings(r),
		Ended: r.IntN(2) == 0, EndReason: randString(r)}}
	for i := range r.IntN(3) {
		st.Battle.Markers = append(st.Battle.Markers, &Marker{ID: randString(r) + string(rune('a'+i)), Kind: "k" + randString(r), X: randFloat(r), Y: randFloat(r), Radius: math.Abs(randFloat(r))})
	}
	id := 0
	next := func() string { id++; return randString(r) + "#" + string(rune('A'+id%26)) + string(rune('a'+id/26)) }
	for range 1 + r.IntN(3) {
		g := &Gang{ID: next(), Name: randString(r), House: randString(r), StartingCrew: r.IntN(10), EligibleModels: r.IntN(12),
			Bottled: r.IntN(2) == 0, Reputation: r.IntN(40) - 5, Credits: r.IntN(500), Stash: randStrings(r)}
		var vehicle string
		for range r.IntN(4) {
			m := &Model{ID: next(), Name: randString(r), Kind: "fighter", Category: randString(r), Type: randString(r), Group: randString(r),
				Cost: r.IntN(300), Joined: r.IntN(2) == 0, Conditions: randStrings(r), Skills: randStrings(r), Rules: randStrings(r),
				Marks: randStrings(r), Terrain: randStrings(r), X: randFloat(r), Y: randFloat(r), Base: 25 + float64(r.IntN(4))*7.5,
				XP: r.IntN(30), Kills: r.IntN(9), LastingInjuries: randStrings(r), Enmities: randIDs(r), Dead: r.IntN(5) == 0, CapturedBy: randID(r)}
			m.Stats = Stats{M: r.IntN(9), WS: r.IntN(13), BS: r.IntN(13), S: r.IntN(7), T: r.IntN(7), W: r.IntN(4), I: r.IntN(13), A: r.IntN(4),
				Ld: r.IntN(13), Cl: r.IntN(13), Wil: r.IntN(13), Int: r.IntN(13)}
			switch r.IntN(4) {
			case 0:
				m.Status = "standing"
				m.Secondary = []string{"active", "engaged"}[r.IntN(2)]
			case 1:
				m.Status = "prone"
				m.Secondary = []string{"pinned", "seriously_injured"}[r.IntN(2)]
			case 2:
				m.Status = "out_of_action"
			case 3:
				m.Kind, m.Status = "vehicle", "mobile"
				m.Stats.Front, m.Stats.HP, m.Stats.Hnd, m.Stats.Sv = r.IntN(11), r.IntN(9), r.IntN(13), r.IntN(7)
				if r.IntN(2) == 0 {
					m.Status, m.Secondary = "stationary", []string{"stalled", "wrecked"}[r.IntN(2)]
				}
				vehicle = m.ID
			}
			if m.Kind == "fighter" && vehicle != "" && r.IntN(2) == 0 {
				m.Aboard = vehicle
			}
			for range r.IntN(3) {
				w := &Weapon{ID: randString(r), Name: randString(r), RangeShort: r.IntN(20), RangeLong: r.IntN(40), AccShort: r.IntN(5) - 2, AccLong: r.IntN(5) - 2,
					S: r.IntN(6), AP: -r.IntN(4), D: r.IntN(4), Am: r.IntN(7), Traits: randStrings(r), Damaged: r.IntN(4) == 0}
				if r.IntN(3) == 0 {
					w.UserStrength, w.S = true, r.IntN(5)-2
				}
				if r.IntN(4) == 0 {
					w.NoDamage, w.D = true, 0
				}
				if r.IntN(8) == 0 { // a weapon an import found in no catalogue
					w = &Weapon{ID: w.ID, Name: w.Name, NoProfile: true, Damaged: w.Damaged}
				}
				m.Weapons = append(m.Weapons, w)
			}
			if r.IntN(2) == 0 {
				m.Armour = []*Armour{{ID: randString(r), Name: randString(r), Save: r.IntN(7), Field: r.IntN(2) == 0}}
			}
			g.Models = append(g.Models, m)
		}
		st.Gangs = append(st.Gangs, g)
	}
	if r.IntN(2) == 0 {
		st.Battle.Priority = st.Gangs[r.IntN(len(st.Gangs))].ID
	}
	// A marker may belong to a model that placed it.
	for _, mk := range st.Battle.Markers {
		if g := st.Gangs[r.IntN(len(st.Gangs))]; len(g.Models) > 0 && r.IntN(2) == 0 {
			mk.Owner = g.Models[r.IntN(len(g.Models))].ID
		}
	}
	st.link()
	return st
}

// TestRoundTripRandom round-trips random valid states full of awkward
// strings and numbers, in both formats.
func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 500
	if testing.Short() {
		n = 50
	}
	for i := range n {
		st := randState(r)
		if err := Validate(st); err != nil {
			t.Fatalf("state %d is invalid: %v", i, err)
		}
		if c := st.Clone(); !reflect.DeepEqual(st, c) {
			t.Fatalf("state %d: clone differs", i)
		}
		for _, format := range []string{"yaml", "json"} {
			out, err := Encode(st, format)
			if err != nil {
				t.Fatalf("state %d: %v", i, err)
			}
			back, err := Decode("random."+format, out)
			if err != nil {
				t.Fatalf("state %d, %s: %v\n%s", i, format, err, out)
			}
			if !reflect.DeepEqual(st, back) {
				t.Fatalf("state %d: %s round trip differs at %s:\n%s", i, format, firstDiff(reflect.ValueOf(st), reflect.ValueOf(back), "state"), out)
			}
		}
	}
}

// firstDiff is the path of the first difference between a and b, or "".
func firstDiff(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		return path
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).Tag.Get("json") == "-" {
				continue
			}
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s (len %d nil %v, len %d nil %v)", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %#v != %#v", path, a.Interface(), b.Interface())
		}
	}
	return ""
}
