package odds

import (
	"math/big"
	"sort"
)

// accumulator merges outcomes by key, adding their probabilities (exact)
// or counts (samples).
type accumulator struct {
	order []string
	byKey map[string]*tally
	total int
}

// tally is an outcome so far: its probability summed as a prob (each
// Outcome's P is made from it once, in result).
type tally struct {
	o Outcome
	p prob
}

func newAccumulator() *accumulator {
	return &accumulator{byKey: map[string]*tally{}}
}

// add counts an outcome of probability p (0 for a sample); it reports
// whether the key is new (its value is then kept).
func (a *accumulator) add(key string, value any, p prob) (isNew bool) {
	t, ok := a.byKey[key]
	if !ok {
		isNew = true
		t = &tally{o: Outcome{Key: key, Value: value}}
		a.byKey[key] = t
		a.order = append(a.order, key)
	}
	t.p = t.p.add(p)
	t.o.Count++
	a.total++
	return isNew
}

// merge adds another accumulator's counts (Monte Carlo chunks).
func (a *accumulator) merge(b *accumulator) {
	for _, k := range b.order {
		t := b.byKey[k]
		mine, ok := a.byKey[k]
		if !ok {
			mine = &tally{o: Outcome{Key: k, Value: t.o.Value}}
			a.byKey[k] = mine
			a.order = append(a.order, k)
		}
		mine.o.Count += t.o.Count
		mine.p = mine.p.add(t.p)
	}
	a.total += b.total
}

// result orders the outcomes: numbers (and yes/no) by value, anything else
// most likely first, ties by key, so output is deterministic.
func (a *accumulator) result() *Result {
	res := &Result{Numeric: len(a.order) > 0}
	probs := make([]prob, 0, len(a.order))
	for _, k := range a.order {
		t := a.byKey[k]
		res.Outcomes = append(res.Outcomes, t.o)
		probs = append(probs, t.p)
		if _, ok := number(t.o.Value); !ok {
			res.Numeric = false
		}
	}
	// Sorted by index, so that the probabilities are compared as probs
	// (no allocation), and each made a big.Rat once after.
	order := make([]int, len(res.Outcomes))
	for i := range order {
		order[i] = i
	}
	var nums []*big.Rat // the values, when all are numbers
	if res.Numeric {
		nums = make([]*big.Rat, len(res.Outcomes))
		for i, o := range res.Outcomes {
			nums[i], _ = number(o.Value)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		x, y := &res.Outcomes[order[i]], &res.Outcomes[order[j]]
		if res.Numeric {
			return nums[order[i]].Cmp(nums[order[j]]) < 0
		}
		if c := probs[order[i]].cmp(probs[order[j]]); c != 0 {
			return c > 0
		}
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.Key < y.Key
	})
	sorted := make([]Outcome, len(order))
	for i, k := range order {
		sorted[i] = res.Outcomes[k]
		sorted[i].P = probs[k].rat()
	}
	res.Outcomes = sorted
	if res.Numeric {
		res.Mean = new(big.Rat)
		for _, o := range res.Outcomes {
			v, _ := number(o.Value)
			res.Mean.Add(res.Mean, new(big.Rat).Mul(v, o.P))
		}
	}
	return res
}

// number is a value as an exact number: ints, floats and yes/no (1/0).
func number(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case int64:
		return new(big.Rat).SetInt64(v), true
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(v) == nil {
			return nil, false
		}
		return r, true
	case bool:
		if v {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	}
	return nil, false
}

// Cumulative returns, for numeric results, P(X <= value) for each outcome
// in order.
func (r *Result) Cumulative() []*big.Rat {
	if !r.Numeric {
		return nil
	}
	out := make([]*big.Rat, len(r.Outcomes))
	sum := new(big.Rat)
	for i, o := range r.Outcomes {
		sum = new(big.Rat).Add(sum, o.P)
		out[i] = sum
	}
	return out
}
