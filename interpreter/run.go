package interpreter

import (
	"errors"
	"fmt"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/fastexpr"
	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/slab"
	"github.com/munda-rules/munda/stdlib/state"
)

// Limits bound a run, so no rule pack can run forever or flood the log.
type Limits struct {
	Steps       int // statements executed
	Depth       int // nested procedure calls, table applications and effects
	DicePerRoll int // dice in one roll (a pool, extra dice)
	Rerolls     int // rolls again on one table application (apply … reroll)
	Events      int // events logged
	Text        int // bytes of text written into the state and the events
}

// orDefaults is l with every bound left at zero set to its default.
func (l Limits) orDefaults() Limits {
	for _, f := range []struct{ v, d *int }{
		{&l.Steps, &DefaultLimits.Steps}, {&l.Depth, &DefaultLimits.Depth}, {&l.DicePerRoll, &DefaultLimits.DicePerRoll},
		{&l.Rerolls, &DefaultLimits.Rerolls}, {&l.Events, &DefaultLimits.Events}, {&l.Text, &DefaultLimits.Text},
	} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	return l
}

// DefaultLimits are generous for any real End Phase or attack.
var DefaultLimits = Limits{Steps: 1_000_000, Depth: 64, DicePerRoll: 100, Rerolls: 1000, Events: 100_000, Text: 64 << 20}

// Options say where a run's dice, choices and events go.
type Options struct {
	Dice    DiceSource
	Choices ChoiceSource // nil: every choice takes its default
	Log     Log          // nil: events are not kept
	Limits  Limits       // a bound left at zero takes its DefaultLimits value
	// Lang picks translated titles for the narration ("cs"), where the
	// rules give them (`title cs "…"`).
	Lang string
	// Translation, when set, narrates in its language: titles and messages
	// from the rules' overlay (i18n/LANG.i18n) and munda's own words.
	Translation *i18n.Catalog
	// Checkpoint, if set, is called at the start of statements where the
	// run could be compared with others (see Checkpoint); returning true
	// pauses the run, which returns ErrPaused (IsPause) at once.
	// Exact odds use it to merge runs in the same configuration.
	Checkpoint func(Checkpoint) bool
	// CallEnds, with Checkpoint, also offers a checkpoint where a call,
	// apply or perform statement has completed (Checkpoint.Completed),
	// placed at the statement after it (past its block's last when it
	// was the last): exact odds' call memo pauses a run there.
	CallEnds bool
	// Signalled, if set, is told the id of each event signalled: what
	// odds of what happened count, without a Log's narration.
	Signalled func(event string)
	// Memory, if set, is where the run keeps itself (a Resumer's, as
	// ResumeWith uses it): a run in it allocates no runner, which was a
	// seventh of a Monte Carlo sample's garbage. The state run answers
	// through the run (State.Effects) until the next run or resume in the
	// same memory: run there only a state that is given up by then (the
	// Resumer's Buf), or call Release to keep it beyond. The lists and
	// boxes its runs make are cut from its slabs: Resumer.Recycle, once
	// nothing of a run is kept, lets the next cut the same memory again.
	Memory *Resumer
}

// A run that stops (a rule's require failed, a bound was hit, dice ran
// out, an expression failed) returns a *diag.Diagnostic with a run code
// (diag.CodeRun…): its subject is where in the rule file it stopped, its
// context the statement running, its Rule, Source and Stack the rule
// running, that rule's citation and the rules that called it; its Cause
// the error behind it, if any (a *ScriptError for dice). Its one-line
// form is "file:line:col: in procedure p: message (called from …)".

// Run runs a procedure on the state, changing it in place (clone it first
// to keep the original). args maps each parameter to its value: *Gang,
// *Model, *Weapon, int, bool or string (BindArgs builds them from text).
func (p *Program) Run(st *state.State, procName string, args map[string]any, opts Options) error {
	proc, err := p.Procedure(procName)
	if err != nil {
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunArgument, Summary: err.Error()}
	}
	r := newRunner(p, st, opts)
	r.root = proc
	defer r.done()
	for _, prm := range proc.Params {
		if _, ok := args[prm.Name]; !ok && prm.Default == nil {
			return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunArgument, Summary: fmt.Sprintf("procedure %s needs %s", proc.ID, prm.Name)}
		}
	}
	_, err = r.callProc(proc, r.argsFromMap(proc.Params, args), nil)
	return r.stopped(err)
}

