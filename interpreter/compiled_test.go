package interpreter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
)

// TestEveryStatementKindCompiles fails when the grammar has a kind of
// statement the interpreter does not compile: every kind that
// dsl/syntax's parser lists as a statement must occur in the shipped
// rules (or, for what no shipped rule has, in rulesWithoutShipped) and
// compile there to a closure of its own (not the internal error's), in a
// procedure and in an effect's body ("").
func TestEveryStatementKindCompiles(t *testing.T) {
	kinds := grammarStmtKinds(t)
	if len(kinds) < 20 {
		t.Fatalf("found %d kinds of statement in the grammar: %v", len(kinds), kinds)
	}
	p := shippedProgram(t)
	extra, diags := syntax.Parse("extra.munda", []byte(rulesWithoutShipped))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	stmts := shippedStmts(p)
	syntax.Inspect(extra, func(n any) bool {
		if b, ok := n.(*syntax.Block); ok {
			stmts = append(stmts, b.Stmts...)
		}
		return true
	})
	compiled := map[string]bool{}
	for _, st := range stmts {
		kind := reflect.TypeOf(st).Elem().Name()
		for _, in := range []string{"", "end_phase"} {
			fn, _, ok := p.compileStmt(st, in)
			if !ok || fn == nil {
				t.Fatalf("%s at %v: not compiled", kind, stmtSpan(st).start)
			}
		}
		compiled[kind] = true
	}
	for _, kind := range kinds {
		if !compiled[kind] {
			t.Errorf("statement %s: in the grammar, in no shipped rule, so not known to compile", kind)
		}
	}
}

// rulesWithoutShipped has the kinds of statement no shipped rule has.
const rulesWithoutShipped = `procedure p() "P" {
  title cs "Q"
}
`

// grammarStmtKinds are the types the parser's union of statements lists
// (dsl/syntax/parse.go: participle.Union[Stmt](&Set{}, ...)).
func grammarStmtKinds(t *testing.T) []string {
	t.Helper()
	file := filepath.Join("..", "dsl", "syntax", "parse.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		idx, ok := call.Fun.(*ast.IndexExpr)
		if !ok {
			return true
		}
		sel, ok := idx.X.(*ast.SelectorExpr)
		if id, isIdent := idx.Index.(*ast.Ident); !ok || sel.Sel.Name != "Union" || !isIdent || id.Name != "Stmt" {
			return true
		}
		for _, arg := range call.Args {
			if u, ok := arg.(*ast.UnaryExpr); ok {
				if lit, ok := u.X.(*ast.CompositeLit); ok {
					if id, ok := lit.Type.(*ast.Ident); ok {
						kinds = append(kinds, id.Name)
					}
				}
			}
		}
		return false
	})
	slices.Sort(kinds)
	return kinds
}

// TestEveryBlockIndexed: every block of the shipped rules' statements
// has its list of compilations from Compile, so that no run compiles a
// block anew each time it enters it.
func TestEveryBlockIndexed(t *testing.T) {
	p := shippedProgram(t)
	n := 0
	for _, st := range shippedStmts(p) {
		syntax.Inspect(st, func(x any) bool {
			if b, ok := x.(*syntax.Block); ok {
				n++
				if p.blocks[b] == nil {
					t.Errorf("the block at %v is not indexed", b.Pos)
				}
			}
			return true
		})
	}
	if n < 500 {
		t.Errorf("only %d blocks in the shipped statements", n)
	}
}

// BenchmarkCompile is Compile of the shipped rules, which compiles no
// statement (blocks compile on their first run).
func BenchmarkCompile(b *testing.B) {
	rules := shippedProgram(b).Rules
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(rules); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileEveryBlock compiles every block of the shipped rules
// once (procedures' in theirs, the rest in ""): what compiling them all
// at Compile would add to it (with making the index of blocks anew,
// which Compile does).
func BenchmarkCompileEveryBlock(b *testing.B) {
	p := shippedProgram(b)
	b.ReportAllocs()
	for b.Loop() {
		p.indexBlocks()
		for _, proc := range p.idx.Procedures {
			p.compileBlock(proc.Decl.Body, proc.ID)
		}
		for _, a := range p.idx.Actions {
			if a.Body != nil {
				p.compileBlock(a.Body, a.ID)
			}
		}
		for _, t := range p.idx.Tables {
			for _, row := range t.Rows {
				if row.Row != nil && row.Row.Body != nil {
					p.compileBlock(row.Row.Body, "")
				}
			}
		}
		for _, ef := range p.idx.Effects {
			switch it := ef.Item.(type) {
			case *syntax.Hook:
				p.compileBlock(it.Body, "")
			case *syntax.On:
				p.compileBlock(it.Body, "")
			}
		}
	}
}
