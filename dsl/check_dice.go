package dsl

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// DiceKind says how a dice is defined.
type DiceKind int

const (
	NumericDice  DiceKind = iota // faces 1, 2, 3, …
	SymbolicDice                 // face out_of_action …
	SumDice                      // sum 2 d6
	DigitsDice                   // digits d6, d6
)

// Bounds on what a dice declaration may build, so a pack cannot ask for
// an astronomically large outcome table.
const (
	maxDiceInSum   = 20
	maxDigitDice   = 4
	maxDiceOutcome = 100000
)

// DiceInfo is a checked dice: its faces and every result it can give.
type DiceInfo struct {
	Decl  *syntax.Dice
	ID    string
	Title string
	Kind  DiceKind
	Faces []FaceInfo  // numeric and symbolic dice
	Sides int         // total faces (numeric and symbolic dice)
	Count int         // sum dice: how many of Parts[0]
	Parts []*DiceInfo // sum and digits dice
	// Outcomes are the distinct results, by value, with how many of the
	// equally likely elementary rolls give each (Ways out of Total).
	Outcomes []Outcome
	Total    int
}

// FaceInfo is one face kind of a dice.
type FaceInfo struct {
	ID    string // symbolic faces only
	Title string
	Value int
	Count int
}

// Outcome is one result of a dice.
type Outcome struct {
	Value int
	Face  string // symbolic dice only
	Ways  int
}

// Symbolic reports whether results are faces (strings) rather than numbers.
func (d *DiceInfo) Symbolic() bool { return d.Kind == SymbolicDice }

// Face returns the face with id, if any.
func (d *DiceInfo) Face(id string) (FaceInfo, bool) {
	for _, f := range d.Faces {
		if f.ID == id {
			return f, true
		}
	}
	return FaceInfo{}, false
}

// HasValue reports whether v is a possible (unmodified) result.
func (d *DiceInfo) HasValue(v int) bool {
	i := sort.Search(len(d.Outcomes), func(i int) bool { return d.Outcomes[i].Value >= v })
	return i < len(d.Outcomes) && d.Outcomes[i].Value == v
}

func (c *checker) checkDice() {
	for _, d := range c.all {
		if dice, ok := d.(*syntax.Dice); ok {
			c.diceInfo(dice, nil)
		}
	}
	for id, d := range c.decls[nsCore] {
		if dice, ok := d.(*syntax.Dice); ok {
			if info := c.diceInfo(dice, nil); info != nil {
				c.idx.Dice[id] = info
			}
		}
	}
}

// diceInfo builds (once) the info for a dice declaration; visiting guards
// against a dice defined in terms of itself.
func (c *checker) diceInfo(d *syntax.Dice, visiting map[*syntax.Dice]bool) *DiceInfo {
	if info, ok := c.diceDone[d]; ok {
		return info
	}
	if visiting[d] {
		c.diags.errorf(diag.CodeInvalid, identRange(d.ID), "dice %s is defined in terms of itself", d.ID.Name)
		return nil
	}
	if visiting == nil {
		visiting = map[*syntax.Dice]bool{}
	}
	visiting[d] = true
	info := c.buildDice(d, visiting)
	delete(visiting, d)
	if c.diceDone == nil {
		c.diceDone = map[*syntax.Dice]*DiceInfo{}
	}
	c.diceDone[d] = info
	return info
}

