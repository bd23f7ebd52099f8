package playground

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// Catalog is what the page offers to pick from, all of it from the
// shipped packs.
type Catalog struct {
	Rulesets []Ruleset `json:"rulesets"`
	Houses   []House   `json:"houses"`
	// Files are the shipped rule files, by pack directory ("core-2023",
	// "house/aa"), each a path inside rulesets/.
	Files map[string][]string `json:"files"`
	// States are the example states shipped with the rulesets.
	States []string `json:"states"`
	// Limits are the bounds of a call, for the page to say.
	Limits Limits `json:"limits"`
}

// Ruleset is a base ruleset.
type Ruleset struct {
	Name   string `json:"name"` // as --rules takes it: core-2023
	Title  string `json:"title"`
	Source string `json:"source,omitempty"`
}

// House is a house group with its rules.
type House struct {
	ID     string      `json:"id"`
	Title  string      `json:"title"`
	Source string      `json:"source,omitempty"`
	Pack   string      `json:"pack"` // its directory: house/aa
	Rules  []HouseRule `json:"rules"`
}

// HouseRule is one toggleable rule of a house group.
type HouseRule struct {
	ID      string `json:"id"` // aa.single_lasting_injury
	Title   string `json:"title"`
	Source  string `json:"source,omitempty"`
	Effects bool   `json:"effects"` // false: text only
}

// Limits are the playground's bounds.
type Limits struct {
	MaxPaths        int `json:"max_paths"`
	DefaultMaxPaths int `json:"default_max_paths"`
	MaxSamples      int `json:"max_samples"`
	DefaultSamples  int `json:"default_samples"`
	MaxStateBytes   int `json:"max_state_bytes"`
	MaxRuleBytes    int `json:"max_rule_file_bytes"`
}

func (p *Playground) catalog() (*Catalog, *Error) {
	c := &Catalog{Files: map[string][]string{}, Limits: Limits{
		MaxPaths: MaxPaths, DefaultMaxPaths: DefaultMaxPaths, MaxSamples: MaxSamples, DefaultSamples: DefaultSamples,
		MaxStateBytes: MaxStateBytes, MaxRuleBytes: MaxRuleFileBytes}}
	for _, name := range rulesets.Bases() {
		r := Ruleset{Name: name}
		if lp, _ := dsl.LoadPack(rulesets.Pack(name)); lp != nil && lp.Header != nil {
			r.Title = lp.Header.Title.Value()
			r.Source = syntax.MetaOf(lp.Header.Items).Source
		}
		c.Rulesets = append(c.Rulesets, r)
	}
	packs, diags := rulesets.HousePacks(nil)
	if diags.HasErrors() {
		return nil, &Error{Message: "the shipped house rules do not parse", Diagnostics: diags}
	}
	for _, hp := range packs {
		for _, h := range hp.Houses {
			house := House{ID: h.ID.Name, Title: h.Title.Value(), Source: syntax.MetaOf(h.Items).Source,
				Pack: strings.TrimPrefix(hp.Display, "rulesets/"), Rules: []HouseRule{}}
			for _, r := range h.Rules() {
				hr := HouseRule{ID: h.ID.Name + "." + r.ID.Name, Title: r.Title.Value(), Source: syntax.MetaOf(r.Items).Source}
				for _, it := range r.Items {
					hr.Effects = hr.Effects || ruledoc.IsEffect(it)
				}
				house.Rules = append(house.Rules, hr)
			}
			c.Houses = append(c.Houses, house)
		}
	}
	sort.Slice(c.Houses, func(i, j int) bool { return c.Houses[i].ID < c.Houses[j].ID })
	for _, dir := range rulesets.Dirs() {
		files := []string{}
		_ = fs.WalkDir(rulesets.FS, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != dir && isPack(p) {
				return fs.SkipDir // a pack of its own (house/aa under house)
			}
			switch {
			case d.IsDir():
			case strings.HasSuffix(p, ".munda"):
				files = append(files, p)
			case isState(p):
				c.States = append(c.States, p)
			}
			return nil
		})
		c.Files[dir] = files
	}
	sort.Strings(c.States)
	return c, nil
}

func isPack(dir string) bool {
	for _, d := range rulesets.Dirs() {
		if d == dir {
			return true
		}
	}
	return false
}

// isState tells the example states among the packs' files: YAML files in
// a states directory (the catalogue's and the import's YAML are data of
// another kind).
func isState(p string) bool {
	ext := path.Ext(p)
	return (ext == ".yaml" || ext == ".json") && path.Base(path.Dir(p)) == "states"
}

// FileRequest asks for a shipped file's text.
type FileRequest struct {
	Path string `json:"path"`
}

// FileAnswer is a shipped file's text.
type FileAnswer struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// file returns a shipped rule file or example state.
func (p *Playground) file(req FileRequest) (*FileAnswer, *Error) {
	clean := path.Clean(req.Path)
	if !fs.ValidPath(clean) || !(strings.HasSuffix(clean, ".munda") || isState(clean)) {
		return nil, fail("%q is not a shipped rule file or example state", req.Path)
	}
	data, err := fs.ReadFile(rulesets.FS, clean)
	if err != nil {
		return nil, fail("%q is not a shipped rule file or example state", req.Path)
	}
	return &FileAnswer{Path: clean, Text: string(data)}, nil
}
