package dsl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/expr-lang/expr"

	"github.com/munda-rules/munda/stdlib"
)

// Index is what the checker learns about the rules: every declaration by
// id, resolved and typed, with the house rules in force applied. The
// interpreter compiles from it.
type Index struct {
	Dice            map[string]*DiceInfo
	Characteristics map[string]*CharInfo
	Tables          map[string]*TableInfo
	Procedures      map[string]*ProcInfo
	Functions       map[string]*FuncInfo // function declarations and lookup tables
	Events          map[string]*Event
	Features        map[string]map[string]*Feature // kind → id
	Houses          map[string]*House
	HouseRules      map[string]*HouseRule // "house.rule"
	Tests           []*TestInfo
	Effects         []*EffectInfo // from features and switched-on house rules
	// Choices are the names of every choice the rules can ask for, so a
	// --choose or a test's choose naming none is caught.
	Choices map[string]bool

	// ExprOptions compile an expression with every built-in and declared
	// function available; Compiler is a compiler made with them.
	ExprOptions []expr.Option
	Compiler    *Compiler

	// owners maps house-rule items to their rule id, and replaced
	// declarations to who replaced them.
	replacedBy map[Decl]string
	// compileQuery compiles an expression in the global scope (CompileQuery).
	compileQuery func(e *Expr) Diagnostics
}

// The namespaces of declaration ids. Dice, characteristics, tables,
// procedures, functions and events share one (an effect's target such as
// `bottle_check.check` must name one thing); features of each kind have
// their own, because the game has both a Disarm skill and a Disarm trait.
const nsCore = "core"

func namespaceOf(d Decl) (ns, id string, at *Ident) {
	switch d := d.(type) {
	case *Dice:
		return nsCore, d.ID.Name, d.ID
	case *Characteristic:
		return nsCore, d.ID.Name, d.ID
	case *Table:
		return nsCore, d.ID.Name, d.ID
	case *Procedure:
		return nsCore, d.ID.Name, d.ID
	case *Function:
		return nsCore, d.ID.Name, d.ID
	case *Event:
		return nsCore, d.ID.Name, d.ID
	case *Feature:
		return d.Kind, d.ID.Name, d.ID
	case *House:
		return "house", d.ID.Name, d.ID
	case *HouseRule:
		return "rule", d.ID.Name, d.ID
	}
	return "", "", nil
}

// kindOf names a declaration's kind for messages.
func kindOf(d Decl) string {
	switch d := d.(type) {
	case *Dice:
		return "dice"
	case *Characteristic:
		return "characteristic"
	case *Table:
		return "table"
	case *Procedure:
		return "procedure"
	case *Function:
		return "function"
	case *Event:
		return "event"
	case *Feature:
		return d.Kind
	case *House:
		return "house"
	case *HouseRule:
		return "rule"
	case *Replace:
		return "replace"
	case *Ruleset:
		return "ruleset"
	case *Include:
		return "include"
	case *TestDecl:
		return "test"
	}
	return fmt.Sprintf("%T", d)
}

// Check checks the rules and builds their index. It reports every problem
// it finds, sorted by position; rules with errors must not be run.
func Check(rules *Rules) Diagnostics {
	c := newChecker(rules)
	c.collect()
	c.checkDice()
	c.checkCharacteristics()
	c.checkEvents()
	c.prepareTables()
	c.prepareProcedures()
	c.checkCallables()
	c.checkDefaults()
	c.checkTableBodies()
	c.checkProcedureBodies()
	c.checkFeatures()
	c.checkEffects()
	c.checkTests()
	c.checkUnused()
	c.idx.Compiler = c.exprc
	c.idx.compileQuery = c.queryCompiler()
	rules.Index = c.idx
	c.diags.list.Sort()
	return c.diags.list
}