func (c *checker) buildDice(d *syntax.Dice, visiting map[*syntax.Dice]bool) *DiceInfo {
	info := &DiceInfo{Decl: d, ID: d.ID.Name, Title: d.Title.Value()}
	var faces []*syntax.Faces
	var symbols []*syntax.Face
	var sums []*syntax.Sum
	var digits []*syntax.Digits
	for _, it := range d.Items {
		switch it := it.(type) {
		case *syntax.Faces:
			faces = append(faces, it)
		case *syntax.Face:
			symbols = append(symbols, it)
		case *syntax.Sum:
			sums = append(sums, it)
		case *syntax.Digits:
			digits = append(digits, it)
		}
	}
	kinds := 0
	for _, n := range []int{len(faces), len(symbols), len(sums), len(digits)} {
		if n > 0 {
			kinds++
		}
	}
	if kinds != 1 || len(faces) > 1 || len(sums) > 1 || len(digits) > 1 {
		dg := c.diags.errorf(diag.CodeInvalid, identRange(d.ID), "dice %s needs exactly one definition", d.ID.Name)
		dg.Detail = "Give either `faces 1, 2, …`, or one `face id \"Title\"` line per symbol, or `sum N dice`, or `digits dice, dice`."
		return nil
	}
	part := func(id *syntax.Ident) *DiceInfo {
		decl, ok := c.lookup(nsCore, id.Name).(*syntax.Dice)
		if !ok {
			c.unknown(identRange(id), "dice", id.Name, c.ofKind("dice"))
			return nil
		}
		return c.diceInfo(decl, visiting)
	}
	switch {
	case len(faces) == 1:
		info.Kind = NumericDice
		ways := map[int]int{}
		for _, v := range faces[0].Values {
			ways[v.Value()]++
			info.Sides++
		}
		for _, v := range sortedKeys(ways) {
			info.Faces = append(info.Faces, FaceInfo{Value: v, Count: ways[v]})
			info.Outcomes = append(info.Outcomes, Outcome{Value: v, Ways: ways[v]})
		}
	case len(symbols) > 0:
		info.Kind = SymbolicDice
		seen := map[string]bool{}
		for i, f := range symbols {
			if seen[f.ID.Name] {
				c.diags.errorf(diag.CodeDuplicateID, identRange(f.ID), "face %s appears twice on dice %s", f.ID.Name, d.ID.Name)
				continue
			}
			seen[f.ID.Name] = true
			fi := FaceInfo{ID: f.ID.Name, Title: f.Title.Value(), Value: i + 1, Count: 1}
			if fi.Title == "" {
				fi.Title = f.ID.Name
			}
			if f.Value != nil {
				fi.Value = f.Value.Value()
			}
			if f.Count != nil {
				fi.Count = f.Count.Value()
				if fi.Count < 1 || fi.Count > 1000 {
					c.diags.errorf(diag.CodeInvalid, diag.RangeOf(f.Count.Pos, f.Count.EndPos), "a face must appear on 1 to 1000 sides, not %d", fi.Count)
					fi.Count = 1
				}
			}
			info.Faces = append(info.Faces, fi)
			info.Sides += fi.Count
			info.Outcomes = append(info.Outcomes, Outcome{Value: fi.Value, Face: fi.ID, Ways: fi.Count})
		}
		sort.SliceStable(info.Outcomes, func(i, j int) bool { return info.Outcomes[i].Value < info.Outcomes[j].Value })
	case len(sums) == 1:
		info.Kind = SumDice
		s := sums[0]
		info.Count = s.Count.Value()
		if info.Count < 1 || info.Count > maxDiceInSum {
			c.diags.errorf(diag.CodeInvalid, diag.RangeOf(s.Count.Pos, s.Count.EndPos), "a sum adds 1 to %d dice, not %d", maxDiceInSum, info.Count)
			return nil
		}
		p := part(s.Of)
		if p == nil {
			return nil
		}
		if p.Symbolic() {
			c.diags.errorf(diag.CodeInvalid, identRange(s.Of), "cannot add up dice %s: its faces are symbols", p.ID)
			return nil
		}
		info.Parts = []*DiceInfo{p}
		ways := map[int]int{0: 1}
		for i := 0; i < info.Count; i++ {
			next := map[int]int{}
			for v, w := range ways {
				for _, o := range p.Outcomes {
					next[v+o.Value] += w * o.Ways
				}
			}
			ways = next
		}
		for _, v := range sortedKeys(ways) {
			info.Outcomes = append(info.Outcomes, Outcome{Value: v, Ways: ways[v]})
		}
	default:
		info.Kind = DigitsDice
		ds := digits[0]
		if len(ds.Of) > maxDigitDice {
			c.diags.errorf(diag.CodeInvalid, diag.RangeOf(ds.Pos, ds.EndPos), "digits reads at most %d dice", maxDigitDice)
			return nil
		}
		ways := map[int]int{0: 1}
		for _, id := range ds.Of {
			p := part(id)
			if p == nil {
				return nil
			}
			if p.Symbolic() {
				c.diags.errorf(diag.CodeInvalid, identRange(id), "dice %s has symbols, not digits", p.ID)
				return nil
			}
			for _, o := range p.Outcomes {
				if o.Value < 0 || o.Value > 9 {
					c.diags.errorf(diag.CodeInvalid, identRange(id), "dice %s has the face %d, which is not a single digit", p.ID, o.Value)
					return nil
				}
			}
			info.Parts = append(info.Parts, p)
			next := map[int]int{}
			for v, w := range ways {
				for _, o := range p.Outcomes {
					next[v*10+o.Value] += w * o.Ways
				}
			}
			ways = next
		}
		for _, v := range sortedKeys(ways) {
			info.Outcomes = append(info.Outcomes, Outcome{Value: v, Ways: ways[v]})
		}
	}
	if len(info.Outcomes) > maxDiceOutcome {
		c.diags.errorf(diag.CodeInvalid, identRange(d.ID), "dice %s has too many results (%d; the limit is %d)", d.ID.Name, len(info.Outcomes), maxDiceOutcome)
		return nil
	}
	for _, o := range info.Outcomes {
		info.Total += o.Ways
	}
	return info
}

func sortedKeys(m map[int]int) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// CharInfo is a checked characteristic: how it is tested and bounded.
type CharInfo struct {
	Decl    *syntax.Characteristic
	ID      string
	Title   string
	Dice    *DiceInfo // nil for a characteristic that is never tested
	AtLeast bool      // pass when the modified roll is at least the value; else at most
	Target  bool      // a target number (7+): lower is better
	// Naturals maps a natural roll to a fixed outcome (true = pass).
	Naturals  map[int]bool
	Field     []int // index of the field in stdlib.Stats
	FieldName string
	Limits    map[string]Limits // by model kind: fighter, vehicle, crew
}

