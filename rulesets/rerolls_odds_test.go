package rulesets_test

import (
	"math/big"
	"testing"
)

// Closed-form odds of a re-roll of any roll (reroll any, powers.munda):
// Future Sight, spent by default on the fighter's own failed test during
// its activation, makes a Nerve test fail only if both tries fail.

// rerollsState: a Diviner (Future Sight, Cool 7+) in its activation, and
// the same fighter without the skill.
const rerollsState = `
gangs:
  - id: a
    name: A
    models:
      - {id: seer, name: Seer, kind: fighter, skills: [future_sight], marks: [activating], status: standing, secondary: active, x: 0, y: 0, base: 25, stats: {cl: 7+}}
      - {id: plain, name: Plain, kind: fighter, status: standing, secondary: active, x: 0, y: 30, base: 25, stats: {cl: 7+}}
`

// A Cool 7+ test on 2D6 fails with q = 15/36 = 5/12; with the re-roll,
// q².
func TestFutureSightOdds(t *testing.T) {
	q := rat("5/12")
	broken := func(id string) map[string]*big.Rat {
		return exactOdds(t, "rerolls.yaml", []byte(rerollsState), "nerve_test", map[string]string{"model": id}, nil, `"broken" in model("`+id+`").conditions`)
	}
	wantRat(t, broken("plain"), "true", q)
	wantRat(t, broken("seer"), "true", new(big.Rat).Mul(q, q))
}
