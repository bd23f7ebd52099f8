package dsl

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"

	"github.com/expr-lang/expr/builtin"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// Index is what the checker learns about the rules: every declaration by
// id, resolved and typed, with the house rules in force applied. The
// interpreter compiles from it.
type Index struct {
	Dice            map[string]*DiceInfo
	Characteristics map[string]*CharInfo
	Tables          map[string]*TableInfo
	Procedures      map[string]*ProcInfo
	Actions         map[string]*ActionInfo // actions declared with parameters
	// Menu is the actions a model may be offered (their first parameter
	// a model), sorted by id: what AvailableActions looks through.
	Menu       []*ActionInfo
	Periods    map[string][]*syntax.Event // period → the events that end it
	Functions  map[string]*FuncInfo       // function declarations and lookup tables
	Events     map[string]*syntax.Event
	Kinds      map[string]*KindInfo // kinds of model
	Enums      map[string]*EnumInfo
	Features   map[string]map[string]*syntax.Feature // kind → id
	Houses     map[string]*syntax.House
	HouseRules map[string]*syntax.HouseRule // "house.rule"
	Tests      []*TestInfo
	Effects    []*EffectInfo // from features and switched-on house rules
	// Vocabulary is what the kinds declare a state's words to be, for
	// state.DecodeWith and ValidateWith; nil when the rules declare no kind.
	Vocabulary *state.Vocabulary
	// StandIn is the state a table is rolled for with no battle at hand,
	// nil when the ruleset names none.
	StandIn *StandInInfo
	// Choices are the names of every choice the rules can ask for, so a
	// --choose or a test's choose naming none is caught.
	Choices map[string]bool

	// Slots numbers the names of the rules' frames: their runs read and
	// set variables by these slots (frameslots.go).
	Slots *Slots
	// Compiler compiles an expression with every built-in and declared
	// function available, as the checker did the rules' own.
	Compiler *Compiler
	// Closures counts the expressions compiled to closures and those left
	// to expr's VM, with why (fastexpr.go).
	Closures ClosureStats

	// owners maps house-rule items to their rule id, and replaced
	// declarations to who replaced them.
	replacedBy map[syntax.Decl]string
	// menuPlan shares the conjuncts of the menu's conditions between its
	// actions (menuplan.go).
	menuPlan *menuPlan
	// compileQuery compiles an expression in the global scope (CompileQuery).
	compileQuery func(e *syntax.Expr) (fastexpr.FuncIn, diag.Diagnostics)
}

// The namespaces of declaration ids. Dice, characteristics, tables,
// procedures, functions and events share one (an effect's target such as
// `bottle_check.check` must name one thing); features of each kind have
// their own, because the game has both a Disarm skill and a Disarm trait.
const nsCore = "core"

func namespaceOf(d syntax.Decl) (ns, id string, at *syntax.Ident) {
	switch d := d.(type) {
	case *syntax.Dice:
		return nsCore, d.ID.Name, d.ID
	case *syntax.Characteristic:
		return nsCore, d.ID.Name, d.ID
	case *syntax.Table:
		return nsCore, d.ID.Name, d.ID
	case *syntax.Procedure:
		return nsCore, d.ID.Name, d.ID
	case *syntax.Function:
		return nsCore, d.ID.Name, d.ID
	case *syntax.Event:
		return nsCore, d.ID.Name, d.ID
	case *syntax.ModelKind:
		return nsKind, d.ID.Name, d.ID
	case *syntax.Enum:
		return nsEnum, d.ID.Name, d.ID
	case *syntax.Feature:
		return d.Kind, d.ID.Name, d.ID
	case *syntax.House:
		return "house", d.ID.Name, d.ID
	case *syntax.HouseRule:
		return "rule", d.ID.Name, d.ID
	}
	return "", "", nil
}

