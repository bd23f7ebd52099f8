package dsl

import (
	"fmt"
	"strings"
)

// This file says, for people, what the effects and replacements of checked
// rules change: "let threshold of procedure bottle_check: overridden by
// house rule aa.reinforcements_count = gang.eligible_models".

// EffectDesc describes one effect in force.
type EffectDesc struct {
	Target string `json:"target"`           // what it changes: "let threshold of procedure bottle_check"
	Action string `json:"action"`           // how: "overridden", "modified", "re-rolled", "after-hook", "handled", …
	Owner  string `json:"owner"`            // whose it is: "house rule aa.reinforcements_count", "skill iron_will"
	Detail string `json:"detail,omitempty"` // its expressions: "= gang.eligible_models when …", "by -1", ""
}

// String is the whole description on one line.
func (d EffectDesc) String() string {
	s := d.Target + ": " + d.Action + " by " + d.Owner
	if d.Detail != "" {
		s += " " + d.Detail
	}
	return s
}

// DescribeEffect describes an effect the checker resolved.
func DescribeEffect(e *EffectInfo) EffectDesc {
	d := EffectDesc{Target: DescribeTarget(e.Target, e.TargetKind), Owner: e.Owner}
	when := func(w *Expr) string {
		if w == nil {
			return ""
		}
		return "when " + CanonicalExpr(w)
	}
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch it := e.Item.(type) {
	case *Override:
		d.Action = "overridden"
		d.Detail = join("= "+CanonicalExpr(it.Value), when(it.When))
	case *Modify:
		d.Action = "modified"
		d.Detail = join("by "+CanonicalExpr(it.By), when(it.When))
	case *Reroll:
		d.Action = "re-rolled"
		d.Detail = when(it.When)
	case *ExtraDice:
		d.Action = fmt.Sprintf("given %s extra dice (pick %s)", it.Count.Digits, it.Pick)
		d.Detail = when(it.When)
	case *Hook:
		d.Action = strings.ReplaceAll(it.Timing, "_", "-") + "-hook"
		d.Detail = when(it.When)
	case *On:
		d.Action = "handled"
		d.Detail = when(it.When)
	default:
		d.Action = "changed"
	}
	return d
}

// DescribeTarget names an effect's target ("bottle_check.threshold", of
// kind "let") for people: "let threshold of procedure bottle_check".
func DescribeTarget(target, kind string) string {
	name, member, _ := strings.Cut(target, ".")
	switch kind {
	case "let", "roll", "test", "step":
		return kind + " " + member + " of procedure " + name
	case "procedure":
		return "procedure " + name
	case "table":
		return "roll of table " + name
	case "characteristic":
		return "tests of characteristic " + name
	case "event":
		return "event " + name
	}
	return kind + " " + target
}

// DescribeReplace names what a replacement replaces: "row 66
// memorable_death of table lasting_injury", "dice injury".
func DescribeReplace(r *Replace) string {
	if r.Decl == nil {
		if r.Row == nil || r.Table == nil {
			return "a row"
		}
		s := "row " + rowKeyText(r.Row.Key)
		if r.Row.ID != nil {
			s += " " + r.Row.ID.Name
		}
		return s + " of table " + r.Table.Name
	}
	_, id, _ := namespaceOf(r.Decl)
	return kindOf(r.Decl) + " " + id
}

// ItemHead is an effect or replacement as written, on one line, its body
// (if any) left out: `override bottle_check.threshold = gang.eligible_models`,
// `after bottle_check when x { … }`.
func ItemHead(it any) string {
	first, rest, more := strings.Cut(Canonical(it), "\n")
	if !more {
		return first
	}
	if strings.HasSuffix(first, " {") && strings.TrimSpace(rest) != "}" {
		return first + " … }"
	}
	return first + " }"
}

// IsEffect reports whether a feature or house-rule item changes the rules
// (an effect or a replacement) rather than describing them.
func IsEffect(it FeatureItem) bool {
	switch it.(type) {
	case *Modify, *Reroll, *ExtraDice, *Override, *Hook, *On, *Replace:
		return true
	}
	return false
}

// StandingRules are the rules declared at the top level of the packs
// (always in force), by id.
func (r *Rules) StandingRules() map[string]*HouseRule {
	out := map[string]*HouseRule{}
	for _, f := range r.Files() {
		for _, d := range f.Decls {
			if hr, ok := d.(*HouseRule); ok {
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
func (r *Rules) Replacers() map[Decl]string {
	out := map[Decl]string{}
	for _, p := range r.Packs {
		owner := "pack " + p.Pack.Display
		if p.Header != nil {
			owner = "ruleset " + p.Header.ID.Name
		}
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if rp, ok := d.(*Replace); ok && rp.Decl != nil {
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
				if rp, ok := it.(*Replace); ok && rp.Decl != nil {
					out[rp.Decl] = "house rule " + rid
				}
			}
		}
	}
	return out
}

// ParamsText is a parameter list as written: "(fighter: model, lasting: int = 1)".
func ParamsText(ps []*Param) string {
	var parts []string
	for _, p := range ps {
		s := p.Name.Name
		if p.Type != nil {
			s += ": " + p.Type.Name
		}
		if p.Default != nil {
			s += " = " + CanonicalExpr(p.Default)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// rowKeyText is a row's key as written: "15-26", "7+", "glancing".
func rowKeyText(k RowKey) string {
	switch k := k.(type) {
	case *RangeKey:
		s := k.From.Digits
		if k.To != nil {
			s += "-" + k.To.Digits
		} else if k.OrMore {
			s += "+"
		}
		return s
	case *FaceKey:
		return k.Face.Name
	}
	return "?"
}
