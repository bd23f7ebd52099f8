package dsl

import (
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// This file walks the trees of a check on another goroutine while the
// checker works through the declarations: it finds the literals out of
// range, splits messages into their parts, and parses the rules'
// expressions on another core (the checker is one goroutine, and these
// were a fifth of its work).
//
// What expr's parser makes of a text depends on the configuration only
// through its bounds and, for each name called, on whether the name is
// overridden (a function or a name of the environment) and disabled as
// a built-in (see parsecache.go). A text parsed here with no name
// overridden is what the checker's parse would give wherever
//   - no name parsed as a built-in (a BuiltinNode) is overridden or
//     disabled there, and
//   - every expr built-in parsed as a call is disabled there (it was
//     disabled here: with no override, that alone makes a call of it);
//
// a call of any other name is a call whatever the configuration. Where
// that does not hold, or the text did not parse here, the checker parses
// it itself, so that what it reports never depends on this.

// ahead is the work of one check done on another goroutine: a walk of
// every tree that finds the literals out of range and, given a second
// core, parses each text written once. Rules repeat their texts, and the
// checker parses a text again only where it does not find the text's
// compilation (parsecache.go). Each parse is taken once (compiling
// patches the tree it is given).
type ahead struct {
	mu     sync.Mutex
	trees  map[string]*preparsed
	parsed map[string]bool // the texts parsed, or taken before they were
	stop   atomic.Bool     // parse no more
	done   chan struct{}
	config *conf.Config // nil: parse nothing
	// messages' templates split, each taken once
	templates map[*syntax.Str]*template
	// the literals out of range, once done
	literals diag.Diagnostics
}

// template is a message split into its parts ahead, and what is wrong
// in it.
type template struct {
	parts []*syntax.TemplatePart
	diags diag.Diagnostics
}

// preparsed is one expression's parse and the names whose meaning it
// assumed.
type preparsed struct {
	tree *exprparser.Tree
	// builtins are the names parsed as expr's built-ins: none may be
	// overridden or disabled where the tree is used.
	builtins []string
	// disabled are expr built-ins parsed as calls: each must be disabled
	// where the tree is used.
	disabled []string
}

// startAhead walks files on another goroutine, for the literals out of
// range and, on more than one core, to parse every expression written in
// them with cfg's bounds and disabled built-ins and no name overridden
// (on a single core that would only add work).
func startAhead(files []*syntax.File, cfg *conf.Config) *ahead {
	p := &ahead{trees: map[string]*preparsed{}, parsed: map[string]bool{}, templates: map[*syntax.Str]*template{}, done: make(chan struct{})}
	if runtime.GOMAXPROCS(0) >= 2 && !preparseOff {
		p.config = &conf.Config{Functions: map[string]*builtin.Function{}, Disabled: maps.Clone(cfg.Disabled),
			MaxNodes: cfg.MaxNodes, DisableIfOperator: cfg.DisableIfOperator}
		p.config.WithEnv(types.Map{})
	}
	go p.run(files)
	if preparseWait {
		<-p.done
	}
	return p
}

func (p *ahead) run(files []*syntax.File) {
	defer close(p.done)
	var literals diagnostics
	for _, f := range files {
		syntax.InspectParsed(f, func(n any) bool {
			switch n := n.(type) {
			case *syntax.Int:
				literalInRange(&literals, n)
			case *syntax.Nat:
				literalInRange(&literals, &n.Int)
			case *syntax.Expr:
				if p.config != nil && !p.stop.Load() {
					p.parse(n.Text)
				}
			// The messages the checker splits (parseTemplate).
			case *syntax.Emit:
				p.template(n.Message)
			case *syntax.Require:
				p.template(n.Message)
			case *syntax.Available:
				p.template(n.Message)
			case *syntax.Warn:
				p.template(n.Message)
			}
			return true
		})
	}
	p.literals = literals.list
}

// template splits a message ahead, and parses its expressions.
func (p *ahead) template(s *syntax.Str) {
	if s == nil || p.config == nil || p.stop.Load() {
		return
	}
	var d diagnostics
	t := &template{parts: templateParts(s, &d), diags: d.list}
	p.mu.Lock()
	p.templates[s] = t
	p.mu.Unlock()
	for _, part := range t.parts {
		if part.Expr != nil {
			p.parse(part.Expr.Text)
		}
	}
}

// takeTemplate gives s split ahead, or nil. Each is given once.
func (p *ahead) takeTemplate(s *syntax.Str) *template {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.templates[s]
	delete(p.templates, s)
	return t
}

// parse parses text ahead, unless it was parsed or taken, or a parse of
// it is kept from an earlier check (which the checker reads instead,
// where it finds the text's compilation).
func (p *ahead) parse(text string) {
	p.mu.Lock()
	seen := p.parsed[text]
	p.parsed[text] = true
	p.mu.Unlock()
	if seen || hasKeptParse(text) {
		return
	}
	var tree *exprparser.Tree
	var err error
	func() {
		defer func() {
			if recover() != nil { // the checker meets a panic of expr's parser itself
				tree = nil
			}
		}()
		tree, err = exprparser.ParseWithConfig(text, p.config)
	}()
	if err != nil || tree == nil || tree.Node == nil {
		return // the checker reports what is wrong
	}
	pp := &preparsed{tree: tree}
	ast.Find(tree.Node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BuiltinNode:
			if !slices.Contains(pp.builtins, n.Name) {
				pp.builtins = append(pp.builtins, n.Name)
			}
		case *ast.CallNode:
			if id, ok := n.Callee.(*ast.IdentifierNode); ok {
				if _, isBuiltin := builtin.Index[id.Value]; isBuiltin && !slices.Contains(pp.disabled, id.Value) {
					pp.disabled = append(pp.disabled, id.Value)
				}
			}
		}
		return false
	})
	p.mu.Lock()
	p.trees[text] = pp
	p.mu.Unlock()
}

