package catalogue

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/internal/yamldoc"
	"github.com/munda-rules/munda/stdlib/state"
)

// Limits on catalogue files, which a user may give.
const (
	MaxFileBytes = 4 << 20 // bytes in a file
	MaxNodes     = 200_000 // YAML nodes in a file
	MaxProfiles  = 16      // profiles of one weapon
)

// File is one catalogue file, read but not yet built into a catalogue.
type File struct {
	Name      string
	Source    string // the file's default source of its items
	Items     []*Item
	Aliases   []*Alias
	Spellings map[string]string
}

// Alias is another name for items: Targets are item ids, or an item's id
// and one of its profiles' labels ("grenade_launcher.frag").
type Alias struct {
	Name    string
	Targets []string
	At      *diag.Range
	Path    string
}

var codes = yamldoc.Codes{Syntax: diag.CodeCatalogueSyntax, Entry: diag.CodeCatalogueEntry}

// The fields of a catalogue file and of its entries.
var (
	fileFields = []string{"source", "spellings", "weapons", "armour", "wargear", "aliases"}
	itemFields = []string{"id", "name", "aliases", "source"}
	weaponOnly = []string{"profiles"}
	// profileFields are those of a weapon in a state file, less its id
	// and name (the catalogue's) and what belongs to a battle (damaged).
	profileFields = []string{"range_short", "range_long", "acc_short", "acc_long", "s", "user_strength", "ap", "d", "no_damage", "am", "traits"}
)

// Read parses one catalogue file (see docs/catalogue.md). name is the
// file as diagnostics show it. Problems are diag.Diagnostics with the
// catalogue's codes, the field path and the place in the file; the File
// is nil when there are any. No input makes Read panic.
func Read(name string, data []byte) (f *File, problems diag.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			f, problems = nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeCatalogueSyntax, Subject: &diag.Range{Filename: name},
				Summary: fmt.Sprintf("internal error reading the catalogue: %v", r)}}
		}
	}()
	d := yamldoc.Parse(name, data, MaxFileBytes, MaxNodes, codes)
	if d.Root == nil {
		return nil, d.Problems
	}
	r := &reader{doc: d, file: &File{Name: name}}
	r.read()
	if len(d.Problems) > 0 {
		return nil, d.Problems
	}
	return r.file, nil
}

type reader struct {
	doc  *yamldoc.Doc
	file *File
}

func (r *reader) read() {
	d := r.doc
	fields := d.Fields(d.Root, "", fileFields)
	for _, f := range fields { // the source first: items default to it
		if f.Name == "source" {
			r.file.Source, _ = d.String(f.Value, f.Path)
		}
	}
	for _, f := range fields {
		if d.Stopped() {
			return
		}
		switch f.Name {
		case "spellings":
			r.file.Spellings = map[string]string{}
			for _, sp := range d.Fields(f.Value, f.Path, nil) {
				to, ok := d.String(sp.Value, sp.Path)
				if !ok {
					continue
				}
				from := key(sp.Name, nil)
				if strings.Contains(from, " ") || from == "" || strings.Contains(key(to, nil), " ") {
					d.Add(sp.Key, codes.Entry, sp.Path, "a spelling maps one word to one word (or to \"\", to leave the word out)")
					continue
				}
				r.file.Spellings[from] = key(to, nil)
			}
		case "weapons", "armour", "wargear":
			kind := map[string]Kind{"weapons": Weapon, "armour": Armour, "wargear": Wargear}[f.Name]
			for i, n := range d.Items(f.Value, f.Path) {
				if d.Stopped() {
					return
				}
				if it := r.item(n, yamldoc.Index(f.Path, i), kind); it != nil {
					r.file.Items = append(r.file.Items, it)
				}
			}
		case "aliases":
			for _, a := range d.Fields(f.Value, f.Path, nil) {
				targets := d.Strings(a.Value, a.Path)
				if len(targets) == 0 {
					if a.Value.Kind == yaml.SequenceNode {
						d.Add(a.Value, codes.Entry, a.Path, "an alias names at least one item")
					}
					continue
				}
				r.file.Aliases = append(r.file.Aliases, &Alias{Name: a.Name, Targets: targets, At: d.At(a.Key), Path: a.Path})
			}
		}
	}
}

