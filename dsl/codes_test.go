package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/diag"
)

// Every kind of mistake in the rules has a code of its own: one file per
// case, and the code (and words of the summary) each must give.
func TestCheckCodes(t *testing.T) {
	const prelude = "dice d6 \"D6\" {\n  faces 1, 2, 3, 4, 5, 6\n}\n" +
		"dice injury \"Injury\" {\n  face hurt \"Hurt\"\n  face out \"Out\"\n}\n" +
		"characteristic cl \"Cool\" {\n  check d6 at_least\n  target\n}\n" +
		"characteristic m \"Movement\" {\n  limits fighter 1 to 8\n}\n" +
		"procedure target(gang) \"Target\" {\n  let threshold = 3\n  roll check = d6\n  emit \"{threshold} {check}\"\n}\n"
	for _, c := range []struct {
		name, src, code, summary string
	}{
		{"dice self", `dice d8 "D8" { sum 2 d8 }`, diag.CodeDiceDefinition, "defined in terms of itself"},
		{"dice two definitions", `dice d8 "D8" { faces 1, 2
 sum 2 d6 }`, diag.CodeDiceDefinition, "needs exactly one definition"},
		{"dice sum of symbols", `dice d8 "D8" { sum 2 injury }`, diag.CodeDiceDefinition, "its faces are symbols"},
		{"dice sum too big", `dice d8 "D8" { sum 1000 d6 }`, diag.CodeOutOfRange, "a sum adds 1 to"},
		{"face count", `dice d8 "D8" { face a "A" x 0 }`, diag.CodeOutOfRange, "a face must appear on 1 to 1000 sides"},
		{"extra dice count", `skill s "S" { extra_dice target.check 11 pick highest }`, diag.CodeOutOfRange, "extra_dice adds 1 to 10 dice"},
		{"characteristic two checks", `characteristic x "X" { check d6 at_least
 check d6 at_most }`, diag.CodeCharDefinition, "has two check lines"},
		{"characteristic limits", `characteristic ws "WS" { limits tank 1 to 6 }`, diag.CodeUnknownRef, "unknown kind of model tank"},
		{"characteristic not tested", `procedure p(model) "P" { test ok = m(model)
 emit "{ok}" }`, diag.CodeCharDefinition, "is never tested"},
		{"effect target", `skill s "S" { modify d6 by 1 }`, diag.CodeEffectTarget, "name a roll as procedure.roll"},
		{"effect member kind", `skill s "S" { reroll target.threshold }`, diag.CodeEffectTarget, "is a let, not a roll"},
		{"set a roll", `procedure p(gang) "P" { roll x = d6
 set x = 1 }`, diag.CodeNotAssignable, "cannot set x"},
		{"set a read-only field", `procedure p(gang) "P" { set gang.id = "x" }`, diag.CodeNotAssignable, "cannot be set by rules"},
		{"too many arguments", `procedure p(gang) "P" { call target(gang, 1) }`, diag.CodeArgument, "too many arguments"},
		{"missing argument", `procedure p(gang) "P" { call target() }`, diag.CodeArgument, "needs gang"},
		{"apply a lookup table", `table v(x: int) "V" { a "A" when x > 1 = 1
 b "B" when true = 2 }
procedure p(gang) "P" { apply v(1) }`, diag.CodeWrongKind, "gives a value"},
		{"replace a skill", `house h "H" { rule r "R" { replace skill s "S" {} } }`, diag.CodeWrongKind, "cannot be replaced"},
		{"property of the wrong form", `skill s "S" { number x }`, diag.CodePropertyError, "number takes a whole number"},
		{"property a kind lacks", `condition c "C" { discipline biomancy }`, diag.CodePropertyError, "a condition has no discipline"},
		{"power without a discipline", `enum discipline "D" { biomancy "Biomancy" }
power p "P" {}`, diag.CodePropertyError, "power p has no discipline"},
		{"replace in a skill", `skill s "S" { replace dice d6 "D6" { faces 1 } }`, diag.CodeMisplaced, "only house rules"},
		{"require in a lookup table", `table v(x: int) "V" { require x > 0 else "no"
 a "A" when true = 1 }`, diag.CodeMisplaced, "cannot require"},
		{"table roll and by", `table t(x: int) "T" { roll d6
 by x
 1-6 a "A" {} }`, diag.CodeTableDefinition, "one roll, by or choose"},
		{"table of nothing", `table t "T" { a "A" {} }`, diag.CodeTableDefinition, "has no roll, no by, and no values"},
		{"row backwards", `table t "T" { roll d6
 6-1 a "A" {} }`, diag.CodeRowKey, "is backwards"},
		{"row face on numbers", `table t "T" { roll d6
 1-5 a "A" {}
 hurt "Hurt" {} }`, diag.CodeRowKey, "whose results are numbers"},
		{"row without id", `table t "T" { roll d6
 1-6 "A" {} }`, diag.CodeRowDefinition, "needs an id after its key"},
		{"row value and statements", `table t(x: int) "T" { a "A" when true = 1 {} }`, diag.CodeRowDefinition, "not both"},
		{"function recursion", `function f(x: int) "F" = f(x)`, diag.CodeRecursion, "calls itself"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "case.munda")
			if err := os.WriteFile(path, []byte(prelude+c.src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := checkCase(t, path)
			for _, d := range diags {
				if d.Code == c.code && strings.Contains(d.Summary, c.summary) {
					return
				}
			}
			t.Errorf("want a %s diagnostic containing %q, got:\n%v", c.code, c.summary, diags)
		})
	}
}

// A diagnostic's context is the declaration around its subject.
func TestCheckContext(t *testing.T) {
	src := "dice d6 \"D6\" {\n  faces 1, 2, 3, 4, 5, 6\n}\n\nprocedure p(gang) \"P\" {\n  roll x = d7\n  emit \"{x}\"\n}\n"
	path := filepath.Join(t.TempDir(), "case.munda")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := checkCase(t, path)
	if len(diags) != 1 || diags[0].Context == nil {
		t.Fatalf("want one diagnostic with a context, got %v", diags)
	}
	c := diags[0].Context
	if c.Start.Line != 5 || c.Start.Column != 1 || c.End.Line != 8 || src[c.Start.Offset:c.End.Offset] != src[strings.Index(src, "procedure"):len(src)-1] {
		t.Errorf("context %+v, want the procedure (lines 5 to 8)", c)
	}
}
