package interpreter

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// ---------------------------------------------------------------------------
// Procedures, steps and hooks.

// callProc runs a procedure: its when, its before hooks, its body (or an
// instead_of hook), its after hooks.
func (r *runner) callProc(proc *dsl.ProcInfo, args callArgs, caller *frame) (control, error) {
	return r.callPlanned(proc, r.p.procPlanOf(proc), args, caller)
}

// callPlanned is callProc with the procedure's plan found (a call
// statement's plan keeps it).
func (r *runner) callPlanned(proc *dsl.ProcInfo, plan *procPlan, args callArgs, caller *frame) (control, error) {
	rule := plan.rule
	if err := r.enter(rule); err != nil {
		return next, r.errorAt(caller, diag.CodeRunLimit, callSite(r.current(), proc.Decl.Pos), err)
	}
	defer r.leave()
	r.activate(proc.ID)
	defer r.deactivate()
	f := r.newFrame(rule, proc.Meta.Source, proc.ID)
	defer r.release(f)
	// One return after the defers, so that Go inlines them (a defer is
	// cheap only where returns × defers stay few).
	return next, r.runProc(proc, plan, args, f)
}

// runProc is callProc in the procedure's frame f.
func (r *runner) runProc(proc *dsl.ProcInfo, plan *procPlan, args callArgs, f *frame) error {
	shown, err := r.bindParamSlots(f, proc.Params, plan, args)
	if err != nil {
		return err
	}
	d := proc.Decl
	if d.When != nil {
		ok, err := r.evalBool(f, d.When)
		if err != nil {
			return err
		}
		if !ok {
			return r.logLazy(f, func() *Event {
				return &Event{Kind: EventSkip, Name: proc.ID, Args: shown,
					Text: fmt.Sprintf("%s (%s): %s", r.title(proc.Meta, proc.Title), strings.Join(shown, ", "), r.say("not_needed", "not needed"))}
			})
		}
	}
	if err := r.logLazy(f, func() *Event {
		text := r.title(proc.Meta, proc.Title)
		if len(shown) > 0 {
			text += " (" + strings.Join(shown, ", ") + ")"
		}
		return &Event{Kind: EventCall, Name: proc.ID, Args: shown, At: at(d.Pos), Text: text}
	}); err != nil {
		return r.errorAt(f, diag.CodeRunLimit, point(d.Pos), err)
	}
	if err := r.hookedBody(plan.fx, r.p.compiledBody(&plan.body, proc.Decl.Body, proc.ID), f); err != nil {
		if !isStopOf(err, proc.ID) {
			return err
		}
	}
	return r.hooks(plan.fx.after, f)
}

// hookedBody runs the before hooks of a procedure or action, and its body
// or an instead_of hook in its place (fx: the effects on it): what
// `stop ID` naming it ends.
func (r *runner) hookedBody(fx *targetEffects, body *compiledBlock, f *frame) error {
	if len(fx.before) > 0 {
		if err := r.hooks(fx.before, f); err != nil {
			return err
		}
	}
	if len(fx.instead) > 0 {
		replaced, err := r.instead(fx.instead, f)
		if err != nil || replaced {
			return err
		}
	}
	r.enterKnown(0)
	_, err := r.block(body, f)
	return err
}

// callSite is where the statement that calls something is, or else where
// the thing called is declared.
func callSite(st syntax.Stmt, fallback lexerPos) span {
	if sp := stmtSpan(st); sp.start.Filename != "" {
		return sp
	}
	return point(fallback)
}

// exprSpan is where an expression's error is: the whole expression when
// the error is at its start, else the place expr names.
func exprSpan(e *syntax.Expr, pos lexerPos) span {
	if pos == e.Pos {
		return spanOf(e)
	}
	return point(pos)
}

// bindParams puts arguments into a new frame, evaluating the defaults of
// those not given, and returns them as shown in the narration.
func (r *runner) bindParams(f *frame, params []dsl.ParamInfo, args callArgs) ([]string, error) {
	var shown []string
	for i, prm := range params {
		v, ok := args.vals[i], args.given[i]
		if !ok && prm.Default != nil {
			var err error
			if v, err = r.eval(f, prm.Default); err != nil {
				return nil, err
			}
		}
		f.set(prm.Name, v)
		if r.logging() && (ok || prm.Default == nil) && !r.isDefault(f, prm, v) {
			shown = append(shown, prm.Name+": "+display(v))
		}
	}
	return shown, nil
}

// bindParamSlots is bindParams with the parameters' slots found at
// Compile, where the frame numbers its names as the plan does.
func (r *runner) bindParamSlots(f *frame, params []dsl.ParamInfo, plan *procPlan, args callArgs) ([]string, error) {
	if f.slots != plan.slots || len(plan.params) != len(params) || r.logging() {
		return r.bindParams(f, params, args)
	}
	for i, prm := range params {
		v, ok := args.vals[i], args.given[i]
		if !ok && prm.Default != nil {
			var err error
			if v, err = r.eval(f, prm.Default); err != nil {
				return nil, err
			}
		}
		f.setSlot(plan.params[i], v)
	}
	return nil, nil
}

// isDefault reports whether v is the parameter's default: the narration
// names what differs from it ("range: long"), not every setting.
func (r *runner) isDefault(f *frame, prm dsl.ParamInfo, v any) bool {
	if prm.Default == nil {
		return false
	}
	d, err := r.eval(f, prm.Default)
	return err == nil && reflect.DeepEqual(d, v)
}

// hooks runs before/after hooks whose when holds, in the target's frame.
func (r *runner) hooks(list []*effect, f *frame) error {
	for _, ef := range list {
		h := ef.info.Item.(*syntax.Hook)
		ok, restore, err := r.effectApplies(ef, h.When, f)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		err = r.runEffectBody(ef, h.Body, f, timingText(h.Timing), h.Target)
		restore()
		if err != nil {
			return err
		}
	}
	return nil
}

