package dsl

import (
	"fmt"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"slices"
	"sort"
	"strings"
)

// Rules is a base ruleset (with the rulesets it extends), house-rule packs
// and mods, assembled in that order, with a selection of which house rules
// are switched on. Check fills in its index.
type Rules struct {
	Packs []*LoadedPack
	// Base is the header of the ruleset in force (nil for loose files).
	Base *syntax.Ruleset
	// Active holds the ids ("aa.single_lasting_injury") of house rules
	// that are switched on.
	Active map[string]bool
	// SkipTests leaves the `test` blocks out of checking, and out of the
	// Index: verbs that run rules but not tests (run, roll, odds) load
	// faster, since a pack's tests are much of its text.
	SkipTests bool
	// TestsOf, when set, checks and indexes only the tests of the packs
	// it accepts: `munda test mymod/` runs the mod's tests, and need not
	// check the hundreds of the ruleset under it.
	TestsOf func(*LoadedPack) bool
	// Rulesets are the ids of the rulesets a test's `rules` may name (the
	// shipped ones); empty when unknown, and then not checked.
	Rulesets []string
	// Available are house groups that could have been loaded but were not
	// (the shipped ones not asked for): Select suggests them for a typo.
	Available []string

	Index *Index // set by Check
}

// Resolver finds a ruleset pack by id, for `extends`.
type Resolver func(id string) (*Pack, bool)

// NormalizeID turns a name as typed on a command line ("core-2023",
// "end-phase") into an id ("core_2023", "end_phase").
func NormalizeID(s string) string { return strings.ReplaceAll(s, "-", "_") }

// Assemble builds Rules from a base pack (nil for none) and extra packs
// (house rules, mods), loading what the base extends through resolve.
func Assemble(base *LoadedPack, extra []*LoadedPack, resolve Resolver) (*Rules, diag.Diagnostics) {
	var diags diagnostics
	rules := &Rules{Active: map[string]bool{}}
	if base != nil {
		chain := []*LoadedPack{base}
		seen := map[string]bool{}
		for cur := base; cur.Header != nil; {
			if seen[cur.Header.ID.Name] {
				diags.errorf(diag.CodeIncludeCycle, diag.RangeOf(cur.Header.Pos, cur.Header.EndPos),
					"ruleset %s extends itself", cur.Header.ID.Name)
				break
			}
			seen[cur.Header.ID.Name] = true
			ext := cur.Header.Extends()
			if ext == nil {
				break
			}
			pack, ok := (*Pack)(nil), false
			if resolve != nil {
				pack, ok = resolve(ext.Base.Name)
			}
			if !ok {
				diags.errorf(diag.CodeUnknownRef, diag.RangeOf(ext.Base.Pos, ext.Base.EndPos),
					"unknown ruleset %s", ext.Base.Name)
				break
			}
			loaded, ds := LoadPack(pack)
			diags.list = append(diags.list, ds...)
			chain = append([]*LoadedPack{loaded}, chain...)
			cur = loaded
		}
		rules.Packs = append(rules.Packs, chain...)
		rules.Base = base.Header
	}
	// A ruleset is a base: on top of one, its header (and what it
	// extends) would be ignored, so say so rather than drop it. (Without a
	// base, a header that extends nothing is harmless.)
	for _, p := range extra {
		if h := p.Header; h != nil && (base != nil || h.Extends() != nil) {
			d := diags.errorf(diag.CodeMisplaced, diag.RangeOf(h.Pos, h.EndPos),
				"ruleset %s is loaded on top of other rules, where its header (and what it extends) would be ignored", h.ID.Name)
			d.Detail = "A pack with a `ruleset` header is a base ruleset: check it on its own (munda check DIR). A pack loaded on top (a mod, house rules) has no header; remove it."
		}
	}
	rules.Packs = append(rules.Packs, extra...)
	return rules, diags.list
}

// Files lists every file of the rules, in load order.
func (r *Rules) Files() []*syntax.File {
	var out []*syntax.File
	for _, p := range r.Packs {
		out = append(out, p.Files...)
	}
	return out
}

