package odds

import (
	"math"
	"math/big"
	"testing"
)

// ratOf is a/b as a big.Rat (b > 0).
func ratOf(a, b uint64) *big.Rat {
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
}

// checkProb fails unless p is want, in the form prob promises: small and
// in lowest terms whenever the fraction fits in 64 bits, a big.Rat only
// when it does not.
func checkProb(t *testing.T, what string, p prob, want *big.Rat) {
	t.Helper()
	if got := p.rat(); got.Cmp(want) != 0 {
		t.Fatalf("%s = %s, want %s", what, got.RatString(), want.RatString())
	}
	fits := want.Num().IsUint64() && want.Denom().IsUint64()
	switch {
	case fits && p.r != nil:
		t.Fatalf("%s = %s is a big.Rat, but fits in 64 bits", what, want.RatString())
	case !fits && p.r == nil:
		t.Fatalf("%s = %s is small, but does not fit", what, want.RatString())
	case p.r == nil && want.Sign() != 0 && (p.num != want.Num().Uint64() || p.d() != want.Denom().Uint64()):
		t.Fatalf("%s = %d/%d, not in lowest terms (%s)", what, p.num, p.den, want.RatString())
	}
}

// The operations give the fraction big.Rat gives, small where it fits
// (past 64 bits too: a product or sum that overflows on the way but
// cancels back), big where it does not, and back to small after.
func TestProbMatchesBigRat(t *testing.T) {
	const max = math.MaxUint64
	big2 := prob{r: new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(3))} // 2^70/3
	for _, c := range []struct {
		name string
		a, b prob
	}{
		{"zero and zero", prob{}, prob{}},
		{"zero and one", prob{}, probOne},
		{"sixths", probFrac(1, 6), probFrac(5, 6)},
		{"unreduced", probFrac(4, 6), probFrac(9, 12)},
		{"a test's chances", probFrac(21, 36), probFrac(15, 36)},
		{"big denominators", small(1, max), small(1, max-1)},
		{"near the top", small(max-1, max), small(max-2, max)},
		{"cancelling across", small(max, 3), small(3, max)},
		{"a sum past 64 bits", small(max-1, max), small(max-1, max)},
		{"a big.Rat", big2, probFrac(3, 7)},
		{"big.Rats that cancel", big2, prob{r: new(big.Rat).SetFrac(big.NewInt(3), new(big.Int).Lsh(big.NewInt(1), 70))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ra, rb := c.a.rat(), c.b.rat()
			checkProb(t, "a×b", c.a.mul(c.b), new(big.Rat).Mul(ra, rb))
			checkProb(t, "a+b", c.a.add(c.b), new(big.Rat).Add(ra, rb))
			if got, want := c.a.cmp(c.b), ra.Cmp(rb); got != want {
				t.Errorf("cmp = %d, want %d", got, want)
			}
			if got, want := c.b.cmp(c.a), rb.Cmp(ra); got != want {
				t.Errorf("cmp reversed = %d, want %d", got, want)
			}
			if c.a.cmp(c.a) != 0 {
				t.Errorf("a is not equal to itself")
			}
			if c.a.r != nil && c.a.r.Cmp(ra) != 0 {
				t.Errorf("the big.Rat given was changed")
			}
		})
	}
}

func TestGCD(t *testing.T) {
	for _, c := range []struct{ a, b, want uint64 }{
		{0, 5, 5}, {5, 0, 5}, {12, 18, 6}, {36, 21, 3}, {1 << 40, 1 << 20, 1 << 20},
		{math.MaxUint64, math.MaxUint64 - 1, 1}, {math.MaxUint64, 3, 3},
	} {
		if got := gcd(c.a, c.b); got != c.want {
			t.Errorf("gcd(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// FuzzProb holds a chain of products and sums to the same chain in
// big.Rat: exact equality, lowest terms, and small whenever it fits.
func FuzzProb(f *testing.F) {
	f.Add(uint64(1), uint64(6), uint64(5), uint64(6), uint8(3))
	f.Add(uint64(math.MaxUint64), uint64(3), uint64(2), uint64(math.MaxUint64-1), uint8(0xa5))
	f.Add(uint64(21), uint64(36), uint64(0), uint64(1), uint8(0xff))
	f.Fuzz(func(t *testing.T, a, b, c, d uint64, ops uint8) {
		if b == 0 || d == 0 {
			return
		}
		p, q := small(a, b), small(c, d)
		rp, rq := ratOf(a, b), ratOf(c, d)
		checkProb(t, "a/b", p, rp)
		if got, want := p.cmp(q), rp.Cmp(rq); got != want {
			t.Fatalf("cmp = %d, want %d", got, want)
		}
		// Eight steps, each a product or a sum by the bits of ops, of
		// the running value with q, then with itself: values grow past
		// 64 bits and some come back.
		for i := range 8 {
			if ops&(1<<i) != 0 {
				p, rp = p.mul(q), new(big.Rat).Mul(rp, rq)
			} else {
				p, rp = p.add(q), new(big.Rat).Add(rp, rq)
			}
			checkProb(t, "step", p, rp)
			if got, want := p.cmp(q), rp.Cmp(rq); got != want {
				t.Fatalf("cmp = %d, want %d", got, want)
			}
			q, rq = p, rp
		}
	})
}
