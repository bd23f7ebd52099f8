package interpreter

import (
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// TestPlansFoundByStatement compiles every statement of the shipped
// rules in two procedures' names and checks that each compiles (is of a
// kind the interpreter runs), that its closure holds the plan of the
// procedure asked, and that the plan holds what the statement looks up
// by name.
func TestPlansFoundByStatement(t *testing.T) {
	p := shippedProgram(t)
	stmts := shippedStmts(p)
	if len(stmts) < 1000 {
		t.Fatalf("only %d statements in the shipped rules", len(stmts))
	}
	for _, in := range []string{"", "end_phase"} {
		for _, st := range stmts {
			fn, pl, ok := p.compileStmt(st, in)
			if !ok || fn == nil {
				t.Fatalf("%T at %v: not compiled", st, stmtSpan(st).start)
			}
			if pl.in != in {
				t.Fatalf("the plan of %T at %v in %q is in %q", st, stmtSpan(st).start, in, pl.in)
			}
			checkPlan(t, p, st, in, pl)
		}
	}
}

// shippedStmts are the statements of the shipped rules: in procedures,
// tables and effects.
func shippedStmts(p *Program) []syntax.Stmt {
	var stmts []syntax.Stmt
	collect := func(n any) bool {
		if b, ok := n.(*syntax.Block); ok {
			stmts = append(stmts, b.Stmts...)
		}
		return true
	}
	for _, proc := range p.idx.Procedures {
		syntax.Inspect(proc.Decl, collect)
	}
	for _, tb := range p.idx.Tables {
		syntax.Inspect(tb.Decl, collect)
	}
	for _, ef := range p.idx.Effects {
		syntax.Inspect(ef.Item, collect)
	}
	for _, a := range p.idx.Actions {
		syntax.Inspect(a.Feature, collect)
	}
	return stmts
}

// checkPlan compares a plan with what the walk looked up by name before
// plans.
func checkPlan(t *testing.T, p *Program, st syntax.Stmt, in string, pl *stmtPlan) {
	t.Helper()
	slots := p.idx.Slots
	wantSlot := func(name string) {
		t.Helper()
		if pl.slots != slots || pl.slot != slotOf(slots, name) {
			t.Errorf("%T %s at %v: slot %d, want %d", st, name, stmtSpan(st).start, pl.slot, slotOf(slots, name))
		}
	}
	wantFx := func(name string) {
		t.Helper()
		target, fx := p.siteEffectsOf(st, in, name)
		if pl.target != target || pl.fx != fx {
			t.Errorf("%T %s at %v in %q: effects on %q, want %q", st, name, stmtSpan(st).start, in, pl.target, target)
		}
	}
	switch s := st.(type) {
	case *syntax.Let:
		wantSlot(s.Name.Name)
		wantFx(s.Name.Name)
	case *syntax.Roll:
		wantSlot(s.Name.Name)
		wantFx(s.Name.Name)
		if s.Dice != nil && pl.dice != p.idx.Dice[s.Dice.Name] {
			t.Errorf("roll %s: dice %v, want %s", s.Name.Name, pl.dice, s.Dice.Name)
		}
	case *syntax.TestStmt:
		wantSlot(s.Name.Name)
		wantFx(s.Name.Name)
		if ci := p.idx.Characteristics[s.Char.Name]; pl.char != ci || pl.charFx != p.effectsOn(ci.ID) {
			t.Errorf("test %s: characteristic or its effects not %s's", s.Name.Name, s.Char.Name)
		}
	case *syntax.Choose:
		wantSlot(s.Name.Name)
	case *syntax.ForEach:
		wantSlot(s.Var.Name)
	case *syntax.Set:
		wantSlot(s.Target.Parts[0].Name)
	case *syntax.Add:
		wantSlot(s.To.Parts[0].Name)
	case *syntax.Remove:
		wantSlot(s.From.Parts[0].Name)
	case *syntax.Step:
		wantFx(s.ID.Name)
	case *syntax.Call:
		proc := p.idx.Procedures[s.Proc.Name]
		if pl.call != proc || pl.callPlan != p.procPlanOf(proc) {
			t.Errorf("call %s: procedure or plan not its own", s.Proc.Name)
		}
	case *syntax.Signal:
		ev := p.idx.Events[s.Event.Name]
		if pl.event != ev || len(pl.handlers) != len(p.on[s.Event.Name]) || len(pl.eventParams) != len(p.eventParams[s.Event.Name]) {
			t.Errorf("signal %s: event, parameters or handlers not its own", s.Event.Name)
		}
	default:
		if pl.slot != -1 || pl.call != nil || pl.dice != nil || pl.char != nil || pl.event != nil {
			t.Errorf("%T at %v: a plan of what it does not look up", st, stmtSpan(st).start)
		}
	}
}

// shippedProgram is the default stack of the shipped rules, compiled.
func shippedProgram(t testing.TB) *Program {
	t.Helper()
	rules, diags := rulesets.Load(rulesets.Selection{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
