package rulesets_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// Every feature that runs has at least two test blocks of its pack: one
// where it changes the outcome and one where it is in force but does not
// apply. Which is which is found by running a test again with the feature
// taken away from every model and weapon of its starting state: a test
// that then fails needed the feature (it changed the outcome: a result, a
// message, a die rolled or not); one that still passes had it in force
// for nothing. The tests tried for a feature are those whose state gives
// it: those named after it first ("Dodge: …"), then those whose text
// names it, then the others, in file order, until one of each kind is
// found (or maxTries). A wyrd power needs two tests, one where it changes
// the outcome: see below.
func TestFeaturesHaveTests(t *testing.T) {
	feats, read, grantedOnly := shippedFeatures(t)
	runs, err := shippedTestRuns()
	if err != nil {
		t.Fatal(err)
	}
	type candidate struct {
		run *packTestRun
		i   int
	}
	candidates := map[string][]candidate{} // "dir|kind id"
	for ri := range runs {
		run := &runs[ri]
		for i := range run.tests {
			if !run.results[i].Passed {
				continue // TestShippedRuleTests says why
			}
			for key := range run.held[i] {
				k := run.dir + "|" + key
				candidates[k] = append(candidates[k], candidate{run, i})
			}
		}
	}
	reruns := 0
	var problems []string
	for _, f := range feats {
		key := f.kind + " " + f.id
		if !f.runs(read) || !f.effects && grantedOnly[key] {
			// Text only; or a condition that rules grant while something
			// else holds (Flesh Wound while flesh_wounds > 0): a state
			// cannot take it away, and the tests of what grants it are
			// its tests.
			continue
		}
		var changes, idle string
		cands := candidates[packDirOf(f.at)+"|"+f.kind+" "+f.id]
		// Tests named after the feature first ("Dodge: a 6 dodges…"),
		// then those whose text names it: they are the ones written for it.
		title := strings.ToLower(strings.TrimPrefix(f.title, f.kind+" "))
		title, _, _ = strings.Cut(title, " (") // "Blast (3\")"
		// Ranked once per candidate, not per comparison: a test's text
		// is read from its file and searched.
		named := wordRegexp(f.id)
		rank := map[candidate]int{}
		for _, c := range cands {
			name := strings.ToLower(c.run.results[c.i].Name)
			switch {
			case strings.HasPrefix(name, title):
				rank[c] = 0
			case named.MatchString(testText(c.run.tests[c.i])) || strings.Contains(name, title):
				rank[c] = 1
			default:
				rank[c] = 2
			}
		}
		sort.Slice(cands, func(i, j int) bool { // file order, for a stable choice
			if cands[i].run != cands[j].run {
				return cands[i].run.dir < cands[j].run.dir
			}
			return cands[i].i < cands[j].i
		})
		sort.SliceStable(cands, func(i, j int) bool { return rank[cands[i]] < rank[cands[j]] })
		for n, c := range cands {
			if changes != "" && idle != "" || n == maxTries {
				break
			}
			res := interpreter.RunTestsWith(c.run.prog, c.run.tests[c.i:c.i+1], c.run.programFor,
				interpreter.TestOptions{States: testStates, Prepare: func(_ *dsl.TestInfo, st *state.State) { takeAway(st, f.kind, f.id) }})[0]
			reruns++
			switch {
			case !res.Passed && changes == "":
				changes = res.Name
			case res.Passed && idle == "":
				idle = res.Name
			}
		}
		switch {
		case changes == "" && idle == "":
			problems = append(problems, fmt.Sprintf("%s: %s %s has no test that gives it", f.at, f.kind, f.id))
		case changes == "":
			problems = append(problems, fmt.Sprintf("%s: %s %s: no test in which it changes the outcome (every test that gives it passes without it, e.g. %q)", f.at, f.kind, f.id, idle))
		case idle == "" && f.kind == "power":
			// A power runs when a psyker manifests it: without it, the
			// Wyrd Power action itself cannot run, so a test where it is
			// manifested but its rule does not apply (a target out of
			// range) fails without it too. Two tests are asked for.
			if len(cands) < 2 {
				problems = append(problems, fmt.Sprintf("%s: %s %s: only one test gives it (%q)", f.at, f.kind, f.id, changes))
			}
		case idle == "":
			problems = append(problems, fmt.Sprintf("%s: %s %s: no test in which it is in force but does not apply (every test that gives it fails without it, e.g. %q)", f.at, f.kind, f.id, changes))
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d features, %d tests run again", len(feats), reruns)
}

// maxTries bounds the tests run again per feature, to keep this test fast.
const maxTries = 8

// wordRegexp matches id as a word of its own.
func wordRegexp(id string) *regexp.Regexp {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`)
}

// takeAway removes a feature from every model and weapon of a state.
func takeAway(st *state.State, kind, id string) {
	drop := func(list []string) []string {
		out := list[:0:0]
		for _, x := range list {
			if name, _, _ := strings.Cut(x, "("); strings.TrimSpace(name) != id {
				out = append(out, x)
			}
		}
		return out
	}
	for _, g := range st.Gangs {
		for _, m := range g.Models {
			switch kind {
			case "skill":
				m.Skills = drop(m.Skills)
			case "power":
				m.Powers = drop(m.Powers)
			case "condition":
				m.Conditions = drop(m.Conditions)
			case "trait":
				for _, w := range m.Weapons {
					w.Traits = drop(w.Traits)
				}
			}
		}
	}
}

// packDirOf gives the pack directory of a feature's "rulesets/DIR/file:line".
func packDirOf(at string) string {
	rest := strings.TrimPrefix(at, "rulesets/")
	for _, dir := range rulesets.Dirs() {
		if strings.HasPrefix(rest, dir+"/") {
			return dir
		}
	}
	return ""
}

// featuresOf gives the features ("kind id") a state gives its models
// and their weapons.
func featuresOf(st *state.State) map[string]bool {
	out := map[string]bool{}
	add := func(kind string, ids []string) {
		for _, id := range ids {
			id, _, _ = strings.Cut(id, "(")
			out[kind+" "+strings.TrimSpace(id)] = true
		}
	}
	for _, g := range st.Gangs {
		for _, m := range g.Models {
			add("skill", m.Skills)
			add("power", m.Powers)
			add("condition", m.Conditions)
			for _, w := range m.Weapons {
				add("trait", w.Traits)
			}
		}
	}
	return out
}

// testText is a test block's own text.
func testText(ti *dsl.TestInfo) string {
	name := strings.TrimPrefix(ti.Decl.Pos.Filename, "rulesets/")
	src, err := fs.ReadFile(rulesets.FS, name)
	if err != nil || ti.Decl.EndPos.Offset > len(src) || ti.Decl.Pos.Offset > ti.Decl.EndPos.Offset {
		return ""
	}
	return string(src[ti.Decl.Pos.Offset:ti.Decl.EndPos.Offset])
}
