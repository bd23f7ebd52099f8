package interpreter

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// pool is a roll of several dice kept apart while effects change it: each
// die's natural value (and face, for symbolic dice), and the modifier every
// die takes.
type pool struct {
	d       *dsl.DiceInfo
	name    string
	natural []int
	faces   []string
	mod     int
}

// values is what the roll binds: each die modified, or each face (a new
// list, cut from the run's slab m, as is its box).
func (p *pool) values(m *runMem) any {
	if p.d.Symbolic() {
		out := m.strsOf(len(p.faces))
		copy(out, p.faces)
		if m == nil {
			return out
		}
		return m.strList.Box(out)
	}
	out := m.intsOf(len(p.natural))
	for i, v := range p.natural {
		out[i] = v + p.mod
	}
	if m == nil {
		return out
	}
	return m.intList.Box(out)
}

// bind sets rolled.x to the dice as rolled and natural.x to their sum.
func (p *pool) bind(f *frame, m *runMem) {
	rolled := m.intsOf(len(p.natural))
	copy(rolled, p.natural)
	f.rolled[p.name] = rolled
	sum := 0
	for _, v := range p.natural {
		sum += v
	}
	f.natural[p.name] = sum
}

// die is one die as a predicate sees it (#): its modified value, or its
// face.
func (p *pool) die(i int) any {
	if p.d.Symbolic() {
		return p.faces[i]
	}
	return p.natural[i] + p.mod
}

func (p *pool) show(i int) string { return display(p.die(i)) }

// rollPoolDie rolls one die of the pool: again, or a new one.
func (r *runner) rollPoolDie(p *pool, f *frame) (int, string, error) {
	res, err := r.rollDice(p.d, p.name, f.rule, r.purpose(f))
	if err != nil {
		return 0, "", err
	}
	face := ""
	if p.d.Symbolic() {
		face = res.faces[0]
	}
	return res.natural, face, nil
}

// ownerKey is the id of an effect's owner, which keys its choices: the
// feature's or rule's id.
func ownerKey(ef *effect) string {
	switch {
	case ef.info.Feature != nil:
		return ef.info.Feature.ID.Name
	case ef.info.Standing != nil:
		return ef.info.Standing.ID.Name
	case ef.info.Rule != "":
		return ef.info.Rule
	}
	return ef.owner
}

