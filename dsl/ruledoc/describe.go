package ruledoc

import (
	"fmt"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
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
func DescribeEffect(e *dsl.EffectInfo) EffectDesc {
	d := EffectDesc{Target: DescribeTarget(e.Target, e.TargetKind), Owner: e.Owner}
	when := func(w *syntax.Expr) string {
		if w == nil {
			return ""
		}
		return "when " + syntax.CanonicalExpr(w)
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
	case *syntax.Override:
		d.Action = "overridden"
		d.Detail = join("= "+syntax.CanonicalExpr(it.Value), when(it.When))
	case *syntax.Modify:
		d.Action = "modified"
		d.Detail = join("by "+syntax.CanonicalExpr(it.By), when(it.When))
	case *syntax.Reroll:
		d.Action = "re-rolled"
		var which []string
		if it.Each {
			which = append(which, "each die")
		}
		if it.UpTo != nil {
			which = append(which, "up to "+syntax.CanonicalExpr(it.UpTo)+" dice")
		}
		if it.Where != nil {
			which = append(which, "where "+syntax.CanonicalExpr(it.Where))
		}
		which = append(which, when(it.When))
		d.Detail = join(which...)
	case *syntax.ExtraDice:
		d.Action = fmt.Sprintf("given %s extra dice", it.Count.Digits)
		if it.Pick != "" {
			d.Action += fmt.Sprintf(" (pick %s)", it.Pick)
		}
		d.Detail = when(it.When)
	case *syntax.Hook:
		d.Action = strings.ReplaceAll(it.Timing, "_", "-") + "-hook"
		d.Detail = when(it.When)
	case *syntax.On:
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
	case "value":
		return member + " of each " + name
	case "any roll":
		return "rolls, tests and table rolls of every procedure (reroll any)"
	}
	return kind + " " + target
}

// DescribeReplace names what a replacement replaces: "row 66
// memorable_death of table lasting_injury", "dice injury".
func DescribeReplace(r *syntax.Replace) string {
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
	return syntax.KindOf(r.Decl) + " " + syntax.IDOf(r.Decl).Name
}

// ItemHead is an effect or replacement as written, on one line, its body
// (if any) left out: `override bottle_check.threshold = gang.eligible_models`,
// `after bottle_check when x { … }`.
func ItemHead(it any) string {
	first, rest, more := strings.Cut(syntax.Canonical(it), "\n")
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
func IsEffect(it syntax.FeatureItem) bool {
	switch it.(type) {
	case *syntax.Modify, *syntax.Reroll, *syntax.ExtraDice, *syntax.Override, *syntax.Hook, *syntax.On, *syntax.Replace:
		return true
	}
	return false
}

// ParamsText is a parameter list as written: "(fighter: model, lasting: int = 1)".
func ParamsText(ps []*syntax.Param) string {
	var parts []string
	for _, p := range ps {
		s := p.Name.Name
		if p.Type != nil {
			s += ": " + p.Type.Name
		}
		if p.Default != nil {
			s += " = " + syntax.CanonicalExpr(p.Default)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// rowKeyText is a row's key as written: "15-26", "7+", "glancing".
func rowKeyText(k syntax.RowKey) string {
	switch k := k.(type) {
	case *syntax.RangeKey:
		s := k.From.Digits
		if k.To != nil {
			s += "-" + k.To.Digits
		} else if k.OrMore {
			s += "+"
		}
		return s
	case *syntax.FaceKey:
		return k.Face.Name
	}
	return "?"
}
