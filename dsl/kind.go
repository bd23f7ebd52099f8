package dsl

// This file checks the declarations of the game's vocabulary: kinds of
// model with their statuses (`kind`), and closed sets of names (`enum`).

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// The namespaces of kinds and enums: each has its own, as neither is named
// by expressions or effects.
const (
	nsKind = "kind"
	nsEnum = "enum"
)

// KindInfo is a checked kind of model.
type KindInfo struct {
	Decl     *syntax.ModelKind
	ID       string
	Title    string
	Statuses []*syntax.Status
	Carries  []string // the kinds that may be aboard one
	// Warns are what the rules expect of every model of the kind, checked
	// when a state meets the rules (interpreter.Program.StateWarnings).
	Warns []*KindWarn
}

// KindWarn is a checked `warn`: its condition (on `model`) and message.
type KindWarn struct {
	Decl  *syntax.Warn
	Parts []*syntax.TemplatePart
}

// WarnedModel is the name a kind's `warn` calls the model it looks at.
const WarnedModel = "model"

// checkKindWarnings compiles every kind's warnings: after the functions,
// which they call.
func (c *checker) checkKindWarnings() {
	for _, k := range c.idx.Kinds {
		for _, it := range k.Decl.Items {
			w, ok := it.(*syntax.Warn)
			if !ok {
				continue
			}
			sc := newScope(c.globals)
			sc.define(&symbol{name: WarnedModel, kind: symParam, typ: typeModel, used: true})
			c.compile(w.When, sc, typeBool, "a warning's condition")
			kw := &KindWarn{Decl: w, Parts: c.parseTemplate(w.Message)}
			for _, p := range kw.Parts {
				if p.Expr != nil && strings.TrimSpace(p.Expr.Text) != "" {
					c.compile(p.Expr, sc, nil, "")
				}
			}
			k.Warns = append(k.Warns, kw)
		}
	}
}

// EnumInfo is a checked enum.
type EnumInfo struct {
	Decl    *syntax.Enum
	ID      string
	Title   string
	Members []string // in order
}

// checkKinds checks every kind and enum, indexes those in force and builds
// the vocabulary states are checked against.
func (c *checker) checkKinds() {
	var order []string // kinds' ids, in the order first declared
	seen := map[string]bool{}
	for _, d := range c.all {
		switch d := d.(type) {
		case *syntax.ModelKind:
			info := c.kindInfo(d)
			if c.lookup(nsKind, d.ID.Name) == d {
				c.idx.Kinds[d.ID.Name] = info
			}
			if !seen[d.ID.Name] {
				seen[d.ID.Name] = true
				order = append(order, d.ID.Name)
			}
		case *syntax.Enum:
			info := c.enumInfo(d)
			if c.lookup(nsEnum, d.ID.Name) == d {
				c.idx.Enums[d.ID.Name] = info
			}
		}
	}
	if len(c.idx.Kinds) == 0 {
		return
	}
	voc := &state.Vocabulary{}
	for _, id := range order {
		k := c.idx.Kinds[id]
		if k == nil {
			continue
		}
		mk := state.ModelKind{ID: id, Carries: k.Carries}
		for _, s := range k.Statuses {
			st := state.Status{ID: s.ID.Name}
			for _, m := range s.Secondaries {
				st.Secondaries = append(st.Secondaries, m.ID.Name)
			}
			mk.Statuses = append(mk.Statuses, st)
		}
		voc.Kinds = append(voc.Kinds, mk)
	}
	// The ids a state's lists name, by what they are (the kinds of
	// feature, as the state's `munda` tags call them).
	voc.IDs = map[string][]string{}
	for kind, features := range c.idx.Features {
		voc.IDs[kind] = slices.Sorted(maps.Keys(features))
	}
	c.idx.Vocabulary = voc
}