// checker carries the state of one Check.
type checker struct {
	rules *Rules
	idx   *Index
	diags diagnostics

	// decls by namespace and id: the declaration in force.
	decls map[string]map[string]Decl
	// every declaration, in force or replaced, for checking each once.
	all []Decl
	// declaration → the pack it came from.
	packOf map[Decl]*LoadedPack
	// house-rule item → its rule id.
	ruleOf map[any]string
	// built dice, by declaration (nil when the declaration is broken).
	diceDone map[*Dice]*DiceInfo
	// what every expression sees.
	globals *scope
	// checked parts, by declaration (in force or not).
	procParams  map[*Procedure]*ProcInfo
	eventParams map[*Event][]ParamInfo
	tableInfo   map[*Table]*TableInfo
	// every row id of every table, for `add X to m.lasting_injuries`.
	rowIDs map[string]bool
	// the state patch, extended as functions are declared.
	statePatch stdlib.StatePatch
	// what was used, for unused warnings.
	called    map[string]bool
	signalled map[string]bool
	// every block scope, for unused warnings at the end.
	scopes []*scope
	// parameters' defaults, compiled after the functions.
	defaults []pendingDefault
	// "namespace:id" → the house rule that replaced it ("" for a ruleset).
	replaced map[string]string
	// compiles every expression, inlining declared functions.
	exprc  *Compiler
	inline *inliner
}

func newChecker(rules *Rules) *checker {
	return &checker{
		rules: rules,
		idx: &Index{
			Dice:            map[string]*DiceInfo{},
			Characteristics: map[string]*CharInfo{},
			Tables:          map[string]*TableInfo{},
			Procedures:      map[string]*ProcInfo{},
			Functions:       map[string]*FuncInfo{},
			Events:          map[string]*Event{},
			Features:        map[string]map[string]*Feature{},
			Houses:          map[string]*House{},
			HouseRules:      map[string]*HouseRule{},
			Choices:         map[string]bool{},
			replacedBy:      map[Decl]string{},
		},
		decls:       map[string]map[string]Decl{},
		packOf:      map[Decl]*LoadedPack{},
		ruleOf:      map[any]string{},
		globals:     globalScope(),
		procParams:  map[*Procedure]*ProcInfo{},
		eventParams: map[*Event][]ParamInfo{},
		tableInfo:   map[*Table]*TableInfo{},
		rowIDs:      map[string]bool{},
		called:      map[string]bool{},
		signalled:   map[string]bool{},
		replaced:    map[string]string{},
		exprc:       NewCompiler(),
		inline:      &inliner{bodies: map[string]*inlineBody{}},
	}
}

func identRange(id *Ident) *Range { return rangeOf(id.Pos, id.EndPos) }

// collect registers every declaration, reports duplicates, and applies
// replacements: a ruleset's top-level `replace` always, a house rule's
// only while the rule is switched on.
func (c *checker) collect() {
	for _, pack := range c.rules.Packs {
		for _, f := range pack.Files {
			for _, d := range f.Decls {
				c.packOf[d] = pack
				switch d := d.(type) {
				case *Ruleset, *Include, *Replace:
				case *TestDecl:
					c.idx.Tests = append(c.idx.Tests, &TestInfo{Decl: d, Pack: pack, File: f})
				case *House:
					c.register(d)
					c.collectHouse(d, pack)
				default:
					c.register(d)
				}
			}
		}
	}
	// Replacements come after everything is registered, so order of files
	// does not matter.
	for _, pack := range c.rules.Packs {
		for _, f := range pack.Files {
			for _, d := range f.Decls {
				if r, ok := d.(*Replace); ok && r.Decl != nil {
					c.replace(r, "", pack)
				}
			}
		}
	}
	for _, rid := range c.rules.ActiveRules() {
		rule := c.idx.HouseRules[rid]
		if rule == nil {
			continue
		}
		for _, it := range rule.Items {
			if r, ok := it.(*Replace); ok {
				c.replace(r, rid, c.packOf[rule])
			}
		}
	}
}

func (c *checker) register(d Decl) {
	ns, id, at := namespaceOf(d)
	if ns == "" {
		return
	}
	c.all = append(c.all, d)
	m := c.decls[ns]
	if m == nil {
		m = map[string]Decl{}
		c.decls[ns] = m
	}
	if prev, ok := m[id]; ok {
		_, _, prevAt := namespaceOf(prev)
		diag := c.diags.errorf(CodeDuplicateID, identRange(at), "%s %s is declared twice", kindOf(d), id)
		diag.Detail = fmt.Sprintf("The first declaration is at %s. Ids must be unique; to change a declaration of the ruleset you extend, write `replace %s %s …`.",
			identRange(prevAt), kindOf(d), id)
		return
	}
	m[id] = d
	if f, ok := d.(*Feature); ok {
		if c.idx.Features[f.Kind] == nil {
			c.idx.Features[f.Kind] = map[string]*Feature{}
		}
		c.idx.Features[f.Kind][id] = f
	}
	if h, ok := d.(*House); ok {
		c.idx.Houses[id] = h
	}
}