// instead runs the first instead_of hook whose when holds, reporting
// whether one did (and so replaced what it targets).
func (r *runner) instead(list []*effect, f *frame) (bool, error) {
	for _, ef := range list {
		h := ef.info.Item.(*syntax.Hook)
		ok, restore, err := r.effectApplies(ef, h.When, f)
		if err != nil {
			return false, err
		}
		if ok {
			defer restore()
			return true, r.runEffectBody(ef, h.Body, f, "instead of ", h.Target)
		}
	}
	return false, nil
}

// runEffectBody runs a hook's statements in the frame of what it targets,
// under the effect's name. The narration says what it is and its target
// ("after " and bottle_check), joined only when it is logged.
func (r *runner) runEffectBody(ef *effect, body *syntax.Block, f *frame, what string, target fmt.Stringer) error {
	rule := ef.owner
	if err := r.enter(rule); err != nil {
		return r.errorAt(f, diag.CodeRunLimit, point(body.Pos), err)
	}
	defer r.leave()
	if err := r.logLazy(f, func() *Event {
		return &Event{Kind: EventEffect, Rule: rule, Source: ef.source, At: at(body.Pos),
			Text: fmt.Sprintf("%s: %s%s", titleOf(ef.owner), what, target)}
	}); err != nil {
		return err
	}
	// The body sees the target's names, but its rolls, tests, lets and
	// steps are its own: an effect on P.x must not reach an x declared in
	// a hook of P (the checker resolves P.x in P alone).
	savedRule, savedProc, savedSource := f.rule, f.proc, f.source
	f.rule, f.proc, f.source = rule, "", ef.source
	r.running[ef] = true
	defer func() {
		f.rule, f.proc, f.source = savedRule, savedProc, savedSource
		delete(r.running, ef)
	}()
	_, err := r.block(r.p.compiledBody(&ef.body, body, ""), f)
	return err
}

// timingText is a hook's timing as the narration starts it ("before "),
// without joining strings for the common ones.
func timingText(timing string) string {
	switch timing {
	case "before":
		return "before "
	case "after":
		return "after "
	}
	return timing + " "
}

// identText is an identifier as a fmt.Stringer (one pointer: no
// allocation to make it one).
type identText struct{ id *syntax.Ident }

func (t identText) String() string { return t.id.Name }

func titleOf(owner string) string {
	if len(owner) == 0 {
		return owner
	}
	return strings.ToUpper(owner[:1]) + owner[1:]
}

// ---------------------------------------------------------------------------
// Blocks and statements.

// block runs statements in order. Names a block declares that hide
// outer ones are restored when it ends, with what natural.NAME and
// rolled.NAME said of them. Without checkpoints (every run but exact
// odds) the block's scope is one the run reuses: no allocation, no defer.
func (r *runner) block(b *compiledBlock, f *frame) (control, error) {
	if r.ck != nil {
		return r.blockChecked(b, f)
	}
	// The scope is one the run keeps (the compiled statements it is
	// given to are closures, so a scope on Go's stack would escape).
	// Such a scope holds only its frame and where its names start in
	// the run's stack (its hidden stays nil, its shared the run's): only
	// what differs is written, which spares the collector's write
	// barriers, and a free scope may keep its last frame.
	rs := r.stacks
	var sc *blockScope
	if n := len(rs.freeScopes); n > 0 {
		sc, rs.freeScopes = rs.freeScopes[n-1], rs.freeScopes[:n-1]
		if sc.f != f {
			sc.f = f
		}
		sc.base = len(rs.hidden)
	} else {
		sc = &blockScope{f: f, shared: &rs.hidden, base: len(rs.hidden)}
	}
	ctl, err := r.stmts(b, f, sc, 0)
	sc.restore()
	rs.freeScopes = append(rs.freeScopes, sc)
	return ctl, err
}

// blockChecked is block under checkpoints, which keep each block's scope
// (its hidden names are part of what a run's configuration is, and a
// resumed run carries on in it).
//
// Its scope is one the run reuses too: nothing keeps a level's scope once
// the block is done (a snapshot copies it: remap.scope), and a scope
// each were a third of exact odds' allocations.
func (r *runner) blockChecked(b *compiledBlock, f *frame) (control, error) {
	sc := r.stacks.checkedScope(f)
	r.ck.push(b, f, sc)
	ctl, err := r.stmts(b, f, sc, 0)
	r.ck.pop()
	sc.restore()
	r.stacks.freeCheckedScope(sc)
	return ctl, err
}

// stmts runs a block's compiled statements from the one at index from (a
// resumed run starts past 0: see resume.go).
func (r *runner) stmts(cb *compiledBlock, f *frame, sc *blockScope, from int) (control, error) {
	b, checked := cb.block, r.ck != nil // no run sets or drops r.ck while running
	for i := from; i < len(cb.stmts); i++ {
		if checked {
			if err := r.checkpointAt(i); err != nil {
				return next, err
			}
		}
		r.at(b, i, f)
		if err := r.step(); err != nil {
			return next, r.errorAt(f, diag.CodeRunLimit, stmtSpan(b.Stmts[i]), err)
		}
		ctl, err := cb.stmts[i](r, f, sc)
		if err != nil {
			return next, err
		}
		if ctl == stopped {
			return stopped, nil
		}
		if checked && r.ck.callEnds {
			if err := r.callEndAt(b, i); err != nil {
				return next, err
			}
		}
	}
	return next, nil
}

// blockScope remembers the outer values of the names a block hides.
type blockScope struct {
	f      *frame
	hidden []hiddenName // each name at most once; nil until one is hidden
	// shared, when not nil, holds the hidden names instead, from base
	// on: blocks without checkpoints nest, so their names are a stack
	// the run keeps (runStacks.hidden), and a block allocates nothing.
	shared *[]hiddenName
	base   int
}

type hiddenName struct {
	name    string
	value   any
	natural int
	rolled  []int
	// hadRoll: the outer name was a roll or test (natural and rolled
	// say something of it).
	hadRoll bool
}

// hide saves an outer name before the block declares its own, once per
// name: call it before a roll or test sets natural.NAME.
func (sc *blockScope) hide(name string) {
	old, ok := sc.f.get(name)
	if !ok {
		return // nothing outer to hide
	}
	sc.keep(name, old)
}

