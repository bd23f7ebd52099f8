package interpreter

// This file leaves out of what the rest of a run may write (writes.go,
// writesbymodel.go) the effects that cannot fire there: an effect of a
// skill, a power or a condition applies only where a model holds it, one
// of a trait only where a weapon has it. Where none holds the feature at
// a checkpoint, nothing grants it, no weapon_of profile gives it (for a
// trait), and nothing the rest may write (with the effects that may fire,
// until no more may) adds it to a list, its effects write nothing
// (Checkpoint.Decided). Stubborn to the Last's `before go_out_of_action`,
// which performs any action and so writes almost every field, and
// Seismic's `after take_hit`, which sets its target's status, are such
// effects in most battles.

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// gatedEffect is an effect of a skill, a power or a condition that
// applies only where a model holds it (a hook `as fighter`, `as any`, an
// `on` handler, a modifier), or of a trait that applies only where a
// weapon has it, and that no effect grants (nor, for a trait, any
// weapon_of profile gives: traitsMade): where none holds it and nothing
// the rest of the run may do adds it to a list, it fires nowhere, and
// writes nothing (Checkpoint.Decided).
type gatedEffect struct {
	key      string // "x:i"
	kind, id string
	field    string // the list: skills, powers, conditions; a weapon's traits
}

// traitsMade are the traits a weapon weapon_of makes may have, by id:
// those its profiles name, each a literal (with its traits a literal
// list of texts) in some expression of the rules; nil when a profile is
// not (any trait, then).
func traitsMade(idx *dsl.Index) map[string]bool {
	made := map[string]bool{}
	known := true
	var nodes []any
	eachCallable(idx, func(_ string, ns ...any) { nodes = append(nodes, ns...) })
	for _, e := range idx.Effects {
		nodes = append(nodes, e.Item)
	}
	addTraits := func(v any) {
		switch x := v.(type) {
		case []string:
			for _, t := range x {
				made[traitID(t)] = true
			}
		case []any:
			for _, t := range x {
				if s, ok := t.(string); ok {
					made[traitID(s)] = true
				} else {
					known = false
				}
			}
		default:
			known = false
		}
	}
	for _, n := range nodes {
		syntax.Inspect(n, func(n any) bool {
			e, ok := n.(*syntax.Expr)
			if !ok || e.Program == nil {
				return true
			}
			ast.Find(e.Program.Node(), func(n ast.Node) bool {
				c, isCall := n.(*ast.CallNode)
				if !isCall {
					return false
				}
				if id, isIdent := c.Callee.(*ast.IdentifierNode); !isIdent || id.Value != "weapon_of" {
					return false
				}
				if len(c.Arguments) != 1 {
					known = false
					return false
				}
				switch arg := c.Arguments[0].(type) {
				case *ast.MapNode:
					for _, p := range arg.Pairs {
						pair, isPair := p.(*ast.PairNode)
						key, isStr := pair.Key.(*ast.StringNode)
						if !isPair || !isStr {
							known = false
							continue
						}
						if key.Value != "traits" {
							continue
						}
						switch list := pair.Value.(type) {
						case *ast.ArrayNode:
							for _, t := range list.Nodes {
								if s, ok := t.(*ast.StringNode); ok {
									made[traitID(s.Value)] = true
								} else {
									known = false
								}
							}
						case *ast.ConstantNode:
							addTraits(list.Value)
						default:
							known = known && weaponsTraits(list)
						}
					}
				case *ast.ConstantNode:
					m, isMap := arg.Value.(map[string]any)
					if !isMap {
						known = false
					} else if t, has := m["traits"]; has {
						addTraits(t)
					}
				default:
					known = false
				}
				return false
			})
			return true
		})
	}
	if !known {
		return nil
	}
	return made
}

// weaponsTraits reports whether n is a weapon's traits (`w.traits`), or
// some of them (`filter(w.traits, …)`): a profile given them gives no
// trait a weapon has not.
func weaponsTraits(n ast.Node) bool {
	if b, ok := n.(*ast.BuiltinNode); ok && b.Name == "filter" && len(b.Arguments) > 0 {
		n = b.Arguments[0]
	}
	m, ok := n.(*ast.MemberNode)
	if !ok || m.Method {
		return false
	}
	key, isStr := m.Property.(*ast.StringNode)
	return isStr && key.Value == "traits" && m.Node.Type() == reflect.TypeOf((*state.Weapon)(nil))
}

