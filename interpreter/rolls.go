package interpreter

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

type lexerPos = lexer.Position

// at writes a position as file:line:col.
func at(p lexer.Position) string {
	if p.Filename == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// tableHead is where a table's declaration says what it is: from
// "table" to its title.
func tableHead(t *dsl.TableInfo) span {
	if t.Decl.Title == nil {
		return point(t.Decl.Pos)
	}
	return span{t.Decl.Pos, t.Decl.Title.EndPos}
}

type fieldKey struct {
	t    reflect.Type
	name string
}

var fieldCache sync.Map // fieldKey → []int

// rolled is the outcome of rolling dice.
type rolled struct {
	natural int      // the sum (or digits) of the dice, unmodified
	dice    []int    // each die
	faces   []string // each symbolic die
}

// rollDice rolls one dice of any kind, die by die.
func (r *runner) rollDice(d *dsl.DiceInfo, name, rule, purpose string) (rolled, error) {
	var out rolled
	// The dice rolled: n of them, the i-th part(i). No list is built:
	// every roll of every run comes here.
	n, part := 1, func(int) *dsl.DiceInfo { return d }
	switch d.Kind {
	case dsl.SumDice:
		n, part = d.Count, func(int) *dsl.DiceInfo { return d.Parts[0] }
	case dsl.DigitsDice:
		n, part = len(d.Parts), func(i int) *dsl.DiceInfo { return d.Parts[i] }
	}
	if n > r.limits.DicePerRoll {
		return out, coded(diag.CodeRunLimit, fmt.Errorf("roll %s needs %d dice (the limit is %d)", name, n, r.limits.DicePerRoll))
	}
	if n > 0 {
		out.dice = r.mem.intsOf(n)[:0] // kept (rolled.x, events): cut, not reused
	}
	for i := range n {
		p := part(i)
		if p.Kind == dsl.SumDice || p.Kind == dsl.DigitsDice {
			sub, err := r.rollDice(p, name, rule, purpose)
			if err != nil {
				return out, err
			}
			out.dice = append(out.dice, sub.natural)
			continue
		}
		// One request per run, filled anew for each die: a source must
		// not keep it (DiceSource), and a new one for every die was the
		// most of a run's garbage after the frames.
		// Its texts and dice are written only when they change (the
		// dice of one roll share them): a pointer written to the heap
		// costs a write barrier while the collector runs.
		req := &r.stacks.dieReq
		if req.Dice != p || req.Roll != name || req.Rule != rule || req.For != purpose {
			req.Roll, req.Rule, req.For, req.Dice = name, rule, purpose, p
		}
		req.Index, req.Of = i+1, n
		die, err := r.opts.Dice.Roll(req)
		if err != nil {
			return out, coded(diag.CodeRunDice, err)
		}
		out.dice = append(out.dice, die.Value)
		if die.Face != "" {
			if out.faces == nil {
				out.faces = r.mem.strsOf(n - i)[:0]
			}
			out.faces = append(out.faces, die.Face)
		}
	}
	switch d.Kind {
	case dsl.SumDice:
		for _, v := range out.dice {
			out.natural += v
		}
	case dsl.DigitsDice:
		for _, v := range out.dice {
			out.natural = out.natural*10 + v
		}
	default:
		out.natural = out.dice[0]
	}
	return out, nil
}

// modifiers adds up the modifiers in force on a roll: the rule's own and
// each effect's (those on the roll, fx), evaluated in env. The list of
// them is for the narration: a run without a log gets none.
func (r *runner) modifiers(fx *targetEffects, f *frame, own int, ownText string) (int, []Modifier, error) {
	total, mods, _, err := r.modifiersCounted(fx, f, own, ownText)
	return total, mods, err
}

// modifiersCounted is modifiers, and how many effects' modifiers are in
// force (each is an event, logged or not).
func (r *runner) modifiersCounted(fx *targetEffects, f *frame, own int, ownText string) (total int, mods []Modifier, n int, err error) {
	total = own
	// The modifiers are kept (events): cut from the run's slab, room for
	// every effect's at once.
	keep := r.logging()
	room := len(fx.modify) + 1
	if own != 0 && keep {
		mods = r.mem.modifiersOf(room)[:0]
		mods = append(mods, Modifier{By: own, Owner: ownText})
	}
	for _, ef := range fx.modify {
		m := ef.info.Item.(*syntax.Modify)
		ok, restore, err := r.effectApplies(ef, m.When, f)
		if err != nil {
			return 0, nil, 0, err
		}
		if !ok {
			continue
		}
		by, err := r.evalInt(f, m.By)
		restore()
		if err != nil {
			return 0, nil, 0, err
		}
		if by != 0 {
			total += by
			n++
			if !keep {
				continue
			}
			if mods == nil {
				mods = r.mem.modifiersOf(room)[:0]
			}
			mods = append(mods, Modifier{By: by, Owner: ef.owner})
		}
	}
	return total, mods, n, nil
}

// extraDice finds extra dice in force on a roll: how many and how one is
// kept.
func (r *runner) extraDice(fx *targetEffects, f *frame) (int, string, *effect, error) {
	for _, ef := range fx.extra {
		x := ef.info.Item.(*syntax.ExtraDice)
		ok, restore, err := r.effectApplies(ef, x.When, f)
		restore()
		if err != nil {
			return 0, "", nil, err
		}
		if ok {
			return x.Count.Value(), x.Pick, ef, nil
		}
	}
	return 0, "", nil, nil
}

// wantsReroll says whether a re-roll in force applies to the result, which
// is bound under name in f while its when is evaluated.
func (r *runner) wantsReroll(fx *targetEffects, f *frame, name string, result any) (*effect, error) {
	list := fx.reroll
	if len(list) == 0 {
		return nil, nil
	}
	old, had := f.get(name)
	f.set(name, result)
	defer func() {
		if had {
			f.set(name, old)
		} else {
			f.unset(name)
		}
	}()
	for _, ef := range list {
		rr := ef.info.Item.(*syntax.Reroll)
		ok, restore, err := r.effectApplies(ef, rr.When, f)
		restore()
		if err != nil {
			return nil, err
		}
		if ok {
			return ef, nil
		}
	}
	return nil, nil
}

func (r *runner) purpose(f *frame) string {
	if len(r.stack) > 0 {
		return strings.TrimPrefix(strings.TrimPrefix(r.stack[len(r.stack)-1], "procedure "), "table ")
	}
	return f.rule
}

// roll runs a roll statement and returns the value it binds.
func (r *runner) roll(s *syntax.Roll, f *frame, pl *stmtPlan) (any, error) {
	name := s.Name.Name
	if s.OneOf != nil {
		return r.rollOneOf(s, f)
	}
	d, fx := pl.dice, pl.fx
	if s.Count != nil {
		return r.rollPool(s, f, d, pl)
	}
	own := 0
	if s.Mod != nil {
		n, err := r.evalInt(f, s.Mod)
		if err != nil {
			return nil, err
		}
		if s.Sign == "-" {
			n = -n
		}
		own = n
	}
	mod, mods, err := r.modifiers(fx, f, own, "roll")
	if err != nil {
		return nil, err
	}
	res, err := r.rollKeeping(d, fx, name, f)
	if err != nil {
		return nil, r.diceErrorAt(f, s, err)
	}
	value := r.rollValue(d, res, mod)
	// A re-roll's when may read the dice it decides on (natural.x): they
	// are bound before it is asked, where one may be.
	anyReroll := r.anyRerollPossible()
	if anyReroll || len(fx.reroll) > 0 {
		r.bindRoll(f, name, res.natural, res.dice)
	}
	ef, err := r.wantsReroll(fx, f, name, value)
	if err == nil && ef == nil && anyReroll {
		seen := rollSeen(name, f, d, res, value)
		ef, err = r.offerAnyReroll(f, seen, r.askAnyReroll(f, s.Pos, spanOf(s), name, display(value)))
	}
	if err != nil {
		return nil, err
	} else if ef != nil {
		if err := r.logRoll(f, s.Pos, name, d, res, mod, mods, "re-rolled by "+ef.owner); err != nil {
			return nil, err
		}
		if res, err = r.rollKeeping(d, fx, name, f); err != nil {
			return nil, r.diceErrorAt(f, s, err)
		}
		value = r.rollValue(d, res, mod)
	}
	r.bindRoll(f, name, res.natural, res.dice)
	return value, r.logRoll(f, s.Pos, name, d, res, mod, mods, "")
}

// rollKeeping rolls a dice, with extra dice (keeping one) if an effect
// adds them.
func (r *runner) rollKeeping(d *dsl.DiceInfo, fx *targetEffects, name string, f *frame) (rolled, error) {
	n, pick, ef, err := r.extraDice(fx, f)
	if err != nil {
		return rolled{}, err
	}
	res, err := r.rollDice(d, name, f.rule, r.purpose(f))
	if err != nil || n == 0 {
		return res, err
	}
	if d.Kind == dsl.SumDice || d.Kind == dsl.DigitsDice {
		return res, coded(diag.CodeRunEffect, fmt.Errorf("%s adds dice to %s, which is several dice added up; extra dice work on a single die", ef.owner, name))
	}
	all := []rolled{res}
	for i := 0; i < n; i++ {
		x, err := r.rollDice(d, name, f.rule, r.purpose(f))
		if err != nil {
			return res, err
		}
		all = append(all, x)
	}
	keep := 0
	switch pick {
	case "highest":
		for i, x := range all {
			if x.natural > all[keep].natural {
				keep = i
			}
		}
	case "lowest":
		for i, x := range all {
			if x.natural < all[keep].natural {
				keep = i
			}
		}
	default:
		opts := make([]any, len(all))
		for i, x := range all {
			opts[i] = r.rollValue(d, x, 0)
		}
		v, ok, err := r.opts.Choices.Choose(&ChoiceRequest{Name: name + "_pick", Rule: ef.owner,
			Prompt: fmt.Sprintf("Which %s to keep for %s?", d.Title, name), Options: opts, Default: opts[0]})
		if err != nil {
			return res, err
		}
		if ok {
			for i, o := range opts {
				if o == v {
					keep = i
					break
				}
			}
		}
	}
	var shown []string
	for _, x := range all {
		shown = append(shown, display(r.rollValue(d, x, 0)))
	}
	if err := r.logLazy(f, func() *Event {
		return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: name,
			Text: fmt.Sprintf("%s: %d extra %s for %s: %s, keeps %s", titleOf(ef.owner), n, d.Title, name,
				strings.Join(shown, ", "), shown[keep])}
	}); err != nil {
		return res, err
	}
	return all[keep], nil
}