// rollPool rolls several dice kept apart: `roll injuries = (n) injury`,
// with the effects in force on it: modifiers (to each die), extra dice, and
// re-rolls of some of the dice.
func (r *runner) rollPool(s *syntax.Roll, f *frame, d *dsl.DiceInfo, pl *stmtPlan) (any, error) {
	name := s.Name.Name
	target, fx := pl.target, pl.fx
	n := 0
	if s.Count.Number != nil {
		n = s.Count.Number.Value()
	} else {
		var err error
		if n, err = r.evalInt(f, s.Count.Expr); err != nil {
			return nil, err
		}
	}
	if n < 0 || n > r.limits.DicePerRoll {
		return nil, r.errorAt(f, diag.CodeRunLimit, spanOf(s), fmt.Errorf("roll %s: cannot roll %d dice (0 to %d)", name, n, r.limits.DicePerRoll))
	}
	// The pool is the run's spare, if it has one: nothing keeps a pool
	// (what a roll binds and logs is copied), and a roll of several dice
	// in an effect a pool runs takes another.
	rs := r.stacks
	p := rs.spare
	rs.spare = nil
	if p == nil {
		p = new(pool)
	}
	defer func() {
		*p = pool{natural: p.natural[:0], faces: p.faces[:0]}
		rs.spare = p
	}()
	*p = pool{d: d, name: name, natural: p.natural[:0], faces: p.faces[:0]}
	var mods []Modifier
	if !d.Symbolic() {
		var err error
		if p.mod, mods, err = r.modifiers(fx, f, 0, ""); err != nil {
			return nil, err
		}
	}
	// Extra dice in force: added to the pool, or rolled and discarded again
	// (pick) so that the pool keeps its size.
	var picks []*effect
	for _, ef := range fx.extra {
		x := ef.info.Item.(*syntax.ExtraDice)
		ok, restore, err := r.effectApplies(ef, x.When, f)
		restore()
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if x.Pick != "" {
			picks = append(picks, ef)
			continue
		}
		n += x.Count.Value()
		if err := r.logLazy(f, func() *Event {
			return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: name,
				Text: fmt.Sprintf("%s: %d extra %s for %s", titleOf(ef.owner), x.Count.Value(), d.Title, name)}
		}); err != nil {
			return nil, err
		}
	}
	if n > r.limits.DicePerRoll {
		return nil, r.errorAt(f, diag.CodeRunLimit, spanOf(s), fmt.Errorf("roll %s: cannot roll %d dice (0 to %d)", name, n, r.limits.DicePerRoll))
	}
	if n > cap(p.natural) { // the lists made once, at their length
		p.natural = make([]int, 0, n)
	}
	if d.Symbolic() && n > cap(p.faces) {
		p.faces = make([]string, 0, n)
	}
	for i := 0; i < n; i++ {
		v, face, err := r.rollPoolDie(p, f)
		if err != nil {
			return nil, r.diceErrorAt(f, s, err)
		}
		p.natural = append(p.natural, v)
		if d.Symbolic() {
			p.faces = append(p.faces, face)
		}
	}
	for _, ef := range picks {
		if err := r.poolPick(p, f, ef, s); err != nil {
			return nil, err
		}
	}
	value := p.values(r.mem)
	if r.rollRead(p.name) {
		p.bind(f, r.mem)
	}
	if err := r.logPool(f, s, p, mods, ""); err != nil {
		return nil, err
	}
	marked, err := r.poolRerolls(p, f, target, s, value)
	if err != nil {
		return nil, err
	}
	anyRerolled, err := r.poolAnyReroll(p, f, s, value, marked)
	if err != nil {
		return nil, err
	}
	if len(marked) > 0 || anyRerolled {
		value = p.values(r.mem)
		if r.rollRead(p.name) {
			p.bind(f, r.mem)
		}
		if err := r.logPool(f, s, p, mods, "after re-rolls"); err != nil {
			return nil, err
		}
	}
	return value, nil
}

// logPool logs a pool's dice: "hits: 3 D6: 2, 5, 6 +1 = 3, 6, 7".
func (r *runner) logPool(f *frame, s *syntax.Roll, p *pool, mods []Modifier, note string) error {
	if !r.logging() {
		return r.count()
	}
	ints := slices.Clone(p.natural)
	if ints == nil {
		ints = []int{}
	}
	ev := &Event{Kind: EventRoll, At: at(s.Pos), Name: p.name, Dice: fmt.Sprintf("%d×%s", len(ints), p.d.Title), Rolled: ints}
	var text strings.Builder
	fmt.Fprintf(&text, "%s: %d %s: ", p.name, len(ints), r.countedDiceTitle(p.d, len(ints)))
	if p.d.Symbolic() {
		ev.Faces = slices.Clone(p.faces)
		if ev.Faces == nil {
			ev.Faces = []string{}
		}
		var titles []string
		for _, fc := range p.faces {
			face, _ := p.d.Face(fc)
			titles = append(titles, r.translatedTitle(face.Title))
		}
		text.WriteString(strings.Join(titles, ", "))
	} else {
		text.WriteString(display(ints))
		if len(mods) > 0 {
			ev.Modifiers = mods
			for _, m := range mods {
				fmt.Fprintf(&text, " %+d", m.By)
			}
			fmt.Fprintf(&text, " = %s", display(p.values(r.mem)))
		}
	}
	if note != "" {
		text.WriteString(", " + note)
	}
	ev.Text = text.String()
	return r.log(f, ev)
}

