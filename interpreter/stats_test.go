package interpreter

import (
	"regexp"
	"strings"
	"testing"
)

// goStatReads are the lines of Go code that read a model's
// characteristics or skills (or call what does), each with the
// statement or built-in stats.go attributes it to. A line not listed
// fails TestGoReadsOfStatsAttributed: attribute it in stats.go (or make
// the field always hashed) and list it here.
var goStatReads = []struct{ file, text, by string }{
	{"interpreter/rolls.go", "value := ci.Value(m)", "a test of the characteristic"},
	{"interpreter/rolls.go", "r.stat(m, ci.FieldName)", "a test of the characteristic"},
	{"interpreter/exec.go", "old := ci.Value(m)", "improve, worsen"},
	{"interpreter/exec.go", "ci.Changed(m, s.Dir", "improve, worsen"},
	{"interpreter/anyroll.go", "listed := listedBy(kind)", "an effect of a skill (anyHolder)"},
	{"interpreter/anyroll.go", "r.holdsGranted(m, kind, id, granted)", "an effect of a skill (anyHolder)"},
	{"interpreter/anyroll.go", "r.holdsGranted(w, kind, id, granted)", "an effect of a trait (anyHolder)"},
	{"interpreter/anyroll.go", "func listedBy(kind string)", "an effect of a skill"},
	{"interpreter/anyroll.go", "return m.Skills", "an effect of a skill"},
	{"interpreter/writesgated.go", `}{{"skill", m.Skills}, {"power", m.Powers}`, "none: whether the effects of a feature may fire, for Checkpoint.Decided, which asks the question of the state where a run stops (runs merged there end alike)"},
	{"interpreter/anyheld.go", "listedBy(info.Feature.Kind) == nil", "none: the program asks whether a kind of feature is a model's list, of no model"},
	{"interpreter/holds.go", "func (r *runner) Holds(", "has_skill"},
	{"interpreter/holds.go", "func (r *runner) Stat(", "stat"},
	{"interpreter/holds.go", "r.holdsGranted(x, kind, id, r.p.grants[kind][id])", "has_skill, an effect of a skill"},
	{"interpreter/holds.go", "func (r *runner) holdsGranted(", "has_skill, an effect of a skill"},
	{"interpreter/holds.go", "stdlib.Listed(x, kind, id)", "has_skill, an effect of a skill"},
	{"interpreter/holds.go", "r.holds(holder, ft.Kind, ft.ID.Name)", "an effect of a skill (heldBy)"},
	{"interpreter/holds.go", "stdlib.BaseStat(x, field)", "stat, a test"},
	{"interpreter/holds.go", "r.holdsGranted(w, kind, id, grants)", "an effect of a trait (candidates, as any)"},
	{"interpreter/holds.go", "r.holdsGranted(m, kind, id, grants)", "an effect of a skill (candidates, as any)"},
	{"interpreter/holds.go", "r.holdsGranted(x, kind, id, ef.grants)", "an effect of a skill (effectApplies)"},
	{"interpreter/holds.go", "listed := listedBy(kind)", "an effect of a skill (effectApplies, as any)"},
	{"dsl/characteristic.go", "reflect.TypeOf(state.Stats{})", "the checker: the fields of characteristics"},
	{"dsl/characteristic.go", "reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).Int()", "CharInfo.Value: a test, a change, can_improve"},
	{"dsl/characteristic.go", "reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).SetInt", "CharInfo.SetValue: a write"},
	{"dsl/characteristic.go", "v := ci.Value(m)", "CharInfo.Changed: a change, can_improve"},
	{"dsl/function.go", "ci.Changed(m, improve, 1)", "can_improve, can_worsen"},
	{"stdlib/functions.go", "st.Effects.Stat(args[1], field)", "stat"},
	{"stdlib/functions.go", "return BaseStat(args[1], field)", "stat"},
	{"stdlib/functions.go", "st.Effects.Holds(x, kind, id)", "has_skill"},
	{"stdlib/functions.go", "return Listed(x, kind, id), nil", "has_skill"},
	{"stdlib/functions.go", "func Listed(", "has_skill, an effect of a skill"},
	{"stdlib/functions.go", "contains(x.Skills, id)", "has_skill, an effect of a skill"},
	{"stdlib/functions.go", "func BaseStat(", "stat, a test"},
	{"stdlib/functions.go", "x.Stat(field)", "stat, a test"},
	{"stdlib/state/effective.go", "var statIndex", "Model.Stat: stat, a test"},
	{"stdlib/state/effective.go", "reflect.TypeOf(Stats{})", "Model.Stat: stat, a test"},
	{"stdlib/state/effective.go", "i, ok := statIndex[field]", "Model.Stat: stat, a test"},
	{"stdlib/state/effective.go", "reflect.ValueOf(&m.Stats).Elem().Field(i).Int()", "Model.Stat: stat, a test"},
}

// TestGoReadsOfStatsAttributed fails when Go code that may run while
// rules run reads a model's characteristics or skills (the fields, or
// the functions that read them) where goStatReads does not say which
// statement or built-in it is: the liveness (stats.go) would not see the
// read, and a hash could leave out what it reads. The state's loading,
// saving and validating, the hashing, and the attribution itself are
// not reads of a run.
func TestGoReadsOfStatsAttributed(t *testing.T) {
	reads := regexp.MustCompile(`\.Stats\b|\.Skills\b|Stats\{\}|\.Stat\(|\.stat\(|BaseStat\(|ci\.Value\(|\.Changed\(|\bListed\(|\.holds\(|holdsGranted\(|listedBy\(|\.Holds\(|statIndex`)
	// Files, not rules' reads of a state; the type named, not read.
	notFiles := regexp.MustCompile(`\b(os|fs)\.Stat\(|\bf\.Stat\(\)|\bstate\.Stats([^{]|$)`)
	except := map[string]bool{
		"interpreter/checkpoint.go": true, "interpreter/statehash.go": true, "interpreter/fields.go": true,
		"interpreter/stats.go": true, "interpreter/resume.go": true,
		"stdlib/state/decode.go": true, "stdlib/state/encode.go": true, "stdlib/state/validate.go": true,
		"stdlib/state/buffer.go": true,
	}
	skip := []string{"stdlib/yaktribe", "dsl/lsp", "dsl/ruledoc"}
	used := make([]bool, len(goStatReads))
	eachGoLine(t, skip, except, func(rel string, n int, line string) {
		if !reads.MatchString(notFiles.ReplaceAllString(line, "")) {
			return
		}
		for i, r := range goStatReads {
			if r.file == rel && strings.Contains(line, r.text) {
				used[i] = true
				return
			}
		}
		t.Errorf("%s:%d reads a model's characteristics or skills: attribute it to what makes it in stats.go and list it in goStatReads\n\t%s", rel, n, strings.TrimSpace(line))
	})
	for i, r := range goStatReads {
		if !used[i] {
			t.Errorf("goStatReads lists %s %q, which no line has: take it out", r.file, r.text)
		}
	}
}
