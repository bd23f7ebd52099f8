package syntax

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/vm"

	"github.com/munda-rules/munda/dsl/fastexpr"
)

// This file holds the syntax tree of a rule file. The struct tags are the
// grammar (participle reads them); testdata/grammar.ebnf shows it as
// EBNF (TestGrammarGolden keeps it current). Every node records where it starts (Pos) and ends (EndPos) so that
// diagnostics, the formatter and runtime errors can point back into the file.

// File is one parsed .munda file.
type File struct {
	Pos    lexer.Position
	Decls  []Decl `parser:"( (?! EOF) @@ )*"`
	EndPos lexer.Position

	// Filled in by Parse, not by the grammar.
	Name     string    // path as shown in diagnostics
	Rel      string    // path relative to its pack's root (set by LoadPack)
	Source   []byte    // the file's bytes, for snippets and expression text
	Comments []Comment // every comment, in order, for the formatter
}

// Comment is one // or /* */ comment and where it sits.
type Comment struct {
	Pos  lexer.Position
	Text string
}

// ---------------------------------------------------------------------------
// Small building blocks.

// Ident is a name: a declaration id, a parameter, a roll, a field.
type Ident struct {
	Pos    lexer.Position
	Name   string
	EndPos lexer.Position
}

// Str is a string literal. Raw keeps the literal as written (quotes and
// escapes), so the formatter can print it back unchanged.
type Str struct {
	Pos    lexer.Position
	Raw    string
	EndPos lexer.Position
}

// Value is the literal with quotes removed and escapes resolved.
func (s *Str) Value() string {
	if s == nil {
		return ""
	}
	v, err := strconv.Unquote(s.Raw)
	if err != nil {
		return s.Raw
	}
	return v
}

// Int is an integer literal, optionally negative.
type Int struct {
	Pos    lexer.Position
	Neg    bool
	Digits string
	EndPos lexer.Position
}

// MaxInt bounds integer literals: no number of the game comes near it,
// and sums of many dice of such faces still fit in an int.
const MaxInt = 1_000_000_000

// Value of the literal. Out-of-range literals (see InRange) are reported
// by the checker; Value gives MaxInt for them.
func (i *Int) Value() int {
	n, ok := i.InRange()
	if !ok {
		return MaxInt
	}
	return n
}

// InRange is the literal's value, and whether it is within ±MaxInt.
func (i *Int) InRange() (int, bool) {
	n, err := strconv.ParseInt(strings.ReplaceAll(i.Digits, "_", ""), 0, 64)
	if err != nil || n > MaxInt {
		return 0, false
	}
	if i.Neg {
		n = -n
	}
	return int(n), true
}

// Param is a parameter of a procedure, table, function or event:
// `gang` (its type is its name), `attacker: model`, or with a default
// value for when a call leaves it out: `range: string = "short"`.
type Param struct {
	Pos     lexer.Position
	Name    *Ident `parser:"@@"`
	Type    *Ident `parser:"( ':' @@ )?"`
	Default *Expr  `parser:"( '=' @@ )?"`
	EndPos  lexer.Position
}

// TypeName is the declared type, defaulting to the parameter's name.
func (p *Param) TypeName() string {
	if p.Type != nil {
		return p.Type.Name
	}
	return p.Name.Name
}

// Arg is an argument in a call: positional or `name: expr`.
type Arg struct {
	Pos    lexer.Position
	Name   *Ident `parser:"( @@ ':' )?"`
	Value  *Expr  `parser:"@@"`
	EndPos lexer.Position
}

// Ref names something declared elsewhere, optionally one part of it:
// `bottle_check`, `bottle_check.threshold`, `lasting_injury.out_cold`.
type Ref struct {
	Pos    lexer.Position
	Name   *Ident `parser:"@@"`
	Member *Ident `parser:"( '.' @@ )?"`
	EndPos lexer.Position
}

func (r *Ref) String() string {
	if r.Member != nil {
		return r.Name.Name + "." + r.Member.Name
	}
	return r.Name.Name
}

// Path is an assignable place: `gang.bottled`, `model.stats.cl`, `x`.
type Path struct {
	Pos    lexer.Position
	Parts  []*Ident `parser:"@@ ( '.' @@ )*"`
	EndPos lexer.Position
}

func (p *Path) String() string {
	s := ""
	for i, part := range p.Parts {
		if i > 0 {
			s += "."
		}
		s += part.Name
	}
	return s
}

// Expr is an expr-lang expression, kept as the exact source text between
// Pos and EndPos. Expr.Parse (parse.go) decides where it ends.
type Expr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Text   string // verbatim source text, set by Parse

	// Set by the checker: the compiled program and its result type.
	Program *vm.Program
	Type    reflect.Type
	// Fast is the same program as Go closures (dsl/fastexpr), nil where
	// only the VM runs it; dsl.Eval prefers it.
	Fast func(env map[string]any) (any, error)
	// Slotted is Fast reading names from a frame's slots, numbered by
	// dsl.SlotOf (dsl.EvalSlots runs it); nil where only the VM runs it.
	Slotted fastexpr.SlotFunc
}

