package dsl

import (
	"path"
	"strings"
)

// TestInfo is a checked `test` block, ready for the test runner.
type TestInfo struct {
	Decl *TestDecl
	Pack *LoadedPack
	File *File
	Name string

	Rules  string   // the base ruleset to run under, if the test names one
	Houses []string // house toggles, as on the command line
	// The state: a file of the pack (StatePath, relative to the pack root)
	// or given inline (InlineState).
	StatePath   string
	InlineState string
	Dice        []*DieValue
	Seed        *int
	Choices     map[string]*Expr
	Run         *TestRun
	Expects     []*Expr
	ExpectError []string
	ExpectEmit  []string
}

func (c *checker) checkTests() {
	names := map[string]*TestDecl{}
	choices := keys(c.idx.Choices)
	for _, t := range c.idx.Tests {
		d := t.Decl
		t.Name = d.Name.Value()
		if prev, ok := names[t.Name]; ok && prev.Pos.Filename == d.Pos.Filename {
			c.diags.errorf(CodeDuplicateID, rangeOf(d.Name.Pos, d.Name.EndPos), "test %q appears twice in this file (first at line %d)", t.Name, prev.Pos.Line)
		}
		names[t.Name] = d
		t.Choices = map[string]*Expr{}
		sc := newScope(c.globals)
		hasState := false
		for _, it := range d.Items {
			switch it := it.(type) {
			case *TestRules:
				t.Rules = it.ID.Name
			case *TestHouse:
				for _, tg := range it.Rules {
					s := tg.Ref.String()
					if tg.Off {
						s = "-" + s
					}
					t.Houses = append(t.Houses, s)
				}
			case *TestState:
				if hasState {
					c.diags.errorf(CodeTestError, rangeOf(it.Pos, it.EndPos), "a test has one state")
				}
				hasState = true
				if strings.HasPrefix(it.Source.Raw, "`") {
					t.InlineState = it.Source.Value()
					continue
				}
				rel, err := packRelative(path.Dir(t.File.Rel), it.Source.Value())
				if err != nil {
					c.diags.errorf(CodeTestError, rangeOf(it.Source.Pos, it.Source.EndPos), "state: %v", err)
					continue
				}
				if _, err := t.Pack.Pack.ReadFile(rel); err != nil {
					c.diags.errorf(CodeTestError, rangeOf(it.Source.Pos, it.Source.EndPos), "state file %s: %v", t.Pack.Pack.DisplayPath(rel), unwrapPathError(err))
					continue
				}
				t.StatePath = rel
			case *TestDice:
				t.Dice = append(t.Dice, it.Values...)
				for _, v := range it.Values {
					if v.Face != nil && !c.isFace(v.Face.Name) {
						c.unknown(identRange(v.Face), "dice face", v.Face.Name, c.allFaces())
					}
				}
			case *TestSeed:
				n := it.Seed.Value()
				t.Seed = &n
			case *TestChoose:
				if !c.idx.Choices[it.Name.Name] {
					c.unknown(identRange(it.Name), "choice", it.Name.Name, choices)
				}
				if _, dup := t.Choices[it.Name.Name]; dup {
					c.diags.errorf(CodeTestError, identRange(it.Name), "choice %s is answered twice", it.Name.Name)
				}
				t.Choices[it.Name.Name] = it.Value
				c.compile(it.Value, sc, nil, "")
			case *TestRun:
				if t.Run != nil {
					c.diags.errorf(CodeTestError, rangeOf(it.Pos, it.EndPos), "a test runs one procedure")
					continue
				}
				t.Run = it
				// A test runs a procedure, or applies a table (rolling on it).
				switch d := c.lookup(nsCore, it.Proc.Name).(type) {
				case *Procedure:
					c.args(it.Args, c.procParams[d].Params, sc, "procedure "+d.ID.Name, rangeOf(it.Pos, it.EndPos), true)
				case *Table:
					if info := c.tableInfo[d]; info != nil {
						if info.Lookup {
							c.diags.errorf(CodeTestError, identRange(it.Proc), "table %s gives a value; test it with expect %s(…) instead", d.ID.Name, d.ID.Name)
						}
						c.args(it.Args, info.Params, sc, "table "+d.ID.Name, rangeOf(it.Pos, it.EndPos), true)
					}
				default:
					var cands []string
					cands = append(cands, c.ofKind("procedure")...)
					cands = append(cands, c.ofKind("table")...)
					c.unknown(identRange(it.Proc), "procedure or table", it.Proc.Name, cands)
				}
			case *TestExpect:
				t.Expects = append(t.Expects, it.Cond)
				c.compile(it.Cond, sc, typeBool, "an expectation")
			case *TestExpectError:
				t.ExpectError = append(t.ExpectError, it.Text.Value())
			case *TestExpectEmit:
				t.ExpectEmit = append(t.ExpectEmit, it.Text.Value())
			}
		}
		if t.Run == nil {
			c.diags.errorf(CodeTestError, rangeOf(d.Name.Pos, d.Name.EndPos), "test %q runs nothing: add `run PROCEDURE(…)`", t.Name)
		}
		if !hasState {
			c.diags.errorf(CodeTestError, rangeOf(d.Name.Pos, d.Name.EndPos), "test %q has no state: add `state \"file.yaml\"` or an inline `state` in backquotes", t.Name)
		}
		if t.Seed != nil && len(t.Dice) > 0 {
			c.diags.errorf(CodeTestError, rangeOf(d.Name.Pos, d.Name.EndPos), "test %q gives both scripted dice and a seed", t.Name)
		}
		if len(t.Expects)+len(t.ExpectError)+len(t.ExpectEmit) == 0 {
			c.diags.errorf(CodeTestError, rangeOf(d.Name.Pos, d.Name.EndPos), "test %q expects nothing, so it cannot fail", t.Name)
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
