package rulesets_test

import (
	"context"
	"math/big"
	"os"
	"testing"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// Closed-form odds of the Action phase (shooting.munda, combat.munda),
// enumerated exactly over every die.

func actionOdds(t *testing.T, proc string, args map[string]string, choices map[string]string, of string) map[string]*big.Rat {
	t.Helper()
	data, err := os.ReadFile("core-2023/tests/states/action_phase.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return exactOdds(t, "action_phase.yaml", data, proc, args, choices, of)
}

// exactOdds enumerates every die of a procedure or action of the shipped
// rules on a state, and gives each outcome of the query `of` its exact
// chance.
func exactOdds(t *testing.T, stateName string, stateData []byte, proc string, args, choices map[string]string, of string) map[string]*big.Rat {
	t.Helper()
	rules, diags := rulesets.LoadShared(rulesets.Selection{SkipTests: true})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	p, err := interpreter.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Decode(stateName, stateData)
	if err != nil {
		t.Fatal(err)
	}
	q, qd := p.Rules.Index.CompileQuery("--of", of)
	if qd.HasErrors() {
		t.Fatal(qd)
	}
	qn := odds.Question{Program: p, State: st, Procedure: proc, Args: args, Of: q}
	if len(choices) > 0 {
		var pairs []string
		for k, v := range choices {
			pairs = append(pairs, k+"="+v)
		}
		c, err := interpreter.ParseChoices(pairs)
		if err != nil {
			t.Fatal(err)
		}
		qn.Choices = c
	}
	r, err := odds.Exact(context.Background(), qn, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*big.Rat{}
	for _, o := range r.Outcomes {
		out[o.Key] = o.P
	}
	return out
}

func wantP(t *testing.T, got map[string]*big.Rat, key, want string) {
	t.Helper()
	w, _ := new(big.Rat).SetString(want)
	g := got[key]
	if g == nil {
		g = new(big.Rat)
	}
	if g.Cmp(w) != 0 {
		t.Errorf("P(%s) = %s, want %s (all: %v)", key, g.RatString(), want, got)
	}
}

// A hit pins a Standing and Active target, so P(Pinned) is P(hit).
func TestShootingCoverOdds(t *testing.T) {
	args := map[string]string{"attacker": "gunner", "target": "mesh", "weapon": "stubber"}
	of := `model("mesh").status == "standing"`
	wantP(t, actionOdds(t, "shoot", args, nil, of), "false", "1/2")
	wantP(t, actionOdds(t, "shoot", args, map[string]string{"cover": "partial"}, of), "false", "1/3")
	wantP(t, actionOdds(t, "shoot", args, map[string]string{"cover": "full"}, of), "false", "1/6")
}

// A whole shooting attack against the product of its steps: BS 4+ hits
// 1/2; S4 against T3 wounds on 3+, 2/3; mesh 5+ fails on 1-4, 2/3.
func TestShootingAttackOdds(t *testing.T) {
	args := map[string]string{"attacker": "gunner", "target": "mesh", "weapon": "stubber"}
	wantP(t, actionOdds(t, "shoot", args, nil, `model("mesh").wounds_lost`), "1", "2/9")
}

// S4 against T3 wounds on 3+ (2/3) with no armour: P(wounded) = P(hit) * 2/3.
// The targets have no weapons: they would answer with unarmed reaction
// attacks, which these odds leave out (react=false).
func TestCloseCombatOdds(t *testing.T) {
	noReaction := map[string]string{"react": "false"}
	// WS 3+ with one assist: a hit on 2+, a natural 1 misses: 5/6.
	wantP(t, actionOdds(t, "fight", map[string]string{"attacker": "striker", "target": "victim"}, noReaction, `model("victim").wounds_lost`), "1", "5/9")
	// Two enemies interfering: 5+, 1/3.
	wantP(t, actionOdds(t, "fight", map[string]string{"attacker": "lone", "target": "mob1"}, noReaction, `model("mob1").wounds_lost`), "1", "2/9")
}