// keep is hide of a name whose outer value is old.
func (sc *blockScope) keep(name string, old any) {
	hidden := sc.hidden
	if sc.shared != nil {
		hidden = (*sc.shared)[sc.base:]
	}
	for i := range hidden {
		if hidden[i].name == name {
			return
		}
	}
	n, hadRoll := sc.f.natural[name]
	h := hiddenName{name: name, value: old, natural: n, rolled: sc.f.rolled[name], hadRoll: hadRoll}
	if sc.shared != nil {
		*sc.shared = append(*sc.shared, h)
		return
	}
	sc.hidden = append(sc.hidden, h)
}

// declare binds a name in the block.
func (sc *blockScope) declare(name string, v any) {
	sc.declareAt(slotOf(sc.f.slots, name), name, v)
}

// declareAt is declare of a name whose slot in the frame is i.
func (sc *blockScope) declareAt(i int, name string, v any) {
	if old, ok := sc.f.getSlot(i); ok {
		sc.keep(name, old)
	}
	sc.f.setSlot(i, v)
}

// hideAt is hide of a name whose slot in the frame is i.
func (sc *blockScope) hideAt(i int, name string) {
	if old, ok := sc.f.getSlot(i); ok {
		sc.keep(name, old)
	}
}

// restore brings back the outer names when the block ends.
func (sc *blockScope) restore() {
	hidden := sc.hidden
	if sc.shared != nil {
		hidden = (*sc.shared)[sc.base:]
	}
	if len(hidden) == 0 {
		return // most blocks hide nothing: nothing to write back
	}
	for _, h := range hidden {
		sc.f.set(h.name, h.value)
		if h.hadRoll {
			sc.f.natural[h.name], sc.f.rolled[h.name] = h.natural, h.rolled
		} else {
			delete(sc.f.natural, h.name)
			delete(sc.f.rolled, h.name)
		}
	}
	if sc.shared != nil {
		clear(hidden)
		*sc.shared = (*sc.shared)[:sc.base]
	}
}

// emit renders a message into the narration.
func (r *runner) emit(s *syntax.Emit, f *frame) error {
	// Messages are for people: without a log they are not rendered.
	if !r.logging() {
		return r.count()
	}
	parts, err := r.translatedParts(f, s)
	if err != nil {
		return err
	}
	text, err := r.template(f, parts)
	if err != nil {
		return err
	}
	return r.logLazy(f, func() *Event { return &Event{Kind: EventEmit, At: at(s.Pos), Text: text} })
}

// runStep runs a named step with its hooks (fx: the effects on it) and
// its body, compiled.
func (r *runner) runStep(s *syntax.Step, fx *targetEffects, body *compiledBlock, f *frame) (control, error) {
	if err := r.logLazy(f, func() *Event {
		title := s.ID.Name
		if s.Title != nil {
			title = r.translatedText(s.Title.Value(), f)
		}
		return &Event{Kind: EventStep, Name: s.ID.Name, At: at(s.Pos), Text: "— " + title + " —"}
	}); err != nil {
		return next, err
	}
	if err := r.hooks(fx.before, f); err != nil {
		return next, err
	}
	replaced, err := r.instead(fx.instead, f)
	if err != nil {
		return next, err
	}
	ctl := next
	if !replaced {
		r.enterKnown(0)
		if ctl, err = r.block(body, f); err != nil {
			return next, err
		}
	}
	if err := r.hooks(fx.after, f); err != nil {
		return next, err
	}
	return ctl, nil
}

// letValue evaluates a let, or an override of it that is in force.
//
// Overrides are looked at highest layer first; the first layer with one
// in force decides. Every override of it whose when holds is evaluated:
// equal values agree; of different ones, the let's `prefer highest|lowest`
// picks, else the higher priority (the checker makes sure there is one).
func (r *runner) letValue(s *syntax.Let, f *frame, pl *stmtPlan) (any, error) {
	var chosen *effect
	var v any
	target, fx := pl.target, pl.fx
	for _, ef := range fx.override {
		if chosen != nil && ef.info.Layer < chosen.info.Layer {
			break
		}
		o := ef.info.Item.(*syntax.Override)
		ok, restore, err := r.effectApplies(ef, o.When, f)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		w, err := r.eval(f, o.Value)
		restore()
		if err != nil {
			return nil, err
		}
		if chosen == nil || (!reflect.DeepEqual(v, w) && preferred(s.Prefer, w, v)) {
			chosen, v = ef, w
		}
	}
	if ef := chosen; ef != nil {
		o := ef.info.Item.(*syntax.Override)
		if err := r.logLazy(f, func() *Event {
			return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, At: at(o.Pos), Name: s.Name.Name,
				Value: jsonValue(v), Text: fmt.Sprintf("%s: %s = %s", titleOf(ef.owner), s.Name.Name, display(v))}
		}); err != nil {
			return nil, err
		}
		return r.modifyLet(s, f, v, target, fx)
	}
	v, err := r.eval(f, s.Value)
	if err != nil {
		return nil, err
	}
	return r.modifyLet(s, f, v, target, fx)
}

