package interpreter

// This file attributes the Go code's reads of a model's characteristics
// (its stats) and skills to the statements and built-ins that make them,
// so that the liveness (liveness.go) sees them as it sees the rules' own
// reads, and a hash leaves out a characteristic or the skills nothing
// later reads (fields.go: they are droppables like the fields only the
// rules read). TestGoReadsOfStatsAttributed fails when Go code gains a
// read of them not listed here.
//
// The reads, each of the model it is given (by model when that is a
// variable of the frame, bymodel.go) or of any:
//   - `test r = cl(m)` reads m's characteristic cl (rolls.go: its value
//     as the state has it, then stat's), `improve cl of m` and `worsen`
//     read it too (exec.go: the change depends on the old value);
//   - stat(x, "cl") reads x's cl (a constant field; another reads every
//     characteristic) and what the effects on the value read (readKeys),
//     can_improve(m, "cl") and can_worsen read m's cl;
//   - has_skill(m, "id") asks whether m's skills hold id (another id,
//     every skill); has_power, has_condition, has_trait read no skill;
//   - an effect of a skill (its feature) asks whether its holder holds
//     the skill, wherever it may fire (holds.go's effectApplies and
//     heldBy, anyroll.go's candidates and anyHolder): any model's;
//   - `m.stats.cl` is a read of cl, `m.stats` whole (anything but a
//     field of it) of every characteristic (the field name statsWhole).
// A characteristic named differently from its stats field (`field NAME`)
// is read by its id; Program.readsDroppable maps it to the field.

import (
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// statsWhole is the field name of a model's stats: read as a field, every
// characteristic is.
const statsWhole = "stats"

// skillsField is the name in the rules of a model's skills.
const skillsField = "skills"

// readsDroppable reports whether s reads droppable d of some model: by
// its name, or, for a characteristic, the stats whole or the id of a
// characteristic kept in that field.
func (p *Program) readsDroppable(s *nameSet, d droppable) bool {
	if s.hasField(d.name) {
		return true
	}
	if !d.stat {
		return false
	}
	if s.hasField(statsWhole) {
		return true
	}
	for _, ci := range p.idx.Characteristics {
		if ci.FieldName == d.name && ci.ID != d.name && s.hasField(ci.ID) {
			return true
		}
	}
	return false
}

// characteristicRead adds the read of characteristic id (a test's, a
// change's) of the model expression e gives: through the variable e is,
// by model, else of any model.
func characteristicRead(s *nameSet, id string, e *syntax.Expr, byModel bool) {
	if byModel && e != nil && e.Program != nil {
		if v, ok := e.Program.Node().(*ast.IdentifierNode); ok && !strings.HasPrefix(v.Value, "$") && s.addViaField(v.Value, id) {
			return
		}
	}
	s.addField(id)
}

// statsNavigated are the nodes `x.stats` of a tree that a constant field
// is read of (`x.stats.cl`): not reads of every characteristic.
func statsNavigated(root ast.Node) map[ast.Node]bool {
	var out map[ast.Node]bool
	ast.Find(root, func(n ast.Node) bool {
		m, ok := n.(*ast.MemberNode)
		if !ok || m.Method {
			return false
		}
		if _, isStr := m.Property.(*ast.StringNode); !isStr {
			return false
		}
		if inner := statsMember(m.Node); inner != nil {
			if out == nil {
				out = map[ast.Node]bool{}
			}
			out[inner] = true
		}
		return false
	})
	return out
}

// statsMember is n when it is `x.stats`, else nil.
func statsMember(n ast.Node) *ast.MemberNode {
	m, ok := n.(*ast.MemberNode)
	if !ok || m.Method {
		return nil
	}
	if key, ok := m.Property.(*ast.StringNode); ok && key.Value == statsWhole {
		return m
	}
	return nil
}

// builtinReads adds what a call of a built-in reads of characteristics
// and skills in Go (see the file's comment); held is the variable of the
// frame a node is (by model), or nil.
func builtinReads(n *ast.CallNode, s *nameSet, calls *[]string, held func(ast.Node) string) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok || len(n.Arguments) < 2 {
		return
	}
	// The last two arguments: the model (or weapon) and the name; a
	// built-in that needs the state gets it first.
	obj, name := n.Arguments[len(n.Arguments)-2], n.Arguments[len(n.Arguments)-1]
	key, constant := name.(*ast.StringNode)
	via := func(field string) bool { return held != nil && s.addViaField(held(obj), field) }
	switch id.Value {
	case "stat", "can_improve", "can_worsen":
		if id.Value == "stat" {
			// The effects on the value read (readKeys).
			if constant {
				*calls = append(*calls, valuesKey(key.Value))
			} else {
				*calls = append(*calls, valuesKey(anyValue))
			}
		}
		switch {
		case !constant:
			s.addField(statsWhole)
		case !via(key.Value):
			s.addField(key.Value)
		}
	case "has_skill":
		switch {
		case !constant:
			if !via(skillsField) {
				s.addField(skillsField)
			}
		case held == nil || !s.addViaMember(held(obj), skillsField, key.Value):
			s.addMember(skillsField, key.Value)
		}
	}
}

