package dsl

import (
	"reflect"

	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"

	"github.com/munda-rules/munda/dsl/syntax"
)

// AuditPreparse makes every check, until stop is called, compare each
// parse it takes from those made ahead (preparse.go) with its own parse
// of the text there, calling differ for each that is not the same tree;
// taken counts those taken.
func AuditPreparse(differ func(text string)) (taken *int, stop func()) {
	n := 0
	preparseAudit = func(c *checker, e *syntax.Expr, env types.Map, tree *exprparser.Tree) {
		n++
		own, err := c.exprc.Parse(e.Text, env)
		if err != nil || !reflect.DeepEqual(own, tree) {
			differ(e.Text)
		}
	}
	return &n, func() { preparseAudit = nil }
}

// SetPreparse turns parsing ahead on or off; with wait, a check starts
// once every parse ahead is made, so that it takes all it can.
func SetPreparse(on, wait bool) { preparseOff, preparseWait = !on, wait }

// ResetShared empties the caches the checks of a process share: a cold
// check.
func ResetShared()               { resetShared() }
func GeneratedPack(n int) []byte { return generatedPack(n) }