// modifyLet adds the modifiers in force on a numeric let ("one extra
// Injury dice"): those of fx, the effects on the let (target).
func (r *runner) modifyLet(s *syntax.Let, f *frame, v any, target string, fx *targetEffects) (any, error) {
	if len(fx.modify) == 0 {
		return v, nil
	}
	if isList(v) {
		return r.appendModifiers(s, f, target, v)
	}
	n, err := toInt(v)
	if err != nil {
		return nil, r.errorAt(f, diag.CodeRunEffect, spanOf(s), fmt.Errorf("%s is modified, but it is %s, not a number or a list", s.Name.Name, display(v)))
	}
	mod, mods, events, err := r.modifiersCounted(fx, f, 0, "")
	if err != nil {
		return nil, err
	}
	if !r.logging() {
		for range events { // each modifier is an event, as logged below
			if err := r.count(); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range mods {
		if err := r.logLazy(f, func() *Event {
			return &Event{Kind: EventEffect, Rule: m.Owner, Name: s.Name.Name,
				Text: fmt.Sprintf("%s: %s %+d", titleOf(m.Owner), s.Name.Name, m.By)}
		}); err != nil {
			return nil, err
		}
	}
	return n + mod, nil
}

func (r *runner) forEach(s *syntax.ForEach, body *compiledBlock, f *frame, slot int) (control, error) {
	listV, err := r.eval(f, s.List)
	if err != nil {
		return next, err
	}
	// The items live only as long as the loop (a checkpoint's level
	// holds them while it runs, and a snapshot copies them: remap.loop):
	// a list made here (of a typed slice, or sorted) is a reused buffer,
	// given back at the end. What the loop takes it gives back on every return, without defers
	// (too many returns for Go to inline them: a loop's defers were a
	// percent and a half of a Monte Carlo End Phase).
	buf := r.takeLoopBuf()
	old, hadOld := f.getSlot(slot)
	ctl, err := r.eachOf(s, body, f, slot, listV, &buf, old, hadOld)
	if hadOld {
		f.setSlot(slot, old)
	}
	r.giveLoopBuf(&buf)
	return ctl, err
}

// eachOf is forEach of the list listV, its items made in *buf, the
// name's outer value old (if hadOld).
func (r *runner) eachOf(s *syntax.ForEach, body *compiledBlock, f *frame, slot int, listV any, buf *[]any, old any, hadOld bool) (control, error) {
	items, err := toListInto(listV, buf)
	if err != nil {
		return next, r.errorAt(f, diag.CodeRunExpr, spanOf(s.List), fmt.Errorf("for each: %v", err))
	}
	if s.OrderBy != nil {
		if items, err = r.orderBy(s, f, slot, items, buf); err != nil {
			return next, err
		}
	}
	kept := r.hashLoop(items, s.Var.Name, old, hadOld)
	return r.eachFrom(s, body, f, slot, loopAt{items: items, old: old, hadOld: hadOld}, kept)
}

// orderBy sorts a for each's items by its key, into *buf.
func (r *runner) orderBy(s *syntax.ForEach, f *frame, slot int, items []any, buf *[]any) ([]any, error) {
	// Each item with its key, sorted stably in one list (the same
	// comparisons as sort.SliceStable makes with less).
	// The keys' list is one of the run's, given back once sorted
	// (ordered loops nest: a stack of them).
	rs := r.stacks
	var keyed []keyedItem
	if n := len(rs.keyedBufs); n > 0 {
		keyed, rs.keyedBufs = rs.keyedBufs[n-1], rs.keyedBufs[:n-1]
	}
	if cap(keyed) < len(items) {
		keyed = make([]keyedItem, len(items))
	}
	keyed = keyed[:len(items)]
	giveBack := func() {
		clear(keyed)
		rs.keyedBufs = append(rs.keyedBufs, keyed[:0])
	}
	for i, it := range items {
		f.setSlot(slot, it)
		keyed[i].item = it
		var err error
		if keyed[i].key, err = r.eval(f, s.OrderBy); err != nil {
			giveBack()
			return nil, err
		}
	}
	slices.SortStableFunc(keyed, func(a, b keyedItem) int {
		if less(a.key, b.key) {
			return -1
		}
		return 0 // insertion and merge ask only whether a < b
	})
	// keyed holds the items: buf may be overwritten, whether it is
	// items or empty.
	var sorted []any
	if cap(*buf) >= len(items) {
		sorted = (*buf)[:len(items)]
	} else {
		sorted = make([]any, len(items))
	}
	for i, k := range keyed {
		sorted[i] = k.item
	}
	giveBack()
	*buf = sorted
	return sorted, nil
}

// keyedItem is an item of a for each ordered by a key.
type keyedItem struct{ key, item any }

// eachFrom runs a for each's body for its items from at.index on.
func (r *runner) eachFrom(s *syntax.ForEach, body *compiledBlock, f *frame, slot int, at loopAt, kept uint64) (control, error) {
	name := s.Var.Name
	for i := at.index; i < len(at.items); i++ {
		f.setSlot(slot, at.items[i])
		if kept != 0 {
			at.index = i
			r.enterLoop(kept, name, at)
		}
		ctl, err := r.block(body, f)
		if err != nil || ctl == stopped {
			return ctl, err
		}
	}
	return next, nil
}

// while runs a block as long as its condition holds. Each pass is a
// step, so the statement limit bounds a loop that would never end.
func (r *runner) while(s *syntax.While, body *compiledBlock, f *frame) (control, error) {
	for {
		ok, err := r.evalBool(f, s.Cond)
		if err != nil || !ok {
			return next, err
		}
		if err := r.step(); err != nil {
			return next, r.errorAt(f, diag.CodeRunLimit, stmtSpan(s), err)
		}
		r.enterKnown(0)
		ctl, err := r.block(body, f)
		if err != nil || ctl == stopped {
			return ctl, err
		}
	}
}

// less orders numbers, strings and flags (false before true).
func less(a, b any) bool {
	switch x := a.(type) {
	case int:
		if y, ok := b.(int); ok {
			return x < y
		}
		if y, ok := b.(float64); ok {
			return float64(x) < y
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x < y
		}
		if y, ok := b.(int); ok {
			return x < float64(y)
		}
	case string:
		if y, ok := b.(string); ok {
			return x < y
		}
	case bool:
		if y, ok := b.(bool); ok {
			return !x && y
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Changing the state.

// set assigns to a let or to a field of the state.
func (r *runner) set(s *syntax.Set, f *frame, pl *stmtPlan) error {
	v, err := r.eval(f, s.Value)
	if err != nil {
		return err
	}
	parts := s.Target.Parts
	slot := pl.slotIn(f, parts[0].Name)
	if len(parts) == 1 {
		f.setSlot(slot, v)
		return nil
	}
	obj, _ := f.getSlot(slot)
	if done, err := r.setTyped(f, s, pl, obj, v); done {
		return err
	}
	field, holder, err := fieldOf(obj, parts[1:])
	if err != nil {
		return r.errorAt(f, diag.CodeRunState, spanOf(s), fmt.Errorf("set %s: %v", s.Target, err))
	}
	old := plain(field)
	nv, err := convertTo(v, field.Type())
	if err != nil {
		return r.errorAt(f, diag.CodeRunState, spanOf(s.Value), fmt.Errorf("set %s: %v", s.Target, err))
	}
	if sameValue(old, plain(nv)) {
		return nil // nothing changes, nothing to log
	}
	if err := r.spend(textSize(nv)); err != nil {
		return err
	}
	if _, placed := nv.Interface().([]*state.Marker); placed {
		if err := placeMarkers(r.st, field, nv); err != nil {
			return r.errorAt(f, diag.CodeRunState, spanOf(s), fmt.Errorf("set %s: %v", s.Target, err))
		}
	}
	if arms, ok := nv.Interface().([]*state.Weapon); ok {
		if err := checkArms(r.st, holder, arms); err != nil {
			return r.errorAt(f, diag.CodeRunState, spanOf(s), fmt.Errorf("set %s: %v", s.Target, err))
		}
	}
	var was reflect.Value
	_, marker := holder.(*state.Marker)
	if marker {
		was = reflect.New(field.Type()).Elem()
		was.Set(field)
	}
	field.Set(nv)
	if marker {
		if err := markersError(r.st); err != nil {
			field.Set(was)
			return r.errorAt(f, diag.CodeRunState, spanOf(s), fmt.Errorf("set %s: %v", s.Target, err))
		}
	}
	if !r.logging() {
		return r.count()
	}
	return r.logSet(f, s, holder, old, plain(nv))
}

// logSet logs a field's change by a set.
func (r *runner) logSet(f *frame, s *syntax.Set, holder, old, nv any) error {
	name := s.Target.Parts[len(s.Target.Parts)-1].Name
	return r.log(f, &Event{Kind: EventSet, At: at(s.Pos), Object: identify(holder), Field: name,
		Old: jsonValue(old), New: jsonValue(nv),
		Text: fmt.Sprintf("%s %s: %s → %s", display(holder), name, display(old), display(nv))})
}

// textSize is the bytes of text in a value written to the state.
func textSize(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Slice:
		if list, ok := v.Interface().([]string); ok {
			n := 0
			for _, s := range list {
				n += len(s)
			}
			return n
		}
		if markers, ok := v.Interface().([]*state.Marker); ok {
			return markersTextSize(markers)
		}
	}
	return 0
}

// fieldOf follows fields (by their expr names) from a value of the state
// and returns the last one, settable, and what holds it.
func fieldOf(obj any, parts []*syntax.Ident) (reflect.Value, any, error) {
	v := reflect.ValueOf(obj)
	holder := obj
	for i, p := range parts {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}, nil, fmt.Errorf("%s is nothing", p.Name)
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, nil, fmt.Errorf("%s has no fields", display(holder))
		}
		idx, ok := fieldIndex(v.Type(), p.Name)
		if !ok {
			return reflect.Value{}, nil, fmt.Errorf("no field %s", p.Name)
		}
		v = v.FieldByIndex(idx)
		if i < len(parts)-1 && v.Kind() == reflect.Pointer && !v.IsNil() {
			holder = v.Interface()
		}
	}
	if !v.CanSet() {
		return reflect.Value{}, nil, fmt.Errorf("%s cannot be set", parts[len(parts)-1].Name)
	}
	return v, holder, nil
}

// fieldIndex finds a struct field by its expr tag (cached).
func fieldIndex(t reflect.Type, name string) ([]int, bool) {
	key := fieldKey{t, name}
	if idx, ok := fieldCache.Load(key); ok {
		return idx.([]int), true
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && f.Tag.Get("expr") == name {
			fieldCache.Store(key, f.Index)
			return f.Index, true
		}
	}
	return nil, false
}

// sameValue reports whether setting a field from a to b changes nothing:
// equal values, or two empty lists (nil or not).
func sameValue(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.IsValid() && vb.IsValid() && va.Kind() == reflect.Slice && vb.Kind() == reflect.Slice && va.Len() == 0 && vb.Len() == 0
}

// plain is a field's value as rules and the narration see it: an
// optional number (a pointer) is the number, or nil.
func plain(v reflect.Value) any {
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() != reflect.Struct {
		if v.IsNil() {
			return nil
		}
		return v.Elem().Interface()
	}
	return v.Interface()
}

// convertTo converts an expression's result for a field of type t.
func convertTo(v any, t reflect.Type) (reflect.Value, error) {
	if v == nil {
		return reflect.Zero(t), nil
	}
	rv := reflect.ValueOf(v)
	if rv.Type().AssignableTo(t) {
		return rv, nil
	}
	switch t.Kind() {
	case reflect.Int:
		n, err := toInt(v)
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(n).Convert(t), nil
	case reflect.Float64:
		switch x := v.(type) {
		case int:
			return reflect.ValueOf(float64(x)), nil
		}
	case reflect.Pointer: // an optional number, or a marker placed from a map
		if t.Elem() == markerType {
			return markerFrom(v)
		}
		e, err := convertTo(v, t.Elem())
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p, nil
	case reflect.Slice:
		items, err := toList(v)
		if err != nil {
			return reflect.Value{}, err
		}
		out := reflect.MakeSlice(t, 0, len(items))
		for _, it := range items {
			e, err := convertTo(it, t.Elem())
			if err != nil {
				return reflect.Value{}, err
			}
			out = reflect.Append(out, e)
		}
		return out, nil
	}
	return reflect.Value{}, fmt.Errorf("cannot use %s (%T) as %s", display(v), v, t)
}

// maxListItems bounds a list of the state that rules add to: each add
// copies the list (states are cloned, and share nothing), so an endless
// add would cost time as the square of its length.
const maxListItems = 10_000

// listEdit adds an id to a list field, or removes it. Lists of rows
// (lasting_injuries, lasting_damage) keep repeats; the others are sets.
// pl is the plan of the add or remove, which keeps the slot of the
// path's object and the path's setter (nil: none keeps them).
func (r *runner) listEdit(f *frame, pl *stmtPlan, path *syntax.Path, item string, add bool, pos lexerPos) error {
	var obj any
	if pl != nil {
		obj, _ = f.getSlot(pl.slotIn(f, path.Parts[0].Name))
	} else {
		obj = f.value(path.Parts[0].Name)
	}
	// The list is written through typed (into) where its path has a
	// typed setter, else by reflection (field).
	var list []string
	var into *[]string
	var field reflect.Value
	var holder any
	var multiset bool
	if fs := r.setterOf(pl, path, obj); fs != nil && fs.kind == setStrings && fs.addr(obj) != nil {
		into = (*[]string)(fs.addr(obj))
		list, holder, multiset = *into, obj, fs.row
	} else {
		var err error
		if field, holder, err = fieldOf(obj, path.Parts[1:]); err != nil {
			return r.errorAt(f, diag.CodeRunState, point(pos), err)
		}
		list = field.Interface().([]string)
		multiset = isRowList(holder, path.Parts[len(path.Parts)-1].Name)
	}
	name := path.Parts[len(path.Parts)-1].Name
	idx := -1
	for i, x := range list {
		if x == item {
			idx = i
			break
		}
	}
	if m, ok := holder.(*state.Model); ok && add && idx < 0 && name == "conditions" {
		ef, err := r.prevented(m, item)
		if err != nil {
			return r.errorAt(f, diag.CodeRunEffect, point(pos), err)
		}
		if ef != nil {
			return r.logLazy(f, func() *Event {
				return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, At: at(ef.info.Item.(*syntax.Prevent).Pos),
					Object: m.ID, Field: name, Text: fmt.Sprintf("%s: %s is not %s", titleOf(ef.owner), display(m), item)}
			})
		}
	}
	var sign string // of the event's text, made only if it is logged
	switch {
	case add && (idx < 0 || multiset):
		if len(list) >= maxListItems {
			return r.errorAt(f, diag.CodeRunLimit, point(pos), fmt.Errorf("%s would hold more than %d items (the limit)", path, maxListItems))
		}
		// A new list (the old may be shared), from the run's slab.
		grown := r.mem.strsOf(len(list) + 1)
		copy(grown, list)
		grown[len(list)] = item
		list = grown
		sign = "+"
	case !add && idx >= 0:
		var shrunk []string // nil, for the last item
		if len(list) > 1 {
			shrunk = r.mem.strsOf(len(list) - 1)
			copy(shrunk, list[:idx])
			copy(shrunk[idx:], list[idx+1:])
		}
		list = shrunk
		sign = "-"
	default:
		return nil // already there, or not there to remove
	}
	if into != nil {
		*into = list
	} else {
		field.Set(reflect.ValueOf(list))
	}
	return r.logLazy(f, func() *Event {
		ev := &Event{Kind: EventSet, Object: identify(holder), Field: name, Text: display(holder) + " " + name + ": " + sign + item}
		if add {
			ev.New = item
		} else {
			ev.Old = item
		}
		return ev
	})
}

func isRowList(holder any, field string) bool {
	t := reflect.TypeOf(holder)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return false
	}
	if idx, ok := fieldIndex(t, field); ok {
		return t.FieldByIndex(idx).Tag.Get("munda") == "row"
	}
	return false
}