// rollValue is what a roll binds: the modified total, or the face.
func (r *runner) rollValue(d *dsl.DiceInfo, res rolled, mod int) any {
	if d.Symbolic() {
		return res.faces[0]
	}
	return res.natural + mod
}

func (r *runner) logRoll(f *frame, pos lexer.Position, name string, d *dsl.DiceInfo, res rolled, mod int, mods []Modifier, note string) error {
	return r.logLazy(f, func() *Event { return r.rollEvent(pos, name, d, res, mod, mods, note) })
}

// rollEvent describes a roll: "check: D6 4 +2 = 6".
func (r *runner) rollEvent(pos lexer.Position, name string, d *dsl.DiceInfo, res rolled, mod int, mods []Modifier, note string) *Event {
	title := r.diceTitle(d)
	natural := res.natural
	ev := &Event{Kind: EventRoll, At: at(pos), Name: name, Dice: d.Title, Rolled: res.dice, Faces: res.faces,
		Natural: &natural, Modifiers: mods}
	var text strings.Builder
	fmt.Fprintf(&text, "%s: %s ", name, title)
	if d.Symbolic() {
		ev.Face = res.faces[0]
		face, _ := d.Face(res.faces[0])
		text.WriteString(r.translatedTitle(face.Title))
	} else {
		total := natural + mod
		ev.Total = &total
		text.WriteString(diceText(d, res))
		writeModifiers(&text, mods, total)
	}
	if note != "" {
		text.WriteString(", " + note)
	}
	ev.Text = text.String()
	return ev
}

