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
	"slices"
	"strings"
	"sync"

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
	// Pack, if set, is a pack being checked or tested (on disk, or a
	// shipped house pack). With a `ruleset` header it is the base instead
	// of Base (and may extend a shipped ruleset); without one it is loaded
	// on top of Base with its house groups switched on.
	Pack *dsl.Pack
	// Layered are more packs loaded on top of the base, as Pack is when it
	// has no header: house layers with their groups switched on if they
	// declare any, mods otherwise (a language test stacks a base, a house
	// pack and a mod this way).
	Layered []*dsl.Pack
	// Houses switches house rules on and off, left to right: "aa",
	// "aa.single_lasting_injury", "-aa.single_lasting_injury".
	Houses []string
	// With are extra packs loaded on top (a modder's files).
	With []*dsl.Pack
	// SkipTests leaves test blocks unchecked and out of the index (see
	// dsl.Rules.SkipTests): for verbs that run rules, not their tests.
	SkipTests bool
	// TestsOf, when set, keeps only the tests of the packs it accepts
	// (see dsl.Rules.TestsOf).
	TestsOf func(*dsl.LoadedPack) bool
	// OwnTests keeps only the test blocks of what the selection names
	// itself: its Pack (else its Base, not what that extends) and its
	// With packs. The tests of a ruleset under a pack are the ruleset's:
	// `munda test` and `munda check` of a mod check the mod's. Unlike
	// TestsOf it leaves a selection of shipped packs shareable
	// (LoadShared).
	OwnTests bool
}

// ownTests is what OwnTests keeps.
func ownTests(sel Selection) func(*dsl.LoadedPack) bool {
	return func(lp *dsl.LoadedPack) bool {
		tp := lp.Pack
		if slices.Contains(sel.With, tp) {
			return true
		}
		if p := sel.Pack; p != nil {
			return tp == p || (tp.FS == p.FS && tp.Root == p.Root)
		}
		base := sel.Base
		if base == "" {
			base = DefaultBase
		}
		return tp.Display == Pack(base).Display
	}
}

// Load assembles and checks a selection. The rules are usable only when
// the diagnostics hold no errors. Every pack is parsed once.
func Load(sel Selection) (*dsl.Rules, diag.Diagnostics) {
	var diags diag.Diagnostics
	load := func(p *dsl.Pack, layer int) *dsl.LoadedPack {
		lp, ds := dsl.LoadPack(p)
		diags = append(diags, ds...)
		lp.Layer = layer
		return lp
	}
	var base *dsl.LoadedPack
	var extra []*dsl.LoadedPack
	var toggles []string
	loaded := map[string]bool{} // house groups loaded so far
	for i, p := range append([]*dsl.Pack{sel.Pack}, sel.Layered...) {
		if p == nil {
			continue
		}
		lp := load(p, dsl.LayerMod)
		houses := housesIn(lp)
		switch {
		case i == 0 && lp.Header != nil:
			lp.Layer = dsl.LayerBase
			base = lp
		case len(houses) > 0:
			lp.Layer = dsl.LayerHouse
			fallthrough
		default:
			extra = append(extra, lp)
		}
		for _, h := range houses {
			loaded[h] = true
		}
		toggles = append(toggles, houses...)
	}
	if base == nil && sel.Base != None {
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
		base = load(pack, dsl.LayerBase)
	}
	// Shipped house packs named by --house, each loaded once.
	for _, t := range sel.Houses {
		id := dsl.ParseToggle(t).House
		if dir, ok := houseDir(id); ok && !loaded[id] {
			loaded[id] = true
			extra = append(extra, load(Pack(dir), dsl.LayerHouse))
		}
	}
	for _, p := range sel.With {
		extra = append(extra, load(p, dsl.LayerMod))
	}
	rules, ds := dsl.Assemble(base, extra, Resolve)
	rules.SkipTests = sel.SkipTests
	rules.TestsOf = sel.TestsOf
	if sel.OwnTests && sel.TestsOf == nil {
		rules.TestsOf = ownTests(sel)
	}
	diags = append(diags, ds...)
	for _, d := range HouseDirs() {
		rules.Available = append(rules.Available, houseID(d))
	}
	for _, b := range Bases() {
		rules.Rulesets = append(rules.Rulesets, dsl.NormalizeID(b))
	}
	if err := rules.Select(append(toggles, sel.Houses...)); err != nil {
		d := &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnknownRef, Summary: err.Error()}
		if len(sel.With) == 0 && sel.Pack == nil {
			d.Detail = "A mod's house groups are known only when its pack is loaded: add --with DIR."
		}
		diags = append(diags, d)
		diags.Sort()
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

// HousePack is a pack that declares house groups, parsed but not checked:
// what `munda rules list` shows and what --house may name.
type HousePack struct {
	Display string
	Shipped bool
	Loaded  *dsl.LoadedPack
	Houses  []*syntax.House
}

// HousePacks parses the shipped house packs and the given packs (--with),
// and lists the house groups each declares; packs of the latter without
// any are left out.
func HousePacks(with []*dsl.Pack) ([]HousePack, diag.Diagnostics) {
	var packs []*dsl.Pack
	for _, dir := range HouseDirs() {
		packs = append(packs, Pack(dir))
	}
	shipped := len(packs)
	packs = append(packs, with...)
	var out []HousePack
	var diags diag.Diagnostics
	for i, p := range packs {
		lp, ds := dsl.LoadPack(p)
		diags = append(diags, ds...)
		if lp == nil {
			continue
		}
		hp := HousePack{Display: p.Display, Shipped: i < shipped, Loaded: lp}
		for _, f := range lp.Files {
			for _, d := range f.Decls {
				if h, ok := d.(*syntax.House); ok {
					hp.Houses = append(hp.Houses, h)
				}
			}
		}
		if hp.Shipped || len(hp.Houses) > 0 {
			out = append(out, hp)
		}
	}
	diags.Sort()
	return out, diags
}

// SelectIn applies house toggles to the house groups of packs, as Load
// will, and returns the house rules they switch on: a check of --house
// that needs no checked rules. An unknown house or rule is an error with
// a did-you-mean.
func SelectIn(packs []HousePack, toggles []string) (map[string]bool, error) {
	probe := &dsl.Rules{Active: map[string]bool{}}
	for _, p := range packs {
		probe.Packs = append(probe.Packs, p.Loaded)
	}
	if err := probe.Select(toggles); err != nil {
		return nil, err
	}
	return probe.Active, nil
}

// ParseStack reads a stack of rules written BASE[+TOGGLES], as `rules
// diff` takes them: "core-2023+aa,-aa.single_lasting_injury". BASE may be
// None.
func ParseStack(s string) (Selection, error) {
	base, toggles, _ := strings.Cut(strings.TrimSpace(s), "+")
	sel := Selection{Base: strings.TrimSpace(base)}
	if sel.Base == "" {
		return sel, fmt.Errorf("%q: a stack of rules is BASE[+TOGGLES], e.g. core-2023+aa (BASE may be none)", s)
	}
	for _, t := range strings.Split(toggles, ",") {
		if t = strings.TrimSpace(t); t != "" {
			sel.Houses = append(sel.Houses, t)
		}
	}
	return sel, nil
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
		if houseID(d) == dsl.NormalizeID(id) {
			return d, true
		}
	}
	return "", false
}