// Check checks the rules and builds their index. It reports every problem
// it finds, sorted by position; rules with errors must not be run.
func Check(rules *Rules) diag.Diagnostics {
	c := newChecker(rules)
	// Literals out of range are looked for, and expressions parsed,
	// beside the rest of the check (preparse.go).
	c.pre = startAhead(rules.Files(), c.exprc.config)
	c.collect()
	c.checkKinds()
	c.checkStandIn()
	c.checkDice()
	c.checkCharacteristics()
	c.checkEvents()
	c.prepareTables()
	c.prepareProcedures()
	c.prepareActions()
	c.checkCallables()
	c.checkKindWarnings()
	c.checkDefaults()
	c.checkTableBodies()
	c.checkReplacedRows()
	c.checkProcedureBodies()
	c.checkActionBodies()
	c.checkFeatures()
	c.checkEffects()
	c.checkGrantCycles()
	switch {
	case rules.SkipTests:
		c.idx.Tests = nil
	case rules.TestsOf != nil:
		kept := c.idx.Tests[:0]
		for _, t := range c.idx.Tests {
			if rules.TestsOf(t.Pack) {
				kept = append(kept, t)
			}
		}
		c.idx.Tests = kept
		c.checkTests()
	default:
		c.checkTests()
	}
	c.checkUnused()
	c.dropCheckingScopes()
	c.idx.Compiler = c.exprc
	c.idx.compileQuery = c.queryCompiler()
	c.exprc.slots.publish() // the names of the rules' frames, for runs to find without a lock
	rules.Index = c.idx
	// The literals' diagnostics go first, as when their walk came first.
	c.diags.list = append(c.pre.finish(), c.diags.list...)
	c.diags.list.Sort()
	setContexts(c.diags.list, rules.Files())
	return c.diags.list
}

// setContexts gives each diagnostic without a context the declaration
// around its subject, as hcl gives the block around an attribute: tools
// can show, or fold to, the whole of what is wrong.
func setContexts(diags diag.Diagnostics, files []*syntax.File) {
	byName := make(map[string]*syntax.File, len(files))
	for _, f := range files {
		byName[f.Name] = f
	}
	for _, d := range diags {
		if d.Subject == nil || d.Context != nil {
			continue
		}
		f := byName[d.Subject.Filename]
		if f == nil {
			continue
		}
		for _, decl := range f.Decls {
			start, end := syntax.Span(decl)
			if r := diag.RangeOf(start, end); r.Contains(d.Subject) {
				d.Context = r
				break
			}
		}
	}
}

// checker carries the state of one Check.
type checker struct {
	rules *Rules
	idx   *Index
	diags diagnostics

	// decls by namespace and id: the declaration in force.
	decls map[string]map[string]syntax.Decl
	// every declaration, in force or replaced, for checking each once.
	all []syntax.Decl
	// declaration → the pack it came from.
	packOf map[syntax.Decl]*LoadedPack
	// built dice, by declaration (nil when the declaration is broken).
	diceDone map[*syntax.Dice]*DiceInfo
	// what every expression sees.
	globals *scope
	// checked parts, by declaration (in force or not).
	procParams  map[*syntax.Procedure]*ProcInfo
	actionInfo  map[*syntax.Feature]*ActionInfo
	eventParams map[*syntax.Event][]ParamInfo
	tableInfo   map[*syntax.Table]*TableInfo
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
	// "namespace:id" or "row:table:row" → the replacement in force.
	replaced map[string]replacement
	// table → row id → the replacement of that row in force.
	rowReplaced map[string]map[string]replacement
	// compiles every expression, inlining declared functions.
	exprc  *Compiler
	inline *inliner
	// compiled expressions by text and the types of what they read.
	programs programCache
	// the walk of the trees beside the check (preparse.go).
	pre *ahead
	// programNames' walk, kept for the next expression.
	namesSeen programNamesVisitor
	// munda's built-in functions as exprc holds them, before this check's
	// own: what the shared cache may hold calls of (sharedprograms.go).
	globalFuncs map[string]*builtin.Function
	// a digest of the vocabulary, once made (inlinestates.go).
	vocabularyKey   [sha256.Size]byte
	vocabularyKeyed bool
	// the effect being checked (scoping.go), and the `prefer` of the let
	// an override targets.
	eff    *effectCtx
	prefer string
}