// diceText shows the dice of a roll: "4", "3+5 = 8", "3,6 = 36".
func diceText(d *dsl.DiceInfo, res rolled) string {
	if len(res.dice) <= 1 {
		return fmt.Sprint(res.natural)
	}
	parts := make([]string, len(res.dice))
	for i, v := range res.dice {
		parts[i] = fmt.Sprint(v)
	}
	if d.Kind == dsl.DigitsDice {
		return fmt.Sprintf("%s = %d", strings.Join(parts, ","), res.natural)
	}
	return fmt.Sprintf("%s = %d", strings.Join(parts, "+"), res.natural)
}

// diceOfSides is a plain die with n sides, for `roll x = one of list`.
var diceOfSides sync.Map // int → *dsl.DiceInfo

func sidedDice(n int) *dsl.DiceInfo {
	if d, ok := diceOfSides.Load(n); ok {
		return d.(*dsl.DiceInfo)
	}
	d := &dsl.DiceInfo{ID: fmt.Sprintf("d%d", n), Title: fmt.Sprintf("D%d", n), Kind: dsl.NumericDice, Sides: n, Total: n}
	for i := 1; i <= n; i++ {
		d.Faces = append(d.Faces, dsl.FaceInfo{Value: i, Count: 1})
		d.Outcomes = append(d.Outcomes, dsl.Outcome{Value: i, Ways: 1})
	}
	diceOfSides.Store(n, d)
	return d
}

func (r *runner) rollOneOf(s *syntax.Roll, f *frame) (any, error) {
	lv, err := r.eval(f, s.OneOf)
	if err != nil {
		return nil, err
	}
	items, err := toList(lv)
	if err != nil {
		return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(s.OneOf), fmt.Errorf("roll %s = one of: %v", s.Name.Name, err))
	}
	if len(items) == 0 {
		return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(s.OneOf), fmt.Errorf("roll %s = one of: the list is empty", s.Name.Name))
	}
	if len(items) == 1 {
		return items[0], r.logLazy(f, func() *Event {
			return &Event{Kind: EventRoll, At: at(s.Pos), Name: s.Name.Name,
				Text: fmt.Sprintf("%s: %s (%s)", s.Name.Name, display(items[0]), r.say("the_only_one", "the only one"))}
		})
	}
	d := sidedDice(len(items))
	res, err := r.rollDice(d, s.Name.Name, f.rule, r.purpose(f))
	if err != nil {
		return nil, r.diceErrorAt(f, s, err)
	}
	v := items[res.natural-1]
	r.bindRoll(f, s.Name.Name, res.natural, res.dice)
	natural := res.natural
	return v, r.logLazy(f, func() *Event {
		return &Event{Kind: EventRoll, At: at(s.Pos), Name: s.Name.Name, Dice: d.Title, Rolled: res.dice, Natural: &natural,
			Text: fmt.Sprintf("%s: %s %d → %s", s.Name.Name, d.Title, res.natural, display(v))}
	})
}

// ---------------------------------------------------------------------------
// Characteristic tests.

