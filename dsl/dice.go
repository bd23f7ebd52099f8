package dsl

import (
	"sort"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
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
		c.diags.errorf(diag.CodeDiceDefinition, identRange(d.ID), "dice %s is defined in terms of itself", d.ID.Name)
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
		dg := c.diags.errorf(diag.CodeDiceDefinition, identRange(d.ID), "dice %s needs exactly one definition", d.ID.Name)
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
					c.diags.errorf(diag.CodeOutOfRange, diag.RangeOf(f.Count.Pos, f.Count.EndPos), "a face must appear on 1 to 1000 sides, not %d", fi.Count)
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
			c.diags.errorf(diag.CodeOutOfRange, diag.RangeOf(s.Count.Pos, s.Count.EndPos), "a sum adds 1 to %d dice, not %d", maxDiceInSum, info.Count)
			return nil
		}
		p := part(s.Of)
		if p == nil {
			return nil
		}
		if p.Symbolic() {
			c.diags.errorf(diag.CodeDiceDefinition, identRange(s.Of), "cannot add up dice %s: its faces are symbols", p.ID)
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
			c.diags.errorf(diag.CodeOutOfRange, diag.RangeOf(ds.Pos, ds.EndPos), "digits reads at most %d dice", maxDigitDice)
			return nil
		}
		ways := map[int]int{0: 1}
		for _, id := range ds.Of {
			p := part(id)
			if p == nil {
				return nil
			}
			if p.Symbolic() {
				c.diags.errorf(diag.CodeDiceDefinition, identRange(id), "dice %s has symbols, not digits", p.ID)
				return nil
			}
			for _, o := range p.Outcomes {
				if o.Value < 0 || o.Value > 9 {
					c.diags.errorf(diag.CodeDiceDefinition, identRange(id), "dice %s has the face %d, which is not a single digit", p.ID, o.Value)
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
		c.diags.errorf(diag.CodeOutOfRange, identRange(d.ID), "dice %s has too many results (%d; the limit is %d)", d.ID.Name, len(info.Outcomes), maxDiceOutcome)
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
