package dsl

import (
	"reflect"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// block checks the statements of a braced block in its own scope.
func (c *checker) block(blk *syntax.Block, sc *scope, b *bodyCtx) {
	for _, st := range blk.Stmts {
		c.stmt(st, sc, b)
	}
	// Unused names are reported at the end: an effect checked later (an
	// `after` hook, a re-roll's condition) may still read them.
	c.scopes = append(c.scopes, sc)
}

// unusedIn warns about lets, rolls, tests and choices nobody reads.
func (c *checker) unusedIn(sc *scope) {
	for _, sym := range sc.order {
		if sym.used || sym.at == nil {
			continue
		}
		switch sym.kind {
		case symLet, symRoll, symTest, symChoose:
			if strings.HasPrefix(sym.name, "_") {
				continue
			}
			d := c.diags.warnf(diag.CodeUnused, identRange(sym.at), "%s %s is never used", sym.kind, sym.name)
			d.Detail = "Remove it, use it, or start its name with _ to say it is deliberate."
		}
	}
}

func (c *checker) declare(sc *scope, name *syntax.Ident, kind symbolKind, t reflect.Type) *symbol {
	if prev := sc.syms[name.Name]; prev != nil && prev.at != nil {
		c.diags.errorf(diag.CodeDuplicateID, identRange(name), "%s is already declared in this block (a %s at %s)",
			name.Name, prev.kind, identRange(prev.at))
	}
	sym := &symbol{name: name.Name, kind: kind, typ: t, at: name}
	sc.define(sym)
	return sym
}

// site records a statement effects may target, with the scope before it.
func (c *checker) site(b *bodyCtx, name string, s *Site, sc *scope) {
	if b.proc == nil {
		return
	}
	s.scope = sc.snapshot()
	b.proc.Sites[name] = append(b.proc.Sites[name], s)
}

// snapshot copies the names visible now, so later statements in the same
// block do not leak into an effect checked against this point.
func (s *scope) snapshot() *scope {
	out := newScope(nil)
	out.slots = s.slots
	var chain []*scope
	for sc := s; sc != nil; sc = sc.parent {
		chain = append(chain, sc)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, sym := range chain[i].order {
			out.syms[sym.name] = sym
		}
	}
	out.order = nil
	return out
}

func (c *checker) stmt(st syntax.Stmt, sc *scope, b *bodyCtx) {
	switch s := st.(type) {
	case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
	case *syntax.Let:
		t := c.compile(s.Value, sc, nil, "")
		if s.Prefer != "" && t != nil && !isNumber(t) {
			c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.Pos, s.EndPos), "let %s is %s: only a number has a highest or lowest to prefer", s.Name.Name, TypeName(t))
		}
		c.site(b, s.Name.Name, &Site{Stmt: s, Kind: symLet, Type: t}, sc)
		c.declare(sc, s.Name, symLet, t)
	case *syntax.Set:
		c.set(s, sc)
	case *syntax.Roll:
		c.roll(s, sc, b)
	case *syntax.TestStmt:
		c.testStmt(s, sc, b)
	case *syntax.Change:
		if _, ok := c.lookup(nsCore, s.Char.Name).(*syntax.Characteristic); !ok {
			c.unknown(identRange(s.Char), "characteristic", s.Char.Name, c.ofKind("characteristic"))
		}
		c.compile(s.Model, sc, typeModel, "the model changed")
		if s.By != nil {
			c.compile(s.By, sc, typeInt, "the amount")
		}
	case *syntax.If:
		for cur := s; cur != nil; cur = cur.ElseIf {
			c.compile(cur.Cond, sc, typeBool, "an if condition")
			c.block(cur.Then, newScope(sc), b)
			if cur.Else != nil {
				c.block(cur.Else, newScope(sc), b)
			}
		}
	case *syntax.ForEach:
		t := c.compile(s.List, sc, nil, "")
		var elem reflect.Type
		if t != nil {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.List.Pos, s.List.EndPos), "for each needs a list, but this is %s", TypeName(t))
			} else {
				elem = t.Elem()
			}
		}
		inner := newScope(sc)
		inner.define(&symbol{name: s.Var.Name, kind: symLoop, typ: elem, at: s.Var, used: true})
		if s.OrderBy != nil {
			c.compile(s.OrderBy, inner, nil, "")
		}
		c.block(s.Body, inner, b)
	case *syntax.While:
		c.compile(s.Cond, sc, typeBool, "a while condition")
		c.block(s.Body, newScope(sc), b)
	case *syntax.Add:
		c.listEdit(s.Item, s.To, sc)
		if s.Until != nil {
			c.period(s.Until.Period)
		}
	case *syntax.Remove:
		c.listEdit(s.Item, s.From, sc)
	case *syntax.Apply:
		c.apply(s, sc)
	case *syntax.Call:
		proc, ok := c.lookup(nsCore, s.Proc.Name).(*syntax.Procedure)
		if !ok {
			c.unknown(identRange(s.Proc), "procedure", s.Proc.Name, c.ofKind("procedure"))
			for _, a := range s.Args {
				c.compile(a.Value, sc, nil, "")
			}
			return
		}
		c.args(s.Args, c.procParams[proc].Params, sc, "procedure "+proc.ID.Name, diag.RangeOf(s.Pos, s.EndPos), false)
	case *syntax.Choose:
		var t reflect.Type
		if s.From != nil {
			lt := c.compile(s.From, sc, nil, "")
			if lt != nil && lt.Kind() != reflect.Slice && lt.Kind() != reflect.Array {
				c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.From.Pos, s.From.EndPos), "choose from needs a list, but this is %s", TypeName(lt))
			} else if lt != nil {
				t = lt.Elem()
			}
			c.compile(s.Default, sc, t, "the default")
		} else if s.Multi != nil {
			t = c.chooseMulti(s, sc)
		} else {
			t = c.compile(s.Default, sc, nil, "")
		}
		if s.Recorded != nil {
			c.compile(s.Recorded, sc, typeString, "a recorded answer's key")
		}
		if s.When != nil {
			c.compile(s.When, sc, typeBool, "a choice's when")
		}
		if s.Key != nil {
			c.compile(s.Key, sc, nil, "")
		}
		c.idx.Choices[s.Name.Name] = true
		c.declare(sc, s.Name, symChoose, t)
	case *syntax.Emit:
		s.Parts = c.parseTemplate(s.Message)
		for _, p := range s.Parts {
			if p.Expr != nil && strings.TrimSpace(p.Expr.Text) != "" {
				c.compile(p.Expr, sc, nil, "")
			}
		}
	case *syntax.Signal:
		ev, ok := c.lookup(nsCore, s.Event.Name).(*syntax.Event)
		if !ok {
			c.unknown(identRange(s.Event), "event", s.Event.Name, c.ofKind("event"))
			return
		}
		c.signalled[ev.ID.Name] = true
		c.args(s.Args, c.eventParams[ev], sc, "event "+ev.ID.Name, diag.RangeOf(s.Pos, s.EndPos), false)
	case *syntax.Stop:
		c.stopTarget(s)
	case *syntax.Perform:
		c.perform(s, sc)
	case *syntax.Step:
		if b.proc != nil {
			if prev, ok := b.steps[s.ID.Name]; ok {
				c.diags.errorf(diag.CodeDuplicateID, identRange(s.ID), "step %s appears twice in %s (first at %s)",
					s.ID.Name, b.owner, identRange(prev.ID))
			}
			b.steps[s.ID.Name] = s
			c.site(b, s.ID.Name, &Site{Stmt: s, Kind: symStep}, sc)
		}
		c.block(s.Body, newScope(sc), b)
	case *syntax.Require:
		c.require(s, sc)
	default:
		c.diags.errorf(diag.CodeInternal, nil, "internal: unhandled statement %T", st)
	}
}