func (r *runner) test(s *syntax.TestStmt, f *frame, pl *stmtPlan) (bool, error) {
	ci := pl.char
	mv, err := r.eval(f, s.Model)
	if err != nil {
		return false, err
	}
	m, ok := mv.(*state.Model)
	if !ok || m == nil {
		return false, r.errorAt(f, diag.CodeRunExpr, spanOf(s.Model), fmt.Errorf("%s test: %s is not a model", ci.Title, display(mv)))
	}
	value := ci.Value(m)
	if ci.Target && value <= 0 {
		return false, r.errorAt(f, diag.CodeRunState, spanOf(s.Model), fmt.Errorf("%s has no %s (%s) in the state", m.Name, ci.Title, ci.FieldName))
	}
	// The test is against the value every rule reads (holds.go).
	if value, err = r.stat(m, ci.FieldName); err != nil {
		return false, r.errorAt(f, diag.CodeRunEffect, spanOf(s), err)
	}
	own := 0
	if s.Mod != nil {
		if own, err = r.evalInt(f, s.Mod); err != nil {
			return false, err
		}
		if s.Sign == "-" {
			own = -own
		}
	}
	target, tfx := pl.target, pl.fx // on this test
	cfx := pl.charFx                // on every test of the characteristic
	mod, mods, err := r.modifiers(tfx, f, own, "roll")
	if err != nil {
		return false, err
	}
	// Modifiers of every test of this characteristic see the model tested,
	// in a frame of their own; where none of them can apply in this run
	// (idle), there is no such frame, and nothing asks them.
	idle := len(tfx.override) == 0 && len(cfx.override) == 0 && r.idleEffects(cfx)
	var cf *frame
	if !idle {
		cf = r.charFrame(f, m)
		defer r.release(cf)
	}
	// The value may be another's (override of the test or of every test).
	if len(tfx.override) > 0 || len(cfx.override) > 0 {
		if value, err = r.testValue(ci, m, value, target, s, f, cf); err != nil {
			return false, err
		}
	}
	replaced := false
	if !idle {
		charMod, charMods, err := r.modifiers(cfx, cf, 0, "")
		if err != nil {
			return false, err
		}
		mod += charMod
		mods = append(mods, charMods...)

		// Hooks on every test of the characteristic: an instead_of decides
		// the test by setting `passed` (Inspirational's Leadership test).
		cf.set("passed", false)
		if err := r.hooks(cfx.before, cf); err != nil {
			return false, err
		}
		if replaced, err = r.instead(cfx.instead, cf); err != nil {
			return false, err
		}
	}
	if replaced {
		pass, _ := cf.value("passed").(bool)
		if err := r.logTest(f, s, m, ci, value, rolled{}, mod, mods, pass, "decided instead"); err != nil {
			return false, err
		}
		return pass, r.afterTest(ci, cf, pass)
	}

	if dec, ok := r.opts.Dice.(TestDecider); ok && r.collapsible(tfx, cfx) {
		pass, total := passChance(ci, value, mod)
		req := &TestRequest{Name: s.Name.Name, Rule: f.rule, Char: ci, Target: value, Modifier: mod, Pass: pass, Total: total}
		decided, ok, err := dec.DecideTest(req)
		if err != nil {
			return false, r.diceErrorAt(f, s, err)
		}
		if ok {
			if err := r.logTest(f, s, m, ci, value, rolled{}, mod, mods, decided, "decided"); err != nil {
				return false, err
			}
			return decided, r.afterTest(ci, cf, decided)
		}
	}

	res, err := r.rollKeeping(ci.Dice, tfx, s.Name.Name, f)
	if err != nil {
		return false, r.diceErrorAt(f, s, err)
	}
	pass := passes(ci, value, res.natural, mod)
	// A failed (or passed) test may be re-rolled by an effect that sees
	// its outcome: under the test's name (and its dice, as natural.x), or
	// as `passed` for characteristic-wide re-rolls.
	anyReroll := r.anyRerollPossible()
	if anyReroll || len(tfx.reroll) > 0 || len(cfx.reroll) > 0 {
		r.bindRoll(f, s.Name.Name, res.natural, res.dice)
	}
	rerolled := ""
	ef, err := r.wantsReroll(tfx, f, s.Name.Name, pass)
	if err == nil && ef == nil && !idle {
		ef, err = r.wantsReroll(cfx, cf, "passed", pass)
	}
	if err == nil && ef == nil && anyReroll {
		seen := &dsl.RollSeen{Name: s.Name.Name, In: f.proc, Model: m, Test: true, Passed: pass, Natural: res.natural, Dice: res.dice}
		shown := r.say("failed", "failed")
		if pass {
			shown = r.say("passed", "passed")
		}
		ef, err = r.offerAnyReroll(f, seen, r.askAnyReroll(f, s.Pos, spanOf(s), s.Name.Name, shown))
	}
	if err != nil {
		return false, err
	}
	if ef != nil {
		if err := r.logTest(f, s, m, ci, value, res, mod, mods, pass, "re-rolled by "+ef.owner); err != nil {
			return false, err
		}
		if res, err = r.rollKeeping(ci.Dice, tfx, s.Name.Name, f); err != nil {
			return false, r.diceErrorAt(f, s, err)
		}
		pass = passes(ci, value, res.natural, mod)
		rerolled = "re-roll"
	}
	r.bindRoll(f, s.Name.Name, res.natural, res.dice)
	if err := r.logTest(f, s, m, ci, value, res, mod, mods, pass, rerolled); err != nil {
		return false, err
	}
	return pass, r.afterTest(ci, cf, pass)
}

// afterTest runs the after hooks of a characteristic's tests (none where
// they are idle: cf is nil).
func (r *runner) afterTest(ci *dsl.CharInfo, cf *frame, pass bool) error {
	if cf == nil {
		return nil
	}
	cf.set("passed", pass)
	return r.hooks(r.p.effectsOn(ci.ID).after, cf)
}

