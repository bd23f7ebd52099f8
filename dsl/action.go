package dsl

// This file checks actions declared with parameters (`action shoot(fighter:
// model) "Shoot" { available when … body { … } }`), the `perform`
// statement, `stop ID`, periods (`event … ends round`) and the durations
// that name them (`until end of round`, `once per round`).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// ActionInfo is a checked action declared with parameters: what `perform`,
// `available_actions` and `munda run ACTION` run.
type ActionInfo struct {
	Feature   *syntax.Feature
	ID        string
	Title     string
	Params    []ParamInfo
	Available *syntax.Expr // nil: always available
	// Unavailable is the `available when … else "…"` message, if any.
	Unavailable *syntax.Available
	Body        *syntax.Block // nil: performing it does nothing but log
	// Proc is the action's body as a procedure is checked: its sites
	// (rolls, tests, lets, steps) are what effects on ACTION.NAME reach,
	// and before/after/instead_of ACTION hook it.
	Proc  *ProcInfo
	scope *scope
	// available and defaults are Available and the parameters' defaults
	// compiled to slots (the globals, then the parameters), set once the
	// availability is checked: the menu asks them at every action.
	available *slotExpr
	defaults  []*slotExpr
}

// Procedure is the action as a procedure, for what runs it (the CLI's
// argument binding, a run's narration).
func (a *ActionInfo) Procedure() *ProcInfo {
	return &ProcInfo{ID: a.ID, Title: a.Title, Params: a.Params}
}

// prepareActions collects periods and the parameters of actions.
func (c *checker) prepareActions() {
	for _, id := range keys(c.idx.Events) {
		ev := c.idx.Events[id]
		if ev.Ends != nil {
			c.idx.Periods[ev.Ends.Name] = append(c.idx.Periods[ev.Ends.Name], ev)
		}
	}
	for _, d := range c.all {
		f, ok := d.(*syntax.Feature)
		if !ok {
			continue
		}
		if f.Kind != "action" {
			if f.Params != nil {
				c.diags.errorf(diag.CodePropertyError, identRange(f.ID), "only actions have parameters, not a %s", f.Kind)
			}
			for _, it := range f.Items {
				switch it := it.(type) {
				case *syntax.Available:
					c.diags.errorf(diag.CodePropertyError, diag.RangeOf(it.Pos, it.EndPos), "only actions have `available when`, not a %s", f.Kind)
				case *syntax.ActionBody:
					c.diags.errorf(diag.CodePropertyError, diag.RangeOf(it.Pos, it.Body.Pos), "only actions have a body, not a %s", f.Kind)
				}
			}
			continue
		}
		info := &ActionInfo{Feature: f, ID: f.ID.Name, Title: f.Title.Value()}
		info.scope = newScope(c.globals)
		info.Params = c.params(f.Params, info.scope)
		info.Proc = &ProcInfo{ID: info.ID, Title: info.Title, Meta: syntax.MetaOf(f.Items), Params: info.Params,
			Sites: map[string][]*Site{}, scope: info.scope}
		seenAvail, seenBody := false, false
		for _, it := range f.Items {
			switch it := it.(type) {
			case *syntax.Available:
				if seenAvail {
					c.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(it.Pos, it.EndPos), "action %s says `available when` twice", f.ID.Name)
				}
				seenAvail, info.Available = true, it.When
				if it.Message != nil {
					info.Unavailable = it
				}
			case *syntax.ActionBody:
				if seenBody {
					c.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(it.Pos, it.Body.Pos), "action %s has two bodies", f.ID.Name)
				}
				seenBody, info.Body = true, it.Body
			}
		}
		if c.lookup("action", f.ID.Name) == f {
			c.idx.Actions[f.ID.Name] = info
		}
		c.actionInfo[f] = info
	}
}

// menu lists, sorted by id, the actions a model may be offered: those
// whose first parameter is a model.
func (c *checker) menu() {
	c.idx.Menu = nil
	for _, id := range keys(c.idx.Actions) {
		if a := c.idx.Actions[id]; len(a.Params) > 0 && a.Params[0].Type == typeModel {
			c.idx.Menu = append(c.idx.Menu, a)
		}
	}
	sort.Slice(c.idx.Menu, func(i, j int) bool { return c.idx.Menu[i].ID < c.idx.Menu[j].ID })
}

