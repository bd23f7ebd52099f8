package dsl

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	exprchecker "github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/checker/nature"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/patcher"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
)

// Compiler compiles expressions the way expr.Compile does, but keeps one
// configuration for all of them: expr.Compile builds its configuration
// (the built-in and declared functions, the type cache) afresh for every
// expression, which was most of the cost of checking a ruleset.
//
// A Compiler is not safe for concurrent use.
type Compiler struct {
	config *conf.Config
	// prepatches rewrite the tree before it is checked (inlining declared
	// functions, passing the state to the built-ins that take it). They
	// need no types, so they run once, ahead of expr's checker, and not as
	// expr patches: expr checks the tree again after each patch, and a
	// call it has typed once it never looks into again, so an unknown name
	// in the arguments of a patched call (stat(modle, "cl")) went
	// unreported.
	prepatches []ast.Visitor
	// slots numbers the names of frames for the closures it compiles
	// (frameslots.go): the numbering current when it was made.
	slots *Slots
}

// NewCompiler makes a compiler with the given options.
func NewCompiler(opts ...expr.Option) *Compiler {
	c := &Compiler{config: conf.CreateNew(), slots: slotsForCheck()}
	// expr keeps what it learns of Go types (a struct's fields, a type's
	// methods) in the configuration's cache, whose maps it makes on first
	// use: each copy of a configuration whose cache was still empty made
	// its own, so every expression looked its types' fields up afresh by
	// reflection. Made here, they are shared by every copy (Parse,
	// CompileTree).
	cache := &c.config.NtCache
	empty := cache.FromType(reflect.TypeOf(struct{}{})) // the structs map
	empty.NumMethods(cache)                             // the methods map
	c.With(opts...)
	c.config.MaxNodes = MaxExprNodes
	return c
}

// Slots is the numbering of frame slots the expressions it compiles read.
func (c *Compiler) Slots() *Slots { return c.slots }

// With adds options (functions, patches) for the expressions compiled from
// now on.
func (c *Compiler) With(opts ...expr.Option) {
	for _, op := range opts {
		op(c.config)
	}
	for name := range c.config.Disabled {
		delete(c.config.Builtins, name)
	}
	c.config.Check()
}

// Prepatch adds rewrites that every tree compiled from now on gets
// before it is checked, in order. They must not need types.
func (c *Compiler) Prepatch(vs ...ast.Visitor) { c.prepatches = append(c.prepatches, vs...) }

// Functions are the functions expressions compiled from now on may call,
// by name: what a compiled call runs.
func (c *Compiler) Functions() map[string]*builtin.Function { return c.config.Functions }

// Compile compiles text in a typed environment. It never panics: rule
// packs are untrusted, so a panic inside expr becomes an error.
func (c *Compiler) Compile(text string, env types.Map) (program *vm.Program, err error) {
	return c.CompileSeeing(text, env, nil)
}

// CompileSeeing is Compile that also shows the tree as parsed, before
// expr's checker patches it (inlining declared functions), to seen, if
// not nil: what the checker needs of the text as written costs no second
// parse. seen is not called when the text does not parse.
func (c *Compiler) CompileSeeing(text string, env types.Map, seen func(tree ast.Node)) (program *vm.Program, err error) {
	tree, err := c.Parse(text, env)
	if err != nil {
		return nil, err
	}
	if seen != nil {
		seen(tree.Node)
	}
	return c.CompileTree(tree, env)
}

// Parse parses an expression, the first half of CompileSeeing. The
// environment matters: a name it holds is no longer expr's built-in.
func (c *Compiler) Parse(text string, env types.Map) (tree *exprparser.Tree, err error) {
	return c.parseIn(text, env, nil)
}

// parseIn is Parse with env's nature (envNature), if made before.
func (c *Compiler) parseIn(text string, env types.Map, nt *nature.Nature) (tree *exprparser.Tree, err error) {
	defer func() {
		if r := recover(); r != nil {
			tree, err = nil, fmt.Errorf("internal error compiling expression: %v", r)
		}
	}()
	cfg := *c.config
	withEnv(&cfg, env, nt)
	return exprparser.ParseWithConfig(text, &cfg)
}

// envNature is what expr makes of an environment for each expression
// parsed or checked in it (a map of every name's nature): made once, it
// serves every expression of a scope, as long as env is not changed.
func envNature(env types.Map) *nature.Nature {
	nt := env.Nature() // as conf.EnvWithCache makes it
	return &nt
}

// withEnv is cfg.WithEnv, with env's nature if it was made before.
func withEnv(cfg *conf.Config, env types.Map, nt *nature.Nature) {
	if nt == nil {
		cfg.WithEnv(env)
		return
	}
	cfg.EnvObject = env
	cfg.Env = *nt
	cfg.Strict = nt.Strict
}

// mayPatch tells whether expr's patches (visitors) may change tree. Each
// pass of PatchAndCheck checks the whole tree again (three checks at
// least, after the one above), for patches that, when they are only
// operator overloads (the bounded string +), can change nothing in a tree
// without their operator. Any other kind of patch is assumed to.
func mayPatch(tree ast.Node, visitors []ast.Visitor) bool {
	var operators []string
	for _, v := range visitors {
		o, ok := v.(*patcher.OperatorOverloading)
		if !ok {
			return true
		}
		operators = append(operators, o.Operator)
	}
	return ast.Find(tree, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		return ok && slices.Contains(operators, b.Operator)
	}) != nil
}

// CompileTree checks and compiles what Parse gave, in a typed
// environment: the second half of CompileSeeing. It patches the tree.
func (c *Compiler) CompileTree(tree *exprparser.Tree, env types.Map) (program *vm.Program, err error) {
	return c.compileTreeIn(tree, env, nil)
}

// compileTreeIn is CompileTree with env's nature (envNature), if made
// before.
func (c *Compiler) compileTreeIn(tree *exprparser.Tree, env types.Map, nt *nature.Nature) (program *vm.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			program, err = nil, fmt.Errorf("internal error compiling expression: %v", r)
		}
	}()
	cfg := *c.config // shares the functions and the type cache
	withEnv(&cfg, env, nt)
	for _, v := range c.prepatches {
		ast.Walk(&tree.Node, v)
	}
	// One check of the whole tree decides whether it is valid. expr's own
	// patches (the bounded string +) only replace what this check has
	// typed, so their passes below cannot find an error it would not:
	// they would lose some (see prepatches).
	bare := cfg
	bare.Visitors = nil
	if _, err = new(exprchecker.Checker).Check(tree, &bare); err != nil {
		return nil, err
	}
	if len(cfg.Visitors) > 0 && mayPatch(tree.Node, cfg.Visitors) {
		if _, err = new(exprchecker.Checker).PatchAndCheck(tree, &cfg); err != nil {
			return nil, err
		}
	}
	if cfg.Optimize {
		if err := optimizer.Optimize(&tree.Node, &cfg); err != nil {
			var fileError *file.Error
			if errors.As(err, &fileError) {
				return nil, fileError.Bind(tree.Source)
			}
			return nil, err
		}
	}
	return compiler.Compile(tree, &cfg)
}