func newChecker(rules *Rules) *checker {
	c := &checker{
		rules: rules,
		idx: &Index{
			Dice:            map[string]*DiceInfo{},
			Characteristics: map[string]*CharInfo{},
			Tables:          map[string]*TableInfo{},
			Procedures:      map[string]*ProcInfo{},
			Actions:         map[string]*ActionInfo{},
			Periods:         map[string][]*syntax.Event{},
			Functions:       map[string]*FuncInfo{},
			Events:          map[string]*syntax.Event{},
			Kinds:           map[string]*KindInfo{},
			Enums:           map[string]*EnumInfo{},
			Features:        map[string]map[string]*syntax.Feature{},
			Houses:          map[string]*syntax.House{},
			HouseRules:      map[string]*syntax.HouseRule{},
			Choices:         map[string]bool{},
			replacedBy:      map[syntax.Decl]string{},
		},
		decls:       map[string]map[string]syntax.Decl{},
		packOf:      map[syntax.Decl]*LoadedPack{},
		globals:     globalScope(),
		procParams:  map[*syntax.Procedure]*ProcInfo{},
		actionInfo:  map[*syntax.Feature]*ActionInfo{},
		eventParams: map[*syntax.Event][]ParamInfo{},
		tableInfo:   map[*syntax.Table]*TableInfo{},
		rowIDs:      map[string]bool{},
		called:      map[string]bool{},
		signalled:   map[string]bool{},
		replaced:    map[string]replacement{},
		rowReplaced: map[string]map[string]replacement{},
		exprc:       NewCompiler(),
		inline:      &inliner{bodies: map[string]*inlineBody{}},
	}
	c.idx.Slots = c.exprc.slots
	c.globals.slots = c.exprc.slots
	return c
}

func identRange(id *syntax.Ident) *diag.Range { return diag.RangeOf(id.Pos, id.EndPos) }

// collect registers every declaration, reports duplicates, and applies
// replacements: a pack's top-level `replace` always (a ruleset's, a house
// pack's or a mod's, in its layer), a house rule's only while the rule is
// switched on.
func (c *checker) collect() {
	for _, pack := range c.rules.Packs {
		for _, f := range pack.Files {
			for _, d := range f.Decls {
				c.packOf[d] = pack
				switch d := d.(type) {
				case *syntax.Ruleset, *syntax.Include, *syntax.Replace:
				case *syntax.TestDecl:
					c.idx.Tests = append(c.idx.Tests, &TestInfo{Decl: d, Pack: pack, File: f})
				case *syntax.House:
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
	c.collectReplacements()
}

func (c *checker) register(d syntax.Decl) {
	ns, id, at := namespaceOf(d)
	if ns == "" {
		return
	}
	c.all = append(c.all, d)
	m := c.decls[ns]
	if m == nil {
		m = map[string]syntax.Decl{}
		c.decls[ns] = m
	}
	if prev, ok := m[id]; ok {
		_, _, prevAt := namespaceOf(prev)
		diag := c.diags.errorf(diag.CodeDuplicateID, identRange(at), "%s %s is declared twice", syntax.KindOf(d), id)
		diag.Detail = fmt.Sprintf("The first declaration is at %s. Ids must be unique; to change a declaration of the ruleset you extend, write `replace %s %s …`.",
			identRange(prevAt), syntax.KindOf(d), id)
		return
	}
	m[id] = d
	if f, ok := d.(*syntax.Feature); ok {
		if c.idx.Features[f.Kind] == nil {
			c.idx.Features[f.Kind] = map[string]*syntax.Feature{}
		}
		c.idx.Features[f.Kind][id] = f
	}
	if h, ok := d.(*syntax.House); ok {
		c.idx.Houses[id] = h
	}
}

// lookup finds a declaration in force by namespace and id.
func (c *checker) lookup(ns, id string) syntax.Decl { return c.decls[ns][id] }

// unknown reports an unresolved reference with a did-you-mean. name may
// be quoted, as a literal id is ("iron_wil"): the suggestion is for what
// is inside the quotes.
func (c *checker) unknown(at *diag.Range, what, name string, candidates []string) *diag.Diagnostic {
	return c.diags.errorf(diag.CodeUnknownRef, at, "unknown %s %s", what, name).Suggest(strings.Trim(name, `"`), candidates)
}

// ofKind lists the ids in force of one kind of core declaration.
func (c *checker) ofKind(kind string) []string {
	var out []string
	for id, d := range c.decls[nsCore] {
		if syntax.KindOf(d) == kind {
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

// literalInRange reports an integer literal beyond ±syntax.MaxInt,
// wherever it is: a dice face of 3000000000 must not fold silently into
// another number.
func literalInRange(c *diagnostics, lit *syntax.Int) {
	if _, ok := lit.InRange(); !ok {
		d := c.errorf(diag.CodeOutOfRange, diag.RangeOf(lit.Pos, lit.EndPos), "%s is too large a number", lit.Digits)
		d.Detail = fmt.Sprintf("Whole numbers in rule files go up to %d either way.", syntax.MaxInt)
	}
}