// Apply rolls on a table (or applies one result) with the given
// arguments, as `apply` does: "roll me a Lasting Injury".
func (p *Program) Apply(st *state.State, tableName string, args map[string]any, using any, opts Options) error {
	_, err := p.ApplyRow(st, tableName, args, using, opts)
	return err
}

// ApplyRow is Apply, and says which row of the table the roll (or the
// result given) landed on: the row the table applied, not the rows that
// row applied in turn ("which Lasting Injury": exact odds of a table ask
// it). The row is "" when the run stopped before a row was found.
func (p *Program) ApplyRow(st *state.State, tableName string, args map[string]any, using any, opts Options) (string, error) {
	return p.applyRow(st, tableName, args, using, opts, false)
}

// RollRow rolls on a table and says which row it lands on, without doing
// what the row says: its requires are checked and its roll made (with
// the effects on it, and rows rolled again), and there it stops. When the
// row is all a question asks, that is all it needs to run.
func (p *Program) RollRow(st *state.State, tableName string, args map[string]any, opts Options) (string, error) {
	return p.applyRow(st, tableName, args, nil, opts, true)
}

func (p *Program) applyRow(st *state.State, tableName string, args map[string]any, using any, opts Options, rowOnly bool) (string, error) {
	t, err := p.Table(tableName)
	if err != nil {
		return "", &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunArgument, Summary: err.Error()}
	}
	r := newRunner(p, st, opts)
	r.rowOnly, r.root = rowOnly, t
	defer r.done()
	_, err = r.applyTable(t, r.argsFromMap(t.Params, args), using, "", nil, nil)
	return r.topRow, r.stopped(err)
}

// stopped makes sure a run's error is a diagnostic, whatever made it: an
// error that reached the top without one (a bug) is placed at the
// statement that was running.
func (r *runner) stopped(err error) error {
	if err == nil || err == ErrPaused {
		return err
	}
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return err
	}
	return r.errorAt(r.curFrame, diag.CodeRunInternal, stmtSpan(r.current()), err)
}

// runner is one run in progress.
type runner struct {
	p      *Program
	st     *state.State
	opts   Options
	limits Limits
	steps  int
	text   int // bytes of text written (see spend)
	depth  int
	seq    int
	stack  []string // rules running, innermost last
	active []string // procedures, tables and actions running, innermost last (for `stop ID`)
	// effects whose bodies are running: an effect never applies to the
	// rolls and tests of its own body (Inspirational's own Cool test).
	running map[*effect]bool
	frames  []*frame // released frames, for reuse
	// the arguments of the calls under way, by parameter (callargs.go)
	argVals  []any
	argGiven []bool
	// stacks is where the stacks above came from, and go back when the
	// run is done.
	stacks *runStacks
	gangs  any // st.Gangs, boxed once: every frame sees it
	// the statement running (curBlock.Stmts[curAt]: see current), and
	// its frame, for errors that arise away from it (the event limit,
	// nesting too deep). Kept as block and index, which change less
	// often than the statement: a pointer written costs a write barrier
	// while the collector runs, and stmts sets these at every statement.
	curBlock *syntax.Block
	curAt    int
	curFrame *frame
	values   *valueState  // see holds.go
	ck       *checkpoints // nil unless Options.Checkpoint is set (then &ckOwn)
	ckOwn    checkpoints
	topRow   string // the row of the table Program.ApplyRow applies
	rowOnly  bool   // Program.RollRow: stop once topRow is found
	// root is what the run runs: a *dsl.ProcInfo, *dsl.ActionInfo or
	// *dsl.TableInfo (a snapshot resumes it: resume.go).
	root any
	// resumeDepth is how many levels a resumed run started inside.
	resumeDepth int
	// exprs are the frames expressions run in (nil once the run is done:
	// the state may still ask the runner, which then uses a shared pool).
	exprs *fastexpr.Frames
	// mem cuts the dice, lists and modifiers a run keeps from slabs (nil
	// once the run is done: the slabs go back with the stacks)
	mem *runMem
	// held remembers which re-rolls of any roll some model holds, where
	// no statement of the run can change it (anyheld.go).
	held anyHeld
}

// runMem is the slabs a run cuts what it keeps from: the dice of every
// roll, the lists a pool of dice binds, and the modifiers in force.
type runMem struct {
	ints     slab.Slab[int]
	strs     slab.Slab[string]
	intList  slab.Slab[[]int]
	strList  slab.Slab[[]string]
	modifier slab.Slab[Modifier]
}