// traitID is a trait's id without its value: "blast" of "blast(3)".
func traitID(t string) string {
	name, _, _ := strings.Cut(t, "(")
	return strings.TrimSpace(name)
}

// feature is a skill, power or condition: its kind and id.
type feature struct{ kind, id string }

// findGated lists the program's gated effects.
func (w *writes) findGated(idx *dsl.Index) {
	w.gatedBit, w.gatedBy = map[string]int{}, map[feature][]int{}
	made := traitsMade(idx)
	for i, e := range idx.Effects {
		if e.Feature == nil || e.Role == "" || e.Feature.ID == nil {
			continue
		}
		if _, isGrant := e.Item.(*syntax.Grant); isGrant {
			continue
		}
		if _, isPrevent := e.Item.(*syntax.Prevent); isPrevent {
			continue
		}
		kind, id := e.Feature.Kind, e.Feature.ID.Name
		field := listedField(kind)
		if kind == "trait" && made != nil && !made[id] {
			field = "traits" // a weapon's, that weapon_of does not give
		}
		if field == "" || len(w.grants[kind][id]) > 0 {
			continue
		}
		key := "x:" + strconv.Itoa(i)
		w.gatedBit[key] = len(w.gated)
		w.gatedBy[feature{kind, id}] = append(w.gatedBy[feature{kind, id}], len(w.gated))
		w.gated = append(w.gated, gatedEffect{key: key, kind: kind, id: id, field: field})
	}
}

// writtenFiring is what the rest of a run paused at at may write of any
// object in st: at.any, with what the gated effects of at.gated that may
// fire write (firing). It depends on which of those a model of st holds
// alone, so it is found once for each.
func (w *writes) writtenFiring(at *writesAt, st *state.State) *nameSet {
	var held slotBits
	if st == nil {
		held = slices.Clone(at.gated)
	} else {
		for _, g := range st.Gangs {
			for _, m := range g.Models {
				for _, x := range [...]struct {
					kind  string
					items []string
				}{{"skill", m.Skills}, {"power", m.Powers}, {"condition", m.Conditions}} {
					for _, id := range x.items {
						for _, bit := range w.gatedBy[feature{x.kind, id}] {
							if at.gated.hasSlot(bit) {
								held.addSlot(bit)
							}
						}
					}
				}
				for _, wp := range m.Weapons {
					if wp == nil {
						continue
					}
					for _, t := range wp.Traits {
						for _, bit := range w.gatedBy[feature{"trait", traitID(t)}] {
							if at.gated.hasSlot(bit) {
								held.addSlot(bit)
							}
						}
					}
				}
			}
		}
	}
	var buf [64]byte
	key := buf[:0]
	for _, word := range held {
		key = binary.AppendUvarint(key, word)
	}
	at.firedMu.Lock()
	defer at.firedMu.Unlock()
	if s, ok := at.fired[string(key)]; ok {
		return s
	}
	written := at.any.clone()
	w.firing(held, at.gated, &written, at.vias)
	if at.fired == nil {
		at.fired = map[string]*nameSet{}
	}
	at.fired[string(key)] = &written
	return &written
}

// firing adds to written what the gated effects of gated write that may
// fire: those whose feature a model holds (held), and those whose feature
// what may be written (written, with the writes through variables, vias)
// may add to a model's list or give a model (a list of models or gangs
// written), until no more may.
func (w *writes) firing(held, gated slotBits, written *nameSet, vias []writeVia) {
	all := written.clone()
	for i := range vias {
		all.unionFields(&vias[i].fields)
	}
	fired := make(slotBits, len(gated))
	for changed := true; changed; {
		changed = false
		for j, word := range gated {
			for b := 0; word != 0; b, word = b+1, word>>1 {
				bit := j*64 + b
				if word&1 == 0 || fired.hasSlot(bit) {
					continue
				}
				g := &w.gated[bit]
				if !held.hasSlot(bit) && unwritten(&all, g.field, g.id) && unwritten(&all, "models", "") && unwritten(&all, "gangs", "") &&
					(g.kind != "trait" || unwritten(&all, "weapons", "")) {
					continue
				}
				fired.addSlot(bit)
				changed = true
				if o := w.called[g.key]; o != nil {
					written.unionFields(o)
					all.unionFields(o)
				}
			}
		}
	}
}
