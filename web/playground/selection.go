package playground

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

// Selection is which rules to load: a base ruleset, house toggles (as
// --house takes them, left to right) and, optionally, a rule file edited
// in the page.
type Selection struct {
	Ruleset string      `json:"ruleset"`
	Houses  []string    `json:"houses,omitempty"`
	File    *EditedFile `json:"file,omitempty"`
}

// EditedFile is a rule file edited in the page: a shipped file
// ("core-2023/end_phase.munda", which it replaces in its pack) or, with
// no Path, a mod's file loaded on top of the selection (as --with).
type EditedFile struct {
	Path string `json:"path,omitempty"`
	Text string `json:"text"`
}

// modDir is where an edited mod file lives, as diagnostics name it.
const modDir = "mod"

// ModFileName is how diagnostics name an edited mod file.
const ModFileName = modDir + "/mod.munda"

// DisplayPath is how diagnostics name the edited file.
func (f *EditedFile) DisplayPath() string {
	if f.Path == "" {
		return ModFileName
	}
	return path.Join("rulesets", f.Path)
}

// rulesSelection turns a Selection into the loader's.
func rulesSelection(s Selection) (rulesets.Selection, *Error) {
	sel := rulesets.Selection{Base: s.Ruleset, Houses: s.Houses, SkipTests: true}
	if sel.Base == "" {
		sel.Base = rulesets.DefaultBase
	}
	if _, ok := rulesets.Resolve(sel.Base); !ok {
		return sel, fail("%v", rulesets.UnknownBase(sel.Base))
	}
	f := s.File
	if f == nil || (f.Path == "" && strings.TrimSpace(f.Text) == "") {
		return sel, nil // no mod written yet
	}
	if len(f.Text) > MaxRuleFileBytes {
		return sel, fail("the rule file is %d bytes; the playground takes at most %d", len(f.Text), MaxRuleFileBytes)
	}
	if f.Path == "" {
		sel.With = []*dsl.Pack{{FS: fstest.MapFS{ModFileName: {Data: []byte(f.Text)}}, Root: modDir, Display: modDir}}
		return sel, nil
	}
	dir, ok := packOf(f.Path)
	if !ok {
		return sel, fail("%q is not a shipped rule file", f.Path)
	}
	pack, err := replaced(dir, f.Path, f.Text)
	if err != nil {
		return sel, fail("cannot read the pack %s: %v", dir, err)
	}
	if strings.HasPrefix(dir, "house/") {
		// An edited house pack is loaded in place of the shipped one, and
		// its groups are switched on only as the toggles say.
		sel.Layered = []*dsl.Pack{pack}
		sel.Houses = append(offToggles(dir), sel.Houses...)
		return sel, nil
	}
	if dsl.NormalizeID(dir) != dsl.NormalizeID(sel.Base) {
		return sel, fail("%s belongs to the ruleset %s, not to %s: pick that ruleset to edit it", f.Path, dir, sel.Base)
	}
	sel.Pack = pack
	return sel, nil
}

// packOf finds the shipped pack a shipped rule file belongs to.
func packOf(file string) (string, bool) {
	if !strings.HasSuffix(file, ".munda") {
		return "", false
	}
	best := ""
	for _, d := range rulesets.Dirs() {
		if strings.HasPrefix(file, d+"/") && len(d) > len(best) {
			best = d
		}
	}
	if best == "" {
		return "", false
	}
	if _, err := fs.Stat(rulesets.FS, file); err != nil {
		return "", false
	}
	return best, true
}

// replaced is a shipped pack with one file's text replaced.
func replaced(dir, file, text string) (*dsl.Pack, error) {
	m := fstest.MapFS{}
	err := fs.WalkDir(rulesets.FS, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(rulesets.FS, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		return nil, err
	}
	m[file] = &fstest.MapFile{Data: []byte(text)}
	return &dsl.Pack{FS: m, Root: dir, Display: path.Join("rulesets", dir)}, nil
}

// offToggles switch off the house groups a shipped house pack declares, so
// that loading it edited switches on only what the page's toggles say.
func offToggles(dir string) []string {
	packs, _ := rulesets.HousePacks(nil)
	var out []string
	for _, p := range packs {
		if p.Display != path.Join("rulesets", dir) {
			continue
		}
		for _, h := range p.Houses {
			out = append(out, "-"+h.ID.Name)
		}
	}
	return out
}

// loaded is a selection's rules, compiled when they have no errors.
type loaded struct {
	program *interpreter.Program // nil when the rules have errors
	diags   diag.Diagnostics
	name    string // "core-2023+aa", for people
}

// programCache keeps the last few selections' programs: the page asks
// again and again of the same rules, and loading them is the slow part.
type programCache struct {
	keys    []string
	entries map[string]*loaded
}

const programCacheSize = 4

// program loads, checks and compiles a selection (from the cache when it
// was loaded lately).
func (p *Playground) program(s Selection) (*loaded, *Error) {
	sel, ferr := rulesSelection(s)
	if ferr != nil {
		return nil, ferr
	}
	key := cacheKey(s)
	c := &p.programs
	if l, ok := c.entries[key]; ok {
		return l, nil
	}
	l := &loaded{name: stackName(s)}
	rules, diags := rulesets.Load(sel)
	l.diags = diags
	if !diags.HasErrors() && rules != nil {
		prog, err := interpreter.Compile(rules)
		if err != nil {
			return nil, failWith(l.name+": the rules do not compile", err)
		}
		l.program = prog
	}
	if c.entries == nil {
		c.entries = map[string]*loaded{}
	}
	if len(c.keys) == programCacheSize {
		delete(c.entries, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.entries[key] = l
	return l, nil
}

// runnable is program for a call that runs the rules: rules with errors
// fail it, with their diagnostics.
func (p *Playground) runnable(s Selection) (*loaded, *Error) {
	l, err := p.program(s)
	if err != nil {
		return nil, err
	}
	if l.program == nil {
		return nil, &Error{Message: l.name + ": the rules have errors", Diagnostics: errorsOnly(l.diags)}
	}
	return l, nil
}

func cacheKey(s Selection) string {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(s)
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// stackName names a selection as `rules diff` would: core-2023+aa.
func stackName(s Selection) string {
	name := s.Ruleset
	if name == "" {
		name = rulesets.DefaultBase
	}
	if len(s.Houses) > 0 {
		name += "+" + strings.Join(s.Houses, ",")
	}
	if s.File != nil && (s.File.Path != "" || strings.TrimSpace(s.File.Text) != "") {
		name += fmt.Sprintf(" (with %s edited)", s.File.DisplayPath())
	}
	return name
}

func errorsOnly(ds diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// decodeStrict decodes JSON, refusing fields it does not know (a typo in
// a share link must not be ignored silently).
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
