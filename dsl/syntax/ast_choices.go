package syntax

import "github.com/alecthomas/participle/v2/lexer"

// ChooseMulti makes a choice a decision about several items at once:
// `split N among LIST` shares N out among the items (the answer is a map
// from item to count, adding up to N); `pick K of LIST` takes K distinct
// items (the answer is a list); `pick up to K of LIST` at most K.
type ChooseMulti struct {
	Pos    lexer.Position
	Split  *Expr `parser:"(   'split' @@ 'among'"`
	UpTo   bool  `parser:"  | 'pick' ( @'up' 'to' )?"`
	Pick   *Expr `parser:"    @@ 'of' )"`
	List   *Expr `parser:"@@"`
	EndPos lexer.Position
}

// Count is N of a split, K of a pick.
func (m *ChooseMulti) Count() *Expr {
	if m.Split != nil {
		return m.Split
	}
	return m.Pick
}

// Word is how the choice reads: "split", "pick" or "pick up to".
func (m *ChooseMulti) Word() string {
	if m.Split != nil {
		return "split"
	}
	if m.UpTo {
		return "pick up to"
	}
	return "pick"
}

func (*ChooseMulti) node() {}