// change improves or worsens a characteristic within its limits.
func (r *runner) change(s *syntax.Change, f *frame) error {
	ci := r.p.idx.Characteristics[s.Char.Name]
	mv, err := r.eval(f, s.Model)
	if err != nil {
		return err
	}
	m, ok := mv.(*state.Model)
	if !ok || m == nil {
		return r.errorAt(f, diag.CodeRunExpr, spanOf(s.Model), fmt.Errorf("%s of %s: not a model", s.Dir, display(mv)))
	}
	by := 1
	if s.By != nil {
		if by, err = r.evalInt(f, s.By); err != nil {
			return err
		}
	}
	old := ci.Value(m)
	nv, ok := ci.Changed(m, s.Dir == "improve", by)
	if !ok {
		return r.logLazy(f, func() *Event {
			return &Event{Kind: EventSet, At: at(s.Pos), Object: m.ID, Field: ci.FieldName,
				Text: fmt.Sprintf("%s %s: not %s, it would pass its limit (%s)", m.Name, r.charTitle(ci), pastTense[s.Dir], showChar(ci, old))}
		})
	}
	ci.SetValue(m, nv)
	return r.logLazy(f, func() *Event {
		return &Event{Kind: EventSet, At: at(s.Pos), Object: m.ID, Field: ci.FieldName, Old: old, New: nv,
			Text: fmt.Sprintf("%s %s: %s → %s", m.Name, r.charTitle(ci), showChar(ci, old), showChar(ci, nv))}
	})
}