func (c *checker) kindInfo(k *syntax.ModelKind) *KindInfo {
	info := &KindInfo{Decl: k, ID: k.ID.Name, Title: k.Title.Value()}
	statuses := map[string]*syntax.Ident{}
	for _, it := range k.Items {
		switch it := it.(type) {
		case *syntax.Status:
			if prev, dup := statuses[it.ID.Name]; dup {
				c.diags.errorf(diag.CodeDuplicateID, identRange(it.ID), "status %s of kind %s is declared twice (first at %s)", it.ID.Name, k.ID.Name, identRange(prev))
				continue
			}
			statuses[it.ID.Name] = it.ID
			info.Statuses = append(info.Statuses, it)
			c.members(it.Secondaries, "secondary status", "status "+it.ID.Name)
		case *syntax.Carries:
			for _, id := range it.Kinds {
				if !c.isKind(id) {
					continue
				}
				if slices.Contains(info.Carries, id.Name) {
					c.diags.errorf(diag.CodeDuplicateID, identRange(id), "kind %s carries %s twice", k.ID.Name, id.Name)
					continue
				}
				info.Carries = append(info.Carries, id.Name)
			}
		}
	}
	if len(info.Statuses) == 0 {
		d := c.diags.errorf(diag.CodeVocabulary, identRange(k.ID), "kind %s has no statuses", k.ID.Name)
		d.Detail = "Every model has a status, so a kind lists the statuses it may have: `status ID \"Title\" { SECONDARY \"Title\" … }`."
	}
	return info
}

func (c *checker) enumInfo(e *syntax.Enum) *EnumInfo {
	info := &EnumInfo{Decl: e, ID: e.ID.Name, Title: e.Title.Value()}
	members := e.Members()
	c.members(members, "member", "enum "+e.ID.Name)
	for _, m := range members {
		if !slices.Contains(info.Members, m.ID.Name) {
			info.Members = append(info.Members, m.ID.Name)
		}
	}
	if len(members) == 0 {
		d := c.diags.errorf(diag.CodeVocabulary, identRange(e.ID), "enum %s has no members", e.ID.Name)
		d.Detail = fmt.Sprintf("A property named %s would accept nothing; list its names: `enum %s \"…\" { name \"Title\" … }`.", e.ID.Name, e.ID.Name)
	}
	return info
}

// isKind reports whether id names a kind of model, and if not says so.
func (c *checker) isKind(id *syntax.Ident) bool {
	if _, ok := c.lookup(nsKind, id.Name).(*syntax.ModelKind); ok {
		return true
	}
	d := c.unknown(identRange(id), "kind of model", id.Name, keys(c.decls[nsKind]))
	if d.Detail == "" {
		if kinds := keys(c.decls[nsKind]); len(kinds) > 0 {
			d.Detail = fmt.Sprintf("The kinds of model are %s (declared with `kind`).", strings.Join(kinds, ", "))
		} else {
			d.Detail = "The rules declare no kind of model: declare it with `kind ID \"Title\" { status … }`."
		}
	}
	return false
}

// members reports a member listed twice.
func (c *checker) members(ms []*syntax.Member, what, of string) {
	first := map[string]*syntax.Ident{}
	for _, m := range ms {
		if prev, dup := first[m.ID.Name]; dup {
			c.diags.errorf(diag.CodeDuplicateID, identRange(m.ID), "%s %s of %s is listed twice (first at %s)", what, m.ID.Name, of, identRange(prev))
			continue
		}
		first[m.ID.Name] = m.ID
	}
}

// enumProperty checks a feature's property against the enum of its name,
// if the rules declare one: `type basic` must name a member of `enum type`.
func (c *checker) enumProperty(p *syntax.Property) {
	e := c.idx.Enums[p.Name]
	if e == nil || len(e.Members) == 0 || p.Value == nil || slices.Contains(e.Members, p.Value.Name) {
		return
	}
	d := c.unknown(identRange(p.Value), strings.ToLower(e.Title), p.Value.Name, e.Members)
	if d.Detail == "" {
		d.Detail = fmt.Sprintf("A %s is one of enum %s: %s.", p.Name, e.ID, strings.Join(e.Members, ", "))
	}
}