// take gives a parse of text made ahead, if it is the one cfg and env
// would give, or nil. Each parse is given once; a text not parsed yet
// will not be.
func (p *ahead) take(text string, cfg *conf.Config, env types.Map) *exprparser.Tree {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if p.config == nil { // parsing nothing, or finished
		p.mu.Unlock()
		return nil
	}
	pp := p.trees[text]
	delete(p.trees, text)
	p.parsed[text] = true
	p.mu.Unlock()
	if pp == nil || cfg.MaxNodes != p.config.MaxNodes || cfg.DisableIfOperator != p.config.DisableIfOperator {
		return nil
	}
	for _, name := range pp.builtins {
		_, fn := cfg.Functions[name]
		_, inEnv := env[name]
		if fn || inEnv || cfg.Disabled[name] {
			return nil
		}
	}
	for _, name := range pp.disabled {
		if !cfg.Disabled[name] {
			return nil
		}
	}
	return pp.tree
}

// takeParse is take for the checker c, with the test's audit.
func (c *checker) takeParse(e *syntax.Expr, env types.Map) *exprparser.Tree {
	tree := c.pre.take(e.Text, c.exprc.config, env)
	if tree != nil && preparseAudit != nil {
		preparseAudit(c, e, env, tree)
	}
	return tree
}

// preparseOff, preparseWait and preparseAudit are for tests: checks
// that parse nothing ahead or wait for it, and a comparison of each parse
// taken with the checker's own parse of it (preparse_export_test.go).
var (
	preparseOff   bool
	preparseWait  bool // the check starts once every parse is made
	preparseAudit func(c *checker, e *syntax.Expr, env types.Map, tree *exprparser.Tree)
)

// finish stops the parsing ahead, waits for the walk to end and returns
// the literals out of range.
func (p *ahead) finish() diag.Diagnostics {
	p.stop.Store(true)
	<-p.done
	// The index keeps the checker (for queries): keep none of this.
	p.mu.Lock()
	p.config, p.trees, p.parsed, p.templates = nil, nil, nil, nil
	p.mu.Unlock()
	return p.literals
}