// idleEffects reports whether none of fx's effects can apply anywhere in
// this run, without evaluating anything: each is an `as any` effect of a
// feature no model holds for the whole run (anyHeldKnown), for which
// effectApplies answers false before it reads a frame.
func (r *runner) idleEffects(fx *targetEffects) bool {
	for _, list := range [...][]*effect{fx.modify, fx.reroll, fx.extra, fx.override, fx.before, fx.after, fx.instead} {
		for _, ef := range list {
			if ef.info.Role != dsl.RoleAny || ef.info.Feature == nil {
				return false
			}
			if r.st == nil {
				continue // effectApplies: no state, no holder
			}
			if held, known := r.anyHeldKnown(ef); !known || held {
				return false
			}
		}
	}
	return true
}

// charFrame is what a characteristic-wide effect sees: the tested model.
func (r *runner) charFrame(f *frame, m *state.Model) *frame {
	cf := r.newFrame(f.rule, f.source, f.proc)
	cf.set("model", m)
	return cf
}

// passes decides a test from its natural roll.
func passes(ci *dsl.CharInfo, value, natural, mod int) bool {
	if fixed, ok := ci.Naturals[natural]; ok {
		return fixed
	}
	total := natural + mod
	if ci.AtLeast {
		return total >= value
	}
	return total <= value
}

// passChance counts the dice outcomes that pass: pass out of total.
func passChance(ci *dsl.CharInfo, value, mod int) (int, int) {
	pass := 0
	for _, o := range ci.Dice.Outcomes {
		if passes(ci, value, o.Value, mod) {
			pass += o.Ways
		}
	}
	return pass, ci.Dice.Total
}

// collapsible reports whether a test can be decided without its dice:
// nothing re-rolls it or adds dice to it. (Rules reading natural.NAME
// or rolled.NAME after a decided test read 0.)
func (r *runner) collapsible(test, char *targetEffects) bool {
	return len(test.reroll) == 0 && len(char.reroll) == 0 && len(test.extra) == 0 && !r.anyRerollPossible()
}

// rollSeen is a single roll as a re-roll of any roll sees it.
func rollSeen(name string, f *frame, d *dsl.DiceInfo, res rolled, value any) *dsl.RollSeen {
	seen := &dsl.RollSeen{Name: name, In: f.proc, Natural: res.natural, Dice: res.dice}
	if d.Symbolic() {
		seen.Face, _ = value.(string)
	} else {
		seen.Value, _ = value.(int)
	}
	return seen
}

func (r *runner) logTest(f *frame, s *syntax.TestStmt, m *state.Model, ci *dsl.CharInfo, value int, res rolled, mod int, mods []Modifier, pass bool, note string) error {
	if !r.logging() {
		return r.count()
	}
	return r.logTestEvent(f, s, m, ci, value, res, mod, mods, pass, note)
}

// logTestEvent is logTest's event, apart so that what it points to moves
// to the heap only when there is a log.
func (r *runner) logTestEvent(f *frame, s *syntax.TestStmt, m *state.Model, ci *dsl.CharInfo, value int, res rolled, mod int, mods []Modifier, pass bool, note string) error {
	natural := res.natural
	total := natural + mod
	ev := &Event{Kind: EventTest, At: at(s.Pos), Name: s.Name.Name, Object: m.ID, Field: ci.FieldName,
		Target: &value, Pass: &pass, Modifiers: mods, Rolled: res.dice}
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s %s (%s): ", r.charTitle(ci), r.say("test_for", "test for"), m.Name, showChar(ci, value))
	if note == "decided" || note == "decided instead" {
		fmt.Fprintf(&text, "%s without dice", note)
	} else {
		ev.Dice, ev.Natural, ev.Total = ci.Dice.Title, &natural, &total
		fmt.Fprintf(&text, "%s %s", r.diceTitle(ci.Dice), diceText(ci.Dice, res))
		writeModifiers(&text, mods, total)
	}
	if pass {
		text.WriteString(": " + r.say("passed", "passed"))
	} else {
		text.WriteString(": " + r.say("failed", "failed"))
	}
	if note != "" && note != "decided" && note != "decided instead" {
		text.WriteString(", " + note)
	}
	ev.Text = text.String()
	return r.log(f, ev)
}

// ---------------------------------------------------------------------------
// Tables.

// apply runs an apply statement, with what it names found (plan).
func (r *runner) apply(s *syntax.Apply, plan *applyPlan, f *frame) error {
	t := plan.table
	args, err := r.args(f, s.Args, t.Params)
	if err != nil {
		return err
	}
	var using any
	if s.Using != nil {
		if using, err = r.eval(f, s.Using); err != nil {
			r.releaseArgs(args)
			return err
		}
	}
	_, err = r.applyTable(t, args, using, plan.row, plan.reroll, f)
	r.releaseArgs(args)
	return err
}

// applyPlan is what an apply statement names, found when it is compiled:
// the table, the row given by id ("" for none), the rows to roll again
// (read only: every run shares them).
type applyPlan struct {
	table  *dsl.TableInfo
	row    string
	reroll []string
}