// featureReads adds what the runner reads to know whether an effect's
// holder holds its feature: for a skill's, whether a model's skills hold
// it (any model's: an `as any` effect asks every model).
func featureReads(s *nameSet, ft *syntax.Feature) {
	if ft != nil && ft.Kind == "skill" {
		s.addMember(skillsField, ft.ID.Name)
	}
}

// testsKey is the summary key of what the effects on every test of a
// characteristic read: they fire at a test of it alone (rolls.go's test
// asks effectsOn(ci.ID) and nowhere else), so a `test` statement calls
// it.
func testsKey(char string) string { return "c:" + char }

// isTestsKey reports whether key is a testsKey.
func isTestsKey(key string) bool { return strings.HasPrefix(key, "c:") }

// testParams are what the effects on the tests of a characteristic (and
// on the value of its field, which the test reads through stat) are
// given: the model tested, as `model` (rolls.go's charFrame, holds.go's
// stat). A test of a variable's model binds it, by model (bymodel.go).
var testParams = []dsl.ParamInfo{{Name: dsl.ValueModel}}

// testSite is the readSite of a test of char of the model e gives: its
// effects read through `model` what they read of the model tested.
func testSite(char string, e *syntax.Expr, slots *dsl.Slots) readSite {
	arg := siteArg{slot: -1}
	if e != nil && e.Program != nil {
		if id, ok := e.Program.Node().(*ast.IdentifierNode); ok && !isGlobal(id.Value) && !strings.HasPrefix(id.Value, "$") {
			arg.slot = slots.Of(id.Value)
		}
	}
	return readSite{key: testsKey(char), args: []siteArg{arg}}
}

// readKeys are the summaries an effect's reads belong to: effectKeys',
// but an effect on every test of a characteristic reads at those tests
// (testsKey), not anywhere. (What it writes is still anywhere's,
// writes.go: the guards' analysis does not follow tests.)
func readKeys(idx *dsl.Index, e *dsl.EffectInfo) []string {
	switch e.Item.(type) {
	case *syntax.Grant, *syntax.Prevent:
		return effectKeys(idx, e)
	}
	switch e.TargetKind {
	case "characteristic":
		return []string{testsKey(e.Target)}
	case "value":
		// On model.F or weapon.F: it fires where the runner reads F's
		// value (holds.go's stat): stat(x, "F"), stat(x, f) (valuesKey
		// of every field), and a test of a characteristic kept in F.
		role, field, ok := strings.Cut(e.Target, ".")
		if !ok {
			return effectKeys(idx, e)
		}
		keys := []string{valuesKey(field), valuesKey(anyValue)}
		if role == dsl.ValueModel {
			for _, ci := range idx.Characteristics {
				if ci.FieldName == field {
					keys = append(keys, testsKey(ci.ID))
				}
			}
		}
		return keys
	}
	return effectKeys(idx, e)
}

// valuesKey is the summary key of what the effects on the value of a
// field (model.F, weapon.F) read; valuesKey(anyValue), of every field's.
func valuesKey(field string) string { return "v:" + field }

// anyValue stands for every field in valuesKey.
const anyValue = "*"