func (c *checker) collectHouse(h *House, pack *LoadedPack) {
	seen := map[string]*HouseRule{}
	for _, rule := range h.Rules() {
		rid := h.ID.Name + "." + rule.ID.Name
		c.packOf[rule] = pack
		if prev, ok := seen[rule.ID.Name]; ok {
			d := c.diags.errorf(CodeDuplicateID, identRange(rule.ID), "house rule %s is declared twice", rid)
			d.Detail = "The first is at " + identRange(prev.ID).String() + "."
			continue
		}
		seen[rule.ID.Name] = rule
		c.idx.HouseRules[rid] = rule
		for _, it := range rule.Items {
			c.ruleOf[it] = rid
		}
	}
}

// replace applies one `replace` declaration. owner is the house rule that
// does it ("" for a ruleset's own replacement).
func (c *checker) replace(r *Replace, owner string, pack *LoadedPack) {
	if r.Decl == nil {
		return // a row replacement; handled with its table
	}
	ns, id, at := namespaceOf(r.Decl)
	switch r.Decl.(type) {
	case *Dice, *Characteristic, *Table, *Procedure, *Function:
	default:
		c.diags.errorf(CodeInvalid, rangeOf(r.Pos, r.EndPos), "a %s cannot be replaced; replace a dice, characteristic, table, procedure or function", kindOf(r.Decl))
		return
	}
	c.packOf[r.Decl] = pack
	c.all = append(c.all, r.Decl)
	prev, ok := c.decls[ns][id]
	if !ok {
		d := c.diags.errorf(CodeUnknownRef, identRange(at), "replace: there is no %s %s to replace", kindOf(r.Decl), id)
		if s := didYouMean(id, keys(c.decls[ns])); s != "" {
			d.Detail = fmt.Sprintf("Did you mean %s?", s)
		}
		return
	}
	if kindOf(prev) != kindOf(r.Decl) {
		c.diags.errorf(CodeInvalid, identRange(at), "replace: %s is a %s, not a %s", id, kindOf(prev), kindOf(r.Decl))
		return
	}
	key := ns + ":" + id
	if who, done := c.replaced[key]; done && owner != "" && who != owner {
		c.conflict(rangeOf(r.Pos, r.EndPos), ownerName(who), ownerName(owner), fmt.Sprintf("both replace %s %s", kindOf(prev), id))
		return
	}
	c.replaced[key] = owner
	c.idx.replacedBy[prev] = owner
	c.decls[ns][id] = r.Decl
}

// conflict reports two things in force that change one target
// incompatibly. a and b are owners as ownerName gives them.
func (c *checker) conflict(at *Range, a, b, what string) {
	d := c.diags.errorf(CodeOverlayConflict, at, "%s and %s %s", a, b, what)
	for _, o := range []string{b, a} {
		if rid, ok := strings.CutPrefix(o, "house rule "); ok {
			d.Detail = fmt.Sprintf("Only one of them can be in force: switch one off, e.g. --house …,-%s.", rid)
			return
		}
	}
}

// ownerName names who a change belongs to: a house rule's id, or "" for
// the ruleset itself.
func ownerName(rule string) string {
	if rule == "" {
		return "the ruleset"
	}
	return "house rule " + rule
}

// lookup finds a declaration in force by namespace and id.
func (c *checker) lookup(ns, id string) Decl { return c.decls[ns][id] }

// unknown reports an unresolved reference with a did-you-mean.
func (c *checker) unknown(at *Range, what, name string, candidates []string) *Diagnostic {
	d := c.diags.errorf(CodeUnknownRef, at, "unknown %s %s", what, name)
	if s := didYouMean(name, candidates); s != "" {
		d.Detail = fmt.Sprintf("Did you mean %s?", s)
	}
	return d
}

// ofKind lists the ids in force of one kind of core declaration.
func (c *checker) ofKind(kind string) []string {
	var out []string
	for id, d := range c.decls[nsCore] {
		if kindOf(d) == kind {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func quoteList(ids []string) string { return strings.Join(ids, ", ") }
