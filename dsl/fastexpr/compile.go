package fastexpr

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
)

// Func is a compiled expression. It returns an error whenever it cannot
// give the VM's value; the caller then runs the VM.
type Func func(env map[string]any) (any, error)

// eval is one compiled node.
type eval func(fr *frame) (any, error)

// Unsupported is why an expression was not compiled: the first node kind
// or form this package does not run.
type Unsupported struct{ What string }

func (u *Unsupported) Error() string { return "fastexpr: unsupported " + u.What }

// compiler holds what a node's compilation needs besides the node.
type compiler struct {
	// functions are the functions expr was configured with (expr.Function
	// options): a call of one of these names runs its Func, as the VM does.
	functions map[string]*builtin.Function
	depth     int // enclosing predicates
	maxDepth  int // the deepest predicate: the items a run must clear
	// lets are the variables in scope (let x = …; …), innermost last,
	// each with its slot in the frame; slots counts the slots used.
	lets  []letVar
	slots int
	// slotOf, when set (CompileSlots), gives each name the expression may
	// read its index in the frame's slots: there is no environment map.
	slotOf func(name string) (int, bool)
	// typedBools are the typed closures behind the untyped ones compile
	// returned as boolEval.asAny, by node: condition takes the typed one
	// back rather than boxing and asserting each value (see boolAsAny).
	typedBools map[ast.Node]boolEval
}

type letVar struct {
	name string
	slot int
	// alias, if set, is what the name reads instead of a slot (see let).
	alias eval
	// item, if not 0, says the alias reads # of the predicate at index
	// item-1 of the frame's items (itemOf).
	item int
}

// Compile builds the closure of a checked expression's tree (vm.Program's
// Node()). functions are the configuration's functions (conf.Config's
// Functions). An error of type *Unsupported says the VM must run it.
func Compile(node ast.Node, functions map[string]*builtin.Function) (Func, error) {
	f, err := CompileIn(node, functions)
	if err != nil {
		return nil, err
	}
	return func(env map[string]any) (any, error) { return f(nil, env) }, nil
}

// FuncIn is a compiled expression that runs in a frame of fs (nil: of a
// pool shared by all goroutines): the lists and boxes it makes are cut
// from fs's slabs, which their owner may rewind (Frames.Rewind).
type FuncIn func(fs *Frames, env map[string]any) (any, error)

// CompileIn is Compile for a FuncIn.
func CompileIn(node ast.Node, functions map[string]*builtin.Function) (f FuncIn, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, &Unsupported{What: fmt.Sprintf("(compiling panicked: %v)", r)}
		}
	}()
	c := &compiler{functions: functions}
	run, err := c.compile(node)
	if err != nil {
		return nil, err
	}
	slots, depth := c.slots, c.maxDepth
	return func(fs *Frames, env map[string]any) (any, error) {
		return runPooled(fs, run, slots, depth, env, nil)
	}, nil
}

// Frames are evaluation frames one goroutine reuses, one per evaluation
// under way (an expression may call a function that evaluates another):
// an interpreter's run keeps one, which spares the shared pool's
// synchronisation at every expression. The zero value is ready to use.
type Frames struct {
	// frames[:used] are the evaluations under way, innermost last; those
	// after are free. Evaluations nest, so a frame is given back by
	// counting down: no pointer is written per evaluation (each such
	// write is a write barrier while the collector runs).
	frames []*frame
	used   int
}

// Rewind takes back the lists and boxes the evaluations in fs made since
// the last Rewind, to make them again (slab.Slab.Rewind): call it only
// between evaluations, when no value they returned is referenced any
// more.
func (fs *Frames) Rewind() {
	for _, fr := range fs.frames {
		fr.lists.Rewind()
		fr.boxes.Rewind()
		fr.strs.Rewind()
		fr.bytes.Rewind()
		fr.rewindMaps()
		fr.ptrs.Rewind()
		fr.ptrLists.Rewind()
		fr.ints.Rewind()
		fr.intLists.Rewind()
	}
}

// Forget gives the lists and boxes made so far up to whoever holds them:
// a later Rewind takes back only what is made after it.
func (fs *Frames) Forget() {
	for _, fr := range fs.frames {
		fr.lists.Forget()
		fr.boxes.Forget()
		fr.strs.Forget()
		fr.bytes.Forget()
		fr.forgetMaps()
		fr.ptrs.Forget()
		fr.ptrLists.Forget()
		fr.ints.Forget()
		fr.intLists.Forget()
	}
}

