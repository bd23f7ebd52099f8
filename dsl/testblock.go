package dsl

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// TestInfo is a checked `test` block, ready for the test runner.
type TestInfo struct {
	Decl *syntax.TestDecl
	Pack *LoadedPack
	File *syntax.File
	Name string

	Rules  string   // the base ruleset to run under, if the test names one
	Houses []string // house toggles, as on the command line
	// The state: a file of the pack (StatePath, relative to the pack root)
	// or given inline (InlineState).
	StatePath   string
	InlineState string
	Dice        []*syntax.DieValue
	Seed        *int
	Choices     map[string]*syntax.Expr
	Run         *syntax.TestRun
	Expects     []*syntax.Expr
	ExpectError []string
	ExpectEmit  []string
	// ExpectNoEmit are messages the log must not hold (`expect not emit`).
	ExpectNoEmit []string
	// ExpectSignals are events the run must (or, Not, must not) signal.
	ExpectSignals []SignalExpectation
}

func (c *checker) checkTests() {
	names := map[string]*syntax.TestDecl{}
	choices := keys(c.idx.Choices)
	for _, t := range c.idx.Tests {
		d := t.Decl
		t.Name = d.Name.Value()
		if prev, ok := names[t.Name]; ok && prev.Pos.Filename == d.Pos.Filename {
			c.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(d.Name.Pos, d.Name.EndPos), "test %q appears twice in this file (first at line %d)", t.Name, prev.Pos.Line)
		}
		names[t.Name] = d
		t.Choices = map[string]*syntax.Expr{}
		sc := newScope(c.globals)
		hasState := false
		for _, it := range d.Items {
			switch it := it.(type) {
			case *syntax.TestRules:
				t.Rules = it.ID.Name
				c.testRuleset(it.ID)
			case *syntax.TestHouse:
				for _, tg := range it.Rules {
					s := tg.Ref.String()
					if tg.Off {
						s = "-" + s
					}
					t.Houses = append(t.Houses, s)
					c.testHouse(tg.Ref)
				}
			case *syntax.TestState:
				if hasState {
					c.diags.errorf(diag.CodeTestError, diag.RangeOf(it.Pos, it.EndPos), "a test has one state")
				}
				hasState = true
				if strings.HasPrefix(it.Source.Raw, "`") {
					t.InlineState = it.Source.Value()
					// Read now, so a state that does not parse is found by
					// check, at its place, not when the test runs.
					if err := c.checkInlineState(t.InlineState); err != nil {
						d := c.diags.errorf(diag.CodeTestError, diag.RangeOf(it.Source.Pos, it.Source.EndPos), "the inline state is not a valid state")
						d.Detail = inlineStateProblems(err, it.Source.Pos.Line)
					}
					continue
				}
				rel, err := packRelative(path.Dir(t.File.Rel), it.Source.Value())
				if err != nil {
					c.diags.errorf(diag.CodeTestError, diag.RangeOf(it.Source.Pos, it.Source.EndPos), "state: %v", err)
					continue
				}
				if _, err := t.Pack.Pack.ReadFile(rel, state.MaxStateBytes); err != nil {
					c.diags.errorf(diag.CodeTestError, diag.RangeOf(it.Source.Pos, it.Source.EndPos), "state file %s: %v", t.Pack.Pack.DisplayPath(rel), unwrapPathError(err))
					continue
				}
				t.StatePath = rel
			case *syntax.TestDice:
				t.Dice = append(t.Dice, it.Values...)
				for _, v := range it.Values {
					if v.Face != nil && !c.isFace(v.Face.Name) {
						c.unknown(identRange(v.Face), "dice face", v.Face.Name, c.allFaces())
					}
				}
			case *syntax.TestSeed:
				n := it.Seed.Value()
				t.Seed = &n
			case *syntax.TestChoose:
				if !c.idx.Choices[it.Name.Name] {
					c.unknown(identRange(it.Name), "choice", it.Name.Name, choices)
				}
				name := it.Name.Name
				if len(it.Key) > 0 {
					name += "." + it.KeyText()
				}
				if _, dup := t.Choices[name]; dup {
					c.diags.errorf(diag.CodeTestError, identRange(it.Name), "choice %s is answered twice", name)
				}
				t.Choices[name] = it.Value
				c.compile(it.Value, sc, nil, "")
			case *syntax.TestRun:
				if t.Run != nil {
					c.diags.errorf(diag.CodeTestError, diag.RangeOf(it.Pos, it.EndPos), "a test runs one procedure")
					continue
				}
				t.Run = it
				// A test runs a procedure, or applies a table (rolling on it).
				switch d := c.lookup(nsCore, it.Proc.Name).(type) {
				case *syntax.Procedure:
					c.args(it.Args, c.procParams[d].Params, sc, "procedure "+d.ID.Name, diag.RangeOf(it.Pos, it.EndPos), true)
				case *syntax.Table:
					if info := c.tableInfo[d]; info != nil {
						if info.Lookup {
							c.diags.errorf(diag.CodeTestError, identRange(it.Proc), "table %s gives a value; test it with expect %s(…) instead", d.ID.Name, d.ID.Name)
						}
						c.args(it.Args, info.Params, sc, "table "+d.ID.Name, diag.RangeOf(it.Pos, it.EndPos), true)
					}
				default:
					if a := c.idx.Actions[it.Proc.Name]; a != nil {
						c.args(it.Args, a.Params, sc, "action "+a.ID, diag.RangeOf(it.Pos, it.EndPos), true)
						break
					}
					var cands []string
					cands = append(cands, c.ofKind("procedure")...)
					cands = append(cands, c.ofKind("table")...)
					cands = append(cands, keys(c.idx.Actions)...)
					c.unknown(identRange(it.Proc), "procedure, table or action", it.Proc.Name, cands)
				}
			case *syntax.TestExpect:
				t.Expects = append(t.Expects, it.Cond)
				c.compile(it.Cond, sc, typeBool, "an expectation")
			case *syntax.TestExpectError:
				t.ExpectError = append(t.ExpectError, it.Text.Value())
			case *syntax.TestExpectEmit:
				if it.Not {
					t.ExpectNoEmit = append(t.ExpectNoEmit, it.Text.Value())
				} else {
					t.ExpectEmit = append(t.ExpectEmit, it.Text.Value())
				}
			case *syntax.TestExpectSignal:
				if _, ok := c.lookup(nsCore, it.Event.Name).(*syntax.Event); !ok {
					c.unknown(identRange(it.Event), "event", it.Event.Name, c.ofKind("event"))
				}
				t.ExpectSignals = append(t.ExpectSignals, SignalExpectation{Event: it.Event.Name, Not: it.Not})
			}
		}
		if t.Run == nil {
			c.diags.errorf(diag.CodeTestError, diag.RangeOf(d.Name.Pos, d.Name.EndPos), "test %q runs nothing: add `run PROCEDURE(…)`", t.Name)
		}
		if !hasState {
			c.diags.errorf(diag.CodeTestError, diag.RangeOf(d.Name.Pos, d.Name.EndPos), "test %q has no state: add `state \"file.yaml\"` or an inline `state` in backquotes", t.Name)
		}
		if t.Seed != nil && len(t.Dice) > 0 {
			c.diags.errorf(diag.CodeTestError, diag.RangeOf(d.Name.Pos, d.Name.EndPos), "test %q gives both scripted dice and a seed", t.Name)
		}
		if len(t.Expects)+len(t.ExpectError)+len(t.ExpectEmit)+len(t.ExpectNoEmit)+len(t.ExpectSignals) == 0 {
			c.diags.errorf(diag.CodeTestError, diag.RangeOf(d.Name.Pos, d.Name.EndPos), "test %q expects nothing, so it cannot fail", t.Name)
		}
	}
}