// rewind takes back what the slabs cut since the last rewind
// (slab.Slab.Rewind): nothing of the runs since is referenced any more.
func (m *runMem) rewind() {
	m.ints.Rewind()
	m.strs.Rewind()
	m.intList.Rewind()
	m.strList.Rewind()
	m.modifier.Rewind()
}

// forget gives what the slabs cut so far up to whoever holds it.
func (m *runMem) forget() {
	m.ints.Forget()
	m.strs.Forget()
	m.intList.Forget()
	m.strList.Forget()
	m.modifier.Forget()
}

// intsOf is make([]int, n), from the run's slab while it runs.
func (m *runMem) intsOf(n int) []int {
	if m == nil {
		return make([]int, n)
	}
	return m.ints.Make(n)
}

// modifiersOf is make([]Modifier, n), from the run's slab while it runs.
func (m *runMem) modifiersOf(n int) []Modifier {
	if m == nil {
		return make([]Modifier, n)
	}
	return m.modifier.Make(n)
}

// strsOf is make([]string, n), from the run's slab while it runs.
func (m *runMem) strsOf(n int) []string {
	if m == nil {
		return make([]string, n)
	}
	return m.strs.Make(n)
}

func newRunner(p *Program, st *state.State, opts Options) *runner {
	if rm := opts.Memory; rm != nil {
		return newRunnerIn(rm.runner(), p, st, opts, rm.runStacks())
	}
	return newRunnerIn(new(runner), p, st, opts, nil)
}

// newRunnerIn is newRunner in r's memory (a Resumer's), all of r
// overwritten, with the stacks rs (a Resumer's), or nil: from the pool,
// and back to it when the run is done.
func newRunnerIn(r *runner, p *Program, st *state.State, opts Options, rs *runStacks) *runner {
	return newRunnerBoxed(r, p, st, nil, opts, rs)
}

// newRunnerBoxed is newRunnerIn with st.Gangs boxed already (gangs; nil:
// boxed here): a resumed run's copy of the state has it boxed by its
// remap.
func newRunnerBoxed(r *runner, p *Program, st *state.State, gangs any, opts Options, rs *runStacks) *runner {
	if opts.Choices == nil {
		opts.Choices = Defaults{}
	}
	*r = runner{p: p, st: st, opts: opts, limits: opts.Limits.orDefaults()}
	if rs == nil {
		rs = stacksPool.Get().(*runStacks)
		rs.pooled = true
	} else if gangs == nil {
		// a Resumer's: its state buffer's gangs are the same list each
		// run, boxed once
		rs.gangs = dsl.BoxGangs(rs.gangs, st.Gangs)
		gangs = rs.gangs
	}
	if gangs == nil {
		gangs = st.Gangs
	}
	r.gangs = gangs
	r.stacks = rs
	r.argVals, r.argGiven, r.stack, r.active, r.frames = rs.vals, rs.given, rs.stack, rs.active, rs.frames
	r.running, r.values = rs.running, rs.values
	if rs.mem == nil {
		rs.mem = new(runMem)
	}
	r.mem = rs.mem
	if rs.exprs == nil {
		rs.exprs = new(fastexpr.Frames)
	}
	r.exprs = rs.exprs
	if r.running == nil {
		r.running = map[*effect]bool{}
	}
	if opts.Checkpoint != nil {
		r.ckOwn = checkpoints{hook: opts.Checkpoint, levels: rs.levels, bases: &rs.bases, callEnds: opts.CallEnds}
		r.ck = &r.ckOwn
	}
	if st != nil {
		// has_skill and its kin and stat read the state through the run.
		st.Effects = r
	}
	return r
}

// framePool keeps frames between runs: odds and simulations make many
// short runs, and a frame's slots are the bulk of a run's garbage.
var framePool = sync.Pool{New: func() any {
	return &frame{natural: map[string]int{}, rolled: map[string][]int{}}
}}