// set checks an assignment: to a let, or to a plain field of the state.
func (c *checker) set(s *syntax.Set, sc *scope) {
	first := s.Target.Parts[0]
	sym := sc.lookup(first.Name)
	if sym == nil {
		c.unknown(identRange(first), "name", first.Name, sc.names())
		c.compile(s.Value, sc, nil, "")
		return
	}
	sym.used = true
	if len(s.Target.Parts) == 1 {
		if sym.kind != symLet {
			c.diags.errorf(diag.CodeNotAssignable, identRange(first), "cannot set %s: it is a %s; only lets and fields of the state can be set", first.Name, sym.kind)
		}
		c.compile(s.Value, sc, sym.typ, "the value of "+first.Name)
		return
	}
	t, ok := c.fieldPath(sym.typ, s.Target.Parts[1:])
	if !ok {
		c.compile(s.Value, sc, nil, "")
		return
	}
	if t != nil && t.Kind() == reflect.Pointer {
		// An optional number takes a number, or nil.
		c.compile(s.Value, sc, nil, "the value of "+s.Target.String())
		return
	}
	c.compile(s.Value, sc, t, "the value of "+s.Target.String())
	if t == typeMarkers {
		c.markerLiterals(s.Value)
	}
}

// fieldPath follows fields through the state types and returns the type of
// the last one, which must be settable.
func (c *checker) fieldPath(t reflect.Type, parts []*syntax.Ident) (reflect.Type, bool) {
	for i, part := range parts {
		if t == nil || t.Kind() == reflect.Interface {
			return nil, true // unknown type: expr will tell at run time
		}
		f, ok := fieldByTag(t, part.Name)
		if !ok {
			c.diags.errorf(diag.CodeUnknownRef, identRange(part), "%s has no field %s", TypeName(t), part.Name).Suggest(part.Name, fieldNames(t))
			return nil, false
		}
		t = f.Type
		if i == len(parts)-1 {
			if !settable(f) {
				c.diags.errorf(diag.CodeNotAssignable, identRange(part), "%s cannot be set by rules", part.Name)
				return nil, false
			}
			return t, true
		}
	}
	return t, true
}

