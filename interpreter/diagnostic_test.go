package interpreter_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// A run that stops returns a diagnostic: a code for what stopped it, the
// statement in the rule file, the rule running, its source and the stack.
func TestRunDiagnostics(t *testing.T) {
	const rules = `dice d6 "D6" {
  faces 1, 2, 3, 4, 5, 6
}

table small(bonus: int) "Small" {
  source "Rulebook, p. 2"
  roll d6 + bonus
  1-6 any "Any" {}
}

procedure outer(gang) "Outer" {
  call inner(gang)
}

procedure inner(gang) "Inner" {
  source "Rulebook, p. 1"
  require gang.starting_crew > 100 else "{gang.name} is too small"
}

procedure forever() "Forever" {
  call forever()
}

procedure roll_on() "Roll on" {
  apply small(10)
}

procedure pick(gang) "Pick" {
  choose who "Who?" from gang.models default nil
  emit "{who}"
}

procedure divide(gang) "Divide" {
  let n = gang.models[5].name
  emit "{n}"
}

procedure many() "Many" {
  roll _xs = (1000) d6
}
`
	p := programOf(t, rules)
	for _, c := range []struct {
		proc, dice, code, summary, rule, source, subject string
		stack                                            int
	}{
		{"outer", "", diag.CodeRunRequireFailed, "G is too small", "procedure inner", "Rulebook, p. 1", `require gang.starting_crew > 100 else "{gang.name} is too small"`, 2},
		{"forever", "", diag.CodeRunLimit, "rules nested more than 64 deep", "procedure forever", "", "call forever()", 2},
		{"many", "", diag.CodeRunLimit, "cannot roll 1000 dice", "procedure many", "", "roll _xs = (1000) d6", 1},
		{"roll_on", "6", diag.CodeRunTableRow, "table small has no row for 16", "table small", "Rulebook, p. 2", `table small(bonus: int) "Small"`, 2},
		{"roll_on", "", diag.CodeRunDice, "the dice script ran out", "table small", "Rulebook, p. 2", `table small(bonus: int) "Small"`, 2},
		{"pick", "", diag.CodeRunChoice, "choice who has no options", "procedure pick", "", "choose who", 1},
		{"divide", "", diag.CodeRunExpr, "", "procedure divide", "", "", 1},
	} {
		t.Run(c.code, func(t *testing.T) {
			st := &state.State{Gangs: []*state.Gang{{ID: "g", Name: "G", StartingCrew: 2}}}
			if c.proc == "divide" {
				st.Gangs[0].StartingCrew = 0
			}
			args := map[string]any{}
			if strings.Contains(rules, "procedure "+c.proc+"(gang)") {
				args["gang"] = st.Gangs[0]
			}
			var dice interpreter.DiceSource = interpreter.NewSeeded(1)
			if c.dice != "" || c.code == diag.CodeRunDice {
				s := &interpreter.Scripted{}
				if c.dice != "" {
					var err error
					if s, err = interpreter.ParseScript(c.dice); err != nil {
						t.Fatal(err)
					}
				}
				dice = s
			}
			err := p.Run(st, c.proc, args, interpreter.Options{Dice: dice})
			var d *diag.Diagnostic
			if !errors.As(err, &d) {
				t.Fatalf("want a *diag.Diagnostic, got %T: %v", err, err)
			}
			if d.Code != c.code || !strings.Contains(d.Summary, c.summary) || d.Rule != c.rule || d.Source != c.source || len(d.Stack) != c.stack {
				t.Errorf("got %s %q, rule %q, source %q, stack %q", d.Code, d.Summary, d.Rule, d.Source, d.Stack)
			}
			if d.Subject == nil || d.Subject.Filename != "rules.munda" || d.Subject.Start.Line == 0 {
				t.Fatalf("no place in the rule file: %+v", d.Subject)
			}
			if got := rules[d.Subject.Start.Offset:d.Subject.End.Offset]; c.subject != "" && !strings.HasPrefix(got, c.subject) {
				t.Errorf("subject %q, want %q", got, c.subject)
			}
			if d.Stack[0] != d.Rule {
				t.Errorf("the stack starts with %q, not the rule", d.Stack[0])
			}
			if !strings.HasPrefix(d.Error(), d.Subject.String()+": in "+d.Rule+": ") {
				t.Errorf("one line: %q", d.Error())
			}
		})
	}
	// The dice script's own error is still there to be found.
	err := p.Run(&state.State{}, "roll_on", nil, interpreter.Options{Dice: &interpreter.Scripted{}})
	var se *interpreter.ScriptError
	if !errors.As(err, &se) {
		t.Errorf("errors.As finds no ScriptError in %v", err)
	}
	// What is not a run of the rules: an unknown procedure, a missing argument.
	for _, proc := range []string{"nowhere", "outer"} {
		err := p.Run(&state.State{}, proc, nil, interpreter.Options{Dice: interpreter.NewSeeded(1)})
		var d *diag.Diagnostic
		if !errors.As(err, &d) || d.Code != diag.CodeRunArgument {
			t.Errorf("%s: want a %s diagnostic, got %v", proc, diag.CodeRunArgument, err)
		}
	}
}

// The error event that ends a failed run's log carries its diagnostic.
func TestErrorEvent(t *testing.T) {
	d := &diag.Diagnostic{Code: diag.CodeRunLimit, Summary: "too deep", Rule: "procedure p", Source: "S",
		Subject: &diag.Range{Filename: "r.munda", Start: diag.Pos{Line: 3, Column: 2}}}
	e := interpreter.ErrorEvent(d, 7)
	if e.Seq != 7 || e.Kind != interpreter.EventError || e.Rule != "procedure p" || e.Source != "S" || e.At != "r.munda:3:2" || e.Text != "too deep" || e.Diagnostic != d {
		t.Errorf("%+v", e)
	}
}
