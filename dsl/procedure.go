package dsl

// This file checks procedure declarations: parameters, defaults and bodies.

import (
	"reflect"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// ParamInfo is a checked parameter.
type ParamInfo struct {
	Name    string
	Type    reflect.Type
	Default *syntax.Expr // nil: the parameter must be given
}

// ProcInfo is a checked procedure.
type ProcInfo struct {
	Decl   *syntax.Procedure
	ID     string
	Title  string
	Meta   syntax.Meta
	Params []ParamInfo
	// Sites are the rolls, tests, lets and steps that effects may target,
	// by name, with what was in scope there.
	Sites    map[string][]*Site
	scope    *scope // the parameters
	endScope *scope // everything at the end of the body, for `after` hooks
}

// Site is one statement an effect can target.
type Site struct {
	Stmt  syntax.Stmt
	Kind  symbolKind // roll, test, let, or "step"
	Type  reflect.Type
	Dice  *DiceInfo // rolls
	scope *scope
}

const symStep symbolKind = "step"

// body carries what statements need to know about where they are.
type bodyCtx struct {
	owner string    // for messages: "procedure bottle_check"
	proc  *ProcInfo // nil outside procedures
	steps map[string]*syntax.Step
}

func (c *checker) params(ps []*syntax.Param, sc *scope) []ParamInfo {
	var out []ParamInfo
	for _, p := range ps {
		t, ok := ParamTypes[p.TypeName()]
		if !ok {
			at := p.Name
			if p.Type != nil {
				at = p.Type
			}
			d := c.unknown(identRange(at), "type", p.TypeName(), keys(ParamTypes))
			if p.Type == nil {
				d.Detail = strings.TrimSpace(d.Detail + " A parameter without a type must be named after one (gang, model, weapon); otherwise write `name: type`.")
			}
			t = typeAny
		}
		if prev := sc.syms[p.Name.Name]; prev != nil {
			c.diags.errorf(diag.CodeDuplicateID, identRange(p.Name), "parameter %s is declared twice", p.Name.Name)
			continue
		}
		if p.Default != nil {
			// A default sees only the state, not the other parameters. It
			// is compiled once every function is known.
			c.defaults = append(c.defaults, pendingDefault{p, t})
		}
		sc.define(&symbol{name: p.Name.Name, kind: symParam, typ: t, at: p.Name, used: true})
		out = append(out, ParamInfo{Name: p.Name.Name, Type: t, Default: p.Default})
	}
	return out
}

func (c *checker) prepareProcedures() {
	for _, d := range c.all {
		p, ok := d.(*syntax.Procedure)
		if !ok {
			continue
		}
		info := &ProcInfo{Decl: p, ID: p.ID.Name, Title: p.Title.Value(), Meta: syntax.MetaOf(p.Body.Stmts),
			Sites: map[string][]*Site{}}
		info.scope = newScope(c.globals)
		info.Params = c.params(p.Params, info.scope)
		c.procParams[p] = info
		if c.lookup(nsCore, p.ID.Name) == p {
			c.idx.Procedures[p.ID.Name] = info
		}
	}
}

// pendingDefault is a parameter's default, waiting to be compiled.
type pendingDefault struct {
	param *syntax.Param
	typ   reflect.Type
}

func (c *checker) checkDefaults() {
	for _, d := range c.defaults {
		c.compile(d.param.Default, c.globals, d.typ, "the default of "+d.param.Name.Name)
	}
}

func (c *checker) checkProcedureBodies() {
	for _, d := range c.all {
		p, ok := d.(*syntax.Procedure)
		if !ok {
			continue
		}
		info := c.procParams[p]
		if p.When != nil {
			c.compile(p.When, info.scope, typeBool, "a procedure's when")
		}
		b := &bodyCtx{owner: "procedure " + p.ID.Name, proc: info, steps: map[string]*syntax.Step{}}
		top := newScope(info.scope)
		c.block(p.Body, top, b)
		info.endScope = top.snapshot()
	}
}
