// Package rulesets holds the shipped rule packs, embedded in the binary so
// munda works with no files beside it, and assembles a selection of them:
// a base ruleset, house rules switched on or off, and modders' packs.
//
// The packs themselves are .munda files in the directories next to this
// one: core-2023/ (the 2023 rules), and more as they are written.
package rulesets

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

//go:embed core-2023 legacy-2017 house
var embedded embed.FS

// FS holds the shipped packs.
var FS fs.FS = embedded

// DefaultBase is the ruleset used when none is named.
const DefaultBase = "core-2023"

// None, as a base, means no base ruleset: loose files checked on their own.
const None = "none"

// Pack returns the shipped pack in dir ("core-2023", "house/aa").
func Pack(dir string) *dsl.Pack {
	return &dsl.Pack{FS: FS, Root: dir, Display: path.Join("rulesets", dir)}
}

// Dirs lists the shipped packs' directories.
func Dirs() []string {
	dirs, err := dsl.FindPacks(FS, ".")
	if err != nil {
		return nil
	}
	return dirs
}

// Bases lists the shipped base rulesets' names (core-2023, …).
func Bases() []string {
	var out []string
	for _, d := range Dirs() {
		if !strings.HasPrefix(d, "house/") {
			out = append(out, d)
		}
	}
	return out
}

// HouseDirs lists the shipped house-rule packs' directories.
func HouseDirs() []string {
	var out []string
	for _, d := range Dirs() {
		if strings.HasPrefix(d, "house/") {
			out = append(out, d)
		}
	}
	return out
}

// Resolve finds a shipped ruleset by id (core_2023) or name (core-2023).
func Resolve(id string) (*dsl.Pack, bool) {
	for _, d := range Bases() {
		if dsl.NormalizeID(d) == dsl.NormalizeID(id) {
			return Pack(d), true
		}
	}
	return nil, false
}

// Selection says which rules to assemble.
type Selection struct {
	// Base is a shipped ruleset ("core-2023"), "" for DefaultBase, or
	// None for no base at all.
	Base string
	// BasePack, if set, is the base instead of Base: a ruleset on disk
	// (a pack with a `ruleset` header), which may extend a shipped one.
	BasePack *dsl.Pack
	// Houses switches house rules on and off, left to right: "aa",
	// "aa.single_lasting_injury", "-aa.single_lasting_injury".
	Houses []string
	// With are extra packs loaded on top (a modder's files).
	With []*dsl.Pack
	// Packs are further packs to check (e.g. a house pack on disk); their
	// house groups are switched on before Houses apply.
	Packs []*dsl.Pack
}

// Load assembles and checks a selection. The rules are usable only when
// the diagnostics hold no errors.
func Load(sel Selection) (*dsl.Rules, diag.Diagnostics) {
	var diags diag.Diagnostics
	var base *dsl.LoadedPack
	if sel.BasePack != nil {
		lp, ds := dsl.LoadPack(sel.BasePack)
		diags = append(diags, ds...)
		base = lp
	} else if sel.Base != None {
		name := sel.Base
		if name == "" {
			name = DefaultBase
		}
		pack, ok := Resolve(name)
		if !ok {
			diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnknownRef,
				Summary: UnknownBase(name).Error()})
			return nil, diags
		}
		lp, ds := dsl.LoadPack(pack)
		diags = append(diags, ds...)
		base = lp
	}
	var extra []*dsl.LoadedPack
	var toggles []string
	for _, p := range sel.Packs {
		lp, ds := dsl.LoadPack(p)
		diags = append(diags, ds...)
		extra = append(extra, lp)
		houses := housesIn(lp)
		toggles = append(toggles, houses...)
		lp.Layer = dsl.LayerMod
		if len(houses) > 0 {
			lp.Layer = dsl.LayerHouse
		}
	}
	// House packs named by --house, loaded once each (and not again when
	// one is among the packs being checked).
	loaded := map[string]bool{}
	for _, p := range sel.Packs {
		if id, ok := strings.CutPrefix(p.Display, "rulesets/house/"); ok {
			loaded[id] = true
		}
	}
	for _, t := range sel.Houses {
		id := houseOf(t)
		if id == "" || loaded[id] {
			continue
		}
		loaded[id] = true
		if dir, ok := houseDir(id); ok {
			lp, ds := dsl.LoadPack(Pack(dir))
			diags = append(diags, ds...)
			lp.Layer = dsl.LayerHouse
			extra = append(extra, lp)
		}
	}
	for _, p := range sel.With {
		lp, ds := dsl.LoadPack(p)
		diags = append(diags, ds...)
		lp.Layer = dsl.LayerMod
		extra = append(extra, lp)
	}
	// A toggle naming a house that is neither shipped nor loaded: say which
	// were meant, from all there are (Select knows only the loaded ones).
	known := map[string]bool{}
	var knownIDs []string
	for _, d := range HouseDirs() {
		id := dsl.NormalizeID(strings.TrimPrefix(d, "house/"))
		known[id], knownIDs = true, append(knownIDs, id)
	}
	for _, lp := range extra {
		for _, id := range housesIn(lp) {
			known[id], knownIDs = true, append(knownIDs, id)
		}
	}
	for _, t := range sel.Houses {
		id := houseOf(t)
		if id != "" && !known[id] {
			msg := diag.Suggest(fmt.Sprintf("unknown house %q", id), id, knownIDs)
			diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnknownRef, Summary: msg})
			return nil, diags
		}
	}
	rules, ds := dsl.Assemble(base, extra, Resolve)
	diags = append(diags, ds...)
	if err := rules.Select(append(toggles, sel.Houses...)); err != nil {
		diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnknownRef, Summary: err.Error()})
		return rules, diags
	}
	// A file that does not parse is missing from the rules: checking the
	// rest would report everything it declares as unknown. Report the
	// parse errors alone, as a compiler does.
	if diags.HasErrors() {
		diags.Sort()
		return rules, diags
	}
	diags = append(diags, dsl.Check(rules)...)
	diags.Sort()
	return rules, diags
}

// housesIn lists the house groups a pack declares.
func housesIn(lp *dsl.LoadedPack) []string {
	var out []string
	for _, f := range lp.Files {
		for _, d := range f.Decls {
			if h, ok := d.(*syntax.House); ok {
				out = append(out, h.ID.Name)
			}
		}
	}
	return out
}

func houseDir(id string) (string, bool) {
	for _, d := range HouseDirs() {
		if dsl.NormalizeID(strings.TrimPrefix(d, "house/")) == dsl.NormalizeID(id) {
			return d, true
		}
	}
	return "", false
}

// UnknownBase is the error for a ruleset name that is not shipped.
func UnknownBase(name string) error {
	msg := diag.Suggest(fmt.Sprintf("unknown ruleset %q", name), name, Bases())
	return fmt.Errorf("%s (shipped: %s)", msg, strings.Join(Bases(), ", "))
}

// houseOf is the house group a toggle names: "aa" for "aa",
// "-aa.single_lasting_injury" or "aa.single-lasting-injury".
func houseOf(toggle string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(toggle), "-"), ".")
	return dsl.NormalizeID(id)
}
