package dsl

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
)

// This file shares compiled expressions between the checks of one
// process. A test run, `munda test` and the language server check the
// same files again and again, under other selections of packs and house
// rules or after an edit elsewhere; the checked packs cannot be shared,
// but most of their expressions compile the same.
//
// What a compilation depends on, and so what it is kept under:
//   - the text;
//   - the types of every name it may read (programNames: its own names,
//     the state, and those of the bodies it inlines);
//   - what each function it calls means (calleeKey): the text and
//     parameters of a declared function that is inlined, and of those
//     its body calls; munda's built-ins, which are the process's, by
//     name. A function that is one check's own (features, can_improve,
//     available_actions, a lookup table, a declared function left a
//     call) closes over that check's declarations: an expression whose
//     compiled form calls one is kept for its own check only
//     (programcache.go), never here;
//   - the numbering of frame slots its closures read (frameslots.go);
//   - the configuration, which is the same for every check once the
//     built-ins are in (before checkCallables, expressions compile
//     without them, and none is shared).
//
// Nothing depends on the language of messages: the checker does not
// translate. What is kept is never changed after it is compiled: expr's
// programs are read-only when run, fastexpr's closures too, and the
// checker only reads the tree (ast.Find) once a program is made.

// maxSharedPrograms bounds the shared cache. The shipped rules and their
// tests compile about 3,500 distinct expressions that may be shared,
// under every selection together; with their parses (parsecache.go) they
// hold about 18 MB, 5 KB each. The bound leaves twice that room.
const maxSharedPrograms = 1 << 13

// maxSharedText is the longest text the shared caches keep (of
// programs, parses and plain parses): their bounds count entries, and a
// long literal edited in the language server, a new text at each
// keystroke, would otherwise fill them with megabytes each. The shipped
// rules' longest expression is a few hundred bytes.
const maxSharedText = 4 << 10

// sharedPrograms is the process's cache.
var sharedPrograms = newProgramStore(maxSharedPrograms)

// programStore keeps compilations by text, safe for concurrent checks.
// It is bounded by two generations: when the young one is full, it
// becomes the old one and the old one is dropped; a hit in the old one
// moves to the young one. So at most max are kept, and those used since
// the last turn survive it.
type programStore struct {
	mu       sync.Mutex
	max      int
	young    map[string][]*cachedProgram
	old      map[string][]*cachedProgram
	youngLen int
	hits     int
	misses   int
}

func newProgramStore(max int) *programStore {
	return &programStore{max: max, young: map[string][]*cachedProgram{}}
}

// lookup finds a compilation of text under the same key.
func (s *programStore) lookup(text string, names []string, bindings []types.Type, calls string, slots *Slots) *cachedProgram {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cp := findProgram(s.young[text], names, bindings, calls, slots); cp != nil {
		s.hits++
		return cp
	}
	cp := findProgram(s.old[text], names, bindings, calls, slots)
	if cp != nil {
		s.addLocked(text, cp)
		s.hits++
	} else {
		s.misses++
	}
	return cp
}

func findProgram(list []*cachedProgram, names []string, bindings []types.Type, calls string, slots *Slots) *cachedProgram {
	for _, cp := range list {
		if cp.calls == calls && cp.slots == slots && slices.Equal(cp.names, names) && equalBindings(cp.bindings, bindings) {
			return cp
		}
	}
	return nil
}

// store keeps cp, which must not change from now on.
func (s *programStore) store(text string, cp *cachedProgram) {
	if len(text) > maxSharedText {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if findProgram(s.young[text], cp.names, cp.bindings, cp.calls, cp.slots) == nil {
		s.addLocked(text, cp)
	}
}

func (s *programStore) addLocked(text string, cp *cachedProgram) {
	if s.youngLen >= s.max/2 {
		s.old, s.young, s.youngLen = s.young, map[string][]*cachedProgram{}, 0
	}
	s.young[text] = append(s.young[text], cp)
	s.youngLen++
}

// len is how many compilations are kept (some may be in both
// generations).
func (s *programStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range []map[string][]*cachedProgram{s.young, s.old} {
		for _, list := range m {
			n += len(list)
		}
	}
	return n
}

// SharedProgramStats tells how the process's cache of compiled
// expressions has done: how many it keeps, and how many lookups found
// one or did not (of expressions that call none of a check's own
// functions).
func SharedProgramStats() (kept, hits, misses int) {
	kept = sharedPrograms.len()
	sharedPrograms.mu.Lock()
	defer sharedPrograms.mu.Unlock()
	return kept, sharedPrograms.hits, sharedPrograms.misses
}

// resetShared empties every cache the checks of a process share (but
// syntax.ParseCached's): a cold start, for benchmarks.
func resetShared() {
	sharedPrograms.reset()
	keptParses.Lock()
	keptParses.young, keptParses.old, keptParses.youngLen = map[string][]*keptParse{}, nil, 0
	keptParses.Unlock()
	plainParses.Lock()
	plainParses.young, plainParses.old = map[string]*exprparser.Tree{}, nil
	plainParses.Unlock()
	validStates.Lock()
	validStates.keys, validStates.bytes = map[validStateKey]bool{}, 0
	validStates.Unlock()
}

// reset empties the store: a cold start, for benchmarks.
func (s *programStore) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.young, s.old, s.youngLen = map[string][]*cachedProgram{}, nil, 0
	s.hits, s.misses = 0, 0
}

// programKey is what a compilation is kept under (see the file comment).
type programKey struct {
	text     string
	names    []string
	bindings []types.Type
	calls    string
	shared   bool // calls is known: the shared cache may hold it
}

