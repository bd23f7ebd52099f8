package dsl

// This file checks the effects on values and on what is held: modify and
// override of model.FIELD and weapon.FIELD, grant and prevent.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// The roles whose values effects change: `modify model.ws by 1`,
// `override weapon.ap = -1`.
const (
	ValueModel  = "model"
	ValueWeapon = "weapon"
)

// isValueTarget reports whether an effect's target is a value of a model
// or weapon (model.FIELD, weapon.FIELD) rather than a declaration's part.
func (c *checker) isValueTarget(ref *syntax.Ref) bool {
	if ref == nil || ref.Name == nil {
		return false
	}
	if ref.Name.Name != ValueModel && ref.Name.Name != ValueWeapon {
		return false
	}
	return c.lookup(nsCore, ref.Name.Name) == nil
}

// modelFields are the stats fields of the declared characteristics.
func (c *checker) modelFields() []string {
	var out []string
	for _, ci := range c.idx.Characteristics {
		if !slices.Contains(out, ci.FieldName) {
			out = append(out, ci.FieldName)
		}
	}
	sort.Strings(out)
	return out
}

// valueEffect checks the target of modify or override model.FIELD /
// weapon.FIELD and runs check in the scope its expressions see: the model
// or weapon whose value is read.
func (c *checker) valueEffect(ref *syntax.Ref, check func(sc *scope)) (string, string) {
	role := ref.Name.Name
	if ref.Member == nil {
		c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "name the value of the %s: %s.FIELD", role, role)
		return "", ""
	}
	field := ref.Member.Name
	sc := newScope(c.globals)
	if role == ValueModel {
		if fields := c.modelFields(); !slices.Contains(fields, field) {
			c.unknown(identRange(ref.Member), "characteristic field", field, fields)
			return "", ""
		}
		sc.define(&symbol{name: ValueModel, kind: symParam, typ: typeModel, used: true})
	} else {
		if !slices.Contains(state.ProfileFields, field) {
			c.unknown(identRange(ref.Member), "weapon profile field", field, state.ProfileFields)
			return "", ""
		}
		sc.define(&symbol{name: ValueWeapon, kind: symParam, typ: typeWeapon, used: true})
	}
	// The model (or weapon) whose value is read is the role of its
	// holder: a skill's `modify model.m by 1` changes its holder's M only.
	typ := typeModel
	if role != ValueModel {
		typ = typeWeapon
	}
	check(c.scoped(sc, []ParamInfo{{Name: role, Type: typ}}))
	return ref.String(), "value"
}

// selfStat reports an expression of an effect on role.field that reads
// stat(role, "field"): the value would depend on itself.
func (c *checker) selfStat(e *syntax.Expr, role, field string) {
	if e == nil {
		return
	}
	tree, err := plainParse(e.Text)
	if err != nil {
		return
	}
	v := &statVisitor{role: role, field: field}
	ast.Walk(&tree.Node, v)
	if v.at != nil {
		at := diag.RangeOf(exprPosition(e, v.at.Location().From), exprPosition(e, v.at.Location().To))
		c.diags.errorf(diag.CodeRecursion, at, "an effect on %s.%s reads stat(%s, %q): the value would depend on itself", role, field, role, field)
	}
}

type statVisitor struct {
	role, field string
	at          ast.Node
}

func (v *statVisitor) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok || v.at != nil {
		return
	}
	if callee, ok := call.Callee.(*ast.IdentifierNode); !ok || callee.Value != "stat" || len(call.Arguments) != 2 {
		return
	}
	x, ok1 := call.Arguments[0].(*ast.IdentifierNode)
	f, ok2 := call.Arguments[1].(*ast.StringNode)
	if ok1 && ok2 && x.Value == v.role && f.Value == v.field {
		v.at = call
	}
}

// holderRole is the role of the holder of a feature of a kind: a model,
// or for a trait a weapon.
func holderRole(kind string) string {
	if kind == "trait" {
		return ValueWeapon
	}
	return ValueModel
}

