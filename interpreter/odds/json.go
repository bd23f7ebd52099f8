package odds

import (
	"fmt"
	"math/big"

	"github.com/munda-rules/munda/stdlib/state"
)

// ResultJSON is a Result as tools read it: `munda odds --json` and the
// web playground answer with it.
type ResultJSON struct {
	Exact   bool    `json:"exact"`
	Paths   int     `json:"paths,omitempty"`
	Samples int     `json:"samples,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"` // Monte Carlo: to repeat it
	Note    string  `json:"note,omitempty"`
	// Mean, for numbers and yes/no; MeanP is its exact fraction.
	Mean     *float64      `json:"mean,omitempty"`
	MeanP    string        `json:"mean_exact,omitempty"`
	Outcomes []OutcomeJSON `json:"outcomes"`
}

// OutcomeJSON is one outcome of a ResultJSON.
type OutcomeJSON struct {
	Key         string   `json:"key"`
	Value       any      `json:"value,omitempty"` // models and gangs by id
	P           string   `json:"p"`               // exact fraction, or count/samples
	Probability float64  `json:"probability"`
	Count       int      `json:"count,omitempty"` // Monte Carlo: samples that gave it
	Low         *float64 `json:"low,omitempty"`   // Monte Carlo: the 95% interval
	High        *float64 `json:"high,omitempty"`
	Cumulative  *float64 `json:"cumulative,omitempty"` // numbers: P(value ≤ this)
}

// JSON is the result's JSON form, every outcome included.
func (r *Result) JSON() ResultJSON {
	j := ResultJSON{Exact: r.Exact, Paths: r.Paths, Samples: r.Samples, Note: r.Note, Outcomes: []OutcomeJSON{}}
	if !r.Exact {
		seed := r.Seed
		j.Seed = &seed
	}
	if r.Numeric && r.Mean != nil {
		m := Float(r.Mean)
		j.Mean = &m
		if r.Exact {
			j.MeanP = RatString(r.Mean)
		}
	}
	cum := r.Cumulative()
	for i, o := range r.Outcomes {
		oj := OutcomeJSON{Key: o.Key, Value: jsonValue(o.Value), P: RatString(o.P), Probability: Float(o.P)}
		if !r.Exact {
			lo, hi := o.Low, o.High
			oj.Count, oj.Low, oj.High = o.Count, &lo, &hi
		}
		if cum != nil {
			c := Float(cum[i])
			oj.Cumulative = &c
		}
		j.Outcomes = append(j.Outcomes, oj)
	}
	return j
}

// RatString writes a probability as a fraction, or a whole number.
func RatString(p *big.Rat) string {
	if p.IsInt() {
		return p.Num().String()
	}
	return p.RatString()
}

// jsonValue keeps plain values and names models and gangs by id.
func jsonValue(v any) any {
	switch v := v.(type) {
	case *state.Model:
		if v == nil {
			return nil
		}
		return v.ID
	case *state.Gang:
		if v == nil {
			return nil
		}
		return v.ID
	case int, int64, float64, bool, string, nil:
		return v
	}
	return fmt.Sprint(v)
}