// findProgram looks for a compilation of text in this check's cache, then
// in the shared one. Without a hit, it gives the key to keep the
// compilation under (nil if it may not be kept).
func (c *checker) findProgram(text string, tree ast.Node, env types.Map) (*cachedProgram, *programKey) {
	if programCacheOff {
		return nil, nil
	}
	names, callees, ok := c.programNames(tree)
	if !ok {
		return nil, nil
	}
	bindings, ok := programBindings(names, env)
	if !ok {
		return nil, nil
	}
	if cp := c.programs.lookup(text, names, bindings); cp != nil {
		return cp, nil
	}
	k := &programKey{text: text, names: names, bindings: bindings}
	if c.globalFuncs == nil {
		return nil, k
	}
	k.calls, k.shared = c.callsKey(callees)
	if !k.shared {
		return nil, k
	}
	if cp := sharedPrograms.lookup(text, names, bindings, k.calls, c.exprc.slots); cp != nil {
		c.programs.store(text, cp)
		return cp, nil
	}
	return nil, k
}

// keepProgram keeps a new compilation under k: for this check, and for
// every check if it calls none of this check's own functions.
func (c *checker) keepProgram(k *programKey, cp *cachedProgram) {
	if k == nil {
		return
	}
	cp.names, cp.bindings, cp.calls, cp.slots = k.names, k.bindings, k.calls, c.exprc.slots
	c.programs.store(k.text, cp)
	if k.shared && c.callsOnlyBuiltins(cp.program) {
		sharedPrograms.store(k.text, cp)
	}
}

// callsKey says what every function an expression calls means (the
// digests of their calleeKey, in order), ok false if one is this check's
// own.
func (c *checker) callsKey(callees []string) (key string, ok bool) {
	if len(callees) == 1 {
		m := c.calleeKey(callees[0], 0)
		return m.key, m.ok
	}
	b := make([]byte, 0, len(callees)*sha256.Size)
	for _, name := range callees {
		m := c.calleeKey(name, 0)
		if !m.ok {
			return "", false
		}
		b = append(b, m.key...)
	}
	return string(b), true
}

// calleeMeaning is what a call of a name compiles to, as a key (the
// SHA-256 of its description, so that an expression's key stays short
// however long the bodies it inlines): ok is false if it is one check's
// own function.
type calleeMeaning struct {
	key string
	ok  bool
}

func (c *checker) calleeKey(name string, depth int) calleeMeaning {
	if m, ok := c.programs.callees[name]; ok {
		return m
	}
	m := c.calleeMeaningOf(name, depth)
	if m.ok {
		sum := sha256.Sum256([]byte(m.key))
		m.key = string(sum[:])
	}
	if c.programs.callees == nil {
		c.programs.callees = map[string]calleeMeaning{}
	}
	c.programs.callees[name] = m
	return m
}

func (c *checker) calleeMeaningOf(name string, depth int) calleeMeaning {
	if body, ok := c.inline.bodies[name]; ok {
		// Inlined: its text, its parameters, and what it calls.
		if depth >= maxInlineDepth {
			return calleeMeaning{}
		}
		// The body as checked: its calls of functions (a declared upper)
		// are calls, expr's built-ins are not, as the inliner sees them.
		tree := body.tree
		var b strings.Builder
		writeKeyField(&b, "inline "+name)
		writeKeyField(&b, strconv.Itoa(len(body.params)))
		for i, p := range body.params {
			writeKeyField(&b, p)
			// The arguments' types are checked against them.
			writeKeyField(&b, fmt.Sprint(body.types[i]))
		}
		writeKeyField(&b, body.text)
		var calls strings.Builder
		ok := true
		var seen []string
		ast.Find(tree.Node, func(n ast.Node) bool {
			callee, isCall := calleeName(n)
			if id, isIdent := n.(*ast.IdentifierNode); isIdent && c.isFunction(id.Value) {
				callee, isCall = id.Value, true // a function read as a value
			}
			if isCall && ok && !slices.Contains(seen, callee) {
				seen = append(seen, callee)
				m := c.calleeKey(callee, depth+1)
				ok = m.ok
				calls.WriteString(m.key)
			}
			return false
		})
		if !ok {
			return calleeMeaning{}
		}
		writeKeyField(&b, calls.String())
		return calleeMeaning{key: b.String(), ok: true}
	}
	if fn, ok := c.exprc.Functions()[name]; ok {
		if fn != c.globalFuncs[name] {
			return calleeMeaning{} // this check's own
		}
		return calleeMeaning{key: keyField("builtin " + name), ok: true}
	}
	// expr's own built-ins, or a name that is no function here (an
	// error, or a value of the environment, whose type the key holds).
	return calleeMeaning{key: keyField("name " + name), ok: true}
}

// callsOnlyBuiltins tells whether a compiled expression calls, or reads
// as a value, no function of this check's own (one inlining left a call,
// say). Every name is looked at, callees and values alike: a name that
// the environment holds instead is refused too, which costs only a miss.
func (c *checker) callsOnlyBuiltins(program *vm.Program) bool {
	funcs := c.exprc.Functions()
	ok := true
	ast.Find(program.Node(), func(n ast.Node) bool {
		if id, isIdent := n.(*ast.IdentifierNode); isIdent {
			if fn, found := funcs[id.Value]; found && fn != c.globalFuncs[id.Value] {
				ok = false
			}
		}
		return false
	})
	return ok
}

func calleeName(n ast.Node) (string, bool) {
	call, ok := n.(*ast.CallNode)
	if !ok {
		return "", false
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return "", false
	}
	return id.Value, true
}

// keyField writes s so that no two lists of fields read the same.
func writeKeyField(b *strings.Builder, s string) {
	b.WriteString(strconv.Itoa(len(s)))
	b.WriteByte(':')
	b.WriteString(s)
}

func keyField(s string) string {
	var b strings.Builder
	writeKeyField(&b, s)
	return b.String()
}
