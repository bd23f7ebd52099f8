package rulesets_test

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
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
// sources" counts apart. A feature with neither fails the test.
//

var coverageKinds = []string{"skill", "trait", "power", "condition"}

const noRulePrefix = "no rule in the sources"

type coverageFeature struct {
	kind, id, at string
	effects      bool
	marker       *syntax.TextOnly
}

func TestFeatureCoverage(t *testing.T) {
	var feats []*coverageFeature
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
			ruleText.Write(src)
			ruleText.WriteByte('\n')
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
	read := readFeatures(ruleText.String())

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
		case f.effects || read[key]:
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
