package syntax

import "github.com/alecthomas/participle/v2/lexer"

// Holder says which role of its targets a feature's holder plays, for
// every effect of the feature that does not say it with `as`:
// `holder attacker`, or `holder any`.
type Holder struct {
	Pos    lexer.Position
	Role   *Ident `parser:"'holder' @@"`
	EndPos lexer.Position
}

// Priority ranks an effect among others of one target that cannot all
// apply (overrides giving different values, instead_of, extra_dice), and
// orders hooks: `priority 2`. Higher wins, or runs first.
type Priority struct {
	Pos    lexer.Position
	N      *Int `parser:"'priority' @@"`
	EndPos lexer.Position
}

// Value is the priority (0 when none is given).
func (p *Priority) Value() int {
	if p == nil || p.N == nil {
		return 0
	}
	return p.N.Value()
}

// EffectRole is the role an effect says its holder plays (`as ROLE`), or
// nil when it says none.
func EffectRole(it FeatureItem) *Ident {
	switch it := it.(type) {
	case *Modify:
		return it.As
	case *Reroll:
		return it.As
	case *ExtraDice:
		return it.As
	case *Override:
		return it.As
	case *Hook:
		return it.As
	case *On:
		return it.As
	}
	return nil
}

// EffectPriority is an effect's `priority N` (nil when it has none).
func EffectPriority(it FeatureItem) *Priority {
	switch it := it.(type) {
	case *ExtraDice:
		return it.Prio
	case *Override:
		return it.Prio
	case *Hook:
		return it.Prio
	case *On:
		return it.Prio
	}
	return nil
}

func (*Holder) node()   {}
func (*Priority) node() {}

// as prints an effect's `as ROLE`, if any.
func (p *printer) as(role *Ident) {
	if role != nil {
		p.kw("as")
		p.ident(role, true)
	}
}

// priority prints an effect's `priority N`, if any.
func (p *printer) priority(n *Priority) {
	if n != nil {
		p.kw("priority")
		p.int(n.N, true)
	}
}
