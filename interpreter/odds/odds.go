// Package odds answers "how likely is each outcome?" for a procedure of the
// rules run on a battle state: exactly, by running the same interpreter
// down every branch of the dice and merging runs that reach the same
// configuration (merge.go), or by Monte Carlo when there are too many. There is no second implementation of the rules: a run is a run
// of interpreter.Program, driven by a dice source that enumerates.
package odds

import (
	"math/big"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// Question is what to ask: a procedure run on a state, and what to look at
// in each outcome.
type Question struct {
	Program   *interpreter.Program
	State     *state.State // never changed: each run has its own copy
	Procedure string       // id, e.g. "bottle_check"
	// Table, instead of a procedure, asks which row a roll on the table
	// lands on (e.g. "lasting_injury"): without Of an outcome is that
	// row's id (the row the dice chose; what it does is not run), with Of
	// a run rolls on the table and applies the row.
	Table string
	// Args are the procedure's (or table's) arguments as text (ids for
	// models and gangs), as --arg gives them: they are bound to each run's
	// copy. A table's model parameters not given are no model.
	Args map[string]string
	// Choices answers the rules' choices; nil takes every default.
	Choices interpreter.ChoiceSource
	// Of is asked of each outcome's state; nil summarises what changed
	// (see Summary), of the Focus models only when there are some (for a
	// Table, nil gives the row).
	Of    *dsl.Query
	Focus []string
	// Limits bound each run (zero: interpreter.DefaultLimits).
	Limits interpreter.Limits
	// Progress, if set, is told now and then how far Exact has got: the
	// runs made, and the share of all probability that has reached the
	// end, which is known exactly as each branch ends (so the time left can be
	// estimated from it).
	Progress func(branches int, covered float64)

	// keys interns the summaries of a question's runs (set by Exact).
	keys *keyTable
}

// Outcome is one answer and how likely it is.
type Outcome struct {
	Key   string // the value as text, or the summary of changes
	Value any    // the Of value (nil for summaries)
	// P is the exact probability (exact results); for samples, the
	// observed frequency.
	P *big.Rat
	// Monte Carlo: how many samples gave it, and the 95% interval of its
	// probability (Wilson score).
	Count     int
	Low, High float64
}

// Result is the distribution of a question's outcomes.
type Result struct {
	Outcomes []Outcome // most likely first; numbers in order (see Numeric)
	Exact    bool
	Paths    int    // exact: runs that reached the end (branches, after merging)
	Configs  int    // exact: distinct configurations of the run merged into
	Runs     int    // exact: runs made (each from the start to a checkpoint or the end)
	Samples  int    // Monte Carlo: runs
	Seed     uint64 // Monte Carlo: the seed, to repeat it
	Note     string // e.g. why Monte Carlo was used
	// Calls (exact): callers the call memo served with the callee run
	// for another (each caller of a group but the one that stands for
	// all; see memo.go)
	Calls int
	// Numeric is set when every value is a number or a yes/no: Outcomes
	// are then in increasing order, and Mean and the cumulative
	// probabilities are meaningful.
	Numeric bool
	Mean    *big.Rat // exact mean (Monte Carlo: the sample mean)
}

// Float returns p as a float64.
func Float(p *big.Rat) float64 {
	f, _ := p.Float64()
	return f
}
