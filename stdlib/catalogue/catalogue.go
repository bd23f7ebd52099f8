// Package catalogue is a list of equipment as data: weapon profiles and
// armour saves written as a state file writes them (card notation: '8"',
// "+1", "S+1", "4+", "-"), and the names of wargear, each found by its
// name, however a roster spells it, or by an alias. A ruleset ships one
// (rulesets/core-2023/catalogue/*.yaml) and a user may add their own on
// top. Importers of rosters (stdlib/yaktribe) read profiles from it,
// since rosters carry names, not profiles.
//
// The format of a catalogue file is described in docs/catalogue.md.
package catalogue

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/state"
)

// Kind is what an item is.
type Kind int

const (
	Weapon  Kind = iota // one or more weapon profiles
	Armour              // an item granting a save
	Wargear             // anything else, known by name only
)

func (k Kind) String() string {
	switch k {
	case Weapon:
		return "weapon"
	case Armour:
		return "armour"
	}
	return "wargear"
}

// Item is one entry of a catalogue.
type Item struct {
	ID       string
	Name     string
	Kind     Kind
	Profiles []*state.Weapon // a weapon's, in the file's order; each with its own id and name
	Armour   *state.Armour
	Aliases  []string // other names it goes by
	Source   string   // where its profile comes from
	At       *diag.Range
}

// Found is what a name stands for in a catalogue: the weapon profiles,
// armour and wargear (ids) a model carrying it has. The profiles are
// copies the caller may change.
type Found struct {
	Items   []*Item
	Weapons []*state.Weapon
	Armour  []*state.Armour
	Wargear []string
}

// Catalogue is a set of items, found by name.
type Catalogue struct {
	items     []*Item
	byID      map[string]*Item
	names     map[string]target // key(name) → what it names
	spellings map[string]string // a word → the catalogue's spelling of it ("" drops it)
}

// target is what a name stands for: items, or one profile of a weapon,
// by id, so that an item replaced by a later layer is found through the
// names given to the one it replaced.
type target struct {
	refs []ref
	item *Item       // the item the name is of (nil for an alias)
	at   *diag.Range // where the name was given
}

type ref struct {
	id      string
	profile string // a profile's label ("frag"), or "" for all
}