// houseID is the id of the house group a shipped house pack holds:
// "house/aa" holds "aa".
func houseID(dir string) string { return dsl.NormalizeID(strings.TrimPrefix(dir, "house/")) }

// UnknownBase is the error for a ruleset name that is not shipped.
func UnknownBase(name string) error {
	msg := diag.Suggest(fmt.Sprintf("unknown ruleset %q", name), name, Bases())
	return fmt.Errorf("%s (shipped: %s)", msg, strings.Join(Bases(), ", "))
}

// loadCache keeps the rules of selections made only of shipped packs,
// which cannot change while the program runs.
var loadCache struct {
	sync.Mutex
	entries map[string]*cachedLoad
}

// cachedLoad is one selection's load, made once: callers asking for it
// while it loads wait for it, and for nothing else (another selection
// loads meanwhile).
type cachedLoad struct {
	once  sync.Once
	rules *dsl.Rules
	diags diag.Diagnostics
}

// LoadShared is Load for callers that only read the rules they get: a
// selection of shipped packs alone (a shipped Pack at most; no Layered
// or With) is loaded and checked once per process and shared. The rules
// must not be changed (Select, Check again). Anything else is loaded
// afresh.
func LoadShared(sel Selection) (*dsl.Rules, diag.Diagnostics) {
	shipped := sel.Pack == nil || sel.Pack.FS == FS
	if !shipped || len(sel.Layered) > 0 || len(sel.With) > 0 || sel.TestsOf != nil {
		return Load(sel)
	}
	pack := ""
	if sel.Pack != nil {
		pack = sel.Pack.Root
	}
	base := sel.Base
	if base == "" {
		base = DefaultBase // the same rules, loaded once
	}
	key := fmt.Sprint(base, "\x00", pack, "\x00", strings.Join(sel.Houses, ","), "\x00", sel.SkipTests, sel.OwnTests)
	loadCache.Lock()
	c, ok := loadCache.entries[key]
	if !ok {
		if loadCache.entries == nil || len(loadCache.entries) >= 64 {
			loadCache.entries = map[string]*cachedLoad{}
		}
		c = &cachedLoad{}
		loadCache.entries[key] = c
	}
	loadCache.Unlock()
	c.once.Do(func() { c.rules, c.diags = Load(sel) })
	return c.rules, c.diags
}
