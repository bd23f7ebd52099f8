package dsl

// This file shares the work of the action menu (AvailableActions) between
// its actions. A menu asks every action's `available when` of one model in
// one state, and the conditions overlap: after inlining, Aim's is Shoot's,
// and most begin with the same tests (is_fighter, standing_active, not
// broken; is_vehicle for a vehicle's). Each condition is split into its
// `and` chain, and a conjunct that reads only the globals and the model
// asked about is evaluated once per menu, its answer kept for the other
// actions whose chains hold the same conjunct.
//
// It means the same as evaluating each condition whole: within one menu
// nothing changes the state, expressions have no side effects, and `and`
// evaluates its operands left to right and stops at the first false, as
// the chain does. Whenever a conjunct fails to give true or false (an
// error, or anything the closures leave to the VM), that action's
// condition is evaluated whole, as before, so that its errors and their
// messages are the same. (One difference, in the limits only: each
// conjunct run has the memory budget a whole condition had, so a
// condition that outgrew it only as a whole now runs.)

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl/fastexpr"
)

// menuPlan is the menu's conditions as chains of conjuncts.
type menuPlan struct {
	shared int // conjuncts kept per menu, numbered from 0
	// chains are by the action's place in Index.Menu; a nil chain's
	// condition is evaluated whole (none, or not compiled to closures).
	chains []menuChain
}

// menuChain is one action's condition as a chain.
type menuChain struct {
	action    *ActionInfo
	conjuncts []conjunct
	// literalDefaults says that the parameters after the first default
	// to nothing or to literals, which cannot fail: they are bound only
	// when a conjunct reads them (shared ones read only the first).
	literalDefaults bool
}

// conjunct is one operand of a condition's `and` chain.
type conjunct struct {
	fast fastexpr.SlotFunc
	// shared is the conjunct's number among those kept per menu, or -1
	// when it reads another parameter (whose default is the action's own).
	shared int
}

// newMenuPlan splits the conditions of the menu's actions, compiled.
func (c *checker) newMenuPlan() *menuPlan {
	plan := &menuPlan{chains: make([]menuChain, len(c.idx.Menu))}
	byKey := map[string]int{}
	for i, a := range c.idx.Menu {
		if a.Available == nil || a.available == nil || a.available.fast == nil || a.Available.Program == nil {
			continue
		}
		layout := map[string]int{}
		for i, n := range slotLayout(a.Params) {
			layout[n] = i // a parameter hides a global of its name
		}
		var chain []conjunct
		ok := true
		for _, part := range splitAnd(a.Available.Program.Node(), layout, nil) {
			slotOf := func(name string) (int, bool) {
				if s, ok := part.aliases[name]; ok {
					return s, true
				}
				s, ok := layout[name]
				return s, ok
			}
			f, err := fastexpr.CompileSlots(part.node, c.exprc.Functions(), slotOf)
			if err != nil {
				ok = false
				break
			}
			cj := conjunct{fast: f, shared: -1}
			if key, shareable := conjunctKey(part.node, slotOf); shareable {
				n, seen := byKey[key]
				if !seen {
					n = len(byKey)
					byKey[key] = n
				}
				cj.shared = n
			}
			chain = append(chain, cj)
		}
		if ok {
			plan.chains[i] = menuChain{action: a, conjuncts: chain, literalDefaults: true}
			for _, d := range a.defaults[1:] {
				if d != nil && !d.hasLiteral {
					plan.chains[i].literalDefaults = false
				}
			}
		}
	}
	plan.shared = len(byKey)
	return plan
}

// andPart is a conjunct and the names of the lets around it that only
// rename a slot (the inliner's `let mʹ1 = fighter; …`).
type andPart struct {
	node    ast.Node
	aliases map[string]int
}

// splitAnd is node's `and` chain, left to right, looking through lets
// that bind a name to a slot's variable.
func splitAnd(node ast.Node, layout, aliases map[string]int) []andPart {
	for {
		let, ok := node.(*ast.VariableDeclaratorNode)
		if !ok {
			break
		}
		id, ok := let.Value.(*ast.IdentifierNode)
		if !ok {
			break
		}
		slot, ok := aliases[id.Value]
		if !ok {
			if slot, ok = layout[id.Value]; !ok {
				break
			}
		}
		next := make(map[string]int, len(aliases)+1)
		for k, v := range aliases {
			next[k] = v
		}
		next[let.Name] = slot
		aliases, node = next, let.Expr
	}
	if b, ok := node.(*ast.BinaryNode); ok && (b.Operator == "and" || b.Operator == "&&") {
		return append(splitAnd(b.Left, layout, aliases), splitAnd(b.Right, layout, aliases)...)
	}
	return []andPart{{node: node, aliases: aliases}}
}

// inlinedName is a name the inliner gives a parameter (pʹ3), which a rule
// cannot write.
var inlinedName = regexp.MustCompile(`[\p{L}_][\p{L}\p{N}_]*ʹ[0-9]+`)

// conjunctKey is what makes two conjuncts the same: their text with the
// inliner's names numbered by first use, the kind and type of every node
// in order, and the slot each name outside it reads. Shareable is false
// when the conjunct reads a slot past the model asked about (another
// parameter), or when its text could be ambiguous.
func conjunctKey(node ast.Node, slotOf func(string) (int, bool)) (key string, shareable bool) {
	declared := map[string]bool{}
	var idents []string
	var kinds strings.Builder
	ambiguous := false
	ast.Walk(&node, visitFunc(func(n *ast.Node) {
		fmt.Fprintf(&kinds, "%T:%v;", *n, (*n).Type())
		switch n := (*n).(type) {
		case *ast.VariableDeclaratorNode:
			declared[n.Name] = true
		case *ast.IdentifierNode:
			idents = append(idents, n.Value)
		case *ast.StringNode:
			ambiguous = ambiguous || strings.ContainsRune(n.Value, 'ʹ')
		}
	}))
	if ambiguous {
		return "", false
	}
	renamed := map[string]string{}
	text := inlinedName.ReplaceAllStringFunc(node.String(), func(name string) string {
		if to, ok := renamed[name]; ok {
			return to
		}
		to := fmt.Sprintf("ʹ%d", len(renamed))
		renamed[name] = to
		return to
	})
	var reads []string
	for _, name := range idents {
		slot, free := slotOf(name)
		if !free {
			continue // a function's name, or a let of the conjunct's own
		}
		if declared[name] || slot > firstParamSlot {
			return "", false
		}
		as := name
		if to, ok := renamed[name]; ok {
			as = to
		} else if inlinedName.MatchString(name) {
			return "", false
		}
		reads = append(reads, fmt.Sprintf("%s=%d", as, slot))
	}
	sort.Strings(reads)
	return text + "\x00" + kinds.String() + "\x00" + strings.Join(reads, ","), true
}