// Block is a braced list of statements.
type Block struct {
	Pos    lexer.Position
	Stmts  []Stmt `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// ---------------------------------------------------------------------------
// Metadata items, allowed in every declaration body.

// SourceItem cites where a rule comes from: `source "003 §Falling"`.
type SourceItem struct {
	Pos    lexer.Position
	Text   *Str `parser:"'source' @@"`
	EndPos lexer.Position
}

// TextItem is the rule's text for people: `text "-1 on Bottle checks."`.
type TextItem struct {
	Pos    lexer.Position
	Text   *Str `parser:"'text' @@"`
	EndPos lexer.Position
}

// TitleItem is a translated title: `title cs "Kontrola morálky"`.
type TitleItem struct {
	Pos    lexer.Position
	Lang   *Ident `parser:"'title' @@"`
	Text   *Str   `parser:"@@"`
	EndPos lexer.Position
}

// ---------------------------------------------------------------------------
// Declarations.

// Decl is any top-level declaration.
type Decl interface{ node() }

// Ruleset is a pack's header: `ruleset core_2023 "…" { extends … }`.
type Ruleset struct {
	Pos    lexer.Position
	ID     *Ident        `parser:"'ruleset' @@"`
	Title  *Str          `parser:"@@"`
	Items  []RulesetItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// RulesetItem is metadata, an `extends` clause or a stand-in.
type RulesetItem interface{ node() }

// Extends names the ruleset this one builds on.
type Extends struct {
	Pos    lexer.Position
	Base   *Ident `parser:"'extends' @@"`
	EndPos lexer.Position
}

// StandIn names the state whose first model stands in when a table is
// rolled with no battle at hand (`munda roll lasting-injury`): a file of
// the pack, or a state given inline in backquotes. A ruleset that extends
// another inherits its stand-in.
type StandIn struct {
	Pos    lexer.Position
	Source *Str `parser:"'stand_in' @@"`
	EndPos lexer.Position
}

// Include pulls another file of the same pack in: `include "tables.munda"`.
type Include struct {
	Pos    lexer.Position
	Path   *Str `parser:"'include' @@"`
	EndPos lexer.Position
}

// Dice declares a kind of dice: numeric faces, symbolic faces, a sum of
// several dice (2D6) or digits read in order (D66).
type Dice struct {
	Pos    lexer.Position
	ID     *Ident     `parser:"'dice' @@"`
	Title  *Str       `parser:"@@"`
	Items  []DiceItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// DiceItem is metadata or a face description.
type DiceItem interface{ node() }

// Faces lists numeric faces: `faces 1, 2, 3, 4, 5, 6`.
type Faces struct {
	Pos    lexer.Position
	Values []*Int `parser:"'faces' @@ ( ',' @@ )*"`
	EndPos lexer.Position
}

// Face is one symbolic face: `face flesh_wound "Flesh Wound" value 1 x 3`.
// value is its number (for ordering and arithmetic, default: its position);
// x is how many faces of the dice show it (default 1).
type Face struct {
	Pos    lexer.Position
	ID     *Ident `parser:"'face' @@"`
	Title  *Str   `parser:"@@?"`
	Value  *Int   `parser:"( 'value' @@ )?"`
	Count  *Int   `parser:"( 'x' @@ )?"`
	EndPos lexer.Position
}

// Sum makes a dice that adds several dice: `sum 2 d6` is 2D6.
type Sum struct {
	Pos    lexer.Position
	Count  *Int   `parser:"'sum' @@"`
	Of     *Ident `parser:"@@"`
	EndPos lexer.Position
}

// Digits makes a dice read digit by digit: `digits d6, d6` is D66.
type Digits struct {
	Pos    lexer.Position
	Of     []*Ident `parser:"'digits' @@ ( ',' @@ )+"`
	EndPos lexer.Position
}

// Characteristic declares how a characteristic is tested and bounded.
type Characteristic struct {
	Pos    lexer.Position
	ID     *Ident     `parser:"'characteristic' @@"`
	Title  *Str       `parser:"@@"`
	Items  []CharItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// CharItem is metadata or one property of a characteristic.
type CharItem interface{ node() }

// CharCheck says how a test is rolled: `check 2d6 at_least`.
type CharCheck struct {
	Pos    lexer.Position
	Dice   *Ident `parser:"'check' @@"`
	Mode   string `parser:"@('at_least' | 'at_most')"`
	EndPos lexer.Position
}

// CharNatural makes a natural roll pass or fail whatever the modifiers:
// `natural 6 fails`.
type CharNatural struct {
	Pos     lexer.Position
	Roll    *Int   `parser:"'natural' @@"`
	Outcome string `parser:"@('fails' | 'passes')"`
	EndPos  lexer.Position
}

// CharTarget marks a target-number characteristic (written 7+, lower is better).
type CharTarget struct {
	Pos    lexer.Position
	Target bool `parser:"@'target'"`
	EndPos lexer.Position
}

// CharField names the stats field when it differs from the id.
type CharField struct {
	Pos    lexer.Position
	Field  *Ident `parser:"'field' @@"`
	EndPos lexer.Position
}

// CharLimits gives the worst and best values for a kind of model:
// `limits fighter 10 to 3`.
type CharLimits struct {
	Pos    lexer.Position
	Kind   *Ident `parser:"'limits' @@"`
	Worst  *Int   `parser:"@@"`
	Best   *Int   `parser:"'to' @@"`
	EndPos lexer.Position
}

// ModelKind declares a kind of model: `kind vehicle "Vehicle" { … }`. It
// lists the statuses a model of the kind may have, each with the secondary
// statuses it allows, and the kinds that may ride aboard one. A state's
// kind, status, secondary and aboard fields are checked against these.
type ModelKind struct {
	Pos    lexer.Position
	ID     *Ident     `parser:"'kind' @@"`
	Title  *Str       `parser:"@@"`
	Items  []KindItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// KindItem is metadata, a status, a carries clause or a warning.
type KindItem interface{ node() }

// Status is a status of a kind of model and the secondary statuses that go
// with it: `status prone "Prone" { pinned "Pinned" … }`. Without braces
// the status takes no secondary status.
type Status struct {
	Pos         lexer.Position
	ID          *Ident    `parser:"'status' @@"`
	Title       *Str      `parser:"@@"`
	Secondaries []*Member `parser:"( '{' @@+ '}' )?"`
	EndPos      lexer.Position
}

// Carries names the kinds of model that may be aboard a model of this
// kind: `carries fighter`.
type Carries struct {
	Pos    lexer.Position
	Kinds  []*Ident `parser:"'carries' @@ ( ',' @@ )*"`
	EndPos lexer.Position
}

// Warn is something the rules expect of every model of a kind, said when
// a state breaks it: `warn "{model.name} has no Toughness left" when …`.
// A state that breaks it is still read (a battle may be mid-way and odd),
// with a warning.
type Warn struct {
	Pos     lexer.Position
	Message *Str  `parser:"'warn' @@"`
	When    *Expr `parser:"'when' @@"`
	EndPos  lexer.Position
}

// Enum declares a closed set of names: `enum type "Action type" { basic
// "Basic" … }`. A feature property named like an enum (`type basic`) must
// name one of its members.
type Enum struct {
	Pos    lexer.Position
	ID     *Ident     `parser:"'enum' @@"`
	Title  *Str       `parser:"@@"`
	Items  []EnumItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// EnumItem is metadata or a member.
type EnumItem interface{ node() }

// Member is a name of an enum, or a secondary status: an id and a title.
type Member struct {
	Pos    lexer.Position
	ID     *Ident `parser:"@@"`
	Title  *Str   `parser:"@@"`
	EndPos lexer.Position
}

// Table declares a table. Four kinds share one syntax:
//   - dice tables (`roll d66`) whose rows are keyed by results (`15-26`, `7+`)
//     or by faces of a symbolic dice (`glancing`);
//   - band tables (`by distance`) keyed by ranges of a value;
//   - condition tables whose rows are `id "title" when EXPR`;
//   - choice tables (`choose "…"`) whose row a player picks among those
//     whose `when` holds, rows keyed by name.
//
// Rows give a value (`= 3`) or run statements (`{ … }`).
type Table struct {
	Pos    lexer.Position
	ID     *Ident      `parser:"'table' @@"`
	Params []*Param    `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Title  *Str        `parser:"@@"`
	Items  []TableItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// TableItem is metadata, the table's roll or key, or a row.
type TableItem interface{ node() }

// TableRoll names the dice a table is rolled with, and any standing
// modifier: `roll d6 + count(vehicle.lasting_damage, # == "persistent_rattle")`.
type TableRoll struct {
	Pos    lexer.Position
	Dice   *Ident `parser:"'roll' @@"`
	Sign   string `parser:"( @('+' | '-')"`
	Mod    *Expr  `parser:"  @@ )?"`
	EndPos lexer.Position
}

// TableChoose makes a table one whose row a player picks among the rows
// offered (those whose `when` holds): `choose "Which Advancement?" for
// fighter default "none"`. The choice is named after the table; `for`
// keys it, as a choose statement's; the default is a row id (else the
// first row offered).
type TableChoose struct {
	Pos     lexer.Position
	Prompt  *Str  `parser:"'choose' @@"`
	Key     *Expr `parser:"( 'for' @@ )?"`
	Default *Expr `parser:"( 'default' @@ )?"`
	EndPos  lexer.Position
}

// TableBy names the value a band table is keyed by: `by distance`.
type TableBy struct {
	Pos    lexer.Position
	Key    *Expr `parser:"'by' @@"`
	EndPos lexer.Position
}

// Row is one row of a table.
type Row struct {
	Pos    lexer.Position
	Key    RowKey `parser:"@@"`
	ID     *Ident `parser:"@@?"`
	Title  *Str   `parser:"@@"`
	When   *Expr  `parser:"( 'when' @@ )?"`
	Value  *Expr  `parser:"( '=' @@ )?"`
	Body   *Block `parser:"@@?"`
	EndPos lexer.Position
}

// RowKey is what selects a row.
type RowKey interface{ node() }

// RangeKey selects results From..To, or From and above with `+`. Keys are
// never negative: a row starting with "-" would read as the end of the
// expression before it.
type RangeKey struct {
	Pos    lexer.Position
	From   *Nat `parser:"@@"`
	To     *Nat `parser:"( '-' @@"`
	OrMore bool `parser:"  | @'+' )?"`
	EndPos lexer.Position
}

// Nat is an integer literal without a sign.
type Nat struct{ Int }

// FaceKey selects a symbolic face (and, for condition rows, is the row id).
type FaceKey struct {
	Pos    lexer.Position
	Face   *Ident `parser:"@@"`
	EndPos lexer.Position
}

// Procedure is a named sequence of statements: the End Phase, a Bottle check.
type Procedure struct {
	Pos    lexer.Position
	ID     *Ident   `parser:"'procedure' @@"`
	Params []*Param `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Title  *Str     `parser:"@@"`
	When   *Expr    `parser:"( 'when' @@ )?"`
	Body   *Block   `parser:"@@"`
	EndPos lexer.Position
}

// Function is a named expression that rules can call from any expression:
// `function casualty(m: model) "Casualty" = m.status == "out_of_action"`.
type Function struct {
	Pos    lexer.Position
	ID     *Ident   `parser:"'function' @@"`
	Params []*Param `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Title  *Str     `parser:"@@"`
	Body   *Expr    `parser:"'=' @@"`
	EndPos lexer.Position
}

// Event declares something that happens, which `signal` raises and `on`
// effects react to: `event out_of_action(model, attacker: model) "…"`.
type Event struct {
	Pos    lexer.Position
	ID     *Ident   `parser:"'event' @@"`
	Params []*Param `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Title  *Str     `parser:"@@"`
	Ends   *Ident   `parser:"( 'ends' @@ )?"` // the period it ends, if any
	EndPos lexer.Position
}

// Feature is a skill, weapon trait, wyrd power, action or condition: data
// about it plus the effects it has on procedures.
type Feature struct {
	Pos    lexer.Position
	Kind   string        `parser:"@('skill' | 'trait' | 'power' | 'action' | 'condition')"`
	ID     *Ident        `parser:"@@"`
	Params []*Param      `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"` // actions only
	Title  *Str          `parser:"@@"`
	Items  []FeatureItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// FeatureItem is metadata, a property or an effect.
type FeatureItem interface{ node() }

// Property is a descriptive attribute of a feature: `set leadership`,
// `number 3`, `discipline biomancy`, `type basic`.
type Property struct {
	Pos    lexer.Position
	Name   string `parser:"@('set' | 'number' | 'discipline' | 'type')"`
	Value  *Ident `parser:"( @@"`
	Number *Int   `parser:"  | @@ )"`
	EndPos lexer.Position
}

// Flag is a property without a value: `continuous` (a wyrd power that lasts).
type Flag struct {
	Pos    lexer.Position
	Name   string `parser:"@'continuous'"`
	EndPos lexer.Position
}

// House is a named group of house rules, each switchable on its own.
type House struct {
	Pos    lexer.Position
	ID     *Ident      `parser:"'house' @@"`
	Title  *Str        `parser:"@@"`
	Items  []HouseItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// HouseItem is metadata or a rule.
type HouseItem interface{ node() }

// HouseRule is one toggleable rule of a house group. At the top level of a
// ruleset it is a standing rule, always in force: effects that belong to
// no skill or condition (a Handling Glitch's -1 to Handling tests).
type HouseRule struct {
	Pos    lexer.Position
	ID     *Ident        `parser:"'rule' @@"`
	Title  *Str          `parser:"@@"`
	Items  []FeatureItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// ---------------------------------------------------------------------------
// Effects: how skills, traits, powers, conditions and house rules change
// procedures. They appear inside features and house rules.

// Modify adds to a roll: `modify bottle_check.check by -1 when …`.
type Modify struct {
	Pos    lexer.Position
	Target *Ref     `parser:"'modify' @@"`
	As     *Ident   `parser:"( 'as' @@ )?"`
	By     *Expr    `parser:"'by' @@"`
	When   *Expr    `parser:"( 'when' @@ )?"`
	Once   *OncePer `parser:"@@?"`
	EndPos lexer.Position
}

// Reroll re-rolls a roll once when the condition holds. On a pool it
// re-rolls dice one by one: `reroll P.hits each where # < 3` (every die the
// predicate holds for) or `reroll P.hits up to 2 where # < 3` (a player
// picks at most that many); `#` is the die.
type Reroll struct {
	Pos    lexer.Position
	Target *Ref     `parser:"'reroll' @@"`
	As     *Ident   `parser:"( 'as' @@ )?"`
	Each   bool     `parser:"( @'each'"`
	UpTo   *Expr    `parser:"  | 'up' 'to' @@ )?"`
	Where  *Expr    `parser:"( 'where' @@ )?"`
	When   *Expr    `parser:"( 'when' @@ )?"`
	Once   *OncePer `parser:"@@?"`
	EndPos lexer.Position
}

// ExtraDice rolls more dice for a roll and keeps one:
// `extra_dice recovery_test.injury 1 pick choice`. On a pool it adds dice
// (`extra_dice P.hits 1`), or with pick rolls that many more and keeps the
// pool's size.
type ExtraDice struct {
	Pos    lexer.Position
	Target *Ref      `parser:"'extra_dice' @@"`
	As     *Ident    `parser:"( 'as' @@ )?"`
	Count  *Int      `parser:"@@"`
	Pick   string    `parser:"( 'pick' @('highest' | 'lowest' | 'choice') )?"`
	When   *Expr     `parser:"( 'when' @@ )?"`
	Prio   *Priority `parser:"@@?"`
	Once   *OncePer  `parser:"@@?"`
	EndPos lexer.Position
}

// Override replaces the value of a procedure's let:
// `override bottle_check.threshold = gang.eligible_models`.
type Override struct {
	Pos    lexer.Position
	Target *Ref      `parser:"'override' @@"`
	As     *Ident    `parser:"( 'as' @@ )?"`
	Value  *Expr     `parser:"'=' @@"`
	When   *Expr     `parser:"( 'when' @@ )?"`
	Prio   *Priority `parser:"@@?"`
	Once   *OncePer  `parser:"@@?"`
	EndPos lexer.Position
}

// Hook runs statements before or after a procedure or one of its steps, or
// instead of it.
type Hook struct {
	Pos    lexer.Position
	Timing string    `parser:"@('before' | 'after' | 'instead_of')"`
	Target *Ref      `parser:"@@"`
	As     *Ident    `parser:"( 'as' @@ )?"`
	When   *Expr     `parser:"( 'when' @@ )?"`
	Prio   *Priority `parser:"@@?"`
	Once   *OncePer  `parser:"@@?"`
	Body   *Block    `parser:"@@"`
	EndPos lexer.Position
}

// On reacts to a signalled event.
type On struct {
	Pos    lexer.Position
	Event  *Ident    `parser:"'on' @@"`
	As     *Ident    `parser:"( 'as' @@ )?"`
	When   *Expr     `parser:"( 'when' @@ )?"`
	Prio   *Priority `parser:"@@?"`
	Once   *OncePer  `parser:"@@?"`
	Body   *Block    `parser:"@@"`
	EndPos lexer.Position
}

// Replace swaps a whole declaration or one table row for another while the
// rule is active.
type Replace struct {
	Pos    lexer.Position
	Decl   Decl   `parser:"'replace' ( @@"`
	Table  *Ident `parser:"  | 'row' @@"`
	Row    *Row   `parser:"    @@ )"`
	EndPos lexer.Position
}

// ---------------------------------------------------------------------------
// Tests: scenarios written next to the rules.

// TestDecl is a scenario: a state, scripted dice and choices, a procedure to
// run and what must be true afterwards.
type TestDecl struct {
	Pos    lexer.Position
	Name   *Str       `parser:"'test' @@"`
	Items  []TestItem `parser:"'{' ( (?! '}') @@ )* '}'"`
	EndPos lexer.Position
}

// TestItem is one line of a test.
type TestItem interface{ node() }

// TestRules picks the base ruleset: `rules core_2023`.
type TestRules struct {
	Pos    lexer.Position
	ID     *Ident `parser:"'rules' @@"`
	EndPos lexer.Position
}

// TestHouse switches house rules on or off: `house aa, -aa.single_lasting_injury`.
type TestHouse struct {
	Pos    lexer.Position
	Rules  []*Toggle `parser:"'house' @@ ( ',' @@ )*"`
	EndPos lexer.Position
}

// Toggle is one house selection: `aa`, `aa.rule`, `-aa.rule`.
type Toggle struct {
	Pos    lexer.Position
	Off    bool `parser:"@'-'?"`
	Ref    *Ref `parser:"@@"`
	EndPos lexer.Position
}

// TestState names a state file inside the pack, or gives one inline.
type TestState struct {
	Pos    lexer.Position
	Source *Str `parser:"'state' @@"`
	EndPos lexer.Position
}

// TestDice scripts the dice: numbers, or face ids of symbolic dice.
type TestDice struct {
	Pos    lexer.Position
	Values []*DieValue `parser:"'dice' @@ ( ',' @@ )*"`
	EndPos lexer.Position
}

// DieValue is a scripted die: `6` or `out_of_action`.
type DieValue struct {
	Pos    lexer.Position
	Number *Int   `parser:"  @@"`
	Face   *Ident `parser:"| @@"`
	EndPos lexer.Position
}

// TestSeed rolls seeded dice instead of scripted ones.
type TestSeed struct {
	Pos    lexer.Position
	Seed   *Int `parser:"'seed' @@"`
	EndPos lexer.Position
}

// TestChoose answers a choice: `choose voluntary = true`, or, for a keyed
// choice, one of its keys: `choose retire.vorst = true` (a key with dots
// in it is written in parts: `choose buy.goliaths.1 = "lasgun"`).
type TestChoose struct {
	Pos    lexer.Position
	Name   *Ident       `parser:"'choose' @@"`
	Key    []*ChoiceKey `parser:"( '.' @@ )*"`
	Value  *Expr        `parser:"'=' @@"`
	EndPos lexer.Position
}

// KeyText is the answer's key as text ("" for none).
func (t *TestChoose) KeyText() string {
	parts := make([]string, len(t.Key))
	for i, k := range t.Key {
		parts[i] = k.Value()
	}
	return strings.Join(parts, ".")
}

// ChoiceKey is (a part of) the key of an answer to a keyed choice: a
// name, a number or a string (for keys that are not names).
type ChoiceKey struct {
	Pos    lexer.Position
	Name   *Ident `parser:"  @@"`
	Number *Nat   `parser:"| @@"`
	Text   *Str   `parser:"| @@"`
	EndPos lexer.Position
}

// Value is the key as text.
func (k *ChoiceKey) Value() string {
	switch {
	case k == nil:
		return ""
	case k.Name != nil:
		return k.Name.Name
	case k.Number != nil:
		return k.Number.Digits
	case k.Text != nil:
		return k.Text.Value()
	}
	return ""
}

// TestRun is the procedure to run: `run bottle_check(gang: "goliaths")`.
type TestRun struct {
	Pos    lexer.Position
	Proc   *Ident `parser:"'run' @@"`
	Args   []*Arg `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	EndPos lexer.Position
}

// TestExpectError expects the run to fail with a message containing Text.
type TestExpectError struct {
	Pos    lexer.Position
	Text   *Str `parser:"'expect' 'error' @@"`
	EndPos lexer.Position
}

// TestExpectEmit expects a message containing Text in the event log, or
// with `not`, none.
type TestExpectEmit struct {
	Pos    lexer.Position
	Not    bool `parser:"'expect' @'not'? 'emit'"`
	Text   *Str `parser:"@@"`
	EndPos lexer.Position
}

// TestExpectSignal expects an event to be signalled during the run
// (`expect signal power_manifested`), or with `not`, never.
type TestExpectSignal struct {
	Pos    lexer.Position
	Not    bool   `parser:"'expect' @'not'? 'signal'"`
	Event  *Ident `parser:"@@"`
	EndPos lexer.Position
}

// TestExpect is a condition on the final state.
type TestExpect struct {
	Pos    lexer.Position
	Cond   *Expr `parser:"'expect' @@"`
	EndPos lexer.Position
}

// ---------------------------------------------------------------------------
// Statements.

// Stmt is anything that may appear in a block.
type Stmt interface{ node() }

// Let binds a name: `let threshold = gang.starting_crew`.
type Let struct {
	Pos    lexer.Position
	Name   *Ident `parser:"'let' @@"`
	Value  *Expr  `parser:"'=' @@"`
	Prefer string `parser:"( 'prefer' @('highest' | 'lowest') )?"`
	EndPos lexer.Position
}

// Set assigns to a field or a let: `set gang.bottled = true`.
type Set struct {
	Pos    lexer.Position
	Target *Path `parser:"'set' @@"`
	Value  *Expr `parser:"'=' @@"`
	EndPos lexer.Position
}

// Roll rolls dice: `roll check = d6 + casualties(gang)`, a pool of several
// dice kept apart: `roll injuries = (damage) injury`, or one element of a
// list at random (a die with as many sides): `roll w = one of weapons`.
type Roll struct {
	Pos    lexer.Position
	Name   *Ident `parser:"'roll' @@ '='"`
	OneOf  *Expr  `parser:"( 'one' 'of' @@"`
	Count  *Count `parser:"  | @@?"`
	Dice   *Ident `parser:"    @@"`
	Sign   string `parser:"    ( @('+' | '-')"`
	Mod    *Expr  `parser:"      @@ )? )"`
	EndPos lexer.Position
}

// Count is how many dice a pool holds: a number or a parenthesised expr.
type Count struct {
	Pos    lexer.Position
	Number *Int  `parser:"  @@"`
	Expr   *Expr `parser:"| '(' @@ ')'"`
	EndPos lexer.Position
}

// TestStmt makes a characteristic test: `test rally = cl(model) + bonus`.
type TestStmt struct {
	Pos    lexer.Position
	Name   *Ident `parser:"'test' @@ '='"`
	Char   *Ident `parser:"@@"`
	Model  *Expr  `parser:"'(' @@ ')'"`
	Sign   string `parser:"( @('+' | '-')"`
	Mod    *Expr  `parser:"  @@ )?"`
	EndPos lexer.Position
}

// Change improves or worsens a characteristic within the limits its
// declaration gives for the model's kind: `worsen cl of model by 1`. For a
// target number (7+) improving lowers the number. A change that would pass
// a limit does not happen at all (003, Characteristic Reductions).
type Change struct {
	Pos    lexer.Position
	Dir    string `parser:"@('improve' | 'worsen')"`
	Char   *Ident `parser:"@@"`
	Model  *Expr  `parser:"'of' @@"`
	By     *Expr  `parser:"( 'by' @@ )?"`
	EndPos lexer.Position
}

// If runs a block when a condition holds.
type If struct {
	Pos    lexer.Position
	Cond   *Expr  `parser:"'if' @@"`
	Then   *Block `parser:"@@"`
	ElseIf *If    `parser:"( 'else' ( @@"`
	Else   *Block `parser:"         | @@ ) )?"`
	EndPos lexer.Position
}

// ForEach runs a block once per element of a list.
type ForEach struct {
	Pos     lexer.Position
	Var     *Ident `parser:"'for' 'each' @@"`
	List    *Expr  `parser:"'in' @@"`
	OrderBy *Expr  `parser:"( 'ordered' 'by' @@ )?"`
	Body    *Block `parser:"@@"`
	EndPos  lexer.Position
}

// While runs a block again and again as long as its condition holds:
// `while tied { … }` (a roll-off rolled again on a tie). Every pass counts
// against the run's statement limit, so a loop that never ends stops the
// run with an error.
type While struct {
	Pos    lexer.Position
	Cond   *Expr  `parser:"'while' @@"`
	Body   *Block `parser:"@@"`
	EndPos lexer.Position
}

// Add puts an id into a list field: `add broken to model.conditions`.
type Add struct {
	Pos    lexer.Position
	Item   *Ident `parser:"'add' @@"`
	To     *Path  `parser:"'to' @@"`
	Until  *Until `parser:"@@?"`
	EndPos lexer.Position
}

// Remove takes an id out of a list field: `remove ready from model.conditions`.
type Remove struct {
	Pos    lexer.Position
	Item   *Ident `parser:"'remove' @@"`
	From   *Path  `parser:"'from' @@"`
	EndPos lexer.Position
}

// Apply rolls on a table and runs the row it lands on. `using EXPR` gives
// the result instead of rolling; `row ID` picks a row; `reroll` lists rows
// that are rolled again.
type Apply struct {
	Pos    lexer.Position
	Table  *Ident   `parser:"'apply' @@"`
	Args   []*Arg   `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
	Using  *Expr    `parser:"( 'using' @@"`
	Row    *Ident   `parser:"| 'row' @@ )?"`
	Reroll []*Ident `parser:"( 'reroll' @@ ( ',' @@ )* )?"`
	EndPos lexer.Position
}

// Call runs another procedure.
type Call struct {
	Pos    lexer.Position
	Proc   *Ident `parser:"'call' @@"`
	Args   []*Arg `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	EndPos lexer.Position
}

// Choose asks a player (or a flag, or the default) to decide. `for EXPR`
// keys the choice, so that a choice asked once per fighter (or per item)
// can be answered for each: `--choose retire.vorst=true`.
type Choose struct {
	Pos      lexer.Position
	Name     *Ident       `parser:"'choose' @@"`
	Prompt   *Str         `parser:"@@"`
	Key      *Expr        `parser:"( 'for' @@ )?"`
	From     *Expr        `parser:"( 'from' @@"`
	Multi    *ChooseMulti `parser:"| @@ )?"` // split N among / pick K of (ast_choices.go)
	Recorded *Expr        `parser:"( 'recorded' @@ )?"`
	Default  *Expr        `parser:"'default' @@"`
	When     *Expr        `parser:"( 'when' @@ )?"`
	EndPos   lexer.Position
}

// Emit writes a message to the event log; {expr} parts are interpolated.
type Emit struct {
	Pos     lexer.Position
	Message *Str `parser:"'emit' @@"`
	EndPos  lexer.Position

	Parts []*TemplatePart // set by the checker
}

// TemplatePart is a piece of an emit message: literal text or an expression.
type TemplatePart struct {
	Text string
	Expr *Expr
}

// Signal raises an event for `on` effects.
type Signal struct {
	Pos    lexer.Position
	Event  *Ident `parser:"'signal' @@"`
	Args   []*Arg `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	EndPos lexer.Position
}

// Stop ends the current procedure.
type Stop struct {
	Pos    lexer.Position
	Stop   bool        `parser:"@'stop'"`
	Target *StopTarget `parser:"@@?"` // what it ends; nil: the current procedure
	EndPos lexer.Position
}

// Step is a named part of a procedure, a target for before/after/instead_of.
type Step struct {
	Pos    lexer.Position
	ID     *Ident `parser:"'step' @@"`
	Title  *Str   `parser:"@@?"`
	Body   *Block `parser:"@@"`
	EndPos lexer.Position
}

// Require ends the run with an error unless the condition holds: the rules'
// way to reject impossible input ("the target is already Out of Action").
// The message is a template, like emit's. In a table, requires are checked
// before anything is rolled, with only the parameters in scope.
type Require struct {
	Pos     lexer.Position
	Cond    *Expr `parser:"'require' @@"`
	Message *Str  `parser:"'else' @@"`
	EndPos  lexer.Position

	Parts []*TemplatePart // set by the checker
}

func (*Ruleset) node()          {}
func (*Extends) node()          {}
func (*Include) node()          {}
func (*Dice) node()             {}
func (*Faces) node()            {}
func (*Face) node()             {}
func (*Sum) node()              {}
func (*Digits) node()           {}
func (*Characteristic) node()   {}
func (*CharCheck) node()        {}
func (*CharNatural) node()      {}
func (*CharTarget) node()       {}
func (*CharField) node()        {}
func (*CharLimits) node()       {}
func (*ModelKind) node()        {}
func (*Status) node()           {}
func (*Carries) node()          {}
func (*Warn) node()             {}
func (*Enum) node()             {}
func (*Member) node()           {}
func (*StandIn) node()          {}
func (*Table) node()            {}
func (*TableRoll) node()        {}
func (*TableBy) node()          {}
func (*TableChoose) node()      {}
func (*Row) node()              {}
func (*RangeKey) node()         {}
func (*FaceKey) node()          {}
func (*Procedure) node()        {}
func (*Function) node()         {}
func (*Event) node()            {}
func (*Feature) node()          {}
func (*Property) node()         {}
func (*Flag) node()             {}
func (*House) node()            {}
func (*HouseRule) node()        {}
func (*Modify) node()           {}
func (*Reroll) node()           {}
func (*ExtraDice) node()        {}
func (*Override) node()         {}
func (*Hook) node()             {}
func (*On) node()               {}
func (*Replace) node()          {}
func (*TestDecl) node()         {}
func (*TestRules) node()        {}
func (*TestHouse) node()        {}
func (*TestState) node()        {}
func (*TestDice) node()         {}
func (*TestSeed) node()         {}
func (*TestChoose) node()       {}
func (*ChoiceKey) node()        {}
func (*TestRun) node()          {}
func (*TestExpectError) node()  {}
func (*TestExpectEmit) node()   {}
func (*TestExpectSignal) node() {}
func (*TestExpect) node()       {}
func (*SourceItem) node()       {}
func (*TextItem) node()         {}
func (*TitleItem) node()        {}
func (*Let) node()              {}
func (*Set) node()              {}
func (*Roll) node()             {}
func (*TestStmt) node()         {}
func (*If) node()               {}
func (*ForEach) node()          {}
func (*While) node()            {}
func (*Add) node()              {}
func (*Remove) node()           {}
func (*Apply) node()            {}
func (*Call) node()             {}
func (*Choose) node()           {}
func (*Emit) node()             {}
func (*Signal) node()           {}
func (*Stop) node()             {}
func (*Step) node()             {}
func (*Require) node()          {}
func (*Change) node()           {}

// Extends returns the ruleset's extends clause, if any.
func (r *Ruleset) Extends() *Extends {
	for _, it := range r.Items {
		if e, ok := it.(*Extends); ok {
			return e
		}
	}
	return nil
}

// StandIn returns the ruleset's stand-in clause, if any.
func (r *Ruleset) StandIn() *StandIn {
	for _, it := range r.Items {
		if s, ok := it.(*StandIn); ok {
			return s
		}
	}
	return nil
}

// Statuses returns the kind's statuses, in order.
func (k *ModelKind) Statuses() []*Status {
	var out []*Status
	for _, it := range k.Items {
		if s, ok := it.(*Status); ok {
			out = append(out, s)
		}
	}
	return out
}

// Members returns the enum's members, in order.
func (e *Enum) Members() []*Member {
	var out []*Member
	for _, it := range e.Items {
		if m, ok := it.(*Member); ok {
			out = append(out, m)
		}
	}
	return out
}

// Rules returns the house group's rules.
func (h *House) Rules() []*HouseRule {
	var out []*HouseRule
	for _, it := range h.Items {
		if r, ok := it.(*HouseRule); ok {
			out = append(out, r)
		}
	}
	return out
}
