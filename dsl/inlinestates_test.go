package dsl

import (
	"strings"
	"testing"
)

// inlineStatePack declares a kind, maybe a skill, and a test whose inline
// state gives a fighter that skill.
func inlineStatePack(withSkill bool) string {
	src := `kind fighter "Fighter" {
  status standing "Standing"
}
skill nerves "Nerves" {
  text "Calm."
}
procedure p() "P" {
  emit "p"
}
test "a fighter with Iron Will" {
  state ` + "`" + `
gangs:
  - id: a
    name: A
    models:
      - {id: m, name: M, kind: fighter, skills: [iron_will], status: standing, x: 0, y: 0, base: 25}
` + "`" + `
  run p()
  expect true
}
`
	if withSkill {
		src += `skill iron_will "Iron Will" {
  text "Steady."
}
`
	}
	return src
}

// TestInlineStateKeyedByVocabulary: a state found valid under one
// vocabulary is still read, and reported, under another that does not
// declare what it names.
func TestInlineStateKeyedByVocabulary(t *testing.T) {
	for _, withSkill := range []bool{true, false, true, false} {
		_, errs := checkSource(t, inlineStatePack(withSkill))
		invalid := strings.Contains(strings.Join(errs, "\n"), "the inline state is not a valid state")
		if invalid == withSkill {
			t.Errorf("with the skill declared %v: errors %q", withSkill, errs)
		}
	}
}
