package yaktribe

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/catalogue"
	"github.com/munda-rules/munda/stdlib/internal/yamldoc"
	"github.com/munda-rules/munda/stdlib/state"
)

// Mapping says how Yaktribe's words become a ruleset's: the kind of model
// a ganger is, the state each roster status stands for, a ganger's
// category from its type, and where the rules keep the skills and Lasting
// Injuries a roster names (with aliases for names that differ). A ruleset
// ships it as data (rulesets/core-2023/import/yaktribe.yaml), since these
// are words of the game, not of Go.
type Mapping struct {
	Name       string  // the file, as diagnostics name it
	Source     string  // where the mapping's readings come from
	Kind       string  // the kind of model a ganger is
	Base       float64 // the base diameter (mm) given to every model
	Statuses   []*StatusMapping
	Categories []*CategoryMapping
	Skills     NameMapping // Feature: the kind of feature skills are
	Injuries   NameMapping // Table: the table whose rows are Lasting Injuries
}

// StatusMapping is what a roster status (Alive, Recovery, Dead) sets on a
// model.
type StatusMapping struct {
	Word          string // as Yaktribe writes it
	Status        string
	Secondary     string
	InRecovery    bool
	Dead          bool
	Captured      bool
	Convalescence bool
}

// CategoryMapping gives the category (and special rules) of a ganger
// whose type holds one of Types as whole words: "Goliath Forge Tyrant"
// holds "Forge Tyrant".
type CategoryMapping struct {
	Category string
	Rules    []string
	Types    []string
}

// NameMapping says where the rules keep names a roster gives, and which
// roster names stand for which ids when they are not simply the rule's
// title or id.
type NameMapping struct {
	Feature string            // skills: the kind of feature
	Table   string            // injuries: the table
	Aliases map[string]string // Key(roster name) → rule id
}

// Limits on a mapping file.
const (
	maxMappingBytes = 1 << 20
	maxMappingNodes = 50_000
)

var mappingCodes = yamldoc.Codes{Syntax: diag.CodeImportMapping, Entry: diag.CodeImportMapping}

// ReadMapping reads an import mapping file (its form is in docs/import.md).
// Problems are diag.Diagnostics with code import_mapping; the Mapping is
// nil when there are any.
func ReadMapping(name string, data []byte) (m *Mapping, problems diag.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			m, problems = nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeImportMapping, Subject: &diag.Range{Filename: name},
				Summary: fmt.Sprintf("internal error reading the mapping: %v", r)}}
		}
	}()
	d := yamldoc.Parse(name, data, maxMappingBytes, maxMappingNodes, mappingCodes)
	if d.Root == nil {
		return nil, d.Problems
	}
	m = &Mapping{Name: name}
	required := map[string]bool{"kind": true, "base": true, "statuses": true, "skills": true, "injuries": true}
	for _, f := range d.Fields(d.Root, "", []string{"source", "kind", "base", "statuses", "categories", "skills", "injuries"}) {
		delete(required, f.Name)
		switch f.Name {
		case "source":
			m.Source, _ = d.String(f.Value, f.Path)
		case "kind":
			m.Kind, _ = d.String(f.Value, f.Path)
		case "base":
			m.Base, _ = d.Number(f.Value, f.Path, 1, 1000)
		case "statuses":
			for _, s := range d.Fields(f.Value, f.Path, nil) {
				sm := &StatusMapping{Word: s.Name}
				for _, sf := range d.Fields(s.Value, s.Path, []string{"status", "secondary", "in_recovery", "dead", "captured", "convalescence"}) {
					switch sf.Name {
					case "status":
						sm.Status, _ = d.String(sf.Value, sf.Path)
					case "secondary":
						sm.Secondary, _ = d.String(sf.Value, sf.Path)
					case "in_recovery":
						sm.InRecovery, _ = d.Bool(sf.Value, sf.Path)
					case "dead":
						sm.Dead, _ = d.Bool(sf.Value, sf.Path)
					case "captured":
						sm.Captured, _ = d.Bool(sf.Value, sf.Path)
					case "convalescence":
						sm.Convalescence, _ = d.Bool(sf.Value, sf.Path)
					}
				}
				if sm.Status == "" {
					d.Add(s.Value, diag.CodeImportMapping, yamldoc.Join(s.Path, "status"), "a roster status needs the model status it stands for")
				}
				m.Statuses = append(m.Statuses, sm)
			}
		case "categories":
			for i, c := range d.Items(f.Value, f.Path) {
				path := yamldoc.Index(f.Path, i)
				cm := &CategoryMapping{}
				for _, cf := range d.Fields(c, path, []string{"category", "rules", "types"}) {
					switch cf.Name {
					case "category":
						cm.Category, _ = d.String(cf.Value, cf.Path)
					case "rules":
						cm.Rules = d.Strings(cf.Value, cf.Path)
					case "types":
						cm.Types = d.Strings(cf.Value, cf.Path)
					}
				}
				if cm.Category == "" || len(cm.Types) == 0 {
					d.Add(c, diag.CodeImportMapping, path, "a category needs its category and the types (words of a roster's type) that have it")
				}
				m.Categories = append(m.Categories, cm)
			}
		case "skills":
			m.Skills = readNames(d, f.Value, f.Path, "feature")
		case "injuries":
			m.Injuries = readNames(d, f.Value, f.Path, "table")
		}
	}
	for _, name := range []string{"kind", "base", "statuses", "skills", "injuries"} {
		if required[name] {
			d.Add(d.Root, diag.CodeImportMapping, name, "required field is missing")
		}
	}
	if len(d.Problems) > 0 {
		return nil, d.Problems
	}
	return m, nil
}

