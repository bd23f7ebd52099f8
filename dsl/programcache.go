package dsl

import (
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"

	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/stdlib"
)

// This file keeps the checker's compiled expressions by their text and
// the types of the names they read: rules repeat themselves (`fighter.xp
// + 1`, `check > threshold`, the same condition on every skill of a
// kind), and checking and compiling an expression costs several times
// parsing it. What is kept is valid while the functions an expression may
// call stay the same: declaring or inlining a function forgets it all.

// programCacheOff compiles every expression afresh, for a benchmark that
// measures what the cache saves; it turns off the shared cache too
// (sharedprograms.go).
var programCacheOff bool

// cachedProgram is one compiled expression and what the checker derives
// from it.
type cachedProgram struct {
	names    []string     // the names it may look up (programNames)
	bindings []types.Type // and their types, nil for those not in the environment
	program  *vm.Program
	fast     fastexpr.Func
	slotted  fastexpr.SlotFunc
	calls    string // what the functions it calls mean (calleeKey)
	why      string // why fastexpr could not compile it, if it could not
	slots    *Slots // the numbering slotted reads
	typ      reflect.Type
}

// programCache maps an expression's text to its compilations, one per
// environment it was compiled in (as far as its names see it).
type programCache struct {
	byText map[string][]*cachedProgram
	// names an inlined function's body reads, including the bodies it
	// calls, by function name.
	bodyNames map[string][]string
	// what a call of a function means, by name (calleeKey), for the
	// shared cache's keys.
	callees map[string]calleeMeaning
}

// forget drops everything: the functions changed.
func (p *programCache) forget() { *p = programCache{} }

// programNames lists the names a compiled expression may look up in its
// environment: those in its text, the state (which the state patch adds
// to built-ins' calls), and those in the bodies of the functions it calls
// that are inlined. ok is false if the expression reads the whole
// environment ($env), whose types are not one name's. callees are the
// names it calls, each once.
func (c *checker) programNames(tree ast.Node) (names, callees []string, ok bool) {
	v := &c.namesSeen
	*v = programNamesVisitor{c: c, names: append(make([]string, 0, 8), stdlib.StateVar), ok: true,
		callees: v.callees[:0], values: v.values[:0]}
	ast.Walk(&tree, v)
	for _, name := range v.values {
		if !slices.Contains(v.callees, name) {
			v.callees = append(v.callees, name)
		}
	}
	return v.names, v.callees, v.ok
}

// programNamesVisitor is programNames' walk: a visitor kept in the
// checker (the walk runs for every expression compiled, and a closure
// would put each of these on the heap). callees and values are only read
// until the next walk.
type programNamesVisitor struct {
	c       *checker
	names   []string
	callees []string
	// Functions read as values (`t != nil`), not called, compile to the
	// function too: what they mean is part of the key as a call's is.
	values []string
	ok     bool
}

// add adds a name once. A handful of names: a list is cheaper than a map.
func (v *programNamesVisitor) add(name string) {
	if !slices.Contains(v.names, name) {
		v.names = append(v.names, name)
	}
}

func (v *programNamesVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if strings.HasPrefix(n.Value, "$") {
			v.ok = false
		}
		v.add(n.Value)
		if v.c.isFunction(n.Value) && !slices.Contains(v.values, n.Value) {
			v.values = append(v.values, n.Value)
		}
	case *ast.CallNode:
		if callee, isIdent := n.Callee.(*ast.IdentifierNode); isIdent && !slices.Contains(v.callees, callee.Value) {
			v.callees = append(v.callees, callee.Value)
			for _, name := range v.c.bodyNames(callee.Value, 0) {
				v.add(name)
			}
		}
	}
}

// isFunction tells whether name is a function here: declared (inlined or
// not), a lookup table, one of this check's own or a built-in.
func (c *checker) isFunction(name string) bool {
	if _, ok := c.inline.bodies[name]; ok {
		return true
	}
	_, ok := c.exprc.Functions()[name]
	return ok
}

// bodyNames lists the names an inlined function's body reads, with those
// of the functions it calls, to the inliner's depth.
func (c *checker) bodyNames(fn string, depth int) []string {
	body, ok := c.inline.bodies[fn]
	if !ok || depth > maxInlineDepth {
		return nil
	}
	if names, ok := c.programs.bodyNames[fn]; ok {
		return names
	}
	tree := body.tree
	var names []string
	seen := map[string]bool{}
	ast.Find(tree.Node, func(n ast.Node) bool {
		var more []string
		switch n := n.(type) {
		case *ast.IdentifierNode:
			more = []string{n.Value}
		case *ast.CallNode:
			if callee, isIdent := n.Callee.(*ast.IdentifierNode); isIdent && callee.Value != fn {
				more = c.bodyNames(callee.Value, depth+1)
			}
		}
		for _, name := range more {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
		return false
	})
	if c.programs.bodyNames == nil {
		c.programs.bodyNames = map[string][]string{}
	}
	c.programs.bodyNames[fn] = names
	return names
}

// programBindings are the types of names in env, nil for a name it does
// not hold; ok is false if one cannot be compared.
func programBindings(names []string, env types.Map) (bindings []types.Type, ok bool) {
	bindings = make([]types.Type, len(names))
	for i, name := range names {
		t, found := env[name]
		if !found {
			continue
		}
		if t == nil || !reflect.TypeOf(t).Comparable() {
			return nil, false
		}
		bindings[i] = t
	}
	return bindings, true
}

// lookup finds a compilation of text under the same bindings.
func (p *programCache) lookup(text string, names []string, bindings []types.Type) *cachedProgram {
	for _, cp := range p.byText[text] {
		if slices.Equal(cp.names, names) && equalBindings(cp.bindings, bindings) {
			return cp
		}
	}
	return nil
}

func (p *programCache) store(text string, cp *cachedProgram) {
	if p.byText == nil {
		p.byText = map[string][]*cachedProgram{}
	}
	p.byText[text] = append(p.byText[text], cp)
}

func equalBindings(a, b []types.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