// item reads one entry of weapons, armour or wargear: its catalogue
// fields, and the rest as a state file writes the profile.
func (r *reader) item(n *yaml.Node, path string, kind Kind) *Item {
	d := r.doc
	if n.Kind == yaml.ScalarNode && kind == Wargear { // wargear may be just a name
		name, ok := d.String(n, path)
		if !ok {
			return nil
		}
		return r.named(n, path, &Item{Name: name, Kind: kind, Source: r.file.Source, At: d.At(n)}, "")
	}
	known := append([]string(nil), itemFields...)
	switch kind {
	case Weapon:
		known = append(append(known, weaponOnly...), profileFields...)
	case Armour:
		known = append(known, "save", "field")
	}
	it := &Item{Kind: kind, Source: r.file.Source, At: d.At(n)}
	id := ""
	profile := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	var profiles *yamldoc.Field
	fields := d.Fields(n, path, known)
	if fields == nil {
		return nil
	}
	for i, f := range fields {
		switch f.Name {
		case "id":
			id, _ = d.String(f.Value, f.Path)
		case "name":
			it.Name, _ = d.String(f.Value, f.Path)
		case "aliases":
			it.Aliases = d.Strings(f.Value, f.Path)
		case "source":
			it.Source, _ = d.String(f.Value, f.Path)
		case "profiles":
			profiles = &fields[i]
		default: // a field of the profile
			profile.Content = append(profile.Content, f.Key, f.Value)
		}
	}
	if it.Name == "" {
		if !hasField(fields, "name") {
			d.Add(n, codes.Entry, yamldoc.Join(path, "name"), "every item needs a name")
		}
		return nil
	}
	it = r.named(n, path, it, id)
	if it == nil {
		return nil
	}
	switch kind {
	case Weapon:
		switch {
		case profiles != nil && len(profile.Content) > 0:
			d.Add(profiles.Key, codes.Entry, profiles.Path, "a weapon has one profile written beside its name, or several under profiles, not both")
		case profiles != nil:
			ps := d.Fields(profiles.Value, profiles.Path, nil)
			if len(ps) < 2 || len(ps) > MaxProfiles {
				d.Add(profiles.Value, codes.Entry, profiles.Path, fmt.Sprintf("want 2 to %d profiles, each under its label (frag: {…}, krak: {…}), got %d", MaxProfiles, len(ps)))
				return nil
			}
			for _, p := range ps {
				label := Slug(p.Name)
				if label == "" {
					d.Add(p.Key, codes.Entry, p.Path, "a profile's label needs a letter or a digit")
					continue
				}
				pf := d.Fields(p.Value, p.Path, profileFields)
				if p.Value.Kind != yaml.MappingNode {
					continue // Fields said so
				}
				// An empty mapping, or one of nulls, goes on to profile,
				// which says that a profile needs its s and d.
				node := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: p.Value.Line, Column: p.Value.Column}
				for _, f := range pf {
					node.Content = append(node.Content, f.Key, f.Value)
				}
				if w := r.profile(node, p.Path, it.ID+"_"+label, it.Name+" ("+p.Name+")"); w != nil {
					it.Profiles = append(it.Profiles, w)
				}
			}
		default:
			if w := r.profile(profile, path, it.ID, it.Name); w != nil {
				it.Profiles = append(it.Profiles, w)
			}
		}
	case Armour:
		a := &state.Armour{}
		r.card(profile, path, a)
		a.ID, a.Name = it.ID, it.Name
		if !hasField(fields, "save") {
			d.Add(n, codes.Entry, yamldoc.Join(path, "save"), "armour needs its save, e.g. save: 5+")
		}
		it.Armour = a
	}
	return it
}

// named gives an item its id (from its name, if not given) and checks it.
func (r *reader) named(n *yaml.Node, path string, it *Item, id string) *Item {
	if id == "" {
		id = Slug(it.Name)
	}
	if id == "" || id != Slug(id) {
		r.doc.Add(n, codes.Entry, yamldoc.Join(path, "id"), fmt.Sprintf("want an id of lower-case letters, digits and _, got %q (from the name if not given)", id))
		return nil
	}
	it.ID = id
	return it
}

// profile reads one weapon profile from a mapping node.
func (r *reader) profile(n *yaml.Node, path, id, name string) *state.Weapon {
	w := &state.Weapon{}
	if n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		r.doc.Add(n, codes.Entry, path, "a weapon needs its profile: at least s and d (its Strength and Damage)")
		return nil
	}
	if !r.card(n, path, w) {
		return nil
	}
	w.ID, w.Name = id, name
	return w
}

// card decodes a profile through the state's reader, so that it is
// written exactly as in a state file; its problems take the catalogue's
// code.
func (r *reader) card(n *yaml.Node, path string, v any) bool {
	probs := state.DecodeCard(r.doc.Name, r.doc.Data, n, path, v)
	for _, p := range probs {
		p.Code = codes.Entry
		r.doc.Problems = append(r.doc.Problems, p)
	}
	return len(probs) == 0
}

func hasField(fields []yamldoc.Field, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}