// showChar writes a characteristic as on a fighter card: 7+ or 4.
func showChar(ci *dsl.CharInfo, v int) string {
	if ci.Target {
		return fmt.Sprintf("%d+", v)
	}
	return fmt.Sprint(v)
}

// ---------------------------------------------------------------------------
// Choices, messages, events.

func (r *runner) choose(s *syntax.Choose, f *frame) (any, error) {
	def, err := r.eval(f, s.Default)
	if err != nil {
		return nil, err
	}
	if r.defaultsUnlogged(s) {
		return r.chooseDefault(s, f, def)
	}
	req := &ChoiceRequest{Name: s.Name.Name, Rule: f.rule, Default: def}
	if s.Key != nil {
		kv, err := r.eval(f, s.Key)
		if err != nil {
			return nil, err
		}
		req.Key = choiceKey(kv)
	}
	if s.From != nil {
		lv, err := r.eval(f, s.From)
		if err != nil {
			return nil, err
		}
		if req.Options, err = toList(lv); err != nil {
			return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(s.From), fmt.Errorf("choose %s from: %v", s.Name.Name, err))
		}
		if len(req.Options) == 0 {
			return nil, r.errorAt(f, diag.CodeRunChoice, spanOf(s), fmt.Errorf("choice %s has no options", s.Name.Name))
		}
	}
	if s.Multi != nil {
		if err := r.multiRequest(f, s, req); err != nil {
			return nil, err
		}
		def = req.Default
	}
	if s.When != nil {
		offered, err := r.evalBool(f, s.When)
		if err != nil {
			return nil, err
		}
		if !offered {
			return def, r.logLazy(f, func() *Event {
				return &Event{Kind: EventChoice, At: at(s.Pos), Name: req.Answers(), Value: jsonValue(def),
					Text: fmt.Sprintf("%s: %s (%s)", req.Answers(), showAnswer(def), r.say("no_choice", "no choice to make"))}
			})
		}
	}
	if s.Recorded != nil {
		if v, ok, err := r.recorded(f, s, req); err != nil || ok {
			return v, err
		}
	}
	req.prompt, req.run, req.frame = s.Prompt, r, f
	return r.ask(f, req, s.Pos, span{s.Pos, s.EndPos}) // spanOf(s) without its reflection: every choice asks
}

