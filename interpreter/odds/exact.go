package odds

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/munda-rules/munda/interpreter"
)

// ErrTooManyPaths is returned by Exact when the dice branch more than the
// bound allows: the question is for Monte Carlo (Sample).
var ErrTooManyPaths = errors.New("too many branches of the dice to enumerate")

// DefaultMaxPaths bounds exact enumeration.
const DefaultMaxPaths = 20_000

// exactReplay is the first engine, kept as the reference the tests hold
// Exact to: enumerates every branch of the dice, running the procedure once per
// branch: depth first, each run replaying the choices of the one before up
// to the branch point that moves on. A characteristic test is one branch of
// pass and fail with its exact probability rather than every face of its
// dice (the interpreter asks, through interpreter.TestDecider), and faces
// that show the same result (a D3's two 1s) are one branch. Outcomes that
// end in the same state (or the same Of value) are merged.
//
// More than maxPaths branches (0: DefaultMaxPaths) gives ErrTooManyPaths.
func exactReplay(ctx context.Context, q Question, maxPaths int) (*Result, error) {
	if maxPaths <= 0 {
		maxPaths = DefaultMaxPaths
	}
	w := &walker{}
	acc := newAccumulator()
	paths := 0
	var covered prob
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if paths >= maxPaths {
			return nil, fmt.Errorf("%w: more than %d", ErrTooManyPaths, maxPaths)
		}
		w.start()
		key, value, err := runOnce(&q, w, nil)
		if err != nil {
			return nil, pathError(w, err)
		}
		paths++
		acc.add(key, value, w.p)
		if q.Progress != nil {
			covered = covered.add(w.p)
			if paths%64 == 0 {
				q.Progress(paths, covered.float())
			}
		}
		if !w.next() {
			break
		}
	}
	res := acc.result()
	res.Exact, res.Paths = true, paths
	return res, nil
}

// pathError says which branch of the dice a run failed on.
func pathError(w *walker, err error) error {
	if len(w.path) == 0 {
		return err
	}
	return fmt.Errorf("%w (on the branch %s)", err, w.describe())
}

// branch is one point where a run's dice could go several ways: which way
// this run went, of how many.
type branch struct {
	pick, n int
	label   string // for errors: the roll and the face taken
	// forced: one face stands for all, with a chance of 1 (a roll
	// nothing later reads: walker.force).
	forced bool
}

// walker is a dice source that follows a path of picks and extends it: the
// first run takes the first way at every branch; next() moves to the next
// path in depth-first order.
type walker struct {
	path []branch
	pos  int
	p    prob // the probability of the path taken in this run (after base)
	// base is how many picks are a fixed prefix, replayed to reach a
	// configuration: next() never moves them, and their chances are not
	// in p (the configuration's probability has them).
	base int
	// onPick, if set, is told of each pick past base before it is taken;
	// true pauses the run there (the pick is not taken, and the source
	// returns interpreter.ErrPaused, which the run returns).
	onPick func(i int) bool
	// force: the picks past base are of a roll whose result nothing
	// later reads (interpreter.Checkpoint.UnreadRoll): each takes its
	// first way alone, with a chance of 1, while it is set.
	force bool
	// pass: the picks are of a roll nothing later reads, past the
	// decision the run follows (merger.expand): onPick is not asked.
	pass bool
}

func (w *walker) start() {
	w.pos = 0
	w.p = probOne
}

// weigh multiplies the path's probability by the chance of pick i, unless
// it is part of the replayed prefix.
func (w *walker) weigh(i int, num, den int64) {
	if i >= w.base && !w.path[i].forced {
		w.p = w.p.mul(probFrac(num, den))
	}
}

// take returns the pick at the next branch point, which has n ways, or
// interpreter.ErrPaused when onPick pauses the run there.
func (w *walker) take(n int, label string) (int, error) {
	if w.onPick != nil && w.pos >= w.base && w.onPick(w.pos) {
		return 0, interpreter.ErrPaused
	}
	if w.pos < len(w.path) {
		b := w.path[w.pos]
		w.pos++
		return b.pick, nil
	}
	if w.force && w.pos >= w.base {
		n = 1
	}
	w.path = append(w.path, branch{pick: 0, n: n, label: label, forced: n == 1 && w.force})
	w.pos++
	return 0, nil
}

// next moves to the next path; false when every path has been taken.
// Branch points beyond those this run reached are dropped: a different
// pick may lead to different rolls.
func (w *walker) next() bool {
	w.path = w.path[:w.pos]
	for len(w.path) > w.base {
		last := &w.path[len(w.path)-1]
		if last.pick+1 < last.n {
			last.pick++
			return true
		}
		w.path = w.path[:len(w.path)-1]
	}
	return false
}

// Roll implements interpreter.DiceSource: every distinct result of the
// die is a way, weighted by the sides that show it.
func (w *walker) Roll(req *interpreter.DieRequest) (interpreter.Die, error) {
	d := req.Dice
	if d.Sides == 0 || len(d.Faces) == 0 {
		return interpreter.Die{}, fmt.Errorf("dice %s has no sides", d.ID)
	}
	i := w.pos
	pick, err := w.take(len(d.Faces), req.Roll)
	if err != nil {
		return interpreter.Die{}, err
	}
	f := d.Faces[pick]
	w.weigh(i, int64(f.Count), int64(d.Sides))
	return interpreter.Die{Value: f.Value, Face: f.ID}, nil
}

// DecideTest implements interpreter.TestDecider: pass and fail are the two
// ways, with the test's exact chances.
func (w *walker) DecideTest(req *interpreter.TestRequest) (bool, bool, error) {
	switch {
	case req.Total <= 0:
		return false, false, nil
	case req.Pass <= 0:
		return false, true, nil
	case req.Pass >= req.Total:
		return true, true, nil
	}
	i := w.pos
	k, err := w.take(2, req.Name)
	if err != nil {
		return false, false, err
	}
	pass := k == 0
	if pass {
		w.weigh(i, int64(req.Pass), int64(req.Total))
	} else {
		w.weigh(i, int64(req.Total-req.Pass), int64(req.Total))
	}
	return pass, true, nil
}

// describe names the branch a run took, for errors: its first and last
// few decisions (a re-roll loop can make the path long).
func (w *walker) describe() string {
	const ends = 4
	path := w.path[:w.pos]
	var parts []string
	for i, b := range path {
		switch {
		case i < ends || i >= len(path)-ends:
			parts = append(parts, fmt.Sprintf("%s #%d of %d", b.label, b.pick+1, b.n))
		case i == ends:
			parts = append(parts, fmt.Sprintf("… %d more", len(path)-2*ends))
		}
	}
	return strings.Join(parts, ", ")
}

var (
	_ interpreter.DiceSource  = (*walker)(nil)
	_ interpreter.TestDecider = (*walker)(nil)
)

// DecideRow implements interpreter.RowDecider: every row that can stand is
// a way, weighted by the outcomes of the dice that land on it.
func (w *walker) DecideRow(req *interpreter.RowRequest) (int, bool, error) {
	if len(req.Rows) == 1 {
		return 0, true, nil
	}
	at := w.pos
	i, err := w.take(len(req.Rows), req.Table)
	if err != nil {
		return 0, false, err
	}
	w.weigh(at, int64(req.Rows[i].Ways), int64(req.Total))
	return i, true, nil
}

var _ interpreter.RowDecider = (*walker)(nil)