// Items lists the items, sorted by id.
func (c *Catalogue) Items() []*Item {
	out := append([]*Item(nil), c.items...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Item returns the item with the id, or nil.
func (c *Catalogue) Item(id string) *Item {
	if c == nil {
		return nil
	}
	return c.byID[id]
}

// Lookup finds what a name stands for: an item's name or alias, a
// weapon's profile by its full name ("Grenade launcher (frag)"), or an
// alias of several items, compared as Key compares them.
func (c *Catalogue) Lookup(name string) (Found, bool) {
	if c == nil {
		return Found{}, false
	}
	t, ok := c.names[c.Key(name)]
	if !ok {
		return Found{}, false
	}
	var f Found
	for _, r := range t.refs {
		it := c.byID[r.id]
		if it == nil {
			continue
		}
		f.Items = append(f.Items, it)
		switch it.Kind {
		case Weapon:
			for _, p := range it.Profiles {
				if r.profile == "" || Label(it, p) == r.profile {
					w := *p
					w.Traits = append([]string(nil), p.Traits...)
					f.Weapons = append(f.Weapons, &w)
				}
			}
		case Armour:
			a := *it.Armour
			f.Armour = append(f.Armour, &a)
		default:
			f.Wargear = append(f.Wargear, it.ID)
		}
	}
	return f, true
}

// Names lists every name the catalogue knows (items, profiles and
// aliases, as written), sorted, for a did-you-mean.
func (c *Catalogue) Names() []string {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, it := range c.items {
		for _, n := range itemNames(it) {
			add(n.name)
		}
	}
	sort.Strings(out)
	return out
}

// Key is how names are compared: in lower case, with runs of anything but
// letters and digits as one space, and each word as the catalogue spells
// it (its spellings: "armor" is "armour"). "Mesh Armor", "mesh-armour" and
// "MESH ARMOUR" have one key.
func (c *Catalogue) Key(name string) string {
	var spell map[string]string
	if c != nil {
		spell = c.spellings
	}
	return key(name, spell)
}

func key(name string, spell map[string]string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := words[:0]
	for _, w := range words {
		if s, ok := spell[w]; ok {
			if s == "" {
				continue
			}
			w = s
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// Slug is an id made of a name: "Photo-goggles" is photo_goggles.
func Slug(name string) string {
	return strings.ReplaceAll(key(name, nil), " ", "_")
}

// Build makes a catalogue of layers of files, in order: the ruleset's
// files, then a user's. Within a layer, two items with one id, or one name
// given to two things, are errors; an item of a later layer replaces the
// earlier item of its id, and takes its names from earlier layers (a
// user's profile over the shipped one). An alias that names nothing is an
// error.
func Build(layers ...[]*File) (*Catalogue, diag.Diagnostics) {
	c := &Catalogue{byID: map[string]*Item{}, names: map[string]target{}, spellings: map[string]string{}}
	var diags diag.Diagnostics
	errorf := func(at *diag.Range, path, code, format string, args ...any) {
		diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: code, Subject: at, Path: path, Summary: fmt.Sprintf(format, args...)})
	}
	for _, files := range layers {
		for _, f := range files {
			for w, s := range f.Spellings {
				c.spellings[w] = s
			}
		}
	}
	for _, files := range layers {
		ids := map[string]*Item{}    // this layer's items
		names := map[string]target{} // this layer's names
		for _, f := range files {
		items:
			for _, it := range f.Items {
				if prev, dup := ids[it.ID]; dup {
					errorf(it.At, "", diag.CodeCatalogueDuplicate, "%s %q has the id %s, as %s %q has (%s)", it.Kind, it.Name, it.ID, prev.Kind, prev.Name, prev.At)
					continue
				}
				own := itemNames(it)
				for _, n := range own {
					if prev, dup := names[c.Key(n.name)]; dup {
						errorf(it.At, "", diag.CodeCatalogueDuplicate, "the name %q of %s %s is already %s (%s)", n.name, it.Kind, it.ID, prev.describe(), prev.at)
						continue items
					}
				}
				ids[it.ID] = it
				if old := c.byID[it.ID]; old != nil {
					for i, x := range c.items {
						if x == old {
							c.items[i] = it
						}
					}
				} else {
					c.items = append(c.items, it)
				}
				c.byID[it.ID] = it
				for _, n := range own {
					t := target{refs: []ref{{id: it.ID, profile: n.profile}}, item: it, at: it.At}
					c.names[c.Key(n.name)] = t
					names[c.Key(n.name)] = t
				}
			}
		}
		// Aliases after the layer's items, so that they may name any.
		for _, f := range files {
		aliases:
			for _, a := range f.Aliases {
				t := target{at: a.At}
				for _, name := range a.Targets {
					id, profile, _ := strings.Cut(name, ".")
					it := c.byID[id]
					if it == nil {
						known := make([]string, 0, len(c.byID))
						for id := range c.byID {
							known = append(known, id)
						}
						sort.Strings(known)
						errorf(a.At, a.Path, diag.CodeCatalogueReference, "%s", diag.Suggest(fmt.Sprintf("alias %q names %s, which is the id of no item", a.Name, id), id, known))
						continue aliases
					}
					if profile != "" {
						var labels []string
						for _, p := range it.Profiles {
							labels = append(labels, Label(it, p))
						}
						if len(it.Profiles) < 2 || !slices.Contains(labels, profile) {
							errorf(a.At, a.Path, diag.CodeCatalogueReference, "%s", diag.Suggest(fmt.Sprintf("alias %q names profile %s of %s, which has no profile of that name", a.Name, profile, id), profile, labels))
							continue aliases
						}
					}
					t.refs = append(t.refs, ref{id: id, profile: profile})
				}
				k := c.Key(a.Name)
				if prev, dup := names[k]; dup {
					errorf(a.At, a.Path, diag.CodeCatalogueDuplicate, "alias %q is already %s (%s)", a.Name, prev.describe(), prev.at)
					continue
				}
				c.names[k] = t
				names[k] = t
			}
		}
	}
	diags.Sort()
	return c, diags
}

// itemName is a name an item goes by, and the profile it names ("" for
// all of them).
type itemName struct{ name, profile string }

// itemNames lists the names of an item: its name, its aliases, and each
// of several profiles' full names.
func itemNames(it *Item) []itemName {
	out := []itemName{{name: it.Name}}
	for _, a := range it.Aliases {
		out = append(out, itemName{name: a})
	}
	if len(it.Profiles) > 1 {
		for _, p := range it.Profiles {
			out = append(out, itemName{name: p.Name, profile: Label(it, p)})
		}
	}
	return out
}

// Label is the label of one of a weapon's profiles: "frag" of
// grenade_launcher_frag.
func Label(it *Item, p *state.Weapon) string { return strings.TrimPrefix(p.ID, it.ID+"_") }

func (t target) describe() string {
	if t.item != nil {
		return fmt.Sprintf("a name of %s %s", t.item.Kind, t.item.ID)
	}
	return "an alias"
}

// ReadFS reads the catalogue files (*.yaml) of a directory of fsys, in
// the order of their names: one layer of a catalogue. display is how the
// directory is named in diagnostics. A directory that does not exist
// holds no files.
func ReadFS(fsys fs.FS, dir, display string) ([]*File, diag.Diagnostics) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if _, statErr := fs.Stat(fsys, dir); statErr != nil {
			return nil, nil
		}
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeFileError, Summary: fmt.Sprintf("cannot read %s: %v", display, err)}}
	}
	var files []*File
	var diags diag.Diagnostics
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		name := path.Join(display, e.Name())
		if err != nil {
			diags = append(diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeFileError, Summary: fmt.Sprintf("cannot read %s: %v", name, err)})
			continue
		}
		f, ds := Read(name, data)
		diags = append(diags, ds...)
		if f != nil {
			files = append(files, f)
		}
	}
	return files, diags
}