// grantEffect checks grant and prevent: the feature exists, its kind fits
// the holder, and the condition compiles with the holder bound (as model,
// or weapon for traits).
func (c *checker) grantEffect(item syntax.FeatureItem, owner *syntax.Feature) (string, string) {
	var kind, verb string
	var id *syntax.Ident
	var when *syntax.Expr
	var at *diag.Range
	switch e := item.(type) {
	case *syntax.Grant:
		kind, verb, id, when, at = e.Kind, "grant", e.ID, e.When, diag.RangeOf(e.Pos, e.EndPos)
	case *syntax.Prevent:
		kind, verb, id, when, at = e.Kind, "prevent", e.ID, e.When, diag.RangeOf(e.Pos, e.EndPos)
	default:
		return "", ""
	}
	if _, ok := c.idx.Features[kind][id.Name]; !ok {
		c.unknown(identRange(id), kind, id.Name, keys(c.idx.Features[kind]))
		return "", ""
	}
	role := holderRole(kind)
	if owner != nil {
		if owner.Kind == "action" {
			c.diags.errorf(diag.CodeMisplaced, at, "an action is held by no one, so it cannot %s; %s belongs in a skill, power, condition, trait or rule", verb, verb)
			return "", ""
		}
		// A model's feature may grant a trait to the model's weapons
		// (a power giving one weapon Blaze); other mismatches are errors.
		modelsWeapons := verb == "grant" && role == ValueWeapon && holderRole(owner.Kind) == ValueModel
		if holderRole(owner.Kind) != role && !modelsWeapons {
			c.diags.errorf(diag.CodeWrongKind, at, "%s %s is held by a %s, but a %s is held by a %s: it cannot %s %s %s",
				owner.Kind, owner.ID.Name, holderRole(owner.Kind), kind, role, verb, kind, id.Name)
			return "", ""
		}
	}
	sc := newScope(c.globals)
	// The holder is `model`, or for a trait `weapon`, with the model that
	// carries it as `model`.
	sc.define(&symbol{name: ValueModel, kind: symParam, typ: typeModel, used: true})
	if role == ValueWeapon {
		sc.define(&symbol{name: ValueWeapon, kind: symParam, typ: typeWeapon, used: true})
	}
	if when != nil {
		c.compile(when, sc, typeBool, "a "+verb+"'s when")
	}
	return kind + " " + id.Name, verb
}

// checkGrantCycles reports a feature that, through grants, grants itself:
// "skill a grants skill b, which grants skill a".
func (c *checker) checkGrantCycles() {
	type node = string // "skill a"
	type edge struct {
		to    node
		grant *syntax.Grant
	}
	edges := map[node][]edge{}
	for _, e := range c.idx.Effects {
		g, ok := e.Item.(*syntax.Grant)
		if !ok || e.Feature == nil {
			continue
		}
		from := e.Feature.Kind + " " + e.Feature.ID.Name
		edges[from] = append(edges[from], edge{g.Kind + " " + g.ID.Name, g})
	}
	froms := keys(edges)
	const (
		unseen = iota
		open
		done
	)
	mark := map[node]int{}
	var stack []node
	var visit func(n node)
	visit = func(n node) {
		mark[n] = open
		stack = append(stack, n)
		for _, ed := range edges[n] {
			m := ed.to
			switch mark[m] {
			case unseen:
				visit(m)
			case open:
				i := slices.Index(stack, m)
				chain := append(slices.Clone(stack[i:]), m)
				g := ed.grant
				c.diags.errorf(diag.CodeRecursion, diag.RangeOf(g.Pos, g.EndPos), "grants go round in a circle: %s", strings.Join(chain, " grants "))
			}
		}
		stack = stack[:len(stack)-1]
		mark[n] = done
	}
	for _, n := range froms {
		if mark[n] == unseen {
			visit(n)
		}
	}
}

// statFieldCheck checks the literal field of stat(x, "field").
func (c *checker) statField(at *diag.Range, field string) {
	fields := append(c.modelFields(), state.ProfileFields...)
	if !slices.Contains(fields, field) {
		c.unknown(at, "characteristic or weapon profile field", fmt.Sprintf("%q", field), fields)
	}
}
