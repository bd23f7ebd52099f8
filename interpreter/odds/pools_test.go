package odds_test

import (
	"math/big"
	"testing"

	"github.com/munda-rules/munda/interpreter/odds"
)

// Odds walk the dice of a pool and of its extra dice and re-rolls: two D6
// hitting on 4+, one more rolled and the lowest discarded, then every
// failure re-rolled.
func TestPoolRerollOdds(t *testing.T) {
	src := `
dice d6 "D6" { faces 1, 2, 3, 4, 5, 6 }
procedure volley(gang) "Volley" {
  roll hits = (2) d6
  set gang.credits = count(hits, # >= 4)
}
rule sure "Sure" { reroll volley.hits each where # < 4 }
rule more "More" { extra_dice volley.hits 1 pick highest }
`
	prog := looseProgram(t, "pools", src)
	q := odds.Question{Program: prog, State: decodeState(t, "gangs:\n  - {id: g, name: G, models: []}\n"),
		Procedure: "volley", Args: map[string]string{"gang": "g"}, Of: query(t, prog, `gang("g").credits`)}
	r := exact(t, q)
	// By hand: 6^3 first rolls, the lowest discarded, then each kept
	// failure re-rolled (a hit with 1/2).
	want := map[string]*big.Rat{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				kept := []int{a, b, c}
				low := 0
				for i := range kept {
					if kept[i] < kept[low] {
						low = i
					}
				}
				kept = append(kept[:low:low], kept[low+1:]...)
				dist := map[int]*big.Rat{0: big.NewRat(1, 216)}
				for _, v := range kept {
					next := map[int]*big.Rat{}
					pHit := big.NewRat(1, 1)
					if v < 4 {
						pHit = big.NewRat(1, 2)
					}
					pMiss := new(big.Rat).Sub(big.NewRat(1, 1), pHit)
					for k, pk := range dist {
						for _, o := range []struct {
							add int
							p   *big.Rat
						}{{1, pHit}, {0, pMiss}} {
							if o.p.Sign() == 0 {
								continue
							}
							if next[k+o.add] == nil {
								next[k+o.add] = new(big.Rat)
							}
							next[k+o.add].Add(next[k+o.add], new(big.Rat).Mul(pk, o.p))
						}
					}
					dist = next
				}
				for k, pk := range dist {
					key := []string{"0", "1", "2"}[k]
					if want[key] == nil {
						want[key] = new(big.Rat)
					}
					want[key].Add(want[key], pk)
				}
			}
		}
	}
	for key, w := range want {
		if got := prob(r, key); got.Cmp(w) != 0 {
			t.Errorf("P(%s hits) = %s, want %s", key, got.RatString(), w.RatString())
		}
	}
}
