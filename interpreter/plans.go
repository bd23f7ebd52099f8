package interpreter

import (
	"sync/atomic"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// stmtPlan is what running a statement looks up by name, found once: the
// slot of the name it binds, the effects on it, the procedure it calls,
// the dice it rolls, the characteristic it tests, the event it signals.
// Looked up by name at every run, these were a tenth of a Monte Carlo
// End Phase's time outside its expressions (string hashes of the
// Program's and Index's maps, and the slot caches).
//
// A plan is made when a statement is compiled for a procedure (in, as
// the frame names it: "" in an effect's body: compiled.go) and kept by
// the statement's closure; what it holds never changes for the Program.
type stmtPlan struct {
	in string // the procedure running it (frame.proc)
	// slot is the slot of the name the statement binds (a let's, a
	// roll's, a test's, a choice's, a for each's variable) in slots, the
	// numbering of the Program's frames.
	slots *dsl.Slots
	slot  int
	// target and fx are effectsOf's answer for the statement in in.
	target string
	fx     *targetEffects
	// a call's procedure and its plan
	call     *dsl.ProcInfo
	callPlan *procPlan
	// a roll's dice (nil for `one of`)
	dice *dsl.DiceInfo
	// a test's characteristic, and the effects on every test of it
	char   *dsl.CharInfo
	charFx *targetEffects
	// a signal's event, its parameters, and its handlers
	event       *syntax.Event
	eventParams []dsl.ParamInfo
	handlers    []*effect
	// setter is the typed setter of a set's, add's or remove's path
	// (setterOf): nil until resolved, noSetter for none.
	setter atomic.Pointer[fieldSetter]
}

// noSetter is a plan's setter where the path has no typed setter.
var noSetter = new(fieldSetter)

// setterOf is the typed setter of the path of a set, add or remove
// statement (nil for none), kept in the statement's plan pl: one lookup
// where the setters' map hashed the path's interface. Without a plan (pl
// nil) it is looked up in the map.
func (r *runner) setterOf(pl *stmtPlan, path *syntax.Path, obj any) *fieldSetter {
	if pl == nil {
		return r.p.setters.setterFor(path, obj)
	}
	if fs := pl.setter.Load(); fs != nil {
		if fs == noSetter {
			return nil
		}
		return fs
	}
	if obj == nil {
		return nil // no type to resolve for yet
	}
	fs := r.p.setters.setterFor(path, obj)
	if fs == nil {
		pl.setter.Store(noSetter)
	} else {
		pl.setter.Store(fs)
	}
	return fs
}

// newPlan finds what a statement looks up, as the run would.
func (p *Program) newPlan(st syntax.Stmt, in string) *stmtPlan {
	pl := &stmtPlan{in: in, slots: p.idx.Slots, slot: -1}
	bind := func(name string) { pl.slot = slotOf(p.idx.Slots, name) }
	switch s := st.(type) {
	case *syntax.Let:
		bind(s.Name.Name)
		pl.target, pl.fx = p.siteEffectsOf(s, in, s.Name.Name)
	case *syntax.Roll:
		bind(s.Name.Name)
		pl.target, pl.fx = p.siteEffectsOf(s, in, s.Name.Name)
		if s.Dice != nil {
			pl.dice = p.idx.Dice[s.Dice.Name]
		}
	case *syntax.TestStmt:
		bind(s.Name.Name)
		pl.target, pl.fx = p.siteEffectsOf(s, in, s.Name.Name)
		if ci := p.idx.Characteristics[s.Char.Name]; ci != nil {
			pl.char, pl.charFx = ci, p.effectsOn(ci.ID)
		}
	case *syntax.Choose:
		bind(s.Name.Name)
	case *syntax.Set: // the object its path starts at
		bind(s.Target.Parts[0].Name)
	case *syntax.Add:
		bind(s.To.Parts[0].Name)
	case *syntax.Remove:
		bind(s.From.Parts[0].Name)
	case *syntax.ForEach:
		bind(s.Var.Name)
	case *syntax.Step:
		pl.target, pl.fx = p.siteEffectsOf(s, in, s.ID.Name)
	case *syntax.Call:
		if proc := p.idx.Procedures[s.Proc.Name]; proc != nil {
			pl.call, pl.callPlan = proc, p.procPlanOf(proc)
		}
	case *syntax.Signal:
		if ev := p.idx.Events[s.Event.Name]; ev != nil {
			pl.event, pl.eventParams, pl.handlers = ev, p.eventParams[ev.ID.Name], p.on[ev.ID.Name]
		}
	}
	return pl
}

// slotIn is the plan's slot of its name in frame f, or, where f numbers
// names otherwise, the name's slot there.
func (pl *stmtPlan) slotIn(f *frame, name string) int {
	if f.slots == pl.slots && pl.slot >= 0 {
		return pl.slot
	}
	return slotOf(f.slots, name)
}
