package dsl

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// EffectInfo is one effect in force: what it changes, and whose it is.
type EffectInfo struct {
	Item  syntax.FeatureItem // *Modify, *Reroll, *ExtraDice, *Override, *Hook or *On
	Owner string             // "skill iron_will", "house rule aa.reinforcements_count"
	Rule  string             // the house rule id, for house rules
	// Feature is the skill, trait, power, action or condition it belongs
	// to (nil for house rules).
	Feature *syntax.Feature
	// Standing is the standing rule (a `rule` of a ruleset or mod) it
	// belongs to, nil otherwise.
	Standing *syntax.HouseRule
	// Target is what it acts on: a procedure's roll, test or let
	// ("bottle_check.check"), a procedure or one of its steps, a table
	// (its roll), a characteristic (every test of it), or an event.
	Target     string
	TargetKind string // roll, test, let, step, procedure, table, characteristic, event
	// Layer is the layer of the pack it comes from (LayerBase, …): an
	// override or instead_of of a higher layer wins over a lower one's.
	Layer int
	// Role is the name, in the target's scope, of the model or weapon
	// that must hold the feature for the effect to apply ("" for effects
	// that are not scoped: actions', standing and house rules'; RoleAny
	// for `as any`). HolderKind is "model" or "weapon" when scoped.
	Role, HolderKind string
	// Priority ranks effects of one target that cannot all apply (`priority N`).
	Priority int
	// Prefer is the `prefer highest|lowest` of the let an override targets.
	Prefer string
}

// checkEffects resolves every effect's target, checks its expressions in
// the scope found there, and reports switched-on effects that conflict.
func (c *checker) checkEffects() {
	type owned struct {
		item     syntax.FeatureItem
		owner    string
		rule     string
		feature  *syntax.Feature
		standing *syntax.HouseRule
		layer    int
	}
	var all []owned
	for _, d := range c.all {
		if f, ok := d.(*syntax.Feature); ok {
			for _, it := range f.Items {
				all = append(all, owned{it, f.Kind + " " + f.ID.Name, "", f, nil, c.layerOf(d)})
			}
		}
	}
	for _, d := range c.all {
		if r, ok := d.(*syntax.HouseRule); ok {
			for _, it := range r.Items {
				all = append(all, owned{it, "rule " + r.ID.Name, "", nil, r, c.layerOf(d)})
			}
		}
	}
	for _, rid := range keys(c.idx.HouseRules) {
		r := c.idx.HouseRules[rid]
		for _, it := range r.Items {
			all = append(all, owned{it, "house rule " + rid, rid, nil, nil, c.layerOf(r)})
		}
	}
	// "override P.x" / "instead_of P", and the layer → the first owner.
	exclusive := map[string]owned{}
	var features []*EffectInfo
	for _, o := range all {
		c.eff = &effectCtx{feature: o.feature, item: o.item}
		c.prefer = ""
		target, kind := c.effect(o.item)
		role, prefer := c.eff.role, c.prefer
		c.eff = nil
		if target == "" {
			target, kind = c.grantEffect(o.item, o.feature)
		}
		if target == "" {
			continue
		}
		if o.rule != "" && !c.rules.Active[o.rule] {
			continue
		}
		info := &EffectInfo{Item: o.item, Owner: o.owner, Rule: o.rule,
			Feature: o.feature, Standing: o.standing, Target: target, TargetKind: kind, Layer: o.layer,
			Role: role, Priority: syntax.EffectPriority(o.item).Value(), Prefer: prefer}
		if role != "" {
			info.HolderKind = TypeName(HolderType(o.feature.Kind))
		}
		c.idx.Effects = append(c.idx.Effects, info)
		var key string
		switch it := o.item.(type) {
		case *syntax.Override:
			key = "override " + target
		case *syntax.Hook:
			if it.Timing == "instead_of" {
				key = "instead_of " + target
			}
		}
		if o.feature != nil {
			features = append(features, info)
		}
		// Rules of one layer must not give two answers to one question:
		// two house rules, two mods, or two standing rules of a ruleset
		// overriding the same let differently are an error. A higher layer
		// may change what a lower one says (a house rule overrides a
		// ruleset's own rule), and identical changes agree. Skills, traits
		// and the other features override the same let under their own
		// conditions (Gas and Phase both take saves away): the first in
		// force applies.
		if key == "" || o.feature != nil {
			continue
		}
		key += fmt.Sprintf(" @%d", o.layer)
		if prev, ok := exclusive[key]; ok && prev.owner != o.owner {
			if c.sameChange(prev.item, o.item) {
				continue
			}
			c.conflict(c.itemRange(o.item), prev.owner, o.owner, "both "+strings.SplitN(key, " @", 2)[0])
			continue
		}
		exclusive[key] = o
	}
	c.checkCombining(features)
}