// settable fields hold plain values (numbers, text, flags) or lists (of
// ids, of markers, a model's weapons). Ids, back-pointers, nested records
// and the lists that make up the battle (gangs, models, armour: tagged
// fixed) are not.
func settable(f reflect.StructField) bool {
	if f.Tag.Get("expr") == "id" || f.Tag.Get("munda") == "fixed" {
		return false
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Float64, reflect.Bool, reflect.String, reflect.Slice:
		return true
	case reflect.Pointer: // an optional number (a facing): set, or nil to clear
		switch f.Type.Elem().Kind() {
		case reflect.Int, reflect.Float64:
			return true
		}
	}
	return false
}

// listEdit checks `add ID to PATH` and `remove ID from PATH`.
func (c *checker) listEdit(item *syntax.Ident, path *syntax.Path, sc *scope) {
	first := path.Parts[0]
	sym := sc.lookup(first.Name)
	if sym == nil {
		c.unknown(identRange(first), "name", first.Name, sc.names())
		return
	}
	sym.used = true
	if len(path.Parts) < 2 {
		c.diags.errorf(diag.CodeNotAssignable, diag.RangeOf(path.Pos, path.EndPos), "add and remove work on a list field, such as %s.conditions", first.Name)
		return
	}
	var t reflect.Type = sym.typ
	var field reflect.StructField
	for _, part := range path.Parts[1:] {
		if t == nil || t.Kind() == reflect.Interface {
			return
		}
		f, ok := fieldByTag(t, part.Name)
		if !ok {
			c.diags.errorf(diag.CodeUnknownRef, identRange(part), "%s has no field %s", TypeName(t), part.Name).Suggest(part.Name, fieldNames(t))
			return
		}
		field, t = f, f.Type
	}
	if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.String {
		c.diags.errorf(diag.CodeTypeError, diag.RangeOf(path.Pos, path.EndPos), "%s is %s, not a list of ids", path.String(), TypeName(t))
		return
	}
	switch kind := field.Tag.Get("munda"); kind {
	case "":
	case "row":
		if !c.rowIDs[item.Name] {
			c.unknown(identRange(item), "table row", item.Name, keys(c.rowIDs))
		}
	default:
		if _, ok := c.idx.Features[kind][item.Name]; !ok {
			c.unknown(identRange(item), kind, item.Name, keys(c.idx.Features[kind]))
		}
	}
}