func (c *checker) isFace(id string) bool {
	for _, d := range c.idx.Dice {
		if _, ok := d.Face(id); ok {
			return true
		}
	}
	return false
}

func (c *checker) allFaces() []string {
	var out []string
	for _, d := range c.idx.Dice {
		for _, f := range d.Faces {
			if f.ID != "" {
				out = append(out, f.ID)
			}
		}
	}
	return out
}

// testRuleset checks that a test's `rules` names a ruleset there is.
func (c *checker) testRuleset(id *syntax.Ident) {
	if len(c.rules.Rulesets) == 0 || slices.Contains(c.rules.Rulesets, NormalizeID(id.Name)) {
		return
	}
	c.unknown(identRange(id), "ruleset", id.Name, c.rules.Rulesets)
}

// testHouse checks that a test's `house` names a house group there is,
// and, when the group is loaded, one of its rules.
func (c *checker) testHouse(ref *syntax.Ref) {
	house := NormalizeID(ref.Name.Name)
	if h := c.idx.Houses[house]; h != nil {
		if ref.Member == nil {
			return
		}
		var ids []string
		for _, r := range h.Rules() {
			if r.ID.Name == NormalizeID(ref.Member.Name) {
				return
			}
			ids = append(ids, r.ID.Name)
		}
		c.unknown(identRange(ref.Member), "rule of house "+house, ref.Member.Name, ids)
		return
	}
	if slices.Contains(c.rules.Available, house) {
		return // shipped, loaded when the test runs
	}
	c.unknown(identRange(ref.Name), "house", ref.Name.Name, append(keys(c.idx.Houses), c.rules.Available...))
}

// inlineStateProblems lists what is wrong with an inline state, with the
// lines counted in the rule file (the state starts on line first).
func inlineStateProblems(err error, first int) string {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if rest, ok := strings.CutPrefix(l, "state:"); ok {
			if n, tail, ok := strings.Cut(rest, ":"); ok {
				if k, convErr := strconv.Atoi(n); convErr == nil {
					l = fmt.Sprintf("line %d:%s", first+k-1, tail)
				}
			}
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// SignalExpectation is `expect signal EVENT` (or `expect not signal`).
type SignalExpectation struct {
	Event string
	Not   bool
}