// newApplyPlan finds what s names.
func (p *Program) newApplyPlan(s *syntax.Apply) *applyPlan {
	plan := &applyPlan{table: p.idx.Tables[s.Table.Name]}
	if s.Row != nil {
		plan.row = s.Row.Name
	}
	for _, id := range s.Reroll {
		plan.reroll = append(plan.reroll, id.Name)
	}
	return plan
}

// applyTable finds a table's row (by rolling, from a given result, or by
// id) and runs it. Rows listed in reroll are rolled again.
func (r *runner) applyTable(t *dsl.TableInfo, args callArgs, using any, rowID string, reroll []string, caller *frame) (control, error) {
	r.activate(t.ID)
	defer r.deactivate()
	ctl, err := r.applyTableOnce(t, args, using, rowID, reroll, caller)
	if isStopOf(err, t.ID) {
		return next, nil
	}
	return ctl, err
}

// applyTableOnce is applyTable but for `stop ID`, which applyTable ends.
func (r *runner) applyTableOnce(t *dsl.TableInfo, args callArgs, using any, rowID string, reroll []string, caller *frame) (control, error) {
	rule := r.p.tableRules[t.ID]
	if err := r.enter(rule); err != nil {
		return next, r.errorAt(caller, diag.CodeRunLimit, callSite(r.current(), t.Decl.Pos), err)
	}
	defer r.leave()
	f := r.newFrame(rule, t.Meta.Source, "")
	defer r.release(f)
	shown, err := r.bindParams(f, t.Params, args)
	if err != nil {
		return next, err
	}
	for _, req := range t.Requires {
		if err := r.require(f, req); err != nil {
			return next, err
		}
	}
	title := r.title(t.Meta, t.Title)
	if len(shown) > 0 {
		title += " (" + strings.Join(shown, ", ") + ")"
	}
	var row *dsl.RowInfo
	var how string
	var ev *Event // the roll, when the table is rolled
	for attempt := 0; ; attempt++ {
		if attempt > r.limits.Rerolls {
			return next, r.errorAt(f, diag.CodeRunLimit, tableHead(t), fmt.Errorf("table %s was rolled again more than %d times (the limit)", t.ID, r.limits.Rerolls))
		}
		var value any
		switch {
		case rowID != "":
			row = t.Row(rowID)
			how = "row " + rowID
			if t.Dice != nil && row.Ranged {
				value = row.From
			} else {
				value = row.Face
			}
		case using != nil:
			value = using
			how = "result " + display(using)
		case t.Kind == dsl.ChoiceTable:
			chosen, err := r.chooseRow(t, f)
			if err != nil {
				return next, err
			}
			row, how, value = chosen, "chosen", chosen.ID
		default:
			decided, err := r.decideRow(t, f, reroll)
			if err != nil {
				return next, err
			}
			if decided != nil {
				// As `apply … row`: the row's first result stands for it.
				row, how, value = decided, "row "+decided.ID+" (decided with its chances)", decided.Face
				if decided.Face == "" {
					value = decided.From
				}
				break
			}
			v, text, rollEv, err := r.rollTable(t, f)
			if err != nil {
				return next, err
			}
			value, how, ev = v, text, rollEv
		}
		if row == nil || rowID == "" {
			var err error
			if row, err = findRow(t, value); err != nil {
				return next, r.errorAt(f, diag.CodeRunTableRow, tableHead(t), err)
			}
		}
		f.set(t.ID, value)
		if t.Kind == dsl.ChoiceTable && how != "chosen" {
			// A row given by `row` or `using` must be one the table offers.
			ok, err := r.rowOffered(row, f)
			if err != nil {
				return next, err
			}
			if !ok {
				return next, r.errorAt(f, diag.CodeRunTableRow, tableHead(t), fmt.Errorf("row %s of table %s is not offered here (its when does not hold)", row.ID, t.ID))
			}
		}
		if contains(reroll, row.ID) && rowID == "" && using == nil {
			if !r.logging() {
				if err := r.count(); err != nil {
					return next, err
				}
				row = nil
				continue
			}
			again := withRoll(&Event{Kind: EventApply, Name: t.ID, Row: row.ID, Args: shown, At: at(row.Row.Pos), Rerolled: true,
				Text: fmt.Sprintf("%s: %s → %s, %s", title, how, r.title(row.Meta, row.Title), r.say("rolled_again", "rolled again"))}, ev)
			if err := r.log(f, again); err != nil {
				return next, err
			}
			row = nil
			continue
		}
		break
	}
	if caller == nil { // the table Program.ApplyRow applies
		r.topRow = row.ID
		if r.rowOnly {
			return next, nil
		}
	}
	source := t.Meta.Source
	if row.Meta.Source != "" {
		source = row.Meta.Source
	}
	if err := r.logLazy(f, func() *Event {
		text := fmt.Sprintf("%s: %s → %s", title, how, r.title(row.Meta, row.Title))
		if row.ReplacedBy != "" {
			text += " (" + row.ReplacedBy + ")"
		}
		return withRoll(&Event{Kind: EventApply, Name: t.ID, Row: row.ID, Args: shown, Source: source, At: at(row.Row.Pos), Text: text}, ev)
	}); err != nil {
		return next, err
	}
	if row.Row.Body == nil {
		return next, nil
	}
	if rr, ok := r.p.rowRules[row]; ok { // rule is tableRules[t.ID]
		f.rule = rr // made once, at Compile
	} else {
		f.rule = rule + " row " + row.ID
	}
	r.enterKnown(0)
	return r.block(r.p.compiledBlock(row.Row.Body, f.proc), f)
}