// defaultsUnlogged is whether a choice is answered by its default with
// nothing to show for the request: the choices are Defaults, the run
// keeps no log and no checkpoints, and the choice is a plain one (not of
// several items, not recorded in the state). Monte Carlo samples are
// such runs, and a request for each choice was a fifth of their garbage.
func (r *runner) defaultsUnlogged(s *syntax.Choose) bool {
	_, defaults := r.opts.Choices.(Defaults)
	return defaults && r.opts.Log == nil && r.ck == nil && s.Multi == nil && s.Recorded == nil
}

// chooseDefault is choose where defaultsUnlogged holds: the same
// expressions run, with the same errors, and the default is the answer.
func (r *runner) chooseDefault(s *syntax.Choose, f *frame, def any) (any, error) {
	if s.Key != nil {
		if _, err := r.eval(f, s.Key); err != nil {
			return nil, err
		}
	}
	if s.From != nil {
		lv, err := r.eval(f, s.From)
		if err != nil {
			return nil, err
		}
		n, err := listLen(lv)
		if err != nil {
			return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(s.From), fmt.Errorf("choose %s from: %v", s.Name.Name, err))
		}
		if n == 0 {
			return nil, r.errorAt(f, diag.CodeRunChoice, spanOf(s), fmt.Errorf("choice %s has no options", s.Name.Name))
		}
	}
	if s.When != nil {
		if _, err := r.evalBool(f, s.When); err != nil {
			return nil, err
		}
	}
	return def, r.count() // the event ask or the unoffered choice logs
}

// listLen is the length of what toList would make of v, with its error.
func listLen(v any) (int, error) {
	switch x := v.(type) {
	case []any:
		return len(x), nil
	case nil:
		return 0, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return 0, fmt.Errorf("want a list, got %s", display(v))
	}
	return rv.Len(), nil
}

// ask puts a choice to the choice source, and logs the answer or the
// default taken.
func (r *runner) ask(f *frame, req *ChoiceRequest, pos lexerPos, where span) (any, error) {
	v, ok, err := r.opts.Choices.Choose(req)
	if err != nil {
		return nil, r.errorAt(f, diag.CodeRunChoice, where, err)
	}
	how := r.say("chosen", "chosen")
	if !ok {
		v, how = req.Default, r.say("default", "default")
	}
	return v, r.logLazy(f, func() *Event {
		e := &Event{Kind: EventChoice, At: at(pos), Name: req.Answers(), Value: jsonValue(v),
			Text: fmt.Sprintf("%s: %s (%s%s)", req.Answers(), showAnswer(v), how, offered(req.Options, r.say("of", "of")))}
		for _, o := range req.Options {
			e.Options = append(e.Options, jsonValue(o))
		}
		return e
	})
}

// maxOptionsShown bounds the options a choice's narration lists; the
// JSON event lists them all.
const maxOptionsShown = 12

