package dsl

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// PoolDiceVar is the name under which a pool re-roll's predicate sees the
// pool's dice: `where PRED` is compiled as `map(PoolDiceVar, PRED)`, so `#`
// is each die in turn (an inner scope, so a rule's own name never clashes
// with it).
const PoolDiceVar = "__pool_dice"

// poolWrap is what a pool re-roll's predicate is wrapped in.
const poolWrap = "map(" + PoolDiceVar + ", "

// PoolPredicate is a pool re-roll's `where PRED` as it is compiled and
// run: `map(PoolDiceVar, PRED)`, placed so that positions in it are the
// predicate's in the file. It shares where's program, once checked.
func PoolPredicate(where *syntax.Expr) *syntax.Expr {
	w := &syntax.Expr{Pos: where.Pos, EndPos: where.EndPos, Text: poolWrap + where.Text + ")", Program: where.Program, Fast: where.Fast, Slotted: where.Slotted}
	w.Pos.Column -= len(poolWrap)
	w.Pos.Offset -= len(poolWrap)
	return w
}

// isPool reports whether a site is a roll of several dice kept apart
// (`roll x = (N) d6`).
func isPool(s *Site) bool {
	if s == nil || s.Kind != symRoll {
		return false
	}
	r, ok := s.Stmt.(*syntax.Roll)
	return ok && r.Count != nil
}

// poolModify checks a modifier of a pool: it adds to each die, so the dice
// must be numbers.
func (c *checker) poolModify(e *syntax.Modify, s *Site) {
	if isPool(s) && s.Dice != nil && s.Dice.Symbolic() {
		c.diags.errorf(diag.CodeTypeError, diag.RangeOf(e.Target.Pos, e.Target.EndPos),
			"%s is a pool of %s, which has symbols: its dice cannot be modified by a number", e.Target, s.Dice.ID)
	}
}

// poolReroll checks the per-die parts of a re-roll: `each`, `up to N` and
// `where PRED` belong to pools, and a re-roll of a pool needs one of each
// or up to.
func (c *checker) poolReroll(e *syntax.Reroll, sc *scope, s *Site) {
	at := diag.RangeOf(e.Pos, e.Target.EndPos)
	if !isPool(s) {
		if e.Each || e.UpTo != nil || e.Where != nil {
			c.diags.errorf(diag.CodeEffectTarget, at,
				"%s is a single roll: each, up to and where re-roll dice of a pool (roll x = (N) dice)", e.Target)
		}
		return
	}
	if !e.Each && e.UpTo == nil {
		c.diags.errorf(diag.CodeEffectTarget, at,
			"%s is a pool of dice: say which dice are re-rolled, `reroll %s each where PRED` or `reroll %s up to N where PRED`",
			e.Target, e.Target, e.Target)
	}
	if e.UpTo != nil {
		c.compile(e.UpTo, sc, typeInt, "how many dice may be re-rolled")
		c.idx.Choices[e.Target.Member.Name+"_reroll"] = true
	}
	if e.Where == nil {
		return
	}
	// `#` is each die: compile map(dice, PRED) with the dice in scope, and
	// keep that program on the predicate.
	inner := newScope(sc)
	inner.define(&symbol{name: PoolDiceVar, kind: symLet, typ: s.Type, used: true})
	wrapped := PoolPredicate(e.Where)
	t := c.compile(wrapped, inner, nil, "")
	if wrapped.Program == nil {
		return
	}
	if t != nil && t.Kind() == reflect.Slice && t.Elem() != typeBool && t.Elem().Kind() != reflect.Interface {
		c.diags.errorf(diag.CodeTypeError, diag.RangeOf(e.Where.Pos, e.Where.EndPos),
			"a pool re-roll's where must be true or false for each die (#), but this is %s", TypeName(t.Elem()))
	}
	e.Where.Program, e.Where.Fast, e.Where.Slotted = wrapped.Program, wrapped.Fast, wrapped.Slotted
	e.Where.Type = typeBool
	if s.Dice != nil && s.Dice.Symbolic() {
		c.poolFaces(wrapped, s.Dice)
	}
}

// poolFaces checks the faces a predicate on symbolic dice compares # with
// (`# == "miss"`, `# in ["miss", "jam"]`): each must be a face of the dice.
func (c *checker) poolFaces(wrapped *syntax.Expr, d *DiceInfo) {
	tree, err := plainParse(wrapped.Text)
	if err != nil {
		return
	}
	var faces []string
	for _, f := range d.Faces {
		faces = append(faces, f.ID)
	}
	check := func(n ast.Node) {
		lit, ok := n.(*ast.StringNode)
		if !ok {
			return
		}
		if _, ok := d.Face(lit.Value); ok {
			return
		}
		at := diag.RangeOf(exprPosition(wrapped, lit.Location().From), exprPosition(wrapped, lit.Location().To))
		c.unknown(at, "face of dice "+d.ID+":", fmt.Sprintf("%q", lit.Value), faces)
	}
	isDie := func(n ast.Node) bool {
		p, ok := n.(*ast.PointerNode)
		return ok && p.Name == ""
	}
	ast.Find(tree.Node, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return false
		}
		switch b.Operator {
		case "==", "!=":
			if isDie(b.Left) {
				check(b.Right)
			} else if isDie(b.Right) {
				check(b.Left)
			}
		case "in", "not in":
			if arr, ok := b.Right.(*ast.ArrayNode); ok && isDie(b.Left) {
				for _, el := range arr.Nodes {
					check(el)
				}
			}
		}
		return false
	})
}

// poolExtraDice checks extra dice: a single roll keeps one of its dice, so
// it needs pick; a pool may take more dice, or roll more and keep its size.
func (c *checker) poolExtraDice(e *syntax.ExtraDice, s *Site) {
	if isPool(s) || e.Pick != "" {
		return
	}
	c.diags.errorf(diag.CodeEffectTarget, diag.RangeOf(e.Pos, e.Count.EndPos),
		"%s is a single roll: extra dice for it need `pick highest`, `pick lowest` or `pick choice` to keep one", e.Target)
}
