package state

import (
	"math"
	"math/rand/v2"
	"testing"
)

// withinRef is what Within must equal: Distance, compared.
func withinRef(a, b *Model, r float64) bool { return Distance(a, b) <= r }

// TestWithinMatchesDistance: Within gives Distance's boolean on random
// boards, on the thresholds exactly at a distance and one step either side
// of it (where only the rounding decides), and on special numbers.
func TestWithinMatchesDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	specials := []float64{0, math.Copysign(0, -1), 1e-300, 5e-324, -1, 1, 25, 1e300, math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 1.0 / 3}
	coord := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return specials[rng.IntN(len(specials))]
		case 1:
			return float64(rng.IntN(48))
		case 2:
			return float64(rng.IntN(96)) / 4
		case 3:
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		}
		return rng.Float64() * 48
	}
	base := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return specials[rng.IntN(len(specials))]
		case 1:
			return coord()
		}
		return []float64{25, 32, 40, 50, 60, 0}[rng.IntN(6)]
	}
	check := func(a, b *Model, r float64) {
		t.Helper()
		if got, want := Within(a, b, r), withinRef(a, b, r); got != want {
			t.Fatalf("Within(%+v, %+v, %v) = %v, Distance %v gives %v", a, b, r, got, Distance(a, b), want)
		}
	}
	decided := 0
	for range 300000 {
		a := &Model{X: coord(), Y: coord(), Base: base()}
		b := &Model{X: coord(), Y: coord(), Base: base()}
		if rng.IntN(10) == 0 {
			b.X, b.Y = a.X, a.Y // one spot
		}
		d := Distance(a, b)
		for _, r := range []float64{d, math.Nextafter(d, math.Inf(-1)), math.Nextafter(d, math.Inf(1)),
			coord(), float64(rng.IntN(13)), specials[rng.IntN(len(specials))]} {
			check(a, b, r)
			if d >= 0 && d <= r {
				decided++
			}
		}
		// Hypot's own rounding at the threshold: r is the unclamped
		// difference and its neighbours, computed as Distance does.
		h := math.Hypot(a.X-b.X, a.Y-b.Y) - (a.Base+b.Base)/2/25.4
		for _, r := range []float64{h, math.Nextafter(h, math.Inf(-1)), math.Nextafter(h, math.Inf(1))} {
			check(a, b, r)
		}
	}
	for _, r := range []float64{0, 1, math.Inf(1), math.NaN(), -1} {
		check(nil, &Model{}, r)
		check(&Model{}, nil, r)
	}
	if decided == 0 {
		t.Fatal("no pair was within its threshold: the test checks nothing")
	}
}