// checkActionBodies checks each action's availability and body.
func (c *checker) checkActionBodies() {
	c.menu()
	for _, d := range c.all {
		f, ok := d.(*syntax.Feature)
		if !ok || c.actionInfo[f] == nil {
			continue
		}
		info := c.actionInfo[f]
		if info.Available != nil {
			c.compile(info.Available, info.scope, typeBool, "an action's availability")
			names := slotLayout(info.Params)
			info.available = c.newSlotExpr(info.Available, names)
			info.defaults = make([]*slotExpr, len(info.Params))
			for i, p := range info.Params {
				if p.Default != nil {
					info.defaults[i] = c.newSlotExpr(p.Default, names)
				}
			}
			if u := info.Unavailable; u != nil {
				u.Parts = c.parseTemplate(u.Message)
				for _, p := range u.Parts {
					if p.Expr != nil && strings.TrimSpace(p.Expr.Text) != "" {
						c.compile(p.Expr, info.scope, nil, "")
					}
				}
			}
		}
		if info.Body != nil {
			top := newScope(info.scope)
			c.block(info.Body, top, &bodyCtx{owner: "action " + info.ID, proc: info.Proc, steps: map[string]*syntax.Step{}})
			info.Proc.endScope = top.snapshot()
		}
	}
	c.idx.menuPlan = c.newMenuPlan()
}

// perform checks a perform statement.
func (c *checker) perform(s *syntax.Perform, sc *scope) {
	if s.Dynamic != nil {
		c.compile(s.Dynamic, sc, typeString, "the action to perform")
		for _, a := range s.Args {
			c.compile(a.Value, sc, nil, "")
		}
		return
	}
	info := c.idx.Actions[s.Action.Name]
	if info == nil {
		c.unknown(identRange(s.Action), "action", s.Action.Name, keys(c.idx.Actions))
		for _, a := range s.Args {
			c.compile(a.Value, sc, nil, "")
		}
		return
	}
	c.args(s.Args, info.Params, sc, "action "+info.ID, diag.RangeOf(s.Pos, s.EndPos), false)
}

// stopTarget checks that `stop ID` names a procedure, table or action.
func (c *checker) stopTarget(s *syntax.Stop) {
	if s.Target == nil {
		return
	}
	id := &s.Target.Ident
	switch c.lookup(nsCore, id.Name).(type) {
	case *syntax.Procedure, *syntax.Table:
		return
	}
	if c.idx.Actions[id.Name] != nil {
		return
	}
	names := append(c.ofKind("procedure"), c.ofKind("table")...)
	names = append(names, keys(c.idx.Actions)...)
	c.unknown(identRange(id), "procedure, table or action", id.Name, names)
}

// period checks that a period is declared by some event's `ends`.
func (c *checker) period(id *syntax.Ident) {
	if id == nil || len(c.idx.Periods[id.Name]) > 0 {
		return
	}
	d := c.unknown(identRange(id), "period", id.Name, keys(c.idx.Periods))
	if len(c.idx.Periods) == 0 {
		d.Detail = "A period is declared by an event that ends it: `event round_ended() \"The round ends\" ends round`."
	}
}

// oncePer checks an effect's `once per PERIOD`.
func (c *checker) oncePer(item syntax.FeatureItem) {
	if o := OnceOf(item); o != nil {
		c.period(o.Period)
	}
}

// OnceOf is an effect's `once per`, nil when it has none.
func OnceOf(item syntax.FeatureItem) *syntax.OncePer {
	switch e := item.(type) {
	case *syntax.Modify:
		return e.Once
	case *syntax.Reroll:
		return e.Once
	case *syntax.ExtraDice:
		return e.Once
	case *syntax.Override:
		return e.Once
	case *syntax.Hook:
		return e.Once
	case *syntax.On:
		return e.Once
	}
	return nil
}

// actionFunctions give expressions `available_actions(m)`.
func (c *checker) actionFunctions() []expr.Option {
	c.statePatch.Names["available_actions"] = true
	return []expr.Option{expr.Function("available_actions", func(args ...any) (any, error) {
		st, _ := args[0].(*state.State)
		m, _ := args[1].(*state.Model)
		return c.idx.AvailableActions(st, m)
	}, new(func(*state.State, *state.Model) []string))}
}

// AvailableActions lists the ids of the actions available to m, sorted by
// id: every action declared with parameters whose first is a model, whose
// `available when` holds with m as that parameter and the others at their
// defaults (nil where they have none).
func (idx *Index) AvailableActions(st *state.State, m *state.Model) ([]string, error) {
	// Collected on the stack, then copied once at their number: appending
	// to an empty list grew it four times a menu.
	var found [32]string
	out := found[:0]
	// One set of slots for the whole menu, its globals filled once: a menu
	// is asked at every action of every activation.
	p := getSlots(firstParamSlot + idx.menuParams())
	defer putSlots(p)
	vals := *p
	fillGlobals(vals, st)
	plan := idx.menuPlan
	if vmOnly.Load() {
		plan = nil
	}
	// The answers of the shared conjuncts (menuplan.go): 0 not asked yet,
	// 1 true, 2 false.
	var local [64]uint8
	var answers []uint8
	if plan != nil {
		if plan.shared <= len(local) {
			answers = local[:plan.shared]
		} else {
			answers = make([]uint8, plan.shared)
		}
	}
	for i, a := range idx.Menu {
		var ok bool
		var err error
		if plan != nil && i < len(plan.chains) && plan.chains[i].action == a {
			ok, err = a.availableChain(vals, m, plan.chains[i], answers)
		} else {
			ok, err = a.availableIn(vals, m, nil)
		}
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, a.ID)
		}
	}
	return append([]string{}, out...), nil
}

