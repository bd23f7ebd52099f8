package rulesets_test

import (
	"math/big"
	"testing"
)

// Closed-form odds of skills (skills.munda), enumerated exactly over every
// die: Dodge, Iron Jaw, and Parry's forced re-roll against 1 − (1 − p)².

// skillsState: a gunner and three brawlers (S3, WS 3+, one Attack, AP -
// weapons), each brawler engaged with one T3 W2 fighter with no armour and
// no weapons (plain, Iron Jaw, Parry), and a Dodge fighter to shoot at.
const skillsState = `
gangs:
  - id: a
    name: A
    models:
      - {id: gunner, name: Gunner, kind: fighter, status: standing, secondary: active, x: 0, y: 50, base: 25, weapons: [{id: stub, name: Stub gun, range_short: 6, range_long: 12, s: 3, d: 1}]}
      - {id: brawler, name: Brawler, kind: fighter, status: standing, secondary: engaged, x: 0, y: 0, base: 25, stats: {ws: 3+, s: 3, a: 1}, weapons: [{id: club, name: Club, s: S, d: 1, traits: [melee]}]}
      - {id: brawler2, name: Brawler, kind: fighter, status: standing, secondary: engaged, x: 0, y: 10, base: 25, stats: {ws: 3+, s: 3, a: 1}, weapons: [{id: club2, name: Club, s: S, d: 1, traits: [melee]}]}
      - {id: brawler3, name: Brawler, kind: fighter, status: standing, secondary: engaged, x: 0, y: 30, base: 25, stats: {ws: 3+, s: 3, a: 1}, weapons: [{id: club3, name: Club, s: S, d: 1, traits: [melee]}]}
  - id: b
    name: B
    models:
      - {id: plain, name: Plain, kind: fighter, status: standing, secondary: engaged, x: 1, y: 0, base: 25, stats: {t: 3, w: 2}}
      - {id: dodger, name: Dodger, kind: fighter, skills: [dodge], status: standing, secondary: active, x: 5, y: 50, base: 25, stats: {t: 3, w: 2}}
      - {id: jaw, name: Jaw, kind: fighter, skills: [iron_jaw], status: standing, secondary: engaged, x: 1, y: 10, base: 25, stats: {t: 3, w: 2}}
      - {id: parrier, name: Parrier, kind: fighter, skills: [parry], status: standing, secondary: engaged, x: 1, y: 30, base: 25, stats: {t: 3, w: 2}}
`

func skillOdds(t *testing.T, proc string, args map[string]string, of string) map[string]*big.Rat {
	t.Helper()
	return exactOdds(t, "skills.yaml", []byte(skillsState), proc, args, nil, of)
}

func rat(s string) *big.Rat {
	r, _ := new(big.Rat).SetString(s)
	return r
}

func wantRat(t *testing.T, got map[string]*big.Rat, key string, want *big.Rat) {
	t.Helper()
	wantP(t, got, key, want.RatString())
}

// Dodge: a 6 on a D6 dodges a wound, so a wound lands 5/6 as often. S3
// against T3 wounds on 4+, 1/2; no armour: P(a Wound lost) = 1/2, and
// 1/2 · 5/6 with Dodge.
func TestDodgeOdds(t *testing.T) {
	of := func(id string) string { return `model("` + id + `").wounds_lost` }
	plain := skillOdds(t, "resolve_hit", map[string]string{"attacker": "gunner", "target": "plain", "weapon": "stub"}, of("plain"))
	dodged := skillOdds(t, "resolve_hit", map[string]string{"attacker": "gunner", "target": "dodger", "weapon": "stub"}, of("dodger"))
	wantP(t, plain, "1", "1/2")
	wantRat(t, dodged, "1", new(big.Rat).Mul(plain["1"], rat("5/6")))
}

// Iron Jaw: +2 Toughness against an AP - close combat weapon. WS 3+ hits
// on 3-6, 2/3; S3 wounds T3 on 4+ (1/2) but T5 on 5+ (1/3).
func TestIronJawOdds(t *testing.T) {
	plain := skillOdds(t, "fight", map[string]string{"attacker": "brawler", "target": "plain"}, `model("plain").wounds_lost`)
	jaw := skillOdds(t, "fight", map[string]string{"attacker": "brawler2", "target": "jaw"}, `model("jaw").wounds_lost`)
	wantP(t, plain, "1", "1/3")
	wantRat(t, jaw, "1", new(big.Rat).Mul(rat("2/3"), rat("1/3")))
}

// Parry: the attacker re-rolls a hit, so a miss comes with 1 − (1 − q)²,
// q the chance to miss (1/3 at WS 3+); a hit then wounds on 4+.
func TestParryRerollOdds(t *testing.T) {
	q := rat("1/3")
	one := big.NewRat(1, 1)
	hitOnce := new(big.Rat).Sub(one, q)
	miss := new(big.Rat).Sub(one, new(big.Rat).Mul(hitOnce, hitOnce)) // 1 − (1 − q)²
	wounded := new(big.Rat).Mul(new(big.Rat).Sub(one, miss), rat("1/2"))
	got := skillOdds(t, "fight", map[string]string{"attacker": "brawler3", "target": "parrier"}, `model("parrier").wounds_lost`)
	wantRat(t, got, "1", wounded)
	wantRat(t, got, "0", new(big.Rat).Sub(one, wounded))
}
