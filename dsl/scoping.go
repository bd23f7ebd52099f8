package dsl

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// RoleAny is the role of an effect written `as any`: it applies once if
// some model (weapon, for traits) of the state holding the feature
// satisfies its when.
const RoleAny = "any"

// effectCtx is the effect being checked: whose it is and, once resolved,
// the role its holder plays in the target.
type effectCtx struct {
	feature  *syntax.Feature
	item     syntax.FeatureItem
	role     string
	reported bool
}

// HolderType is the type of what holds a feature of a kind: a weapon for
// traits, a model for skills, powers and conditions, nil for actions
// (whose effects are not scoped).
func HolderType(kind string) reflect.Type {
	switch kind {
	case "trait":
		return typeWeapon
	case "skill", "power", "condition":
		return typeModel
	}
	return nil
}

// holderItem is a feature's `holder ROLE`, or nil.
func holderItem(f *syntax.Feature) *syntax.Ident {
	for _, it := range f.Items {
		if h, ok := it.(*syntax.Holder); ok {
			return h.Role
		}
	}
	return nil
}

// scoped resolves the role the holder of the effect being checked plays
// at a target whose scope is sc and whose parameters are params, and
// returns the scope its expressions see: sc with `holder` bound.
// Effects of actions, standing rules and house rules are not scoped.
func (c *checker) scoped(sc *scope, params []ParamInfo) *scope {
	e := c.eff
	if e == nil {
		return sc
	}
	role := syntax.EffectRole(e.item)
	var typ reflect.Type
	if e.feature != nil {
		typ = HolderType(e.feature.Kind)
	}
	if typ == nil {
		if role != nil && !e.reported {
			e.reported = true
			owner := "a rule"
			if e.feature != nil {
				owner = "an action"
			}
			c.diags.errorf(diag.CodeEffectTarget, identRange(role), "the effects of %s have no holder, so no `as %s`: only the effects of skills, traits, powers and conditions are scoped", owner, role.Name)
		}
		return sc
	}
	fromItem := false
	if role == nil {
		role, fromItem = holderItem(e.feature), true
	}
	typeName := TypeName(typ)
	var cands []string
	for _, p := range params {
		if p.Type == typ {
			cands = append(cands, p.Name)
		}
	}
	name := ""
	switch {
	case role != nil && role.Name == RoleAny:
		name = RoleAny
	case role != nil:
		sym := sc.lookup(role.Name)
		switch {
		case sym == nil:
			if !e.reported {
				e.reported = true
				what := "role"
				if fromItem {
					what = "holder role"
				}
				c.unknown(identRange(role), what, role.Name, append(cands, RoleAny)).Detail =
					fmt.Sprintf("The role is a name of type %s where the effect applies, or any.", typeName)
			}
		case sym.typ != typ:
			if !e.reported {
				e.reported = true
				c.diags.errorf(diag.CodeTypeError, identRange(role), "%s is %s, but what holds %s %s is a %s", role.Name, TypeName(sym.typ), e.feature.Kind, e.feature.ID.Name, typeName)
			}
		default:
			sym.used = true
			name = role.Name
		}
	case len(cands) == 1:
		name = cands[0]
	default:
		if !e.reported {
			e.reported = true
			at := c.itemRange(e.item)
			if len(cands) == 0 {
				c.diags.errorf(diag.CodeEffectTarget, at, "which %s holds %s %s here? No parameter of its target is a %s: write `as NAME` (a %s in scope there) or `as any`", typeName, e.feature.Kind, e.feature.ID.Name, typeName, typeName)
			} else {
				sort.Strings(cands)
				c.diags.errorf(diag.CodeEffectTarget, at, "which %s holds %s %s here? Its target has several: %s; write `as %s` (or another), or `holder NAME` in the %s", typeName, e.feature.Kind, e.feature.ID.Name, strings.Join(cands, ", "), cands[0], e.feature.Kind)
			}
		}
	}
	if e.role == "" {
		e.role = name
	}
	inner := newScope(sc)
	inner.define(&symbol{name: "holder", kind: symParam, typ: typ, used: true})
	return inner
}

// modelParam is what a characteristic-wide effect sees: the model tested.
var modelParam = []ParamInfo{{Name: "model", Type: typeModel}}

// procParamsOf is the parameters of the procedure a Ref names (nil if it
// names none).
func (c *checker) procParamsOf(ref *syntax.Ref) []ParamInfo {
	if info := c.procOf(ref.Name.Name); info != nil {
		return info.Params
	}
	return nil
}

// checkCombining reports effects of features that would give one target
// two answers with nothing to choose between them, whatever the order of
// the files: two owners' overrides of one let in one layer giving
// different values, when the let has no `prefer` and their priorities are
// equal; two owners' instead_of hooks or extra_dice of one target in one
// layer with equal priorities.
func (c *checker) checkCombining(effects []*EffectInfo) {
	group := map[string][]*EffectInfo{}
	var keysSeen []string
	for _, e := range effects {
		var key string
		switch it := e.Item.(type) {
		case *syntax.Override:
			key = "override"
		case *syntax.Hook:
			if it.Timing == "instead_of" {
				key = "instead_of"
			}
		case *syntax.ExtraDice:
			key = "extra_dice"
		}
		if key == "" {
			continue
		}
		key += fmt.Sprintf(" %s @%d", e.Target, e.Layer)
		if group[key] == nil {
			keysSeen = append(keysSeen, key)
		}
		group[key] = append(group[key], e)
	}
	for _, key := range keysSeen {
		list := group[key]
		sort.SliceStable(list, func(i, j int) bool { return list[i].Owner < list[j].Owner })
		reported := map[string]bool{}
		for i, a := range list {
			for _, b := range list[i+1:] {
				if a.Owner == b.Owner || a.Priority != b.Priority {
					continue
				}
				what := strings.SplitN(key, " @", 2)[0]
				detail := "Give one of them a higher `priority N`"
				if o, ok := a.Item.(*syntax.Override); ok {
					if a.Prefer != "" || c.rangeText(diag.RangeOf(o.Value.Pos, o.Value.EndPos)) == c.rangeText(diag.RangeOf(b.Item.(*syntax.Override).Value.Pos, b.Item.(*syntax.Override).Value.EndPos)) {
						continue // the let says which wins, or they agree
					}
					detail += ", or say which value wins where the let is declared: `let NAME = … prefer highest` (or lowest)"
				}
				pair := a.Owner + "|" + b.Owner
				if reported[pair] {
					continue
				}
				reported[pair] = true
				first, second := a, b
				if c.itemRange(second.Item) == nil {
					first, second = b, a
				}
				c.diags.errorf(diag.CodeOverlayConflict, c.itemRange(second.Item), "%s and %s both %s and may be in force together, with nothing to say which wins", first.Owner, second.Owner, what).Detail = detail + "."
			}
		}
	}
}