// done gives the run's frames back to the pool. Nothing refers to them
// once the run has returned.
func (r *runner) done() {
	for _, f := range r.frames {
		f.forget()
	}
	rs := r.stacks
	if rs == nil {
		for _, f := range r.frames {
			framePool.Put(f)
		}
		r.frames = nil
		return
	}
	clear(r.argVals[:cap(r.argVals)])
	clear(r.stack[:cap(r.stack)])
	clear(r.active[:cap(r.active)])
	clear(r.running)
	if r.values != nil {
		clear(r.values.asking)
	}
	levels := rs.levels
	if r.ck != nil && r.ck.levels != nil {
		levels = r.ck.levels
		r.ck.levels = nil
	}
	clear(levels[:cap(levels)])
	clear(rs.scopes[:cap(rs.scopes)])
	clear(rs.hidden[:cap(rs.hidden)])
	clear(rs.resumed[:cap(rs.resumed)])
	pooled, gangs := rs.pooled, rs.gangs
	*rs = runStacks{pooled: pooled, gangs: gangs, vals: r.argVals[:0], given: r.argGiven[:0], stack: r.stack[:0], active: r.active[:0], frames: r.frames,
		running: r.running, values: r.values, levels: levels[:0], scopes: rs.scopes[:0],
		rowChances: rs.rowChances[:0], rowInfos: rs.rowInfos[:0], exprs: r.exprs, hidden: rs.hidden[:0], resumed: rs.resumed[:0],
		loopBufs: rs.loopBufs, keyedBufs: rs.keyedBufs, mem: r.mem, spare: rs.spare, freeScopes: rs.freeScopes,
		freeCheckedScopes: rs.freeCheckedScopes, bases: rs.bases}
	r.mem = nil
	r.argVals, r.argGiven, r.stack, r.active, r.frames, r.stacks, r.exprs = nil, nil, nil, nil, nil, nil, nil
	r.running, r.values = nil, nil // the state may still ask the runner (Effects), which reads them only
	if pooled {
		// A Resumer's stacks stay its own: its slabs may rewind.
		stacksPool.Put(rs)
	}
}

// runStacks are what a run grows as it goes and leaves empty when it
// ends: the stacks of call arguments (callargs.go), of rules and of the
// constructs running, the released frames (each reset), the effects
// running and the values being answered (holds.go). They are
// kept between runs, a sample of odds making many: growing them again was
// a run's largest garbage after its frames.
type runStacks struct {
	vals          []any
	given         []bool
	stack, active []string
	frames        []*frame
	running       map[*effect]bool
	values        *valueState
	levels        []ckLevel    // checkpoints.levels
	scopes        []blockScope // the scopes of the levels a run resumed in
	resumed       []any        // the items of their for each loops
	// decideRow's rows (cleared after each use)
	rowChances []RowChance
	rowInfos   []*dsl.RowInfo
	exprs      *fastexpr.Frames // the frames the rules' expressions run in
	mem        *runMem          // runner.mem
	// the lists of for each loops that are done, for the next loops
	// (forEach), and the lists of the keys of ordered ones
	loopBufs  [][]any
	keyedBufs [][]keyedItem
	spare     *pool        // a pool a roll of several dice may use (rollPool)
	hidden    []hiddenName // the names blocks hide (blockScope.shared)
	// the scopes of blocks run without checkpoints, free for the next
	// (block)
	freeScopes []*blockScope
	// and those of blocks run under checkpoints (blockChecked)
	freeCheckedScopes []*blockScope
	// the lists of slots checkpoints' levels keep (ckLevel.base)
	bases [][]int
	// decideRow's request, and that of the die being rolled (rollDice):
	// reused, and kept here, out of the runner each run allocates
	rowReq RowRequest
	dieReq DieRequest
	pooled bool // from stacksPool, not a Resumer's
	gangs  any  // a Resumer's runs' state's gangs, boxed (dsl.BoxGangs)
}

var stacksPool = sync.Pool{New: func() any { return new(runStacks) }}

// checkedScope is an empty scope of f for a block under checkpoints, one that
// ended if there is one. It is the block's alone until freeCheckedScope: a
// level holds it while the block runs, and a snapshot copies what it
// hides (remap.scope).
func (rs *runStacks) checkedScope(f *frame) *blockScope {
	if n := len(rs.freeCheckedScopes); n > 0 {
		sc := rs.freeCheckedScopes[n-1]
		rs.freeCheckedScopes = rs.freeCheckedScopes[:n-1]
		sc.f = f
		return sc
	}
	return &blockScope{f: f}
}

// freeCheckedScope takes back the scope of a block that has ended (restored),
// its list of hidden names emptied but kept.
func (rs *runStacks) freeCheckedScope(sc *blockScope) {
	clear(sc.hidden)
	sc.f, sc.hidden = nil, sc.hidden[:0]
	rs.freeCheckedScopes = append(rs.freeCheckedScopes, sc)
}

