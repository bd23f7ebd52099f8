package diag

import "strings"

// Suggestion is "did you mean x?" for the candidate closest to name (see
// DidYouMean), or "" when none is close. It is the one wording of a
// did-you-mean: the rules' checker, the state reader, the interpreter and
// the command line all suggest through it (or Suggest, which appends it).
// A name that is not a plain identifier is quoted.
func Suggestion(name string, candidates []string) string {
	s := DidYouMean(name, candidates)
	if s == "" {
		return ""
	}
	return "did you mean " + quoteName(s) + "?"
}

// Suggest appends "; did you mean x?" to msg when a candidate is close to
// name, and returns msg as it is otherwise.
func Suggest(msg, name string, candidates []string) string {
	if s := Suggestion(name, candidates); s != "" {
		return msg + "; " + s
	}
	return msg
}

// quoteName quotes a name unless it is a plain identifier (letters,
// digits, _ - .), as ids, fields and flags are.
func quoteName(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// DidYouMean returns the candidate closest to name, or "" when none is close
// enough to be a typo of it. Close enough is an edit distance of at most
// about a third of the name's length (at least 2), and less than the name's
// length: "volunteer" finds "voluntary", but "c" does not find "a". Ties go
// to the candidate that sorts first, so suggestions are deterministic.
//
// It lives here, the lowest package, so that state errors, rule diagnostics
// and the CLI all suggest alike.
func DidYouMean(name string, candidates []string) string {
	limit := max(2, len(name)/3)
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(name, c, limit+1)
		if d >= len(name) {
			continue
		}
		if d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (names from files may be long).
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