// Sources returns the contents of every file read, parsed or not.
func (r *Rules) Sources() diag.Sources {
	out := diag.Sources{}
	for _, p := range r.Packs {
		for k, v := range p.Sources {
			out[k] = v
		}
	}
	return out
}

// Houses lists the house groups declared in the rules.
func (r *Rules) Houses() []*syntax.House {
	var out []*syntax.House
	for _, f := range r.Files() {
		for _, d := range f.Decls {
			if h, ok := d.(*syntax.House); ok {
				out = append(out, h)
			}
		}
	}
	return out
}

// Select switches house rules on or off. Each toggle is `house` (all its
// rules), `house.rule`, or either prefixed with `-` to switch off (see
// ParseToggle). Toggles apply left to right, so `aa,-aa.single_lasting_injury`
// is A&A without one rule. Unknown names are errors with a did-you-mean,
// drawn from the loaded house groups and r.Available.
func (r *Rules) Select(toggles []string) error {
	houses := map[string]*syntax.House{}
	houseIDs := append([]string(nil), r.Available...)
	var ruleIDs []string
	for _, h := range r.Houses() {
		houses[h.ID.Name] = h
		houseIDs = append(houseIDs, h.ID.Name)
		for _, rule := range h.Rules() {
			ruleIDs = append(ruleIDs, h.ID.Name+"."+rule.ID.Name)
		}
	}
	for _, text := range toggles {
		t := ParseToggle(text)
		if t.House == "" {
			continue
		}
		h, ok := houses[t.House]
		if !ok {
			return unknownChoice("house", t.House, houseIDs)
		}
		found := false
		for _, rule := range h.Rules() {
			if t.Rule == "" || rule.ID.Name == t.Rule {
				r.Active[t.House+"."+rule.ID.Name] = !t.Off
				found = true
			}
		}
		if t.Rule != "" && !found {
			return unknownChoice("house rule", t.House+"."+t.Rule, ruleIDs)
		}
	}
	for id, on := range r.Active {
		if !on {
			delete(r.Active, id)
		}
	}
	return nil
}

// ActiveRules lists the ids of the switched-on house rules, sorted.
func (r *Rules) ActiveRules() []string {
	out := make([]string, 0, len(r.Active))
	for id := range r.Active {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func unknownChoice(what, name string, known []string) error {
	slices.Sort(known)
	known = slices.Compact(known)
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if s := diag.Suggestion(name, known); s != "" {
		msg += "; " + s
	} else if len(known) > 0 {
		msg += " (known: " + strings.Join(known, ", ") + ")"
	}
	return fmt.Errorf("%s", msg)
}

// StandingRules are the rules declared at the top level of the packs
// (always in force), by id.
func (r *Rules) StandingRules() map[string]*syntax.HouseRule {
	out := map[string]*syntax.HouseRule{}
	for _, f := range r.Files() {
		for _, d := range f.Decls {
			if hr, ok := d.(*syntax.HouseRule); ok {
				if _, dup := out[hr.ID.Name]; !dup {
					out[hr.ID.Name] = hr
				}
			}
		}
	}
	return out
}

// Replacers maps the declarations that replace others to who wrote the
// replacement: "house rule aa.x" (only switched-on house rules), "ruleset
// legacy_2017", or "pack mymod" for a pack without a header. A declaration
// in force that is a key here is a replacement.
func (r *Rules) Replacers() map[syntax.Decl]string {
	out := map[syntax.Decl]string{}
	for _, p := range r.Packs {
		owner := p.Owner()
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if rp, ok := d.(*syntax.Replace); ok && rp.Decl != nil {
					out[rp.Decl] = owner
				}
			}
		}
	}
	for _, h := range r.Houses() {
		for _, rule := range h.Rules() {
			rid := h.ID.Name + "." + rule.ID.Name
			if !r.Active[rid] {
				continue
			}
			for _, it := range rule.Items {
				if rp, ok := it.(*syntax.Replace); ok && rp.Decl != nil {
					out[rp.Decl] = "house rule " + rid
				}
			}
		}
	}
	return out
}
