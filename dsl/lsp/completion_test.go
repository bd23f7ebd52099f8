package lsp

import "testing"

func TestLineContext(t *testing.T) {
	for line, want := range map[string]int{
		`  let x = has_skill(m, `:               inCode,
		`  let x = has_skill(m, "`:              inText,
		`  text "Roll a D6 and `:                inText,
		`  text "a \"quoted\" word `:            inText,
		`  emit "{m.name} holds {m.`:            inMessage,
		`  emit "{{not an expression}} {m.`:     inMessage,
		`  emit "{{not an expression `:          inText,
		`  emit "{m.name}" `:                    inCode,
		`  emit "{has_skill(m, "`:               inMessage,
		`  let x = 1 // a comment with "quotes`: inComment,
		`  text "a // is no comment `:           inText,
		``:                                      inCode,
	} {
		if got := lineContext(line); got != want {
			t.Errorf("lineContext(%q) = %d, want %d", line, got, want)
		}
	}
}