// rollType is the type a roll of dice gives: a number or a face, or a
// list of them for a pool.
func rollType(d *DiceInfo, pool bool) reflect.Type {
	t := typeInt
	if d != nil && d.Symbolic() {
		t = typeString
	}
	if pool {
		return reflect.SliceOf(t)
	}
	return t
}

func (c *checker) roll(s *syntax.Roll, sc *scope, b *bodyCtx) {
	if s.OneOf != nil {
		var elem reflect.Type
		if t := c.compile(s.OneOf, sc, nil, ""); t != nil {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.OneOf.Pos, s.OneOf.EndPos), "roll one of needs a list, but this is %s", TypeName(t))
			} else {
				elem = t.Elem()
			}
		}
		c.site(b, s.Name.Name, &Site{Stmt: s, Kind: symRoll, Type: elem}, sc)
		c.declare(sc, s.Name, symRoll, elem)
		return
	}
	var info *DiceInfo
	if decl, ok := c.lookup(nsCore, s.Dice.Name).(*syntax.Dice); ok {
		info = c.diceInfo(decl, nil)
	} else {
		c.unknown(identRange(s.Dice), "dice", s.Dice.Name, c.ofKind("dice"))
	}
	if s.Count != nil && s.Count.Expr != nil {
		c.compile(s.Count.Expr, sc, typeInt, "the number of dice")
	}
	if s.Mod != nil {
		if info != nil && info.Symbolic() {
			c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.Mod.Pos, s.Mod.EndPos), "dice %s has symbols: its rolls cannot be modified by a number", info.ID)
		}
		if s.Count != nil {
			c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.Mod.Pos, s.Mod.EndPos), "a pool of dice cannot take a modifier; modify each die, or declare a sum dice")
		}
		c.compile(s.Mod, sc, typeInt, "a roll's modifier")
	}
	t := rollType(info, s.Count != nil)
	c.site(b, s.Name.Name, &Site{Stmt: s, Kind: symRoll, Type: t, Dice: info}, sc)
	c.declare(sc, s.Name, symRoll, t)
}

func (c *checker) testStmt(s *syntax.TestStmt, sc *scope, b *bodyCtx) {
	ch, ok := c.lookup(nsCore, s.Char.Name).(*syntax.Characteristic)
	if !ok {
		c.unknown(identRange(s.Char), "characteristic", s.Char.Name, c.ofKind("characteristic"))
	} else {
		if info := c.idx.Characteristics[ch.ID.Name]; info != nil && info.Dice == nil {
			c.diags.errorf(diag.CodeCharDefinition, identRange(s.Char), "%s is never tested: its declaration has no check line", ch.ID.Name)
		}
	}
	c.compile(s.Model, sc, typeModel, "the model tested")
	if s.Mod != nil {
		c.compile(s.Mod, sc, typeInt, "a test's modifier")
	}
	c.site(b, s.Name.Name, &Site{Stmt: s, Kind: symTest, Type: typeBool}, sc)
	c.declare(sc, s.Name, symTest, typeBool)
}

