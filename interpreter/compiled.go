package interpreter

import (
	"fmt"
	"sync/atomic"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// A compiledBlock is a block's statements compiled for the procedure
// they run in: each a closure that holds the statement and its plan (the
// slots, effects, callee, dice or characteristic it looks up by name,
// plans.go) and calls the statement's handler with them. Running a block
// is then a loop over closures: no type switch and no lookup of a plan
// per statement.
//
// The closures stay one per statement, by index, so that a run under
// checkpoints stops before statement i (checkpointAt) and a resumed one
// carries on at it (resume.go).
//
// Plans depend on the procedure a statement runs in (effects target
// "proc.name"), and a block may run in several: a table's rows run in
// the frame of whatever applied the table, an effect's body in "". A
// block is compiled once per (block, procedure) pair, on its first run,
// and kept in the Program (compiledBlock); its nested blocks (an if's, a
// loop's, a step's) run in the same procedure and are compiled with it.
type compiledBlock struct {
	block *syntax.Block
	stmts []stmtFunc // by index in block.Stmts
}

// stmtFunc runs one compiled statement in frame f and block scope sc.
type stmtFunc func(r *runner, f *frame, sc *blockScope) (control, error)

// compiledVersions are a block's compilations, one per procedure it has
// run in: a list a run prepends to (few blocks run in more than one).
type compiledVersions struct {
	first atomic.Pointer[compiledFor]
}

// compiledFor is a block compiled for procedure in.
type compiledFor struct {
	in   string
	cb   *compiledBlock
	next *compiledFor
}

// find is the block compiled for in, nil if it has not been.
func (v *compiledVersions) find(in string) *compiledBlock {
	for c := v.first.Load(); c != nil; c = c.next {
		if c.in == in {
			return c.cb
		}
	}
	return nil
}

// keep adds cb, compiled for in, unless a concurrent run has just added
// one: the first kept is the one every run uses.
func (v *compiledVersions) keep(in string, cb *compiledBlock) *compiledBlock {
	for {
		first := v.first.Load()
		for c := first; c != nil; c = c.next {
			if c.in == in {
				return c.cb
			}
		}
		if v.first.CompareAndSwap(first, &compiledFor{in: in, cb: cb, next: first}) {
			return cb
		}
	}
}

// indexBlocks makes an empty list of compilations for every block of the
// rules (Compile): after it the map is only read, without locks.
func (p *Program) indexBlocks() {
	p.blocks = map[*syntax.Block]*compiledVersions{}
	var walk func(b *syntax.Block)
	walk = func(b *syntax.Block) {
		if b == nil || p.blocks[b] != nil {
			return
		}
		p.blocks[b] = new(compiledVersions)
		for _, st := range b.Stmts {
			switch s := st.(type) {
			case *syntax.If:
				for cur := s; cur != nil; cur = cur.ElseIf {
					walk(cur.Then)
					walk(cur.Else)
				}
			case *syntax.ForEach:
				walk(s.Body)
			case *syntax.While:
				walk(s.Body)
			case *syntax.Step:
				walk(s.Body)
			}
		}
	}
	for _, proc := range p.idx.Procedures {
		walk(proc.Decl.Body)
	}
	for _, t := range p.idx.Tables {
		for _, row := range t.Rows {
			if row.Row != nil {
				walk(row.Row.Body)
			}
		}
	}
	for _, a := range p.idx.Actions {
		walk(a.Body)
	}
	for _, ef := range p.idx.Effects {
		switch it := ef.Item.(type) {
		case *syntax.Hook:
			walk(it.Body)
		case *syntax.On:
			walk(it.Body)
		}
	}
}

// compiledBlock is b compiled for procedure in, compiled on first use. A
// block the index does not have (none of the rules') is compiled anew.
func (p *Program) compiledBlock(b *syntax.Block, in string) *compiledBlock {
	v := p.blocks[b]
	if v == nil {
		return p.compileBlock(b, in)
	}
	if cb := v.find(in); cb != nil {
		return cb
	}
	return v.keep(in, p.compileBlock(b, in))
}

// compiledBody is compiledBlock kept in a pointer of its own (a
// procedure's plan, an effect): the body of a call or a hook is found
// with one load, where the Program's map hashes the key.
func (p *Program) compiledBody(at *atomic.Pointer[compiledBlock], b *syntax.Block, in string) *compiledBlock {
	if cb := at.Load(); cb != nil && cb.block == b {
		return cb
	}
	cb := p.compiledBlock(b, in)
	at.Store(cb)
	return cb
}

// compileBlock compiles a block's statements for procedure in.
func (p *Program) compileBlock(b *syntax.Block, in string) *compiledBlock {
	cb := &compiledBlock{block: b, stmts: make([]stmtFunc, len(b.Stmts))}
	for i, st := range b.Stmts {
		cb.stmts[i], _, _ = p.compileStmt(st, in)
	}
	return cb
}

// compileStmt is a statement's closure in procedure in, the plan it
// holds, and whether the statement is of a kind the interpreter runs
// (TestEveryStatementKindCompiles keeps every kind of the grammar one).
func (p *Program) compileStmt(st syntax.Stmt, in string) (stmtFunc, *stmtPlan, bool) {
	pl := p.newPlan(st, in)
	fn, ok := p.compileWith(st, in, pl)
	return fn, pl, ok
}

// compileWith is compileStmt with the statement's plan pl.
func (p *Program) compileWith(st syntax.Stmt, in string, pl *stmtPlan) (stmtFunc, bool) {
	switch s := st.(type) {
	case *syntax.SourceItem, *syntax.TextItem, *syntax.TitleItem:
		return func(*runner, *frame, *blockScope) (control, error) { return next, nil }, true
	case *syntax.Let:
		name := s.Name.Name
		return func(r *runner, f *frame, sc *blockScope) (control, error) {
			v, err := r.letValue(s, f, pl)
			if err != nil {
				return next, err
			}
			sc.declareAt(pl.slotIn(f, name), name, v)
			return next, nil
		}, true
	case *syntax.Set:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.set(s, f, pl)
		}, true
	case *syntax.Roll:
		name := s.Name.Name
		return func(r *runner, f *frame, sc *blockScope) (control, error) {
			slot := pl.slotIn(f, name)
			sc.hideAt(slot, name)
			v, err := r.roll(s, f, pl)
			if err != nil {
				return next, err
			}
			sc.declareAt(slot, name, v)
			return next, nil
		}, true
	case *syntax.TestStmt:
		name := s.Name.Name
		return func(r *runner, f *frame, sc *blockScope) (control, error) {
			slot := pl.slotIn(f, name)
			sc.hideAt(slot, name)
			pass, err := r.test(s, f, pl)
			if err != nil {
				return next, err
			}
			sc.declareAt(slot, name, pass)
			return next, nil
		}, true
	case *syntax.Change:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.change(s, f)
		}, true
	case *syntax.If:
		return p.compileIf(s, in), true
	case *syntax.ForEach:
		body := p.compiledBlock(s.Body, in)
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return r.forEach(s, body, f, pl.slotIn(f, s.Var.Name))
		}, true
	case *syntax.While:
		body := p.compiledBlock(s.Body, in)
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return r.while(s, body, f)
		}, true
	case *syntax.Add:
		if s.Until != nil {
			return func(r *runner, f *frame, _ *blockScope) (control, error) {
				return next, r.addUntil(s, f)
			}, true
		}
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.listEdit(f, pl, s.To, s.Item.Name, true, s.Pos)
		}, true
	case *syntax.Remove:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.listEdit(f, pl, s.From, s.Item.Name, false, s.Pos)
		}, true
	case *syntax.Apply:
		plan := p.newApplyPlan(s)
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.apply(s, plan, f)
		}, true
	case *syntax.Call:
		proc, plan := pl.call, pl.callPlan
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			args, err := r.args(f, s.Args, proc.Params)
			if err != nil {
				return next, err
			}
			_, err = r.callPlanned(proc, plan, args, f)
			r.releaseArgs(args)
			return next, err
		}, true
	case *syntax.Choose:
		name := s.Name.Name
		return func(r *runner, f *frame, sc *blockScope) (control, error) {
			v, err := r.choose(s, f)
			if err != nil {
				return next, err
			}
			sc.declareAt(pl.slotIn(f, name), name, v)
			return next, nil
		}, true
	case *syntax.Emit:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.emit(s, f)
		}, true
	case *syntax.Signal:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.signal(s, f, pl)
		}, true
	case *syntax.Stop:
		if s.Target != nil {
			return func(r *runner, f *frame, _ *blockScope) (control, error) {
				return next, r.stopTo(s, f)
			}, true
		}
		return func(*runner, *frame, *blockScope) (control, error) { return stopped, nil }, true
	case *syntax.Perform:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.perform(s, f)
		}, true
	case *syntax.Step:
		body := p.compiledBlock(s.Body, in)
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return r.runStep(s, pl.fx, body, f)
		}, true
	case *syntax.Require:
		return func(r *runner, f *frame, _ *blockScope) (control, error) {
			return next, r.require(f, s)
		}, true
	}
	// Not reachable from checked rules: every kind the grammar has is
	// compiled above (TestEveryStatementCompiles).
	return func(r *runner, f *frame, _ *blockScope) (control, error) {
		return next, r.errorAt(f, diag.CodeRunInternal, stmtSpan(st), fmt.Errorf("internal: unhandled statement %T", st))
	}, false
}

// ifArm is one condition of an if (or else if), the block it runs, and
// the else block that ends the chain at it, if any.
type ifArm struct {
	cond            *syntax.Expr
	then, otherwise *compiledBlock
}

// compileIf compiles an if with its else ifs and else: the first arm
// whose condition holds runs its block.
func (p *Program) compileIf(s *syntax.If, in string) stmtFunc {
	var arms []ifArm
	for cur := s; cur != nil; cur = cur.ElseIf {
		arm := ifArm{cond: cur.Cond, then: p.compiledBlock(cur.Then, in)}
		if cur.Else != nil {
			arm.otherwise = p.compiledBlock(cur.Else, in)
		}
		arms = append(arms, arm)
	}
	return func(r *runner, f *frame, _ *blockScope) (control, error) {
		for i := range arms {
			arm := &arms[i]
			ok, err := r.evalBool(f, arm.cond)
			if err != nil {
				return next, err
			}
			if ok {
				r.enterKnown(0)
				return r.block(arm.then, f)
			}
			if arm.otherwise != nil {
				r.enterKnown(0)
				return r.block(arm.otherwise, f)
			}
		}
		return next, nil
	}
}