// offered tells what a choice from a list offered, so that the narration
// shows the menu and what else could have been answered: "; of move,
// shoot, end".
func offered(options []any, of string) string {
	if len(options) < 2 {
		return ""
	}
	var b strings.Builder
	b.WriteString("; " + of + " ")
	for i, o := range options {
		if i == maxOptionsShown {
			fmt.Fprintf(&b, " and %d more", len(options)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if id := identify(o); id != "" {
			b.WriteString(id)
		} else {
			b.WriteString(display(o))
		}
	}
	return b.String()
}

// choiceKey is how a keyed choice's key is written in an answer: a
// model's, gang's or weapon's id, or the key as text.
func choiceKey(v any) string {
	if id := identify(v); id != "" {
		return id
	}
	if s, ok := v.(string); ok {
		return s
	}
	return display(v)
}

// renderPrompt fills {…} in a choice's prompt from the frame (the prompt
// is plain text to the checker, so names it cannot find stay as written).
func (r *runner) renderPrompt(f *frame, s *syntax.Str) string {
	text := r.translatedText(s.Value(), f)
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		j := strings.IndexByte(text, '}')
		if i < 0 || j < i {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		name := strings.TrimSpace(text[i+1 : j])
		if v, ok := lookupPath(f, name); ok {
			b.WriteString(display(v))
		} else {
			b.WriteString(text[i : j+1])
		}
		text = text[j+1:]
	}
}

// lookupPath reads a.b.c from a frame.
func lookupPath(f *frame, path string) (any, bool) {
	parts := strings.Split(path, ".")
	v, ok := f.get(parts[0])
	if !ok {
		return nil, false
	}
	if len(parts) == 1 {
		return v, true
	}
	idents := make([]*syntax.Ident, len(parts)-1)
	for i, p := range parts[1:] {
		idents[i] = &syntax.Ident{Name: p}
	}
	fv, _, err := fieldOf(v, idents)
	if err != nil {
		return nil, false
	}
	return fv.Interface(), true
}

// template renders an emit message.
func (r *runner) template(f *frame, parts []*syntax.TemplatePart) (string, error) {
	var b strings.Builder
	for _, p := range parts {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		v, err := r.eval(f, p.Expr)
		if err != nil {
			return "", err
		}
		if s, ok := v.(string); ok {
			b.WriteString(s) // text reads as written, "" as nothing
		} else {
			b.WriteString(display(v))
		}
	}
	return b.String(), nil
}

// signal runs the `on` handlers of an event whose when holds.
func (r *runner) signal(s *syntax.Signal, f *frame, pl *stmtPlan) error {
	ev, params := pl.event, pl.eventParams
	args, err := r.args(f, s.Args, params)
	if err != nil {
		return err
	}
	defer r.releaseArgs(args)
	// given: the handlers see what was given and the defaults.
	for i, p := range params {
		if !args.given[i] && p.Default != nil {
			if args.vals[i], err = r.eval(f, p.Default); err != nil {
				return err
			}
			args.given[i] = true
		}
	}
	var shown []string
	if r.logging() {
		for i, p := range params {
			shown = append(shown, p.Name+": "+display(args.vals[i]))
		}
	}
	if err := r.logLazy(f, func() *Event {
		text := r.translatedTitle(ev.Title.Value())
		if len(shown) > 0 {
			text += " (" + strings.Join(shown, ", ") + ")"
		}
		return &Event{Kind: EventSignal, At: at(s.Pos), Name: ev.ID.Name, Args: shown, Text: text}
	}); err != nil {
		return err
	}
	if r.opts.Signalled != nil {
		r.opts.Signalled(ev.ID.Name)
	}
	for _, ef := range pl.handlers {
		on := ef.info.Item.(*syntax.On)
		hf := r.newFrame(ef.owner, ef.source, "")
		for i, p := range params {
			if args.given[i] {
				hf.set(p.Name, args.vals[i])
			}
		}
		ok, restore, err := r.effectApplies(ef, on.When, hf)
		if err == nil && ok {
			err = r.runEffectBody(ef, on.Body, hf, "on ", identText{ev.ID})
			restore()
		}
		r.release(hf)
		if err != nil {
			return err
		}
	}
	if ev.Ends != nil {
		return r.endPeriod(ev, args, f)
	}
	return nil
}

// ---------------------------------------------------------------------------
// Expressions.

func (r *runner) eval(f *frame, e *syntax.Expr) (any, error) {
	v, err := dsl.EvalSlots(e, r.exprs, f.vals, f)
	if err != nil {
		msg, pos := dsl.ExprError(e, err)
		return nil, r.errorAt(f, diag.CodeRunExpr, exprSpan(e, pos), errors.New(msg))
	}
	return v, nil
}

func (r *runner) evalBool(f *frame, e *syntax.Expr) (bool, error) {
	v, err := r.eval(f, e)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, r.errorAt(f, diag.CodeRunExpr, spanOf(e), fmt.Errorf("want true or false, got %s", display(v)))
	}
	return b, nil
}

func (r *runner) evalInt(f *frame, e *syntax.Expr) (int, error) {
	v, err := r.eval(f, e)
	if err != nil {
		return 0, err
	}
	n, err := toInt(v)
	if err != nil {
		return 0, r.errorAt(f, diag.CodeRunExpr, spanOf(e), err)
	}
	return n, nil
}

func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x), nil
		}
		return 0, fmt.Errorf("want a whole number, got %g", x)
	case int64:
		return int(x), nil
	}
	return 0, fmt.Errorf("want a whole number, got %s", display(v))
}

// toList turns a list value (any slice) into []any.
func toList(v any) ([]any, error) {
	return toListInto(v, nil)
}

// toListInto is toList, making the list it must make (of a slice not
// []any) in *buf when buf is not nil, which then holds it.
func toListInto(v any, buf *[]any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case nil:
		return nil, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, fmt.Errorf("want a list, got %s", display(v))
	}
	n := rv.Len()
	var out []any
	if buf != nil && cap(*buf) >= n {
		out = (*buf)[:n]
	} else {
		out = make([]any, n)
	}
	switch x := v.(type) { // the state's lists, without reflection
	case []*state.Model:
		for i, m := range x {
			out[i] = m
		}
	case []*state.Gang:
		for i, g := range x {
			out[i] = g
		}
	case []*state.Weapon:
		for i, w := range x {
			out[i] = w
		}
	case []*state.Marker:
		for i, mk := range x {
			out[i] = mk
		}
	case []string:
		for i, t := range x {
			out[i] = t
		}
	case []int: // a range (1..n): small numbers box without allocating
		for i, n := range x {
			out[i] = n
		}
	default:
		for i := range out {
			out[i] = rv.Index(i).Interface()
		}
	}
	if buf != nil {
		*buf = out
	}
	return out, nil
}

// takeLoopBuf is an empty list a for each may fill, given back with
// giveLoopBuf once the loop is done (loops nest: there are several).
func (r *runner) takeLoopBuf() []any {
	rs := r.stacks
	n := len(rs.loopBufs)
	if n == 0 {
		return nil
	}
	b := rs.loopBufs[n-1]
	rs.loopBufs = rs.loopBufs[:n-1]
	return b
}

// giveLoopBuf keeps a loop's list, cleared, for the next loop.
func (r *runner) giveLoopBuf(b *[]any) {
	if cap(*b) == 0 || cap(*b) > 1024 {
		return
	}
	// A loop writes its list only up to its length, into a buffer clear
	// past it: clearing the length keeps every buffer clear (and writes
	// no more pointers than the loop did).
	clear(*b)
	r.stacks.loopBufs = append(r.stacks.loopBufs, (*b)[:0])
}

// jsonValue makes a value safe for the JSON log: state objects by id.
func jsonValue(v any) any {
	switch x := v.(type) {
	case *state.Model, *state.Gang, *state.Weapon:
		return identify(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}

// require ends the run with the rule's message unless its condition holds.
func (r *runner) require(f *frame, s *syntax.Require) error {
	ok, err := r.evalBool(f, s.Cond)
	if err != nil || ok {
		return err
	}
	msg, err := r.template(f, s.Parts)
	if err != nil {
		return err
	}
	return r.errorAt(f, diag.CodeRunRequireFailed, spanOf(s), errors.New(msg))
}

// pastTense of the verbs of characteristic changes, for the narration.
var pastTense = map[string]string{"improve": "improved", "worsen": "worsened"}