// newFrame starts a frame, reusing a released one: a run makes a frame for
// every procedure call and table roll.
func (r *runner) newFrame(rule, source, proc string) *frame {
	f := r.emptyFrame()
	f.rule, f.source, f.proc = rule, source, proc
	f.fillGlobals(r.st, r.gangs)
	return f
}

// emptyFrame is a released frame, or a new one, numbered as the rules
// running (released frames may have run other rules: stacks are pooled).
func (r *runner) emptyFrame() *frame {
	var f *frame
	if n := len(r.frames); n > 0 {
		f = r.frames[n-1]
		r.frames = r.frames[:n-1]
	} else {
		f = framePool.Get().(*frame)
	}
	f.slots = r.p.idx.Slots
	return f
}

// release gives a frame back for reuse once nothing refers to it.
func (r *runner) release(f *frame) {
	f.reset()
	r.frames = append(r.frames, f)
}

// control says how a statement ended.
type control int

const (
	next control = iota
	stopped
)

// span is a stretch of a rule file.
type span struct{ start, end lexer.Position }

// point is a span of one place.
func point(p lexer.Position) span { return span{p, p} }

// spanOf is where a node of the syntax tree is.
func spanOf(n any) span {
	start, end := syntax.Span(n)
	return span{start, end}
}

// stmtSpan is where a statement is (nothing, for none).
func stmtSpan(st syntax.Stmt) span {
	if st == nil {
		return span{}
	}
	return spanOf(st)
}

// codedError is a problem that knows its diagnostic code but not its
// place: a bound hit, a dice or choice source that failed. errorAt places
// it, keeping its code.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func coded(code string, err error) error {
	if err == nil || err == ErrPaused {
		return err
	}
	var ce *codedError
	var d *diag.Diagnostic
	if errors.As(err, &ce) || errors.As(err, &d) || IsPause(err) {
		return err
	}
	return &codedError{code, err}
}

// errorAt stops the run with a diagnostic: code (unless err knows its
// own), the place in the rule file, the statement running around it, and
// the rule, its source and the stack of rules running. An error that is
// already a diagnostic passes through: it was placed where it arose. So
// do a `stop` and a pause (ErrPaused), which are no errors of the rules.
func (r *runner) errorAt(f *frame, code string, at span, err error) error {
	if err == ErrPaused { // at once: errors.As below allocates
		return err
	}
	var d *diag.Diagnostic
	var stop *stopSignal
	if errors.As(err, &d) || errors.As(err, &stop) || IsPause(err) {
		return err
	}
	cause := err
	var ce *codedError
	if errors.As(err, &ce) {
		code, cause = ce.code, ce.err
	}
	d = &diag.Diagnostic{Severity: diag.Error, Code: code, Summary: err.Error(), Cause: cause}
	if f != nil {
		d.Rule, d.Source = f.rule, f.source
	}
	if at.start.Filename != "" {
		end := at.end
		if end.Filename != at.start.Filename {
			end = at.start
		}
		d.Subject = diag.RangeOf(at.start, end)
		if st := stmtSpan(r.current()); st.start.Filename == at.start.Filename {
			if ctx := diag.RangeOf(st.start, st.end); ctx.Contains(d.Subject) {
				d.Context = ctx
			}
		}
	}
	// The stack, innermost first, with the callers' repeats folded: a rule
	// calling itself 64 times is one line, not 64. The innermost rule is
	// the one the error is in, so it stays on its own.
	if n := len(r.stack); n > 0 {
		d.Stack = append(d.Stack, r.stack[n-1])
	}
	for i := len(r.stack) - 2; i >= 0; {
		j := i
		for j > 0 && r.stack[j-1] == r.stack[i] {
			j--
		}
		if n := i - j + 1; n > 1 {
			d.Stack = append(d.Stack, fmt.Sprintf("%s (×%d)", r.stack[i], n))
		} else {
			d.Stack = append(d.Stack, r.stack[i])
		}
		i = j - 1
	}
	return d
}

// logLazy records an event, building it only if someone listens: runs
// without a log (odds, simulations, benchmarks) skip the narration.
func (r *runner) logLazy(f *frame, build func() *Event) error {
	if r.opts.Log == nil {
		return r.count()
	}
	return r.log(f, build())
}

// logging reports whether events are kept.
func (r *runner) logging() bool { return r.opts.Log != nil }

// count counts an event against the limit.
func (r *runner) count() error {
	r.seq++
	if r.seq > r.limits.Events {
		err := fmt.Errorf("the run logged more than %d events (the limit)", r.limits.Events)
		return r.errorAt(r.curFrame, diag.CodeRunLimit, stmtSpan(r.current()), err)
	}
	return nil
}

