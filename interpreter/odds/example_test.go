package odds_test

import (
	"context"
	"fmt"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/interpreter/odds"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// The exact chance that a gang bottles out: a D6 plus its two casualties
// must beat its starting crew of 6.
func Example() {
	rules, diags := rulesets.Load(rulesets.Selection{Base: "core-2023"})
	if diags.HasErrors() {
		panic(diags)
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		panic(err)
	}
	st, err := state.Decode("battle.yaml", []byte(`
gangs:
  - id: goliaths
    name: Goliaths
    starting_crew: 6
    models:
      - {id: a, name: A, kind: fighter, status: out_of_action, x: 0, y: 0, base: 25}
      - {id: b, name: B, kind: fighter, status: prone, secondary: seriously_injured, x: 5, y: 0, base: 25}
`))
	if err != nil {
		panic(err)
	}
	of, diags := rules.Index.CompileQuery("of", `gang("goliaths").bottled`)
	if diags.HasErrors() {
		panic(diags)
	}
	res, err := odds.Exact(context.Background(), odds.Question{
		Program: prog, State: st, Procedure: "bottle_check",
		Args: map[string]string{"gang": "goliaths"}, Of: of,
	}, 0)
	if err != nil {
		panic(err)
	}
	for _, o := range res.Outcomes {
		fmt.Printf("%s: %s\n", o.Key, o.P.RatString())
	}
	// Output:
	// false: 2/3
	// true: 1/3
}