// chooseRow asks a player for the row of a choice table, among the rows
// it offers (those whose when holds), in the order they are written.
func (r *runner) chooseRow(t *dsl.TableInfo, f *frame) (*dsl.RowInfo, error) {
	var ids []string
	req := &ChoiceRequest{Name: t.ID, Rule: f.rule}
	for _, row := range t.Rows {
		ok, err := r.rowOffered(row, f)
		if err != nil {
			return nil, err
		}
		if ok {
			ids = append(ids, row.ID)
			req.Options = append(req.Options, row.ID)
			req.Labels = append(req.Labels, r.title(row.Meta, row.Title))
		}
	}
	ch := t.Choose
	where := span{ch.Pos, ch.EndPos}
	if len(ids) == 0 {
		return nil, r.errorAt(f, diag.CodeRunChoice, where, fmt.Errorf("table %s offers no row to choose: no row's when holds", t.ID))
	}
	req.Default = ids[0]
	if ch.Default != nil {
		v, err := r.eval(f, ch.Default)
		if err != nil {
			return nil, err
		}
		// A default the table does not offer here gives way to the first
		// row it does.
		if id, ok := v.(string); ok && contains(ids, id) {
			req.Default = id
		}
	}
	if ch.Key != nil {
		kv, err := r.eval(f, ch.Key)
		if err != nil {
			return nil, err
		}
		req.Key = choiceKey(kv)
	}
	req.prompt, req.run, req.frame = ch.Prompt, r, f
	v, err := r.ask(f, req, ch.Pos, where)
	if err != nil {
		return nil, err
	}
	id, _ := v.(string)
	if row := t.Row(id); row != nil && contains(ids, id) {
		return row, nil
	}
	return nil, r.errorAt(f, diag.CodeRunChoice, where, fmt.Errorf("choice %s: %s is not a row table %s offers", req.Answers(), display(v), t.ID))
}

// rowOffered evaluates a choice table row's when (true when it has none).
func (r *runner) rowOffered(row *dsl.RowInfo, f *frame) (bool, error) {
	if row.Row.When == nil {
		return true, nil
	}
	return r.evalBool(f, row.Row.When)
}

// decideRow lets a RowDecider pick the row of a table roll, with each
// row's exact chances, when nothing depends on the faces (see RowDecider).
// It returns nil to have the dice rolled.
func (r *runner) decideRow(t *dsl.TableInfo, f *frame, reroll []string) (*dsl.RowInfo, error) {
	dec, ok := r.opts.Dice.(RowDecider)
	if !ok || r.p.readsRoll[t.ID] || len(r.p.reroll[t.ID]) > 0 || len(r.p.extra[t.ID]) > 0 || r.anyRerollPossible() {
		return nil, nil
	}
	mod, _, err := r.tableModifier(t, f)
	if err != nil {
		return nil, err
	}
	if t.Dice.Symbolic() && mod != 0 {
		return nil, nil // rollTable reports it
	}
	// The run's request and list of rows, reused: exact odds decide a
	// row at every branch of every configuration.
	req := &r.stacks.rowReq
	if cap(r.stacks.rowChances) < len(t.Rows) {
		r.stacks.rowChances = make([]RowChance, 0, len(t.Rows))
		r.stacks.rowInfos = make([]*dsl.RowInfo, 0, len(t.Rows))
	}
	req.Table, req.Rows, req.Total = t.ID, r.stacks.rowChances[:0], 0
	rows := r.stacks.rowInfos[:0]
	defer clear(rows[:cap(rows)])
	landed := r.p.rowsOf(t, mod)
	if landed.missing {
		return nil, nil // rollTable reports it, with the roll
	}
	for _, rw := range landed.rows {
		if contains(reroll, rw.row.ID) {
			continue
		}
		rows = append(rows, rw.row)
		req.Rows = append(req.Rows, RowChance{Row: rw.row.ID, Ways: rw.ways})
		req.Total += rw.ways
	}
	if req.Total == 0 {
		return nil, nil
	}
	i, decided, err := dec.DecideRow(req)
	if err != nil {
		return nil, r.errorAt(f, diag.CodeRunDice, tableHead(t), err)
	}
	if !decided {
		return nil, nil
	}
	if i < 0 || i >= len(rows) {
		return nil, r.errorAt(f, diag.CodeRunInternal, tableHead(t), fmt.Errorf("internal: row %d of %d decided for table %s", i, len(rows), t.ID))
	}
	if err := r.count(); err != nil {
		return nil, err
	}
	return rows[i], nil
}

// tableRowsKey is a table and the modifier on its roll.
type tableRowsKey struct {
	t   *dsl.TableInfo
	mod int
}

// tableRowsOf are the rows a table's roll lands on under a modifier, in
// the order of the outcomes of its dice that first land on each, with
// how many ways of the dice land on each; missing: some outcome lands on
// no row.
type tableRowsOf struct {
	rows    []rowWays
	missing bool
}

type rowWays struct {
	row  *dsl.RowInfo
	ways int
}

