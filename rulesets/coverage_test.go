package rulesets_test

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// How much of the shipped rules runs. Every skill, weapon trait, wyrd
// power and condition a shipped pack declares either runs (it has
// effects, or the rules read it: has_skill, has_condition, trait_value, a
// grant or prevent of it, `"id" in m.conditions`), or says why it is only
// text with `text_only "REASON"`; a reason starting "no rule in the
// sources" counts apart. A feature with neither fails the test. Reads in
// house packs do not count: a house rule's use of a feature is not the
// feature's own rule running.

var coverageKinds = []string{"skill", "trait", "power", "condition"}

const noRulePrefix = "no rule in the sources"

type coverageFeature struct {
	kind, id, at string
	title        string // as the run's events name it: "skill Dodge"
	effects      bool
	marker       *syntax.TextOnly
}

// shippedFeatures parses every shipped pack's features (not its tests),
// and finds the features the rulesets' own rules read, and those they
// only grant (a condition a rule gives while a count is above 0).
func shippedFeatures(t *testing.T) (feats []*coverageFeature, read map[string]bool, grantedOnly map[string]bool) {
	t.Helper()
	var ruleText strings.Builder
	for _, dir := range rulesets.Dirs() {
		err := fs.WalkDir(rulesets.FS, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "tests" {
				return fs.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".munda") {
				return nil
			}
			src, err := fs.ReadFile(rulesets.FS, p)
			if err != nil {
				return err
			}
			file, diags := syntax.Parse(path.Join("rulesets", p), src)
			if diags.HasErrors() {
				return fmt.Errorf("%s: %v", p, diags)
			}
			// A house rule that reads a feature (the optional Impetuous
			// rule asks has_skill "impetuous") does not make the feature
			// itself run: only the rulesets' own reads count.
			if !strings.HasPrefix(dir, "house/") {
				ruleText.Write(src)
				ruleText.WriteByte('\n')
			}
			for _, decl := range file.Decls {
				if r, ok := decl.(*syntax.Replace); ok {
					decl = r.Decl
				}
				f, ok := decl.(*syntax.Feature)
				if !ok || !isCoverageKind(f.Kind) {
					continue
				}
				feats = append(feats, &coverageFeature{
					kind:    f.Kind,
					id:      f.ID.Name,
					title:   f.Kind + " " + f.Title.Value(),
					at:      fmt.Sprintf("rulesets/%s:%d", p, f.Pos.Line),
					effects: hasEffects(f.Items),
					marker:  syntax.TextOnlyOf(f.Items),
				})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read = readFeatures(ruleText.String())
	grantedOnly = map[string]bool{}
	for _, m := range grantOf.FindAllStringSubmatch(ruleText.String(), -1) {
		grantedOnly[m[1]+" "+m[2]] = true
	}
	for key := range readFeatures(grantOf.ReplaceAllString(ruleText.String(), "")) {
		delete(grantedOnly, key)
	}
	return feats, read, grantedOnly
}

func TestFeatureCoverage(t *testing.T) {
	feats, read, _ := shippedFeatures(t)

	type figures struct{ runs, textOnly, noRule, missing int }
	counts := map[string]*figures{}
	for _, k := range coverageKinds {
		counts[k] = &figures{}
	}
	var missing []string
	for _, f := range feats {
		key := f.kind + " " + f.id
		c := counts[f.kind]
		switch {
		case f.runs(read):
			c.runs++
		case f.marker != nil && strings.HasPrefix(f.marker.Reason.Value(), noRulePrefix):
			c.noRule++
		case f.marker != nil:
			c.textOnly++
		default:
			c.missing++
			missing = append(missing, fmt.Sprintf("%s: %s has neither effects nor a text_only marker with a reason", f.at, key))
		}
	}
	for _, k := range coverageKinds {
		c := counts[k]
		t.Logf("%-9s %3d: %3d run, %3d text only, %3d no rule in the sources, %3d neither", k+"s", c.runs+c.textOnly+c.noRule+c.missing, c.runs, c.textOnly, c.noRule, c.missing)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	checkReadmeFigures(t, func(kind string) [4]int {
		c := counts[kind]
		return [4]int{c.runs + c.textOnly + c.noRule + c.missing, c.runs, c.textOnly, c.noRule}
	})
}

// readmeRows are the README's coverage table's rows, by kind.
var readmeRows = map[string]string{"skill": "skills", "trait": "weapon traits", "power": "wyrd powers", "condition": "conditions"}

// checkReadmeFigures keeps the README's coverage table (declared | run |
// text only | no rule in the sources) in step with the rule files.
func checkReadmeFigures(t *testing.T, counted func(kind string) [4]int) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range coverageKinds {
		row := regexp.MustCompile(`(?m)^\s*\| ` + regexp.QuoteMeta(readmeRows[kind]) + ` \| (\d+) \| (\d+) \| (\d+) \| (\d+)\b`).FindStringSubmatch(string(readme))
		if row == nil {
			t.Errorf("README.md: no coverage row for %s (| %s | declared | run | text only | no rule |)", kind, readmeRows[kind])
			continue
		}
		want := counted(kind)
		var got [4]int
		for i := range got {
			got[i], _ = strconv.Atoi(row[i+1])
		}
		if got != want {
			t.Errorf("README.md: the coverage row for %s says %v (declared, run, text only, no rule), the rule files %v: update the README", readmeRows[kind], got, want)
		}
	}
}

// runs reports whether a feature runs: it has effects, or the rules read
// it and it does not say it is text only (a grant of Clamber by a power
// does not make Clamber run).
func (f *coverageFeature) runs(read map[string]bool) bool {
	return f.effects || f.marker == nil && read[f.kind+" "+f.id]
}

func isCoverageKind(k string) bool {
	for _, c := range coverageKinds {
		if c == k {
			return true
		}
	}
	return false
}

// hasEffects reports whether a feature's items change anything.
func hasEffects(items []syntax.FeatureItem) bool {
	for _, it := range items {
		switch it.(type) {
		case *syntax.Modify, *syntax.Hook, *syntax.On, *syntax.Reroll, *syntax.ExtraDice, *syntax.Override, *syntax.Grant, *syntax.Prevent:
			return true
		}
	}
	return false
}

var (
	hasCall    = regexp.MustCompile(`\bhas_(skill|trait|power|condition)\([^;{}]*?,\s*"(\w+)"\s*\)`)
	traitValue = regexp.MustCompile(`\btrait_value\([^;{}]*?,\s*"(\w+)"\s*\)`)
	grantOf    = regexp.MustCompile(`\b(?:grant|prevent)\s+(skill|trait|power|condition)\s+(\w+)`)
	inList     = regexp.MustCompile(`"(\w+)"\s+in\s+[\w.()"]*\.(skills|traits|powers|conditions)\b`)
)

// readFeatures finds the features the rules read or grant, as "KIND ID".
func readFeatures(src string) map[string]bool {
	out := map[string]bool{}
	for _, m := range hasCall.FindAllStringSubmatch(src, -1) {
		out[m[1]+" "+m[2]] = true
	}
	for _, m := range traitValue.FindAllStringSubmatch(src, -1) {
		out["trait "+m[1]] = true
	}
	for _, m := range grantOf.FindAllStringSubmatch(src, -1) {
		out[m[1]+" "+m[2]] = true
	}
	for _, m := range inList.FindAllStringSubmatch(src, -1) {
		out[strings.TrimSuffix(m[2], "s")+" "+m[1]] = true
	}
	return out
}

// The README's Variants section lists every shipped house pack and each of
// its rules by the name --house takes (house/aa, aa.rewards_cap).
func TestReadmeListsHouseRules(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	packs, diags := rulesets.HousePacks(nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, p := range packs {
		for _, h := range p.Houses {
			if !strings.Contains(string(readme), "`house/"+h.ID.Name+"`") {
				t.Errorf("README.md does not list the house pack `house/%s`", h.ID.Name)
			}
			for _, r := range h.Rules() {
				if id := h.ID.Name + "." + r.ID.Name; !strings.Contains(string(readme), "`"+id+"`") {
					t.Errorf("README.md does not list the house rule `%s`", id)
				}
			}
		}
	}
}