// Limits are the worst and best values a characteristic may take.
type Limits struct{ Worst, Best int }

var statsType = reflect.TypeOf(state.Stats{})

func (c *checker) checkCharacteristics() {
	for _, d := range c.all {
		ch, ok := d.(*syntax.Characteristic)
		if !ok {
			continue
		}
		info := c.charInfo(ch)
		if info != nil && c.lookup(nsCore, ch.ID.Name) == ch {
			c.idx.Characteristics[ch.ID.Name] = info
		}
	}
}

func (c *checker) charInfo(ch *syntax.Characteristic) *CharInfo {
	info := &CharInfo{Decl: ch, ID: ch.ID.Name, Title: ch.Title.Value(), FieldName: ch.ID.Name,
		Naturals: map[int]bool{}, Limits: map[string]Limits{}}
	var check *syntax.CharCheck
	fieldAt := ch.ID
	for _, it := range ch.Items {
		switch it := it.(type) {
		case *syntax.CharCheck:
			if check != nil {
				c.diags.errorf(diag.CodeInvalid, diag.RangeOf(it.Pos, it.EndPos), "characteristic %s has two check lines", ch.ID.Name)
			}
			check = it
		case *syntax.CharNatural:
			info.Naturals[it.Roll.Value()] = it.Outcome == "passes"
		case *syntax.CharTarget:
			info.Target = true
		case *syntax.CharField:
			info.FieldName, fieldAt = it.Field.Name, it.Field
		case *syntax.CharLimits:
			switch it.Kind.Name {
			case "fighter", "vehicle", "crew":
			default:
				c.diags.errorf(diag.CodeInvalid, identRange(it.Kind), "limits apply to fighter, vehicle or crew, not %s", it.Kind.Name)
			}
			info.Limits[it.Kind.Name] = Limits{Worst: it.Worst.Value(), Best: it.Best.Value()}
		}
	}
	f, ok := fieldByTag(statsType, info.FieldName)
	if !ok {
		d := c.diags.errorf(diag.CodeUnknownRef, identRange(fieldAt), "stats have no field %s", info.FieldName)
		if s := diag.DidYouMean(info.FieldName, fieldNames(statsType)); s != "" {
			d.Detail = fmt.Sprintf("Did you mean %s? A characteristic named differently from its stats field needs `field NAME`.", s)
		}
	} else {
		info.Field = f.Index
	}
	if check == nil {
		// Not tested (Movement, Wounds): it only has limits.
		if info.Field == nil {
			return nil
		}
		return info
	}
	info.AtLeast = check.Mode == "at_least"
	if decl, ok := c.lookup(nsCore, check.Dice.Name).(*syntax.Dice); ok {
		info.Dice = c.diceInfo(decl, nil)
		if info.Dice != nil && info.Dice.Symbolic() {
			c.diags.errorf(diag.CodeInvalid, identRange(check.Dice), "a characteristic is tested with numeric dice; %s has symbols", check.Dice.Name)
		}
	} else {
		c.unknown(identRange(check.Dice), "dice", check.Dice.Name, c.ofKind("dice"))
	}
	if info.Dice == nil || info.Field == nil {
		return nil
	}
	return info
}

// Value is the model's current value of the characteristic.
func (ci *CharInfo) Value(m *state.Model) int {
	return int(reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).Int())
}

// SetValue sets the model's value of the characteristic.
func (ci *CharInfo) SetValue(m *state.Model, v int) {
	reflect.ValueOf(&m.Stats).Elem().FieldByIndex(ci.Field).SetInt(int64(v))
}

// LimitsFor returns the limits that apply to a model: its kind's, or for a
// vehicle the crew's when the vehicle has none of its own.
func (ci *CharInfo) LimitsFor(m *state.Model) (Limits, bool) {
	if l, ok := ci.Limits[m.Kind]; ok {
		return l, true
	}
	if m.Kind == "vehicle" {
		l, ok := ci.Limits["crew"]
		return l, ok
	}
	return Limits{}, false
}

// Changed computes the value after improving (or worsening) by n. ok is
// false when the change would pass the limit for the model's kind, in
// which case the rules say it does not happen at all.
func (ci *CharInfo) Changed(m *state.Model, improve bool, n int) (int, bool) {
	v := ci.Value(m)
	step := n
	if ci.Target {
		step = -n // a lower target number is better
	}
	if !improve {
		step = -step
	}
	next := v + step
	lim, ok := ci.LimitsFor(m)
	if !ok {
		return next, true
	}
	lo, hi := min(lim.Worst, lim.Best), max(lim.Worst, lim.Best)
	if next < lo || next > hi {
		return v, false
	}
	return next, true
}
