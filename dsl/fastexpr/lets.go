package fastexpr

import "github.com/expr-lang/expr/ast"

// let is `let x = value; expr`, which the checker's inliner writes for
// every declared function it inlines: the value goes to a slot of the
// frame, which x reads within expr, as the VM's OpStore and OpLoadVar do.
//
// Where the value is # or a name (let m = #, which every inlined call
// with # for an argument writes), x is an alias: reading x reads the
// value's own source, which cannot change while x is in scope (no item
// of this predicate but the current one, no name assigned twice), and
// nothing is stored. The VM stores and loads it; the values are the same.
func (c *compiler) let(n *ast.VariableDeclaratorNode) (eval, error) {
	value, err := c.compile(n.Value)
	if err != nil {
		return nil, err
	}
	if c.aliasable(n.Value) {
		c.lets = append(c.lets, c.aliasVar(n, value))
		body, err := c.compile(n.Expr)
		c.lets = c.lets[:len(c.lets)-1]
		return body, err
	}
	slot := c.slots
	c.slots++
	c.lets = append(c.lets, letVar{name: n.Name, slot: slot})
	body, err := c.compile(n.Expr)
	c.lets = c.lets[:len(c.lets)-1]
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		v, err := value(fr)
		if err != nil {
			return nil, err
		}
		fr.vars[slot] = v
		return body(fr)
	}, nil
}

// sequence is `a; b`: each in turn, the last one's value.
func (c *compiler) sequence(n *ast.SequenceNode) (eval, error) {
	parts, err := c.compileAll(n.Nodes)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, unsupported("empty sequence")
	}
	return func(fr *frame) (v any, err error) {
		for _, p := range parts {
			if v, err = p(fr); err != nil {
				return nil, err
			}
		}
		return v, nil
	}, nil
}

// mapLiteral is {key: value, …}; its pairs count against the memory
// budget, and its keys must be strings (the VM's OpMap).
func (c *compiler) mapLiteral(n *ast.MapNode) (eval, error) {
	keys := make([]eval, len(n.Pairs))
	values := make([]eval, len(n.Pairs))
	for i, p := range n.Pairs {
		pair, ok := p.(*ast.PairNode)
		if !ok {
			return nil, unsupported("%T in a map", p)
		}
		var err error
		if keys[i], err = c.compile(pair.Key); err != nil {
			return nil, err
		}
		if values[i], err = c.compile(pair.Value); err != nil {
			return nil, err
		}
	}
	return func(fr *frame) (any, error) {
		m := fr.newMap()
		for i := range keys {
			k, err := keys[i](fr)
			if err != nil {
				return nil, err
			}
			v, err := values[i](fr)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, errFailed
			}
			m[ks] = v
		}
		if err := fr.grow(len(keys)); err != nil {
			return nil, err
		}
		return m, nil
	}, nil
}

// aliasable is whether a let's value may be read again in its place: #
// (the current item of a predicate this let is inside: the alias reads
// that predicate's item, however deep it is read), or a name (a let's,
// set once before its body runs, or the environment's).
func (c *compiler) aliasable(v ast.Node) bool {
	switch v := v.(type) {
	case *ast.PointerNode:
		return v.Name == ""
	case *ast.IdentifierNode:
		return v.Value != "$env"
	}
	return false
}

// aliasVar is the variable of an aliasable let.
func (c *compiler) aliasVar(n *ast.VariableDeclaratorNode, value eval) letVar {
	v := letVar{name: n.Name, slot: -1, alias: value}
	if at, ok := c.itemOf(n.Value); ok {
		v.item = at + 1
	}
	return v
}

// itemOf says whether n reads the current item of a predicate (# or a
// let aliasing it), and at which index of the frame's items: a field of
// it is then read there, without calling the closures that would give
// the item.
func (c *compiler) itemOf(n ast.Node) (at int, ok bool) {
	switch n := n.(type) {
	case *ast.PointerNode:
		if n.Name == "" && c.depth > 0 && c.depth <= maxPredicateDepth {
			return c.depth - 1, true
		}
	case *ast.IdentifierNode:
		for i := len(c.lets) - 1; i >= 0; i-- {
			if c.lets[i].name == n.Value {
				return c.lets[i].item - 1, c.lets[i].item > 0
			}
		}
	}
	return 0, false
}