func (c *checker) itemRange(it syntax.FeatureItem) *diag.Range {
	switch it := it.(type) {
	case *syntax.Modify:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Reroll:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.ExtraDice:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Override:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Grant:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Prevent:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Hook:
		return diag.RangeOf(it.Pos, it.Target.EndPos)
	case *syntax.On:
		return diag.RangeOf(it.Pos, it.Event.EndPos)
	}
	return nil
}

// effect checks one effect and returns its target, or "" if it is not an
// effect (or its target is unknown).
func (c *checker) effect(item syntax.FeatureItem) (string, string) {
	c.oncePer(item)
	switch e := item.(type) {
	case *syntax.Modify:
		if c.isValueTarget(e.Target) {
			return c.valueEffect(e.Target, func(sc *scope) {
				c.compile(e.By, sc, typeInt, "a modifier")
				c.compile(e.When, sc, typeBool, "a modifier's when")
				c.selfStat(e.By, e.Target.Name.Name, e.Target.Member.Name)
				c.selfStat(e.When, e.Target.Name.Name, e.Target.Member.Name)
			})
		}
		return c.rollEffect(e.Target, false, func(sc *scope, s *Site) {
			c.poolModify(e, s)
			want := typeInt
			if s != nil && s.Kind == symLet && isListType(s.Type) {
				// A list let: each modifier is a list, added to its end.
				want = s.Type
			}
			c.compile(e.By, sc, want, "a modifier")
			if e.When != nil {
				c.compile(e.When, sc, typeBool, "a modifier's when")
			}
		})
	case *syntax.Reroll:
		if e.Target.Member == nil && e.Target.Name.Name == AnyRoll {
			return c.anyReroll(e)
		}
		return c.rollEffect(e.Target, true, func(sc *scope, s *Site) {
			c.poolReroll(e, sc, s)
			if e.When != nil {
				c.compile(e.When, sc, typeBool, "a re-roll's when")
			}
		})
	case *syntax.ExtraDice:
		if e.Pick == "choice" {
			// The player picks which die to keep: a choice named after the roll.
			name := e.Target.Name.Name
			if e.Target.Member != nil {
				name = e.Target.Member.Name
			}
			c.idx.Choices[name+"_pick"] = true
		}
		if n := e.Count.Value(); n < 1 || n > 10 {
			c.diags.errorf(diag.CodeOutOfRange, diag.RangeOf(e.Count.Pos, e.Count.EndPos), "extra_dice adds 1 to 10 dice, not %d", n)
		}
		return c.rollEffect(e.Target, false, func(sc *scope, s *Site) {
			c.poolExtraDice(e, s)
			if e.When != nil {
				c.compile(e.When, sc, typeBool, "extra dice's when")
			}
		})
	case *syntax.Override:
		if c.isValueTarget(e.Target) {
			return c.valueEffect(e.Target, func(sc *scope) {
				c.compile(e.Value, sc, typeInt, "the new value of "+e.Target.String())
				c.compile(e.When, sc, typeBool, "an override's when")
				c.selfStat(e.Value, e.Target.Name.Name, e.Target.Member.Name)
				c.selfStat(e.When, e.Target.Name.Name, e.Target.Member.Name)
			})
		}
		if target, kind := c.testValueOverride(e); target != "" {
			return target, kind
		}
		sites := c.sites(e.Target, symLet)
		for _, s := range sites {
			sc := c.scoped(s.scope, c.procParamsOf(e.Target))
			c.compile(e.Value, sc, s.Type, "the new value of "+e.Target.String())
			if e.When != nil {
				c.compile(e.When, sc, typeBool, "an override's when")
			}
			if l, ok := s.Stmt.(*syntax.Let); ok && l.Prefer != "" {
				c.prefer = l.Prefer
			}
		}
		if len(sites) == 0 {
			return "", ""
		}
		return e.Target.String(), "let"
	case *syntax.Hook:
		sc, kind := c.hookScope(e.Target, e.Timing)
		if sc == nil {
			return "", ""
		}
		if kind == "characteristic" {
			sc = c.scoped(sc, modelParam)
		} else {
			sc = c.scoped(sc, c.procParamsOf(e.Target))
		}
		if e.When != nil {
			c.compile(e.When, sc, typeBool, "a hook's when")
		}
		c.block(e.Body, newScope(sc), &bodyCtx{owner: e.Timing + " " + e.Target.String()})
		return e.Target.String(), kind
	case *syntax.On:
		ev, ok := c.lookup(nsCore, e.Event.Name).(*syntax.Event)
		if !ok {
			c.unknown(identRange(e.Event), "event", e.Event.Name, c.ofKind("event"))
			return "", ""
		}
		sc := newScope(c.globals)
		c.params(ev.Params, sc)
		sc = c.scoped(sc, c.eventParams[ev])
		if e.When != nil {
			c.compile(e.When, sc, typeBool, "an event handler's when")
		}
		c.block(e.Body, newScope(sc), &bodyCtx{owner: "on " + ev.ID.Name})
		return ev.ID.Name, "event"
	}
	return "", ""
}