// args checks call arguments against parameters: positional first, then
// named, each parameter exactly once. ids allows strings for gangs,
// models and weapons (test runs name them by id).
func (c *checker) args(args []*syntax.Arg, params []ParamInfo, sc *scope, callee string, at *diag.Range, ids bool) {
	given := map[string]bool{}
	named := false
	for i, a := range args {
		var p *ParamInfo
		if a.Name != nil {
			named = true
			for j := range params {
				if params[j].Name == a.Name.Name {
					p = &params[j]
				}
			}
			if p == nil {
				var names []string
				for _, q := range params {
					names = append(names, q.Name)
				}
				c.unknown(identRange(a.Name), "parameter of "+callee+":", a.Name.Name, names)
				c.compile(a.Value, sc, nil, "")
				continue
			}
		} else {
			if named {
				c.diags.errorf(diag.CodeArgument, diag.RangeOf(a.Pos, a.EndPos), "a positional argument cannot follow a named one")
			}
			if i >= len(params) {
				c.diags.errorf(diag.CodeArgument, diag.RangeOf(a.Pos, a.EndPos), "too many arguments to %s (it takes %d)", callee, len(params))
				c.compile(a.Value, sc, nil, "")
				continue
			}
			p = &params[i]
		}
		if given[p.Name] {
			c.diags.errorf(diag.CodeArgument, diag.RangeOf(a.Pos, a.EndPos), "%s is given twice", p.Name)
		}
		given[p.Name] = true
		want := p.Type
		if ids && (want == typeGang || want == typeModel || want == typeWeapon) {
			t := c.compile(a.Value, sc, nil, "")
			if t != nil && t != want && t != typeString {
				c.diags.errorf(diag.CodeTypeError, diag.RangeOf(a.Value.Pos, a.Value.EndPos), "%s must be %s (or its id), but this is %s", p.Name, TypeName(want), TypeName(t))
			}
			continue
		}
		c.compile(a.Value, sc, want, p.Name)
	}
	var missing []string
	for _, p := range params {
		if !given[p.Name] && p.Default == nil {
			missing = append(missing, p.Name)
		}
	}
	if len(missing) > 0 {
		c.diags.errorf(diag.CodeArgument, at, "%s needs %s", callee, quoteList(missing))
	}
}

func (c *checker) apply(s *syntax.Apply, sc *scope) {
	t, ok := c.lookup(nsCore, s.Table.Name).(*syntax.Table)
	if !ok {
		c.unknown(identRange(s.Table), "table", s.Table.Name, c.ofKind("table"))
		return
	}
	info := c.tableInfo[t]
	if info == nil {
		return
	}
	c.args(s.Args, info.Params, sc, "table "+t.ID.Name, diag.RangeOf(s.Pos, s.EndPos), false)
	if info.Kind == ConditionTable || info.Lookup {
		c.diags.errorf(diag.CodeWrongKind, identRange(s.Table), "table %s gives a value: call it as %s(…) in an expression instead of applying it", t.ID.Name, t.ID.Name)
		return
	}
	if s.Using != nil {
		var want reflect.Type = typeInt
		if (info.Dice != nil && info.Dice.Symbolic()) || info.Kind == ChoiceTable {
			// A face, or the id of the row a player would have chosen.
			want = typeString
		}
		c.compile(s.Using, sc, want, "the result to apply")
	}
	check := func(id *syntax.Ident) {
		if info.row(id.Name) == nil {
			c.unknown(identRange(id), "row of table "+t.ID.Name+":", id.Name, info.rowIDs())
		}
	}
	if s.Row != nil {
		check(s.Row)
	}
	for _, id := range s.Reroll {
		check(id)
	}
	if len(s.Reroll) > 0 && info.Kind == ChoiceTable {
		c.diags.errorf(diag.CodeWrongKind, identRange(s.Reroll[0]), "a player chooses the row of table %s: there is no roll to make again", t.ID.Name)
	}
}

// ---------------------------------------------------------------------------
// Events and callables (functions and lookup tables).

// require checks a require statement or table item: a bool condition and a
// message template.
func (c *checker) require(s *syntax.Require, sc *scope) {
	c.compile(s.Cond, sc, typeBool, "a require condition")
	s.Parts = c.parseTemplate(s.Message)
	for _, p := range s.Parts {
		if p.Expr != nil && strings.TrimSpace(p.Expr.Text) != "" {
			c.compile(p.Expr, sc, nil, "")
		}
	}
}
