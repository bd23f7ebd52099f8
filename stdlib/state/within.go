package state

import "math"

// Within is Distance(a, b) <= inches, the same boolean on every input,
// most often without math.Hypot (a tenth of a Monte Carlo End Phase went
// into it, through the rules' within()).
//
// Distance(a, b) <= r is r >= 0 and Hypot(dx, dy) - radii <= r, rounded
// as Distance rounds: a distance clamped to 0 is within every r >= 0 and
// none below (nor a NaN r). Where every number is finite and the squares
// neither overflow nor underflow, √(dx²+dy²) is within a few units in the
// last place of Hypot, so the subtraction differs from Distance's by far
// less than margin: a difference farther than margin from r decides
// alike, and anything nearer (or not finite, or two models on one spot)
// is decided by Distance itself.
func Within(a, b *Model, inches float64) bool {
	if a == nil || b == nil || !(inches >= 0) {
		return Distance(a, b) <= inches
	}
	const mmPerInch = 25.4
	dx, dy := a.X-b.X, a.Y-b.Y
	radii := (a.Base + b.Base) / 2 / mmPerInch
	s := dx*dx + dy*dy
	// The bounds keep s a normal number and away from overflow (which
	// also rules out an infinite or NaN dx or dy); radii and inches are
	// checked finite below.
	if s > 1e-290 && s < 1e290 && math.Abs(radii) < 1e290 && inches < 1e290 {
		h := math.Sqrt(s)
		d := h - radii
		margin := 1e-12 * (h + math.Abs(radii) + inches)
		switch {
		case d < inches-margin:
			return true
		case d > inches+margin:
			return false
		}
	}
	return Distance(a, b) <= inches
}