// readNames reads skills or injuries: where the rules keep them (the
// field named where) and aliases.
func readNames(d *yamldoc.Doc, n *yaml.Node, path, where string) NameMapping {
	nm := NameMapping{Aliases: map[string]string{}}
	for _, f := range d.Fields(n, path, []string{where, "aliases"}) {
		switch f.Name {
		case "feature":
			nm.Feature, _ = d.String(f.Value, f.Path)
		case "table":
			nm.Table, _ = d.String(f.Value, f.Path)
		case "aliases":
			for _, a := range d.Fields(f.Value, f.Path, nil) {
				if id, ok := d.String(a.Value, a.Path); ok {
					nm.Aliases[catalogue.Slug(a.Name)] = id
				}
			}
		}
	}
	if nm.Feature == "" && nm.Table == "" {
		d.Add(n, diag.CodeImportMapping, yamldoc.Join(path, where), "required field is missing")
	}
	return nm
}

// LoadMapping reads a mapping file of fsys; display names it in
// diagnostics.
func LoadMapping(fsys fs.FS, path, display string) (*Mapping, diag.Diagnostics) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeFileError, Summary: fmt.Sprintf("cannot read %s: %v", display, err)}}
	}
	return ReadMapping(display, data)
}

// status finds the mapping of a roster status, compared as names are.
func (m *Mapping) status(word string) *StatusMapping {
	for _, s := range m.Statuses {
		if catalogue.Slug(s.Word) == catalogue.Slug(word) {
			return s
		}
	}
	return nil
}

// statusWords lists the roster statuses the mapping knows.
func (m *Mapping) statusWords() []string {
	var out []string
	for _, s := range m.Statuses {
		out = append(out, s.Word)
	}
	return out
}

// category finds the category of a ganger's type: the first whose types
// the type holds as whole words.
func (m *Mapping) category(typ string) *CategoryMapping {
	t := " " + strings.ReplaceAll(catalogue.Slug(typ), "_", " ") + " "
	for _, c := range m.Categories {
		for _, w := range c.Types {
			if k := strings.ReplaceAll(catalogue.Slug(w), "_", " "); k != "" && strings.Contains(t, " "+k+" ") {
				return c
			}
		}
	}
	return nil
}

// Name is a name the rules give something: a skill or a Lasting Injury.
type Name struct {
	ID, Title string
}

// RuleNames lists the rules' skills (the features of the mapping's kind)
// and Lasting Injuries (the rows of its table), sorted by id, and checks
// the mapping against the rules: the kind of model and the statuses it
// names, and the ids its aliases give, must be the rules'.
func RuleNames(idx *dsl.Index, m *Mapping) (skills, injuries []Name, problems diag.Diagnostics) {
	at := &diag.Range{Filename: m.Name}
	bad := func(path, format string, args ...any) {
		problems = append(problems, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeImportMapping, Subject: at, Path: path, Summary: fmt.Sprintf(format, args...)})
	}
	features, ok := idx.Features[m.Skills.Feature]
	if !ok {
		bad("skills.feature", "the rules have no feature of kind %q", m.Skills.Feature)
	}
	for id, f := range features {
		title := ""
		if f.Title != nil {
			title = f.Title.Value()
		}
		skills = append(skills, Name{ID: id, Title: title})
	}
	table, ok := idx.Tables[m.Injuries.Table]
	if !ok {
		names := make([]string, 0, len(idx.Tables))
		for id := range idx.Tables {
			names = append(names, id)
		}
		bad("injuries.table", "%s", diag.Suggest(fmt.Sprintf("the rules have no table %q", m.Injuries.Table), m.Injuries.Table, names))
	} else {
		seen := map[string]bool{}
		for _, r := range table.Rows {
			if r.ID != "" && !seen[r.ID] {
				seen[r.ID] = true
				injuries = append(injuries, Name{ID: r.ID, Title: r.Title})
			}
		}
	}
	sort.Slice(skills, func(i, j int) bool { return skills[i].ID < skills[j].ID })
	sort.Slice(injuries, func(i, j int) bool { return injuries[i].ID < injuries[j].ID })
	for _, list := range []struct {
		what    string
		aliases map[string]string
		names   []Name
	}{{"skills", m.Skills.Aliases, skills}, {"injuries", m.Injuries.Aliases, injuries}} {
		for alias, id := range list.aliases {
			if !hasID(list.names, id) {
				bad(list.what+".aliases", "alias %s names %s, which the rules do not have", alias, id)
			}
		}
	}
	voc := idx.Vocabulary
	if voc != nil {
		k := voc.Kind(m.Kind)
		if k == nil {
			bad("kind", "the rules have no kind of model %q", m.Kind)
		} else {
			for _, s := range m.Statuses {
				probe := &state.Model{ID: "probe", Kind: m.Kind, Status: s.Status, Secondary: s.Secondary, Base: 1}
				st := &state.State{Gangs: []*state.Gang{{ID: "probe", Models: []*state.Model{probe}}}}
				if err := state.ValidateWith(st, voc); err != nil {
					var ds diag.Diagnostics
					if ok := asDiagnostics(err, &ds); ok && len(ds) > 0 {
						bad("statuses."+s.Word, "%s", ds[0].Summary)
					}
				}
			}
		}
	}
	problems.Sort()
	return skills, injuries, problems
}

func hasID(names []Name, id string) bool {
	for _, n := range names {
		if n.ID == id {
			return true
		}
	}
	return false
}