// poolPick rolls an effect's extra dice for a pool and discards as many,
// keeping the highest, the lowest or the player's choice.
func (r *runner) poolPick(p *pool, f *frame, ef *effect, s *syntax.Roll) error {
	x := ef.info.Item.(*syntax.ExtraDice)
	k := x.Count.Value()
	before := len(p.natural)
	if before+k > r.limits.DicePerRoll {
		return r.errorAt(f, diag.CodeRunLimit, spanOf(s), fmt.Errorf("roll %s: cannot roll %d dice (0 to %d)", p.name, before+k, r.limits.DicePerRoll))
	}
	for i := 0; i < k; i++ {
		v, face, err := r.rollPoolDie(p, f)
		if err != nil {
			return r.diceErrorAt(f, s, err)
		}
		p.natural = append(p.natural, v)
		if p.d.Symbolic() {
			p.faces = append(p.faces, face)
		}
	}
	var shown []string
	for i := range p.natural {
		shown = append(shown, p.show(i))
	}
	// Positions by value, lowest first (ties: the earlier die first).
	order := make([]int, len(p.natural))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p.natural[order[a]] < p.natural[order[b]] })
	var discard []int
	switch x.Pick {
	case "highest":
		discard = order[:k]
	case "lowest":
		discard = order[len(order)-k:]
	default:
		def := make([]int, k)
		for i, o := range order[:k] {
			def[i] = o + 1
		}
		sort.Ints(def)
		req := &ChoiceRequest{Name: p.name + "_pick", Key: ownerKey(ef), Rule: ef.owner, Default: def,
			Prompt: fmt.Sprintf("%s: which %d of %s %s to discard? (positions, e.g. %s)", titleOf(ef.owner), k, p.name,
				strings.Join(shown, ", "), joinInts(def))}
		all := make([]int, len(p.natural))
		for i := range all {
			all[i] = i
		}
		read := func(v any) ([]int, error) {
			pos, err := dicePositions(v, all)
			if err == nil && len(pos) != k {
				err = fmt.Errorf("discard exactly %d of the dice of %s, not %d", k, p.name, len(pos))
			}
			return pos, err
		}
		pos, err := r.askDice(f, req, s, read)
		if err != nil {
			return err
		}
		discard = pos
	}
	drop := map[int]bool{}
	var dropped []string
	for _, i := range discard {
		drop[i] = true
	}
	var natural []int
	var faces []string
	for i := range p.natural {
		if drop[i] {
			dropped = append(dropped, p.show(i))
			continue
		}
		natural = append(natural, p.natural[i])
		if p.d.Symbolic() {
			faces = append(faces, p.faces[i])
		}
	}
	p.natural, p.faces = natural, faces
	return r.logLazy(f, func() *Event {
		return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: p.name,
			Text: fmt.Sprintf("%s: %d extra %s for %s: %s, discards %s", titleOf(ef.owner), k, p.d.Title, p.name,
				strings.Join(shown, ", "), strings.Join(dropped, ", "))}
	})
}