// rowsOf is what t's roll lands on under mod (a symbolic dice's, with
// mod 0), found once for each: decideRow asks it at every branch of
// exact odds, and a D66's 36 outcomes looked up every row each time.
func (p *Program) rowsOf(t *dsl.TableInfo, mod int) tableRowsOf {
	key := tableRowsKey{t, mod}
	p.tableRowsMu.RLock()
	out, ok := p.tableRows[key]
	p.tableRowsMu.RUnlock()
	if ok {
		return out
	}
	for _, o := range t.Dice.Outcomes {
		var value any = o.Value + mod
		if t.Dice.Symbolic() {
			value = o.Face
		}
		row, err := findRow(t, value)
		if err != nil {
			out = tableRowsOf{missing: true}
			break
		}
		i := slices.IndexFunc(out.rows, func(rw rowWays) bool { return rw.row == row })
		if i < 0 {
			out.rows = append(out.rows, rowWays{row: row})
			i = len(out.rows) - 1
		}
		out.rows[i].ways += o.Ways
	}
	p.tableRowsMu.Lock()
	defer p.tableRowsMu.Unlock()
	if p.tableRows == nil {
		p.tableRows = map[tableRowsKey]tableRowsOf{}
	}
	p.tableRows[key] = out
	return out
}

// tableModifier is a table roll's standing modifier plus the modifiers in
// force on the table.
func (r *runner) tableModifier(t *dsl.TableInfo, f *frame) (int, []Modifier, error) {
	own := 0
	if t.Roll.Mod != nil {
		n, err := r.evalInt(f, t.Roll.Mod)
		if err != nil {
			return 0, nil, err
		}
		if t.Roll.Sign == "-" {
			n = -n
		}
		own = n
	}
	return r.modifiers(r.p.effectsOn(t.ID), f, own, "roll")
}

// rollTable rolls a table's dice with its standing modifier and any
// modifiers in force on the table. The roll is not logged on its own: its
// details go on the event of the row it lands on.
func (r *runner) rollTable(t *dsl.TableInfo, f *frame) (any, string, *Event, error) {
	d := t.Dice
	mod, mods, err := r.tableModifier(t, f)
	if err != nil {
		return nil, "", nil, err
	}
	if d.Symbolic() && mod != 0 {
		return nil, "", nil, r.errorAt(f, diag.CodeRunEffect, tableHead(t), fmt.Errorf("table %s rolls %s, whose faces cannot be modified by a number", t.ID, d.Title))
	}
	fx := r.p.effectsOn(t.ID)
	res, err := r.rollKeeping(d, fx, t.ID, f)
	if err != nil {
		return nil, "", nil, r.errorAt(f, diag.CodeRunDice, tableHead(t), err)
	}
	value := r.rollValue(d, res, mod)
	r.bindRoll(f, t.ID, res.natural, res.dice) // for a re-roll's when
	ef, err := r.wantsReroll(fx, f, t.ID, value)
	if err == nil && ef == nil && r.anyRerollPossible() {
		seen := rollSeen(t.ID, f, d, res, value)
		seen.In = t.ID
		ef, err = r.offerAnyReroll(f, seen, r.askAnyReroll(f, t.Decl.Pos, tableHead(t), t.ID, display(value)))
	}
	if err != nil {
		return nil, "", nil, err
	} else if ef != nil {
		if err := r.logRoll(f, t.Decl.Pos, t.ID, d, res, mod, mods, "re-rolled by "+ef.owner); err != nil {
			return nil, "", nil, err
		}
		if res, err = r.rollKeeping(d, fx, t.ID, f); err != nil {
			return nil, "", nil, r.errorAt(f, diag.CodeRunDice, tableHead(t), err)
		}
		value = r.rollValue(d, res, mod)
	}
	r.bindRoll(f, t.ID, res.natural, res.dice)
	if !r.logging() {
		return value, "", nil, nil
	}
	ev := r.rollEvent(t.Decl.Pos, t.ID, d, res, mod, mods, "")
	how := strings.TrimPrefix(ev.Text, t.ID+": ")
	return value, how, ev, nil
}

// withRoll copies a roll's details onto the event of the row it chose.
func withRoll(e, roll *Event) *Event {
	if roll != nil {
		e.Dice, e.Rolled, e.Faces, e.Natural, e.Modifiers, e.Total, e.Face =
			roll.Dice, roll.Rolled, roll.Faces, roll.Natural, roll.Modifiers, roll.Total, roll.Face
	}
	return e
}

// findRow finds the row for a result.
func findRow(t *dsl.TableInfo, value any) (*dsl.RowInfo, error) {
	switch v := value.(type) {
	case string:
		if row := t.RowForFace(v); row != nil {
			return row, nil
		}
		return nil, fmt.Errorf("table %s has no row for %q", t.ID, v)
	default:
		n, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("table %s: %v", t.ID, err)
		}
		if row := t.RowFor(n); row != nil {
			return row, nil
		}
		return nil, fmt.Errorf("table %s has no row for %d", t.ID, n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeModifiers narrates a roll's modifiers and, if there are any, the
// total: " +1 (skill Iron Will) -1 = 4".
func writeModifiers(text *strings.Builder, mods []Modifier, total int) {
	for _, m := range mods {
		fmt.Fprintf(text, " %+d", m.By)
		if m.Owner != "roll" {
			fmt.Fprintf(text, " (%s)", m.Owner)
		}
	}
	if len(mods) > 0 {
		fmt.Fprintf(text, " = %d", total)
	}
}