// runPooled runs a compiled expression in a frame from fs (nil: from the
// pool), with its names in env or vals, and a panic as errFailed (the VM
// then says why).
func runPooled(fs *Frames, run func(*frame) (any, error), slots, depth int, env map[string]any, vals []any) (any, error) {
	var fr *frame
	switch {
	case fs == nil:
		fr = framePool.Get().(*frame)
	case fs.used < len(fs.frames):
		fr = fs.frames[fs.used]
		fs.used++
	default:
		fr = new(frame)
		fs.frames = append(fs.frames, fr)
		fs.used++
	}
	fr.env, fr.slots, fr.memory = env, vals, 0
	if len(fr.vars) < slots {
		fr.vars = make([]any, slots)
	}
	v, err := guarded(run, fr)
	// Clear only what this expression used: clearing the whole frame was
	// a tenth of an activation (write barriers).
	if fr.env != nil {
		fr.env = nil
	}
	fr.slots = nil
	clear(fr.items[:depth])
	clear(fr.vars[:slots])
	if len(fr.args) > 0 {
		fr.popArgs(0)
	}
	if fs != nil {
		fs.used--
	} else {
		framePool.Put(fr)
	}
	return v, err
}

// guarded is run(fr), with a panic as errFailed.
func guarded(run func(*frame) (any, error), fr *frame) (v any, err error) {
	defer func() {
		if recover() != nil {
			v, err = nil, errFailed
		}
	}()
	return run(fr)
}

// SlotFunc is an expression compiled by CompileSlots: it reads the
// variables by index from vals, which it must not keep or change, and
// runs in a frame of fs (nil: of a pool shared by all goroutines).
type SlotFunc func(fs *Frames, vals []any) (any, error)

// CompileSlots is Compile for an expression whose names have slots fixed
// before it runs: slotOf gives each name's index, and the expression
// reads it from vals[index] (nil past the end of vals), with no map. A
// name slotOf does not know is *Unsupported.
func CompileSlots(node ast.Node, functions map[string]*builtin.Function, slotOf func(name string) (int, bool)) (f SlotFunc, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, &Unsupported{What: fmt.Sprintf("(compiling panicked: %v)", r)}
		}
	}()
	c := &compiler{functions: functions, slotOf: slotOf}
	run, err := c.compile(node)
	if err != nil {
		return nil, err
	}
	if f, ok := c.frameless(node); ok {
		return f, nil
	}
	slots, depth := c.slots, c.maxDepth
	framed := func(fs *Frames, vals []any) (v any, err error) {
		if fs == nil {
			return runPooled(nil, run, slots, depth, nil, vals)
		}
		// runPooled for a frame of fs, in one call: an interpreter runs a
		// hundred and more expressions a Monte Carlo sample, and the calls
		// around each were as many instructions as a simple one's work.
		fr := fs.take()
		fr.slots, fr.memory = vals, 0
		if len(fr.vars) < slots {
			fr.vars = make([]any, slots)
		}
		defer func() {
			if recover() != nil {
				v, err = nil, errFailed
			}
			fs.release(fr, slots, depth)
		}()
		return run(fr)
	}
	if f, ok := c.framelessTest(node, framed); ok {
		return f, nil
	}
	return framed, nil
}

// take is a free frame of fs, marked in use.
func (fs *Frames) take() *frame {
	if fs.used == len(fs.frames) {
		fs.frames = append(fs.frames, new(frame))
	}
	fr := fs.frames[fs.used]
	fs.used++
	return fr
}

// release clears what an expression of slots let slots and depth nested
// predicates used of fr, the innermost frame of fs in use, and frees it.
func (fs *Frames) release(fr *frame, slots, depth int) {
	fr.slots = nil
	if depth > 0 {
		clear(fr.items[:depth])
	}
	if slots > 0 {
		clear(fr.vars[:slots])
	}
	if len(fr.args) > 0 {
		fr.popArgs(0)
	}
	fs.used--
}

func unsupported(format string, args ...any) error {
	return &Unsupported{What: fmt.Sprintf(format, args...)}
}

func (c *compiler) compile(node ast.Node) (eval, error) {
	switch n := node.(type) {
	case *ast.NilNode:
		return constant(nil), nil
	case *ast.IntegerNode:
		return c.integer(n)
	case *ast.FloatNode:
		if t := n.Type(); t != nil && t.Kind() != reflect.Float64 {
			return nil, unsupported("float literal of type %s", t)
		}
		return constant(n.Value), nil
	case *ast.BoolNode:
		return constant(n.Value), nil
	case *ast.StringNode:
		return constant(n.Value), nil
	case *ast.ConstantNode:
		return constant(n.Value), nil
	case *ast.IdentifierNode:
		return c.identifier(n)
	case *ast.PointerNode:
		return c.pointer(n)
	case *ast.UnaryNode:
		return c.unary(n)
	case *ast.BinaryNode:
		return c.binary(n)
	case *ast.ConditionalNode:
		return c.conditional(n)
	case *ast.MemberNode:
		return c.member(n)
	case *ast.CallNode:
		return c.call(n)
	case *ast.BuiltinNode:
		return c.builtin(n)
	case *ast.ArrayNode:
		return c.array(n)
	case *ast.PredicateNode:
		return c.compile(n.Node)
	case *ast.VariableDeclaratorNode:
		return c.let(n)
	case *ast.SequenceNode:
		return c.sequence(n)
	case *ast.MapNode:
		return c.mapLiteral(n)
	case *ast.SliceNode:
		return c.slice(n)
	}
	return nil, unsupported("%T", node)
}