// poolRerolls applies the re-rolls in force on a pool: every die an `each`
// re-roll's predicate holds for, and up to a budget of the dice an `up to`
// re-roll's predicate holds for, the player choosing which. A die is
// re-rolled once, whatever the sources. It returns the dice re-rolled
// (0-based positions).
func (r *runner) poolRerolls(p *pool, f *frame, target string, s *syntax.Roll, value any) (map[int]bool, error) {
	list := r.p.reroll[target]
	if len(list) == 0 || len(p.natural) == 0 {
		return nil, nil
	}
	name := p.name
	old, had := f.get(name)
	f.set(name, value)
	defer func() {
		if had {
			f.set(name, old)
		} else {
			f.unset(name)
		}
	}()
	// Sources in an order that does not depend on the order of files or
	// declarations: by owner (an up to chooses among the dice the ones
	// before it left).
	list = slices.Clone(list)
	sort.SliceStable(list, func(i, j int) bool { return list[i].owner < list[j].owner })
	marked := map[int]bool{}
	var order []int         // the dice to re-roll, in the order they were marked
	by := map[int]*effect{} // whose re-roll each die is
	// each first, then up to: a budget is not spent on a die that every
	// such die is re-rolled anyway.
	for _, pass := range []bool{true, false} {
		for _, ef := range list {
			rr := ef.info.Item.(*syntax.Reroll)
			if rr.Each != pass {
				continue
			}
			ok, restore, err := r.effectApplies(ef, rr.When, f)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			// The predicate and the budget see the holder too.
			eligible, err := r.poolEligible(p, f, rr, marked)
			chosen := eligible
			if err == nil && !rr.Each {
				chosen, err = r.poolBudget(p, f, ef, rr, s, eligible)
			}
			restore()
			if err != nil {
				return nil, err
			}
			for _, i := range chosen {
				marked[i] = true
				by[i] = ef
				order = append(order, i)
			}
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	// Re-roll, and log each source's dice.
	type change struct{ text []string }
	changes := map[*effect]*change{}
	var owners []*effect
	sort.Ints(order)
	for _, i := range order {
		before := p.show(i)
		v, face, err := r.rollPoolDie(p, f)
		if err != nil {
			return nil, r.diceErrorAt(f, s, err)
		}
		p.natural[i] = v
		if p.d.Symbolic() {
			p.faces[i] = face
		}
		ef := by[i]
		if changes[ef] == nil {
			changes[ef] = &change{}
			owners = append(owners, ef)
		}
		changes[ef].text = append(changes[ef].text, fmt.Sprintf("die %d: %s → %s", i+1, before, p.show(i)))
	}
	for _, ef := range owners {
		c := changes[ef]
		if err := r.logLazy(f, func() *Event {
			return &Event{Kind: EventEffect, Rule: ef.owner, Source: ef.source, Name: name,
				Text: fmt.Sprintf("%s: re-rolls %s: %s", titleOf(ef.owner), name, strings.Join(c.text, ", "))}
		}); err != nil {
			return nil, err
		}
	}
	return marked, nil
}

// poolEligible lists the dice (0-based) a re-roll's predicate holds for,
// leaving out dice already re-rolled.
func (r *runner) poolEligible(p *pool, f *frame, rr *syntax.Reroll, marked map[int]bool) ([]int, error) {
	var out []int
	if rr.Where == nil {
		for i := range p.natural {
			if !marked[i] {
				out = append(out, i)
			}
		}
		return out, nil
	}
	dice := make([]any, len(p.natural))
	for i := range dice {
		dice[i] = p.die(i)
	}
	old, had := f.get(dsl.PoolDiceVar)
	f.set(dsl.PoolDiceVar, dice)
	v, err := r.eval(f, dsl.PoolPredicate(rr.Where))
	if had {
		f.set(dsl.PoolDiceVar, old)
	} else {
		f.unset(dsl.PoolDiceVar)
	}
	if err != nil {
		return nil, err
	}
	list, err := toList(v)
	if err != nil || len(list) != len(dice) {
		return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(rr.Where), fmt.Errorf("a pool re-roll's where must be true or false for each die"))
	}
	for i, b := range list {
		yes, ok := b.(bool)
		if !ok {
			return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(rr.Where), fmt.Errorf("a pool re-roll's where must be true or false for each die, got %s for die %d", display(b), i+1))
		}
		if yes && !marked[i] {
			out = append(out, i)
		}
	}
	return out, nil
}

