package interpreter_test

import (
	"fmt"
	"os"

	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// Embedding munda: load and check the rules once, compile once, then run
// procedures against states as often as needed.
func Example() {
	// The shipped 2023 rules; Houses and With add house rules and mods.
	rules, diags := rulesets.Load(rulesets.Selection{Base: "core-2023"})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		fmt.Println(err)
		return
	}

	data, err := os.ReadFile("../testdata/states/goliaths-vs-eschers.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// Read with the rules' vocabulary, so kinds and statuses are checked.
	st, err := state.DecodeWith("goliaths-vs-eschers.yaml", data, rules.Index.Vocabulary)
	if err != nil {
		fmt.Println(err)
		return
	}

	// A Bottle check for one gang, with a scripted die.
	dice, _ := interpreter.ParseScript("6")
	var events interpreter.Events
	err = prog.Run(st, "bottle_check", map[string]any{"gang": st.Gang("eschers")},
		interpreter.Options{Dice: dice, Log: &events})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range events {
		fmt.Println(e.Kind, "|", e.Text)
	}
	fmt.Println("bottled:", st.Gang("eschers").Bottled)
	// Output:
	// call | Bottle Check (gang: The Venom Sisters)
	// choice | voluntary: false (default)
	// roll | check: D6 6 +1 = 7
	// emit | The Venom Sisters holds (7 is not more than 9)
	// bottled: false
}