func constant(v any) eval { return func(*frame) (any, error) { return v, nil } }

// integer is an integer literal, converted as expr's compiler does to the
// type the checker gave it (an int compared with a float is a float).
func (c *compiler) integer(n *ast.IntegerNode) (eval, error) {
	t := n.Type()
	if t == nil {
		return constant(n.Value), nil
	}
	switch t.Kind() {
	case reflect.Int:
		return constant(n.Value), nil
	case reflect.Float64:
		return constant(float64(n.Value)), nil
	case reflect.Interface:
		return constant(n.Value), nil
	}
	return nil, unsupported("integer literal of type %s", t)
}

// identifier reads a name from the environment, as the VM's OpLoadFast
// does for a map environment (a missing name is nil).
func (c *compiler) identifier(n *ast.IdentifierNode) (eval, error) {
	if n.Value == "$env" {
		return nil, unsupported("$env")
	}
	for i := len(c.lets) - 1; i >= 0; i-- {
		if c.lets[i].name == n.Value {
			if c.lets[i].alias != nil {
				return c.lets[i].alias, nil
			}
			slot := c.lets[i].slot
			return func(fr *frame) (any, error) { return fr.vars[slot], nil }, nil
		}
	}
	name := n.Value
	if c.slotOf != nil {
		i, ok := c.slotOf(name)
		if !ok {
			return nil, unsupported("name %s outside the slot layout", name)
		}
		// Slots past the end are unset: nil, as a name missing from a map.
		return func(fr *frame) (any, error) {
			if i < len(fr.slots) {
				return fr.slots[i], nil
			}
			return nil, nil
		}, nil
	}
	return func(fr *frame) (any, error) { return fr.env[name], nil }, nil
}

// pointer is # in a predicate: the current item of the innermost one.
func (c *compiler) pointer(n *ast.PointerNode) (eval, error) {
	if n.Name != "" {
		return nil, unsupported("#%s", n.Name)
	}
	if c.depth == 0 || c.depth > maxPredicateDepth {
		return nil, unsupported("# at predicate depth %d", c.depth)
	}
	at := c.depth - 1
	return func(fr *frame) (any, error) { return fr.items[at], nil }, nil
}

// conditional is cond ? a : b (and if/else).
func (c *compiler) conditional(n *ast.ConditionalNode) (eval, error) {
	cond, err := c.condition(n.Cond, true)
	if err != nil {
		return nil, err
	}
	yes, err := c.compile(n.Exp1)
	if err != nil {
		return nil, err
	}
	no, err := c.compile(n.Exp2)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		b, err := cond(fr)
		if err != nil {
			return nil, err
		}
		if b {
			return yes(fr)
		}
		return no(fr)
	}, nil
}

// array is a list literal; its items count against the memory budget.
func (c *compiler) array(n *ast.ArrayNode) (eval, error) {
	items, err := c.compileAll(n.Nodes)
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (any, error) {
		if err := fr.grow(len(items)); err != nil {
			return nil, err
		}
		out := fr.list(len(items))
		for i, item := range items {
			v, err := item(fr)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return fr.boxList(out), nil
	}, nil
}

func (c *compiler) compileAll(nodes []ast.Node) ([]eval, error) {
	out := make([]eval, len(nodes))
	for i, n := range nodes {
		f, err := c.compile(n)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// frameless is a slot-compiled expression that needs no frame, the
// commonest in the rules: a name (fighter), a literal (nil, 0) or a field
// of a name (gang.bottled). It runs as the closures would, without taking
// a frame or guarding against a panic (none of these can panic).
func (c *compiler) frameless(node ast.Node) (SlotFunc, bool) {
	slotRead := c.slotRead
	switch n := node.(type) {
	case *ast.NilNode, *ast.BoolNode, *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.ConstantNode:
		v, err := c.compile(n) // a constant: its closure reads no frame
		if err != nil {
			return nil, false
		}
		value, _ := v(nil)
		return func(*Frames, []any) (any, error) { return value, nil }, true
	case *ast.IdentifierNode:
		i, ok := slotRead(n)
		if !ok {
			return nil, false
		}
		return func(_ *Frames, vals []any) (any, error) {
			if i < len(vals) {
				return vals[i], nil
			}
			return nil, nil // unset: nil, as a name missing from a map
		}, true
	case *ast.MemberNode:
		if n.Optional || n.Method {
			return nil, false
		}
		root, get, ok := fieldGetter(n)
		if !ok {
			return nil, false
		}
		i, ok := slotRead(root)
		if !ok {
			return nil, false
		}
		return func(_ *Frames, vals []any) (any, error) {
			var v any
			if i < len(vals) {
				v = vals[i]
			}
			return get(v)
		}, true
	}
	return nil, false
}

// slotRead is the slot of the name n reads, if it is a name.
func (c *compiler) slotRead(n ast.Node) (int, bool) {
	id, ok := n.(*ast.IdentifierNode)
	if !ok || id.Value == "$env" || c.slotOf == nil {
		return 0, false
	}
	return c.slotOf(id.Value)
}
