package syntax

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file holds the syntax of actions as declarations, periods and
// durations: `available when`, `body`, `perform`, `stop ID`,
// `until end of PERIOD` and `once per PERIOD`.

// Available says when an action may be taken: `available when
// fighter.status == "standing"`. It sees the action's parameters.
type Available struct {
	Pos     lexer.Position
	When    *Expr `parser:"'available' 'when' @@"`
	Message *Str  `parser:"( 'else' @@ )?"` // why not, for people: "{fighter.name} is not Standing"
	EndPos  lexer.Position

	Parts []*TemplatePart // the message's, set by the checker
}

// ActionBody is what an action does when performed: `body { … }`.
type ActionBody struct {
	Pos    lexer.Position
	Body   *Block `parser:"'body' @@"`
	EndPos lexer.Position
}

// Perform runs an action: `perform shoot(fighter, target: t)`, or the
// action whose id an expression gives: `perform (which)(fighter)`.
type Perform struct {
	Pos     lexer.Position
	Action  *Ident `parser:"'perform' ( @@"`
	Dynamic *Expr  `parser:"  | '(' @@ ')' )"`
	Args    []*Arg `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	EndPos  lexer.Position
}

// StopTarget names what a `stop` ends: `stop shoot`. It must be on the
// same line as `stop`, so that a plain `stop` followed by a statement on
// the next line keeps its meaning.
type StopTarget struct {
	Ident
}

// Parse takes an identifier on the same line as the token before it: no
// whitespace between them holds a line break (a comment may, as the
// grammar sees no comments).
func (s *StopTarget) Parse(lex *lexer.PeekingLexer) error {
	next := lex.Peek()
	if next.Type != tokIdent {
		return participle.NextMatch
	}
	if raw := lex.MakeCheckpoint().RawCursor(); raw > 0 {
		prev := lex.Range(raw-1, raw)[0]
		if lineBreakBetween(sourceOf(lex), prev, *next) {
			return participle.NextMatch
		}
	}
	return s.Ident.Parse(lex)
}

// lineBreakBetween reports whether the whitespace between two tokens
// (comments apart) holds a line break.
func lineBreakBetween(src []byte, prev, next lexer.Token) bool {
	end := prev.Pos
	end.Advance(prev.Value)
	if src == nil || end.Offset > next.Pos.Offset || next.Pos.Offset > len(src) {
		return end.Line != next.Pos.Line
	}
	gap := string(src[end.Offset:next.Pos.Offset])
	for gap != "" {
		typ, n := scanToken(gap)
		if n == 0 {
			return end.Line != next.Pos.Line
		}
		if typ == tokWhitespace && strings.Contains(gap[:n], "\n") {
			return true
		}
		gap = gap[n:]
	}
	return false
}

// Until is how long an added entry lasts: `until end of round`.
type Until struct {
	Pos    lexer.Position
	Period *Ident `parser:"'until' 'end' 'of' @@"`
	EndPos lexer.Position
}

// OncePer limits an effect to once per period: `once per round`.
type OncePer struct {
	Pos    lexer.Position
	Period *Ident `parser:"'once' 'per' @@"`
	EndPos lexer.Position
}

func (*Available) node()  {}
func (*ActionBody) node() {}
func (*Perform) node()    {}
func (*Until) node()      {}
func (*OncePer) node()    {}

// FeatureParams is how a feature's parameters are written: only actions
// have them.
func (f *Feature) HasParams() bool { return f.Params != nil }

// Availability returns an action's `available when`, if any.
func (f *Feature) Availability() *Available {
	for _, it := range f.Items {
		if a, ok := it.(*Available); ok {
			return a
		}
	}
	return nil
}

// ActionBody returns an action's body, if any.
func (f *Feature) ActionBody() *ActionBody {
	for _, it := range f.Items {
		if b, ok := it.(*ActionBody); ok {
			return b
		}
	}
	return nil
}