// rollEffect resolves the target of modify, reroll and extra_dice: a roll
// or test of a procedure (P.name), a table's roll (T), or every test of a
// characteristic (C). check runs for each place with the scope there;
// withResult makes the roll's own result visible (a re-roll decides after
// seeing it). check's site is nil for a table or a characteristic.
func (c *checker) rollEffect(ref *syntax.Ref, withResult bool, check func(sc *scope, s *Site)) (string, string) {
	if ref.Member == nil {
		switch d := c.lookup(nsCore, ref.Name.Name).(type) {
		case *syntax.Table:
			info := c.tableInfo[d]
			if info == nil {
				return "", ""
			}
			if info.Kind != DiceTable {
				c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "table %s is not rolled on, so it has no roll to change", d.ID.Name)
				return "", ""
			}
			check(c.scoped(info.RollScope, info.Params), nil)
			return ref.Name.Name, "table"
		case *syntax.Characteristic:
			sc := newScope(c.globals)
			sc.define(&symbol{name: "model", kind: symParam, typ: typeModel, used: true})
			if withResult {
				sc.define(&symbol{name: "passed", kind: symTest, typ: typeBool, used: true})
			}
			check(c.scoped(sc, modelParam), nil)
			return ref.Name.Name, "characteristic"
		case nil:
			if ref.Name.Name == AnyRoll {
				c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "only a re-roll acts on any roll (`reroll any … once per PERIOD`); a modifier or extra dice name their roll: procedure.roll, a table, or a characteristic")
				return "", ""
			}
			var cands []string
			cands = append(cands, c.ofKind("table")...)
			cands = append(cands, c.ofKind("characteristic")...)
			cands = append(cands, c.ofKind("procedure")...)
			c.unknown(identRange(ref.Name), "roll", ref.Name.Name, cands)
			return "", ""
		default:
			c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "%s is a %s; name a roll as procedure.roll, a table, or a characteristic", ref.Name.Name, syntax.KindOf(d))
			return "", ""
		}
	}
	kinds := []symbolKind{symRoll, symTest}
	if !withResult {
		// modify and extra_dice also reach a procedure's numeric lets:
		// "one extra Injury dice" is a modifier of how many are rolled.
		kinds = append(kinds, symLet)
	}
	sites := c.sites(ref, kinds...)
	for _, s := range sites {
		if s.Kind == symLet && s.Type != nil && s.Type != typeInt && !isListType(s.Type) {
			c.diags.errorf(diag.CodeTypeError, identRange(ref.Member), "%s in procedure %s is %s; only a number or a list can be modified", ref.Member.Name, ref.Name.Name, TypeName(s.Type))
		}
		sc := s.scope
		if withResult {
			sc = newScope(sc)
			sc.define(&symbol{name: ref.Member.Name, kind: s.Kind, typ: s.Type, used: true})
		}
		check(c.scoped(sc, c.procParamsOf(ref)), s)
	}
	if len(sites) == 0 {
		return "", ""
	}
	return ref.String(), string(sites[0].Kind)
}

// isListType reports whether t is a list: a let a modifier adds to the
// end of.
func isListType(t reflect.Type) bool {
	return t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array)
}

// sites finds the statements named by P.name of the wanted kinds.
func (c *checker) sites(ref *syntax.Ref, kinds ...symbolKind) []*Site {
	info := c.procOf(ref.Name.Name)
	if info == nil {
		c.unknown(identRange(ref.Name), "procedure or action", ref.Name.Name, c.procedureNames())
		return nil
	}
	if ref.Member == nil {
		c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Name), "name the %s of procedure %s: %s.NAME", kinds[0], info.ID, info.ID)
		return nil
	}
	var out, wrongKind []*Site
	var cands []string
	for name, ss := range info.Sites {
		for _, s := range ss {
			match := false
			for _, k := range kinds {
				match = match || s.Kind == k
			}
			if match {
				cands = append(cands, name)
				if name == ref.Member.Name {
					out = append(out, s)
				}
			} else if name == ref.Member.Name {
				wrongKind = append(wrongKind, s)
			}
		}
	}
	if len(out) == 0 {
		if len(wrongKind) > 0 {
			c.diags.errorf(diag.CodeEffectTarget, identRange(ref.Member), "%s in procedure %s is a %s, not a %s", ref.Member.Name, info.ID, wrongKind[0].Kind, kinds[0])
		} else {
			c.unknown(identRange(ref.Member), string(kinds[0])+" of procedure "+info.ID+":", ref.Member.Name, cands)
		}
	}
	return out
}