// poolBudget picks at most the re-roll's budget of the eligible dice: all
// of them when they fit, else the player's choice (default: the lowest
// numeric dice, or the first ones).
func (r *runner) poolBudget(p *pool, f *frame, ef *effect, rr *syntax.Reroll, s *syntax.Roll, eligible []int) ([]int, error) {
	budget, err := r.evalInt(f, rr.UpTo)
	if err != nil {
		return nil, err
	}
	if budget < 0 {
		return nil, r.errorAt(f, diag.CodeRunExpr, spanOf(rr.UpTo), fmt.Errorf("a pool re-roll of up to %d dice: the number cannot be negative", budget))
	}
	if budget == 0 {
		return nil, nil
	}
	if len(eligible) <= budget {
		return eligible, nil
	}
	byValue := slices.Clone(eligible)
	if !p.d.Symbolic() {
		sort.SliceStable(byValue, func(a, b int) bool { return p.natural[byValue[a]] < p.natural[byValue[b]] })
	}
	def := make([]int, budget)
	for i, o := range byValue[:budget] {
		def[i] = o + 1
	}
	sort.Ints(def)
	var shown []string
	for _, i := range eligible {
		shown = append(shown, fmt.Sprintf("%d) %s", i+1, p.show(i)))
	}
	req := &ChoiceRequest{Name: p.name + "_reroll", Key: ownerKey(ef), Rule: ef.owner, Default: def,
		Prompt: fmt.Sprintf("%s: which dice of %s to re-roll, up to %d of %s? (positions, e.g. %s)", titleOf(ef.owner), p.name,
			budget, strings.Join(shown, ", "), joinInts(def))}
	return r.askDice(f, req, s, func(v any) ([]int, error) {
		pos, err := dicePositions(v, eligible)
		if err == nil && len(pos) > budget {
			err = fmt.Errorf("%d dice chosen for a pool re-roll with a budget of %d: no budget left for die %d", len(pos), budget, pos[budget]+1)
		}
		return pos, err
	})
}

// askDice asks a choice answered by dice of a pool, read (and checked) by
// read: a typed answer is checked as it is typed (the prompt asks again),
// a given one after.
func (r *runner) askDice(f *frame, req *ChoiceRequest, s *syntax.Roll, read func(any) ([]int, error)) ([]int, error) {
	req.parse = func(text string) (any, error) {
		pos, err := read(text)
		if err != nil {
			return nil, err
		}
		out := make([]int, len(pos))
		for i, p := range pos {
			out[i] = p + 1
		}
		return out, nil
	}
	v, err := r.ask(f, req, s.Pos, spanOf(s))
	if err != nil {
		return nil, err
	}
	pos, err := read(v)
	if err != nil {
		return nil, r.errorAt(f, diag.CodeRunChoice, spanOf(s), fmt.Errorf("%s: %v", req.Answers(), err))
	}
	return pos, nil
}

// dicePositions reads an answer naming dice by position (1-based): a list,
// one number, or text such as "1,3" ("none" or "" for no die). Each must
// be one of allowed (0-based) and named once. It returns 0-based positions.
func dicePositions(v any, allowed []int) ([]int, error) {
	var raw []any
	switch v := v.(type) {
	case nil:
	case string:
		t := strings.TrimSpace(v)
		if t != "" && t != "none" {
			for _, part := range strings.Split(t, ",") {
				raw = append(raw, strings.TrimSpace(part))
			}
		}
	case []int:
		for _, x := range v {
			raw = append(raw, x)
		}
	case []any:
		raw = v
	default:
		raw = []any{v}
	}
	var out []int
	seen := map[int]bool{}
	for _, x := range raw {
		var n int
		switch x := x.(type) {
		case int:
			n = x
		case string:
			var err error
			if n, err = strconv.Atoi(x); err != nil {
				return nil, fmt.Errorf("%q is not a die's position (1, 2, …)", x)
			}
		default:
			got, err := toInt(x)
			if err != nil {
				return nil, fmt.Errorf("%s is not a die's position (1, 2, …)", display(x))
			}
			n = got
		}
		if !slices.Contains(allowed, n-1) {
			var ok []string
			for _, a := range allowed {
				ok = append(ok, strconv.Itoa(a+1))
			}
			return nil, fmt.Errorf("die %d cannot be chosen (the dice that can: %s)", n, strings.Join(ok, ", "))
		}
		if seen[n] {
			return nil, fmt.Errorf("die %d is chosen twice", n)
		}
		seen[n] = true
		out = append(out, n-1)
	}
	return out, nil
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}