// spend counts bytes of text a run writes (into the state, or into its
// events) against the limit, so no pack can fill memory or a terminal by
// writing a long text many times over.
func (r *runner) spend(n int) error {
	r.text += n
	if r.text > r.limits.Text {
		err := fmt.Errorf("the run wrote more than %d bytes of text (the limit)", r.limits.Text)
		return r.errorAt(r.curFrame, diag.CodeRunLimit, stmtSpan(r.current()), err)
	}
	return nil
}

// log records an event.
func (r *runner) log(f *frame, e *Event) error {
	if err := r.count(); err != nil {
		return err
	}
	if err := r.spend(len(e.Text)); err != nil {
		return err
	}
	if r.opts.Log == nil {
		return nil
	}
	e.Seq = r.seq
	// A rule's own line (its call, its row, its effect) heads what it
	// does, which is indented under it.
	e.Depth = len(r.stack)
	switch e.Kind {
	case EventCall, EventSkip, EventApply, EventEffect:
		e.Depth--
	}
	if e.Depth < 0 {
		e.Depth = 0
	}
	if f != nil {
		if e.Rule == "" {
			e.Rule = f.rule
		}
		// A call or a row is the rule it names; a signal is raised by a
		// rule, which tools reporting it want to cite.
		if e.Source == "" && (e.Kind == EventCall || e.Kind == EventApply || e.Kind == EventSignal) {
			e.Source = f.source
		}
	}
	r.opts.Log.Event(e)
	return nil
}

// enter and leave track the rules running, bounding their depth.
func (r *runner) enter(rule string) error {
	if len(r.stack) >= r.limits.Depth {
		return coded(diag.CodeRunLimit, fmt.Errorf("rules nested more than %d deep (the limit): a procedure or table may be calling itself without end", r.limits.Depth))
	}
	r.stack = append(r.stack, rule)
	return nil
}

func (r *runner) leave() { r.stack = r.stack[:len(r.stack)-1] }

// step counts a statement against the step limit.
func (r *runner) step() error {
	r.steps++
	if r.steps > r.limits.Steps {
		if r.limits.Steps < DefaultLimits.Steps {
			return coded(diag.CodeRunLimit, fmt.Errorf("the run took more than %d steps, the limit it was given: raise it (--max-steps)", r.limits.Steps))
		}
		return coded(diag.CodeRunLimit, fmt.Errorf("the run took more than %d steps (the limit): a loop may not end", r.limits.Steps))
	}
	return nil
}

// title is a declaration's title in the narration's language.
func (r *runner) title(m syntax.Meta, fallback string) string {
	if t, ok := r.opts.Translation.Title(fallback); ok {
		return t
	}
	return m.Title(r.opts.Lang, fallback)
}

// charTitle and diceTitle translate what has no Meta of its own.
func (r *runner) charTitle(ci *dsl.CharInfo) string {
	if t, ok := r.opts.Translation.Title(ci.Title); ok {
		return t
	}
	if r.opts.Lang == "" || ci.Decl == nil {
		return ci.Title
	}
	return r.title(syntax.MetaOf(ci.Decl.Items), ci.Title)
}

func (r *runner) diceTitle(d *dsl.DiceInfo) string {
	if t, ok := r.opts.Translation.Title(d.Title); ok {
		return t
	}
	if r.opts.Lang == "" || d.Decl == nil {
		return d.Title
	}
	return r.title(syntax.MetaOf(d.Decl.Items), d.Title)
}

// at notes the statement running: b's i-th, in frame f. It writes a
// pointer only where it changes.
func (r *runner) at(b *syntax.Block, i int, f *frame) {
	if r.curBlock != b {
		r.curBlock = b
	}
	if r.curFrame != f {
		r.curFrame = f
	}
	r.curAt = i
}

// current is the statement running, nil before the first.
func (r *runner) current() syntax.Stmt {
	if r.curBlock == nil || r.curAt >= len(r.curBlock.Stmts) {
		return nil
	}
	return r.curBlock.Stmts[r.curAt]
}

// diceErrorAt is errorAt for an error of the dice source at a statement
// n: a pause (ErrPaused), which exact odds make at most decisions, passes
// before n's span is found (by reflection, which allocates).
func (r *runner) diceErrorAt(f *frame, n any, err error) error {
	if err == ErrPaused {
		return err
	}
	return r.errorAt(f, diag.CodeRunDice, spanOf(n), err)
}