// hookScope finds what a before/after/instead_of body sees: a procedure's
// parameters, or everything in scope at one of its steps.
func (c *checker) hookScope(ref *syntax.Ref, timing string) (*scope, string) {
	if _, ok := c.lookup(nsCore, ref.Name.Name).(*syntax.Characteristic); ok && ref.Member == nil {
		// A hook on every test of a characteristic sees the model tested
		// and the outcome, `passed`, which an instead_of sets.
		sc := newScope(c.globals)
		sc.define(&symbol{name: "model", kind: symParam, typ: typeModel, used: true})
		sc.define(&symbol{name: "passed", kind: symLet, typ: typeBool, used: true})
		return sc, "characteristic"
	}
	info := c.procOf(ref.Name.Name)
	if info == nil {
		var cands []string
		cands = append(cands, c.procedureNames()...)
		cands = append(cands, c.ofKind("characteristic")...)
		c.unknown(identRange(ref.Name), "procedure", ref.Name.Name, cands)
		return nil, ""
	}
	if ref.Member == nil {
		if timing == "after" && info.endScope != nil {
			return info.endScope, "procedure"
		}
		return info.scope, "procedure"
	}
	sites := c.sites(ref, symStep)
	if len(sites) == 0 {
		return nil, ""
	}
	return sites[0].scope, "step"
}

// testedFiles says whether a file's pack had its tests checked: only
// then can a function or event its tests alone use be called unused.
// With TestsOf, a ruleset under a mod is checked without its tests.
func (c *checker) testedFiles() func(file string) bool {
	if c.rules.TestsOf == nil {
		return func(string) bool { return true }
	}
	kept := map[string]bool{}
	for _, lp := range c.rules.Packs {
		if c.rules.TestsOf(lp) {
			for _, f := range lp.Files {
				kept[f.Name] = true
			}
		}
	}
	return func(file string) bool { return kept[file] }
}

// checkUnused warns about locals nobody reads, declared functions nobody
// calls and events nobody signals.
func (c *checker) checkUnused() {
	for _, sc := range c.scopes {
		c.unusedIn(sc)
	}
	testedHere := c.testedFiles()
	for _, d := range c.all {
		switch d := d.(type) {
		case *syntax.Function:
			if !c.called[d.ID.Name] && testedHere(d.ID.Pos.Filename) {
				c.diags.warnf(diag.CodeUnused, identRange(d.ID), "function %s is never called", d.ID.Name)
			}
		case *syntax.Event:
			if !c.signalled[d.ID.Name] && testedHere(d.ID.Pos.Filename) {
				c.diags.warnf(diag.CodeUnused, identRange(d.ID), "event %s is never signalled", d.ID.Name)
			}
		}
	}
}

// anyRange finds where a property or flag sits.
func (c *checker) anyRange(it syntax.FeatureItem) *diag.Range {
	switch it := it.(type) {
	case *syntax.Property:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.Flag:
		return diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.TextOnly:
		return diag.RangeOf(it.Pos, it.EndPos)
	}
	return nil
}

// layerOf is the layer of the pack a declaration comes from.
func (c *checker) layerOf(d syntax.Decl) int {
	if p := c.packOf[d]; p != nil {
		return p.Layer
	}
	return LayerBase
}

// sameChange reports whether two effects say the same thing, whatever
// their spacing: two house groups that agree do not conflict.
func (c *checker) sameChange(a, b syntax.FeatureItem) bool {
	return c.itemText(a) != "" && c.itemText(a) == c.itemText(b)
}

// itemText is an effect's whole source text (a hook's body too) with its
// spacing collapsed.
func (c *checker) itemText(it syntax.FeatureItem) string {
	r := c.itemRange(it)
	switch it := it.(type) {
	case *syntax.Hook:
		r = diag.RangeOf(it.Pos, it.EndPos)
	case *syntax.On:
		r = diag.RangeOf(it.Pos, it.EndPos)
	}
	return c.rangeText(r)
}

// rangeText is the source text of a range with its spacing collapsed
// ("" when the source is not at hand).
func (c *checker) rangeText(r *diag.Range) string {
	if r == nil {
		return ""
	}
	src := c.rules.Sources()[r.Filename]
	if src == nil || r.End.Offset > len(src) || r.Start.Offset > r.End.Offset {
		return ""
	}
	return strings.Join(strings.Fields(string(src[r.Start.Offset:r.End.Offset])), " ")
}
