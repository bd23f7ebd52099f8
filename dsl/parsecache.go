package dsl

import (
	"slices"
	"sync"

	"github.com/expr-lang/expr/ast"
	exprparser "github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"
)

// This file keeps expressions' parses across the checks of one process,
// for those whose compilation is found in a cache (sharedprograms.go):
// the checker still needs the tree as written, to mark the names used
// and to make the cache's key, but it only reads it. Parsing was the
// largest part of checking an expression left once its compilation is
// kept.
//
// What expr's parser makes of a text depends on the text and, for each
// name called in it, on whether the name is overridden (a function of
// the configuration or a name of the environment: then it is a call, not
// expr's built-in of that name) and whether the built-in is disabled;
// nothing else of the configuration changes during a check. A kept parse
// is used again only where those are the same. A tree that was compiled
// has been patched (inlined, typed) and is never kept: only the parse of
// an expression whose compilation was found is.

// maxKeptParses bounds the trees kept (as maxSharedPrograms).
const maxKeptParses = 1 << 13

var keptParses = struct {
	sync.Mutex
	young, old map[string][]*keptParse
	youngLen   int
}{young: map[string][]*keptParse{}}

// keptParse is one parse of a text and what it depended on.
type keptParse struct {
	tree  *exprparser.Tree
	calls []string // the names called, each once
	// per name: overridden (bit 0), disabled as a built-in (bit 1)
	flags []byte
}

// callFlags are what the parser asked of the configuration and
// environment about each name called.
func (c *checker) callFlags(calls []string, env types.Map) []byte {
	cfg := c.exprc.config
	flags := make([]byte, len(calls))
	for i, name := range calls {
		_, fn := cfg.Functions[name]
		_, inEnv := env[name]
		if fn || inEnv {
			flags[i] |= 1
		}
		if cfg.Disabled[name] {
			flags[i] |= 2
		}
	}
	return flags
}

// parsedCalls lists the names a parse calls: expr's built-ins and calls
// of a name.
func parsedCalls(tree ast.Node) []string {
	var names []string
	ast.Find(tree, func(n ast.Node) bool {
		name := ""
		switch n := n.(type) {
		case *ast.BuiltinNode:
			name = n.Name
		case *ast.CallNode:
			if id, ok := n.Callee.(*ast.IdentifierNode); ok {
				name = id.Value
			}
		}
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
		return false
	})
	return names
}

// keptParseOf finds a kept parse of text that the parser would make again
// in env, or nil. The tree must only be read.
func (c *checker) keptParseOf(text string, env types.Map) *exprparser.Tree {
	if programCacheOff {
		return nil
	}
	keptParses.Lock()
	young, old := keptParses.young[text], keptParses.old[text]
	keptParses.Unlock()
	for _, kp := range young {
		if slices.Equal(kp.flags, c.callFlags(kp.calls, env)) {
			return kp.tree
		}
	}
	for _, kp := range old {
		if slices.Equal(kp.flags, c.callFlags(kp.calls, env)) {
			addParse(text, kp) // used: it survives the next turn
			return kp.tree
		}
	}
	return nil
}

// hasKeptParse tells whether a parse of text is kept, whatever it
// depended on.
func hasKeptParse(text string) bool {
	keptParses.Lock()
	defer keptParses.Unlock()
	return len(keptParses.young[text]) > 0 || len(keptParses.old[text]) > 0
}

// keepParse keeps a parse of text that will not be compiled (nor changed).
func (c *checker) keepParse(text string, tree *exprparser.Tree, env types.Map) {
	if programCacheOff {
		return
	}
	calls := parsedCalls(tree.Node)
	addParse(text, &keptParse{tree: tree, calls: calls, flags: c.callFlags(calls, env)})
}

// addParse keeps kp among the young parses, unless an equal one is there.
func addParse(text string, kp *keptParse) {
	if len(text) > maxSharedText {
		return
	}
	keptParses.Lock()
	defer keptParses.Unlock()
	for _, other := range keptParses.young[text] {
		if slices.Equal(other.calls, kp.calls) && slices.Equal(other.flags, kp.flags) {
			return
		}
	}
	if keptParses.youngLen >= maxKeptParses/2 {
		keptParses.old, keptParses.young, keptParses.youngLen = keptParses.young, map[string][]*keptParse{}, 0
	}
	keptParses.young[text] = append(keptParses.young[text], kp)
	keptParses.youngLen++
}

// plainParse is expr's parse of text without a configuration, kept for
// the process: the checker reads such parses to find the functions a
// declaration calls, the names a body reads, literals to check, and
// never changes them. Without a configuration a parse depends on the
// text alone. Texts that do not parse are not kept.
func plainParse(text string) (*exprparser.Tree, error) {
	plainParses.Lock()
	tree, ok := plainParses.young[text]
	if !ok {
		if tree, ok = plainParses.old[text]; ok {
			plainParses.addLocked(text, tree)
		}
	}
	plainParses.Unlock()
	if ok {
		return tree, nil
	}
	tree, err := exprparser.Parse(text)
	if err != nil || len(text) > maxSharedText {
		return tree, err
	}
	plainParses.Lock()
	plainParses.addLocked(text, tree)
	plainParses.Unlock()
	return tree, nil
}

var plainParses = &treeStore{young: map[string]*exprparser.Tree{}}

// treeStore keeps at most maxKeptParses trees by text, in two
// generations (as programStore).
type treeStore struct {
	sync.Mutex
	young, old map[string]*exprparser.Tree
}

func (s *treeStore) addLocked(text string, tree *exprparser.Tree) {
	if len(s.young) >= maxKeptParses/2 {
		s.old, s.young = s.young, map[string]*exprparser.Tree{}
	}
	s.young[text] = tree
}
