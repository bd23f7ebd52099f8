package dsl

import (
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// PreferBest is how overrides of a test's value combine: the best value
// for the model tested (the lowest, for a characteristic written 7+).
const PreferBest = "best"

// testValueOverride checks an override of the value a characteristic test
// is against: `override P.x = EXPR` where x is a test of procedure P (the
// expressions see what is in scope at the test), or `override C = EXPR`
// for every test of characteristic C (they see the model tested as
// `model`). It returns the target and its kind, or "" when the override
// names something else (a let). Of several in force, the best value for
// the model tested is used (PreferBest), so they never conflict.
func (c *checker) testValueOverride(e *syntax.Override) (string, string) {
	ref := e.Target
	c.prefer = PreferBest
	if ref.Member == nil {
		ch, ok := c.lookup(nsCore, ref.Name.Name).(*syntax.Characteristic)
		if !ok {
			c.prefer = ""
			return "", ""
		}
		tested := false
		for _, it := range ch.Items {
			_, isCheck := it.(*syntax.CharCheck)
			tested = tested || isCheck
		}
		if !tested {
			c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "characteristic %s has no check, so no test to override: name a let as procedure.let, or a test", ref.Name.Name)
			return ref.Name.Name, "characteristic"
		}
		sc := newScope(c.globals)
		sc.define(&symbol{name: "model", kind: symParam, typ: typeModel, used: true})
		sc = c.scoped(sc, modelParam)
		c.compile(e.Value, sc, typeInt, "the value tests of "+ref.Name.Name+" are against")
		if e.When != nil {
			c.compile(e.When, sc, typeBool, "an override's when")
		}
		return ref.Name.Name, "characteristic"
	}
	info := c.procOf(ref.Name.Name)
	if info == nil {
		c.prefer = ""
		return "", ""
	}
	isTest := false
	for _, s := range info.Sites[ref.Member.Name] {
		isTest = isTest || s.Kind == symTest
	}
	if !isTest {
		c.prefer = ""
		return "", ""
	}
	for _, s := range c.sites(ref, symTest) {
		sc := c.scoped(s.scope, c.procParamsOf(ref))
		c.compile(e.Value, sc, typeInt, "the value test "+ref.String()+" is against")
		if e.When != nil {
			c.compile(e.When, sc, typeBool, "an override's when")
		}
	}
	return ref.String(), "test"
}
