package odds_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// TestExactEveryShippedProcedure asks every procedure and action of
// core-2023 (alone, with A&A's and N17's house rules, and with
// Necrodamus's) that takes only models, gangs, weapons and parameters with
// defaults what it changes, in each of a few battles (a duel of a
// shooter with a lasgun against a W2 target in mesh armour, and the test
// states of the End Phase, of vehicles' actions and of wyrd powers), of
// the first engine (a whole run per branch of the dice) and of the
// merging one, checking as it goes that runs merged by the live hash end
// alike. Where the first engine finishes within its bound, both give the
// same outcomes with the same fractions. It takes about a minute:
// only with MUNDA_LONG=1 (.ci/run sets it).
func TestExactEveryShippedProcedure(t *testing.T) {
	if os.Getenv("MUNDA_LONG") == "" {
		t.Skip("every shipped procedure, both engines: MUNDA_LONG=1 runs it")
	}
	for _, sel := range []rulesets.Selection{{}, {Houses: []string{"aa", "n17"}}, {Houses: []string{"necrodamus"}}} {
		name := "core-2023"
		if len(sel.Houses) > 0 {
			name += "+" + strings.Join(sel.Houses, "+")
		}
		t.Run(name, func(t *testing.T) {
			p := program(t)
			if len(sel.Houses) > 0 {
				sel.SkipTests = true
				rules, diags := rulesets.Load(sel)
				if diags.HasErrors() {
					t.Fatal(diags.Err())
				}
				var err error
				if p, err = interpreter.Compile(rules); err != nil {
					t.Fatal(err)
				}
			}
			everyProcedure(t, p)
		})
	}
}

func everyProcedure(t *testing.T, p *interpreter.Program) {
	idx := p.Index()
	type question struct {
		id     string
		params []dsl.ParamInfo
	}
	var questions []question
	for id, proc := range idx.Procedures {
		questions = append(questions, question{id, proc.Params})
	}
	for id, a := range idx.Actions {
		questions = append(questions, question{id, a.Procedure().Params})
	}
	slices.SortFunc(questions, func(a, b question) int { return strings.Compare(a.id, b.id) })
	battles := []struct{ name, yaml string }{{"duel", duel(3, 2)}}
	for _, f := range []string{"end_phase", "vehicle_actions", "wyrd_actions"} {
		b, err := os.ReadFile("../../rulesets/core-2023/tests/states/" + f + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, struct{ name, yaml string }{f, string(b)})
	}
	compared := map[string]bool{}
	decidedQuestions, memoQuestions, memoCallers := 0, 0, 0
	for _, b := range battles {
		st := decodeState(t, b.yaml)
		for _, qn := range questions {
			args, ok := battleArgs(st, qn.params)
			if !ok {
				continue
			}
			t.Run(b.name+"/"+qn.id, func(t *testing.T) {
				q := odds.Question{Program: p, State: st, Procedure: qn.id, Args: args}
				want, err := odds.ExactReplay(context.Background(), q, 2_000)
				if err != nil {
					t.Skipf("the first engine does not finish: %v", firstLine(err))
				}
				got, err := odds.ExactCheckingLive(context.Background(), q, 100_000)
				if err != nil {
					t.Fatalf("the first engine finished (%d outcomes), the merging one: %v", len(want.Outcomes), err)
				}
				sameOutcomes(t, got, want)
				compared[qn.id] = true
				// Each caller the call memo serves is continued alone too,
				// with the memo and without.
				got, checked, err := odds.ExactCheckingMemo(context.Background(), q, 100_000)
				if err != nil {
					t.Fatalf("the first engine finished (%d outcomes), the one checking the call memo: %v", len(want.Outcomes), err)
				}
				sameOutcomes(t, got, want)
				memoCallers += checked
				memoQuestions += min(checked, 1)
				// A question that may be decided before the end: each
				// run taken as decided is continued to its end.
				q.Of = query(t, p, decidable(st))
				want, err = odds.ExactReplay(context.Background(), q, 2_000)
				if err != nil {
					return
				}
				got, checked, err = odds.ExactCheckingDecided(context.Background(), q, 100_000)
				if err != nil {
					t.Fatalf("%s: the first engine finished (%d outcomes), the merging one: %v", q.Of.Text(), len(want.Outcomes), err)
				}
				sameOutcomes(t, got, want)
				decidedQuestions += min(checked, 1)
			})
		}
	}
	t.Logf("%d of %d procedures and actions compared in some battle; %d questions of a gang's bottled and a model's experience decided before the end", len(compared), len(questions), decidedQuestions)
	t.Logf("the call memo served %d questions, %d callers (each checked)", memoQuestions, memoCallers)
	if decidedQuestions < 10 {
		t.Errorf("only %d questions decided before the end: the check checks little", decidedQuestions)
	}
	if len(compared) < 80 {
		t.Errorf("only %d procedures and actions compared: the battles no longer suit them?", len(compared))
	}
}

// battleArgs names a battle's models, gangs and weapons for parameters
// of those types: for one that acts (by its name), a model of the first
// gang (a vehicle for a vehicle, a psyker for a psyker), for the rest
// one of the last gang; a weapon of the acting model. ok is false when a
// parameter of another type has no default, or the battle has no model
// of the kind asked.
func battleArgs(st *state.State, params []dsl.ParamInfo) (map[string]string, bool) {
	first, last := st.Gangs[0], st.Gangs[len(st.Gangs)-1]
	pick := func(g *state.Gang, ok func(*state.Model) bool) *state.Model {
		for _, m := range g.Models {
			if ok(m) {
				return m
			}
		}
		return nil
	}
	anyModel := func(*state.Model) bool { return true }
	args := map[string]string{}
	var actor *state.Model
	for _, prm := range params {
		switch prm.Type {
		case reflect.TypeFor[*state.Model]():
			var m *state.Model
			switch prm.Name {
			case "vehicle":
				m = pick(first, func(m *state.Model) bool { return m.Kind == "vehicle" })
			case "psyker":
				m = pick(first, func(m *state.Model) bool { return len(m.Powers) > 0 })
			case "attacker", "shooter", "fighter", "model", "by", "user", "source":
				m = pick(first, anyModel)
			default:
				m = pick(last, anyModel)
			}
			if m == nil {
				return nil, false
			}
			if actor == nil && m != pick(last, anyModel) {
				actor = m
			}
			args[prm.Name] = m.ID
		case reflect.TypeFor[*state.Gang]():
			args[prm.Name] = last.ID
		case reflect.TypeFor[*state.Weapon]():
			if actor == nil || len(actor.Weapons) == 0 {
				return nil, false
			}
			args[prm.Name] = actor.Weapons[0].ID
		default:
			if prm.Default == nil {
				return nil, false
			}
		}
	}
	return args, true
}

func firstLine(err error) string {
	var s string
	for e := err; e != nil; e = errors.Unwrap(e) {
		s = e.Error()
		break
	}
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// decidable is a question of the battle that a run may answer before its
// end: whether the first gang has bottled, and the first model's
// experience (twice its experience, plus one if bottled).
func decidable(st *state.State) string {
	g := st.Gangs[0]
	q := fmt.Sprintf("(gang(%q).bottled ? 1 : 0)", g.ID)
	if len(g.Models) > 0 {
		q += fmt.Sprintf(" + 2 * model(%q).xp", g.Models[0].ID)
	}
	return q
}