// availableChain is availableIn for the menu, its condition asked as a
// chain of conjuncts whose shared answers are kept in answers.
func (a *ActionInfo) availableChain(vals []any, m any, chain menuChain, answers []uint8) (bool, error) {
	bound := !chain.literalDefaults
	if bound {
		var err error
		if vals, err = a.bindParams(vals, m, nil); err != nil {
			return false, err
		}
	} else {
		// The model only, for the shared conjuncts; the rest when a
		// conjunct of the action's own needs them.
		vals = vals[:firstParamSlot+len(a.Params)]
		vals[firstParamSlot] = m
	}
	bind := func() (err error) {
		if !bound {
			vals, err = a.bindParams(vals, m, nil)
			bound = true
		}
		return err
	}
	for _, cj := range chain.conjuncts {
		if cj.shared >= 0 {
			switch answers[cj.shared] {
			case 1:
				continue
			case 2:
				return false, nil
			}
		} else if err := bind(); err != nil {
			return false, err
		}
		v, err := cj.fast(nil, vals)
		b, isBool := v.(bool)
		if err != nil || !isBool {
			// The whole condition, which says why (or, where only the
			// closures failed, what the VM makes of it).
			if err := bind(); err != nil {
				return false, err
			}
			return a.evalAvailable(vals)
		}
		if cj.shared >= 0 {
			answers[cj.shared] = 2
			if b {
				answers[cj.shared] = 1
			}
		}
		if !b {
			return false, nil
		}
	}
	return true, nil
}

// menuParams is the most parameters of an action on the menu.
func (idx *Index) menuParams() int {
	n := 0
	for _, a := range idx.Menu {
		n = max(n, len(a.Params))
	}
	return n
}

// AvailableTo evaluates the action's `available when` with these
// arguments, the others taking their defaults.
func (a *ActionInfo) AvailableTo(st *state.State, args map[string]any) (bool, error) {
	if a.Available == nil {
		return true, nil
	}
	p := getSlots(firstParamSlot + len(a.Params))
	defer putSlots(p)
	vals := *p
	fillGlobals(vals, st)
	return a.availableIn(vals, nil, args)
}

// availableIn evaluates the availability with the globals in vals. The
// parameters are first (the model asked about) and args by name, the
// others their defaults; defaults see only the state, so each is
// evaluated before any parameter is in its slot.
func (a *ActionInfo) availableIn(vals []any, first any, args map[string]any) (bool, error) {
	if a.Available == nil {
		return true, nil
	}
	if a.available == nil {
		return false, fmt.Errorf("action %s: its availability was not compiled (the rules have errors)", a.ID)
	}
	vals, err := a.bindParams(vals, first, args)
	if err != nil {
		return false, err
	}
	return a.evalAvailable(vals)
}

// bindParams puts the parameters in their slots after the globals in
// vals: first (the model asked about) and args by name, the others their
// defaults.
func (a *ActionInfo) bindParams(vals []any, first any, args map[string]any) ([]any, error) {
	vals = vals[:firstParamSlot+len(a.Params)]
	clear(vals[firstParamSlot:])
	// The values are held apart until all are known: a default must not
	// see a parameter already bound.
	var local [8]any
	values := local[:0]
	for i, p := range a.Params {
		var v any
		var ok bool
		if args != nil {
			v, ok = args[p.Name]
		} else if i == 0 {
			v, ok = first, true
		}
		if !ok && a.defaults[i] != nil {
			var err error
			if v, err = a.defaults[i].eval(vals); err != nil {
				return nil, fmt.Errorf("action %s: the default of %s: %w", a.ID, p.Name, err)
			}
		}
		values = append(values, v)
	}
	copy(vals[firstParamSlot:], values)
	return vals, nil
}

// evalAvailable evaluates the whole condition with the parameters bound.
func (a *ActionInfo) evalAvailable(vals []any) (bool, error) {
	v, err := a.available.eval(vals)
	if err != nil {
		return false, fmt.Errorf("action %s: its availability: %w", a.ID, err)
	}
	b, _ := v.(bool)
	return b, nil
}

// procOf finds what effects on NAME.x and hooks on NAME reach: the
// procedure NAME, or else the action NAME if it has a body (nil if
// neither).
func (c *checker) procOf(name string) *ProcInfo {
	if p, ok := c.lookup(nsCore, name).(*syntax.Procedure); ok {
		return c.idx.Procedures[p.ID.Name]
	}
	if a := c.idx.Actions[name]; a != nil && a.Body != nil {
		return a.Proc
	}
	return nil
}

// procedureNames lists what effects may name as a procedure: procedures,
// and actions with a body.
func (c *checker) procedureNames() []string {
	names := c.ofKind("procedure")
	for _, id := range keys(c.idx.Actions) {
		if c.idx.Actions[id].Body != nil {
			names = append(names, id)
		}
	}
	return names
}
