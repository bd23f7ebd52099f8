package interpreter

import (
	"regexp"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// This file finds, once at Compile, which rolls' natural.X and rolled.X
// the rules may ever read, so that a roll or test nothing reads them of
// writes neither into its frame's tables (a map write each, and a frame
// clearing them): most rolls of a sample are read by their name alone.
//
// The readers are the rules' expressions (a statement's, an effect's
// `when`, a re-roll's, a function's body, a test block's: each is an Expr
// of some file) and the {placeholders} of their texts, read by the frame
// (lookupPath). A query (--of) evaluates in an environment of its own
// whose tables are empty, and events carry their dice themselves, so
// neither reads a frame's tables. A translation renders its own texts,
// whose placeholders are not the rules': a run with one keeps every
// write (runner.rollRead).

// rollReads is what the rules may read of the natural and rolled tables:
// every name (all), or the names X of natural.X and rolled.X.
type rollReads struct {
	all   bool
	names map[string]bool
}

// rollReadsOf walks every file of the rules, those of house rules
// switched off and tests included (more than runs, never less).
func rollReadsOf(rules *dsl.Rules) rollReads {
	out := rollReads{names: map[string]bool{}}
	for _, file := range rules.Files() {
		syntax.Inspect(file, func(n any) bool {
			switch x := n.(type) {
			case *syntax.Expr:
				out.addExpr(x)
			case *syntax.Str:
				out.addPlaceholders(x.Raw)
			}
			return !out.all
		})
		if out.all {
			break
		}
	}
	return out
}

// addExpr adds what an expression reads: natural.X or rolled.X (or
// natural["X"]) reads X; natural or rolled read otherwise (passed whole,
// indexed by a name computed), or the whole environment ($env), reads
// every name. An expression not compiled (a test block left out of
// checking) is read as text: natural.X reads X, any other natural every
// name.
func (r *rollReads) addExpr(e *syntax.Expr) {
	if e.Program == nil {
		r.addText(e.Text)
		return
	}
	r.addTree(e.Program.Node())
}

// addTree adds the reads of a compiled expression's tree.
func (r *rollReads) addTree(root ast.Node) {
	keyed := map[ast.Node]bool{} // the tables' identifiers read as natural.X
	ast.Find(root, func(n ast.Node) bool {
		switch m := n.(type) {
		case *ast.MemberNode:
			id, ok := m.Node.(*ast.IdentifierNode)
			if ok && !m.Method && isRollTable(id.Value) {
				if key, ok := m.Property.(*ast.StringNode); ok {
					r.names[key.Value] = true
					keyed[id] = true
				}
			}
		case *ast.BuiltinNode:
			if m.Map != nil { // folded by the optimizer: Find skips it
				r.addTree(m.Map)
			}
		}
		return false
	})
	ast.Find(root, func(n ast.Node) bool {
		if id, ok := n.(*ast.IdentifierNode); ok && !keyed[id] &&
			(isRollTable(id.Value) || strings.HasPrefix(id.Value, "$")) {
			r.all = true
		}
		return false
	})
}

func isRollTable(name string) bool { return name == dsl.GlobalNatural || name == dsl.GlobalRolled }

// rollTableText matches natural or rolled as a name (not a field, as in
// roll.natural), with the X of natural.X when there is one.
var rollTableText = regexp.MustCompile(`(^|[^.\w$])(natural|rolled)\b(\s*\.\s*([A-Za-z_]\w*))?`)

// addText adds the reads of an expression's source text.
func (r *rollReads) addText(text string) {
	for _, m := range rollTableText.FindAllStringSubmatch(text, -1) {
		if m[4] == "" {
			r.all = true
			return
		}
		r.names[m[4]] = true
	}
	if strings.Contains(text, "$") {
		r.all = true
	}
}

// addPlaceholders adds the reads of a text's {placeholders}: {natural.X}
// reads X, {natural} every name.
func (r *rollReads) addPlaceholders(raw string) {
	for parts := range placeholderPaths(raw) {
		if isRollTable(parts[0]) {
			if len(parts) < 2 {
				r.all = true
				return
			}
			r.names[parts[1]] = true
		}
	}
}

// rollRead reports whether a roll or test named name must bind
// natural.name and rolled.name in its frame: something may read them.
func (r *runner) rollRead(name string) bool {
	rr := &r.p.rollReads
	return rr.all || r.opts.Translation != nil || rr.names[name]
}

// bindRoll sets natural.name and rolled.name in f, where something may
// read them.
func (r *runner) bindRoll(f *frame, name string, natural int, dice []int) {
	if r.rollRead(name) {
		f.natural[name], f.rolled[name] = natural, dice
	}
}
