package odds

import (
	"math/big"
	"math/bits"
)

// prob is an exact probability: a fraction of two uint64 in lowest terms
// while both fit, else a big.Rat. Exact odds multiply and add one for
// every branch of the dice; as big.Rats each step allocated (and a
// comparison too), a twentieth of the allocations of a question. The
// dice's chances (sixths, thirds, a test's pass of 36) keep almost every
// fraction small; one that outgrows 64 bits goes on as a big.Rat, and
// comes back once it fits again, so the result is the same fraction
// whichever way it was reached.
//
// The zero prob is 0. A prob is a value: operations return a new one, and
// never change a big.Rat they were given (one is shared by the copies of
// a prob).
type prob struct {
	num, den uint64   // when r is nil; den 0 stands for 1 (the zero value)
	r        *big.Rat // the fraction, when it does not fit in num and den
}

// probOne is a probability of 1.
var probOne = prob{num: 1, den: 1}

// probFrac is num/den, for a chance the dice give (ways of total). A
// negative or zero den panics, as big.NewRat does.
func probFrac(num, den int64) prob {
	if num < 0 || den <= 0 {
		return probOfRat(big.NewRat(num, den))
	}
	return small(uint64(num), uint64(den))
}

// small is num/den (den > 0) in lowest terms.
func small(num, den uint64) prob {
	if num == 0 {
		return prob{}
	}
	g := gcd(num, den)
	return prob{num: num / g, den: den / g}
}

// probOfRat is r as a prob: small when it fits. r is not kept when it fits,
// and not changed either way.
func probOfRat(r *big.Rat) prob {
	if r.Sign() >= 0 && r.Num().IsUint64() && r.Denom().IsUint64() {
		return prob{num: r.Num().Uint64(), den: r.Denom().Uint64()}
	}
	return prob{r: r}
}

// d is p's denominator (small p).
func (p prob) d() uint64 {
	if p.den == 0 {
		return 1
	}
	return p.den
}

// rat is p as a new big.Rat (the caller's to change).
func (p prob) rat() *big.Rat {
	if p.r != nil {
		return new(big.Rat).SetFrac(p.r.Num(), p.r.Denom()) // a copy
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(p.num), new(big.Int).SetUint64(p.d()))
}

// isZero reports whether p is 0.
func (p prob) isZero() bool {
	if p.r != nil {
		return p.r.Sign() == 0
	}
	return p.num == 0
}

// mul is p×q.
func (p prob) mul(q prob) prob {
	if p.r == nil && q.r == nil {
		if p.num == 0 || q.num == 0 {
			return prob{}
		}
		// Both are in lowest terms: cancelling across makes the
		// product so too.
		g1, g2 := gcd(p.num, q.d()), gcd(q.num, p.d())
		hi1, num := bits.Mul64(p.num/g1, q.num/g2)
		hi2, den := bits.Mul64(p.d()/g2, q.d()/g1)
		if hi1|hi2 == 0 {
			return prob{num: num, den: den}
		}
	}
	return probOfRat(new(big.Rat).Mul(p.rat(), q.rat()))
}

// add is p+q.
func (p prob) add(q prob) prob {
	if p.r == nil && q.r == nil {
		if p.num == 0 {
			return q
		}
		if q.num == 0 {
			return p
		}
		// a/b + c/d = (a·d/g + c·b/g) / (b·d/g), g = gcd(b, d).
		b, d := p.d(), q.d()
		g := gcd(b, d)
		hi1, x := bits.Mul64(p.num, d/g)
		hi2, y := bits.Mul64(q.num, b/g)
		num, carry := bits.Add64(x, y, 0)
		hi3, den := bits.Mul64(b/g, d)
		if hi1|hi2|carry|hi3 == 0 {
			return small(num, den)
		}
	}
	return probOfRat(new(big.Rat).Add(p.rat(), q.rat()))
}

// cmp compares p and q: -1, 0 or 1.
func (p prob) cmp(q prob) int {
	if p.r == nil && q.r == nil {
		// a/b against c/d is a·d against c·b, in 128 bits.
		h1, l1 := bits.Mul64(p.num, q.d())
		h2, l2 := bits.Mul64(q.num, p.d())
		switch {
		case h1 != h2:
			if h1 < h2 {
				return -1
			}
			return 1
		case l1 != l2:
			if l1 < l2 {
				return -1
			}
			return 1
		}
		return 0
	}
	return p.bigRat().Cmp(q.bigRat())
}

// bigRat is p as a big.Rat not to be changed (p's own when it has one).
func (p prob) bigRat() *big.Rat {
	if p.r != nil {
		return p.r
	}
	return p.rat()
}

// float is p as the nearest float64.
func (p prob) float() float64 {
	f, _ := p.bigRat().Float64()
	return f
}

// String is p as "a/b" (as big.Rat's String), for errors and tests.
func (p prob) String() string { return p.bigRat().String() }

// gcd is the greatest common divisor of a and b, b > 0 (binary: shifts
// and subtractions, no division).
func gcd(a, b uint64) uint64 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << shift
}
