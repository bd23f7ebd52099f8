package ruledoc

// This file lists the declarations of one kind, for `munda rules list
// KIND`: what there is to run, roll, or look up.

import (
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// Listed is one declaration in a listing.
type Listed struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Source string `json:"source,omitempty"`
}

// ListKinds are the kinds `rules list` takes, as a person types them.
var ListKinds = []string{"procedures", "tables", "dice", "characteristics", "functions", "events", "kinds", "enums",
	"skills", "traits", "powers", "actions", "conditions", "rules"}

// Declarations lists the declarations in force of a kind of ListKinds, sorted by
// id; ok is false for a kind it does not know.
func Declarations(r *dsl.Rules, kind string) (out []Listed, ok bool) {
	idx := r.Index
	add := func(id, title string, meta syntax.Meta) {
		out = append(out, Listed{ID: id, Title: title, Source: meta.Source})
	}
	switch kind {
	case "procedures":
		for id, p := range idx.Procedures {
			add(id, p.Title, p.Meta)
		}
	case "tables":
		for id, t := range idx.Tables {
			add(id, t.Title, t.Meta)
		}
	case "dice":
		for id, d := range idx.Dice {
			add(id, d.Title, syntax.MetaOf(d.Decl.Items))
		}
	case "characteristics":
		for id, c := range idx.Characteristics {
			add(id, c.Title, syntax.MetaOf(c.Decl.Items))
		}
	case "functions":
		for id, f := range idx.Functions {
			if f.Function != nil {
				add(id, f.Function.Title.Value(), syntax.Meta{})
			}
		}
	case "events":
		for id, e := range idx.Events {
			add(id, e.Title.Value(), syntax.Meta{})
		}
	case "kinds":
		for id, k := range idx.Kinds {
			add(id, k.Title, syntax.MetaOf(k.Decl.Items))
		}
	case "enums":
		for id, e := range idx.Enums {
			add(id, e.Title, syntax.MetaOf(e.Decl.Items))
		}
	case "rules":
		for id, hr := range r.StandingRules() {
			add(id, hr.Title.Value(), syntax.MetaOf(hr.Items))
		}
	default:
		feature, isFeature := strings.CutSuffix(kind, "s")
		if !isFeature || !isFeatureKind(feature) {
			return nil, false
		}
		for id, f := range idx.Features[feature] {
			add(id, f.Title.Value(), syntax.MetaOf(f.Items))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, true
}

func isFeatureKind(k string) bool {
	switch k {
	case "skill", "trait", "power", "action", "condition":
		return true
	}
	return false
}
