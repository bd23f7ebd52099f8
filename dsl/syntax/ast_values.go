package syntax

import "github.com/alecthomas/participle/v2/lexer"

// Grant makes the holder of a feature (or, in a rule, every model or
// weapon the condition holds for) hold another feature while it is in
// force: `grant skill nerves_of_steel when …`, `grant trait blaze`.
type Grant struct {
	Pos    lexer.Position
	Kind   string `parser:"'grant' @('skill' | 'power' | 'condition' | 'trait')"`
	ID     *Ident `parser:"@@"`
	When   *Expr  `parser:"( 'when' @@ )?"`
	EndPos lexer.Position
}

// Prevent keeps a condition from being added to the holder:
// `prevent condition blind when …`.
type Prevent struct {
	Pos    lexer.Position
	Kind   string `parser:"'prevent' @'condition'"`
	ID     *Ident `parser:"@@"`
	When   *Expr  `parser:"( 'when' @@ )?"`
	EndPos lexer.Position
}

func (*Grant) node()   {}
func (*Prevent) node() {}
