package syntax

import (
	"reflect"
	"sort"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// participle sets a node's EndPos to where the token after the node
// starts. Parse hands it no whitespace or comments (see significantTokens),
// so that token is the next significant one; restoreEndPositions moves
// each such EndPos back to where the node's last token ends, which is where
// the old stream's next (whitespace or comment) token started. The leaves
// that parse themselves set their own EndPos and are not visited.
//
// tokens are the significant tokens participle saw, EOF last; start is
// where the stream participle saw began (where an EndPos before its first
// token goes).
func restoreEndPositions(f *File, tokens []lexer.Token, start lexer.Position) {
	r := endRestorer{tokens: tokens, start: start}
	r.walk(reflect.ValueOf(f).Elem())
}

type endRestorer struct {
	tokens []lexer.Token // the significant tokens, EOF last
	start  lexer.Position
}

// fix moves p from the start of a token to the end of the one before it.
func (r *endRestorer) fix(p *lexer.Position) {
	if p.Line == 0 {
		return
	}
	i := sort.Search(len(r.tokens), func(i int) bool { return r.tokens[i].Pos.Offset >= p.Offset })
	if i == len(r.tokens) || r.tokens[i].Pos.Offset != p.Offset {
		return
	}
	if i == 0 {
		// Nothing was read yet.
		*p = r.start
		return
	}
	end := r.tokens[i-1].Pos
	end.Advance(r.tokens[i-1].Value)
	*p = end
}

// walk fixes the EndPos of v (an addressable struct) and of every node
// below it.
func (r *endRestorer) walk(v reflect.Value) {
	plan := endPlanOf(v.Type())
	if plan.endPos != nil {
		r.fix(v.FieldByIndex(plan.endPos).Addr().Interface().(*lexer.Position))
	}
	for _, i := range plan.children {
		r.walkValue(v.Field(i))
	}
}

func (r *endRestorer) walkValue(f reflect.Value) {
	switch f.Kind() {
	case reflect.Interface, reflect.Pointer:
		if f.IsNil() {
			return
		}
		e := f.Elem()
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		if e.Kind() == reflect.Struct && e.CanAddr() {
			r.walk(e)
		}
	case reflect.Struct:
		r.walk(f)
	case reflect.Slice:
		for i := 0; i < f.Len(); i++ {
			r.walkValue(f.Index(i))
		}
	}
}

// endPlan is what walk needs of a struct type: its EndPos (as participle
// finds it, promoted fields included) and the fields that may hold nodes.
type endPlan struct {
	endPos   []int
	children []int
}

var (
	endPlans       sync.Map // reflect.Type -> *endPlan
	noDescentTypes = map[reflect.Type]bool{
		positionType: true,
		// Comments are the formatter's, not participle's.
		reflect.TypeOf(Comment{}): true,
	}
)

func endPlanOf(t reflect.Type) *endPlan {
	if p, ok := endPlans.Load(t); ok {
		return p.(*endPlan)
	}
	p := &endPlan{}
	if parsesItself(t) {
		endPlans.Store(t, p)
		return p
	}
	if f, ok := t.FieldByName("EndPos"); ok && f.Type == positionType {
		p.endPos = f.Index
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "EndPos" || !mayHoldNodes(f.Type) {
			continue
		}
		p.children = append(p.children, i)
	}
	endPlans.Store(t, p)
	return p
}

// mayHoldNodes reports whether a field of type t may hold nodes of the
// tree.
func mayHoldNodes(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Struct:
		return !noDescentTypes[t] && !parsesItself(t)
	}
	return false
}

var parseableType = reflect.TypeOf((*participle.Parseable)(nil)).Elem()

// parsesItself reports whether nodes of type t are Parseable: leaves such
// as Ident and Expr, which set their own EndPos where their last token
// ends and hold no nodes participle made. They are most of the tree, so
// the walk does not visit them.
func parsesItself(t reflect.Type) bool { return reflect.PointerTo(t).Implements(parseableType) }
