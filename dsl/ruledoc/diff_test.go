package ruledoc

import (
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"strings"
	"testing"
	"testing/fstest"
)

// diffBase is a small ruleset the cases below change.
const diffBase = `dice d6 "D6" {
  faces 1, 2, 3, 4, 5, 6
}

dice injury "Injury dice" {
  face flesh_wound "Flesh Wound" x 2
  face out_of_action "Out of Action" x 1
}

event fell(gang) "A gang fell"

table injuries "Injuries" {
  roll d6
  1-3 mild "Mild" {}
  4-6 bad "Bad" {}
}

procedure bottle_check(gang) "Bottle Check" {
  let threshold = gang.starting_crew
  roll check = d6
  if check > threshold {
    set gang.bottled = true
    signal fell(gang)
  }
}

skill iron_will "Iron Will" {
  number 3
  modify bottle_check.check as any by -1
}
`

// diffHouse is a house pack for diffBase.
const diffHouse = `house aa "A&A" {
  rule reinforcements "Reinforcements count" {
    override bottle_check.threshold = gang.eligible_models
  }
  rule milder "Milder injuries" {
    replace row injuries 1-3 mild "Mild (A&A)" {
      emit "a mild injury"
    }
  }
  rule herald "A herald" {
    on fell {
      emit "{gang.name} fell"
    }
  }
  rule lore "Only words" {
    text "No effect."
  }
}
`

// diffRules loads files as one pack, switches the toggles on and checks
// the result, which must have no errors.
func diffRules(t *testing.T, files map[string]string, toggles ...string) *dsl.Rules {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	lp, diags := dsl.LoadPack(&dsl.Pack{FS: fsys, Root: ".", Display: "test"})
	rules, ds := dsl.Assemble(nil, []*dsl.LoadedPack{lp}, nil)
	diags = append(diags, ds...)
	if err := rules.Select(toggles); err != nil {
		t.Fatal(err)
	}
	diags = append(diags, dsl.Check(rules)...)
	if diags.HasErrors() {
		t.Fatalf("the rules have errors: %v", diags.Err())
	}
	return rules
}

// diffLines is a diff as lines, for comparing.
func diffLines(d *RulesDiff) []string {
	var out []string
	for _, h := range d.HouseRules {
		out = append(out, "house rule "+h.Change+" "+h.ID)
	}
	for _, c := range d.Declarations {
		line := c.Kind + " " + c.ID + " " + c.Change
		if c.ReplacedByA != "" || c.ReplacedByB != "" {
			line += " (replaced by " + c.ReplacedByA + " | " + c.ReplacedByB + ")"
		}
		out = append(out, line)
		for _, x := range c.Details {
			line := "  " + x.Change + " " + x.What
			for _, s := range []string{x.ID, x.Key} {
				if s != "" {
					line += " " + s
				}
			}
			line += ": " + x.A + " | " + x.B
			if x.ByA != "" || x.ByB != "" {
				line += " (by " + x.ByA + " | " + x.ByB + ")"
			}
			out = append(out, line)
		}
	}
	for _, e := range d.Effects {
		out = append(out, "effect "+e.Change+" "+e.Text)
	}
	return out
}

func TestDiff(t *testing.T) {
	base := map[string]string{"base.munda": diffBase}
	withHouse := map[string]string{"base.munda": diffBase, "house.munda": diffHouse}
	edit := func(old, new string) map[string]string {
		if !strings.Contains(diffBase, old) {
			t.Fatalf("%q is not in the base", old)
		}
		return map[string]string{"base.munda": strings.Replace(diffBase, old, new, 1)}
	}
	for _, tc := range []struct {
		name       string
		a, b       map[string]string
		togA, togB []string
		want       []string
	}{{
		name: "the same rules",
		a:    base, b: base,
	}, {
		name: "layout, comments and files do not count",
		a:    base,
		b: map[string]string{
			"one.munda": "// The dice.\n" + strings.Replace(diffBase[:strings.Index(diffBase, "event")], "faces 1, 2, 3, 4, 5, 6", "faces 1,2,3,\n    4, 5,6 // six", 1),
			"two.munda": strings.ReplaceAll(diffBase[strings.Index(diffBase, "event"):], "  ", "    "),
		},
	}, {
		name: "a house pack loaded but switched off changes nothing",
		a:    base, b: withHouse,
	}, {
		name: "house rules switched on: an override, a replaced row, a handler",
		a:    withHouse, b: withHouse,
		togB: []string{"aa"},
		want: []string{
			"house rule added aa.herald",
			"house rule added aa.lore",
			"house rule added aa.milder",
			"house rule added aa.reinforcements",
			"table injuries changed",
			"  changed row mild 1-3: 1-3 \"Mild\" | 1-3 \"Mild (A&A)\" (by  | house rule aa.milder)",
			"effect added event fell: handled by house rule aa.herald",
			"effect added let threshold of procedure bottle_check: overridden by house rule aa.reinforcements = gang.eligible_models",
		},
	}, {
		name: "one house rule switched off",
		a:    withHouse, b: withHouse,
		togA: []string{"aa"}, togB: []string{"aa", "-aa.reinforcements"},
		want: []string{
			"house rule removed aa.reinforcements",
			"effect removed let threshold of procedure bottle_check: overridden by house rule aa.reinforcements = gang.eligible_models",
		},
	}, {
		name: "a procedure changed: by name, and the rest",
		a:    base,
		b:    edit("  roll check = d6\n  if check > threshold {\n    set gang.bottled = true", "  choose voluntary \"Bottle out?\" default false\n  roll check = d6 + 1\n  if check > threshold {\n    set gang.bottled = voluntary"),
		want: []string{
			"procedure bottle_check changed",
			"  changed roll check: = d6 | = d6 + 1",
			"  added choose voluntary:  | \"Bottle out?\" default false",
			"  changed statements:  | ",
		},
	}, {
		name: "a procedure's unnamed statements only",
		a:    base,
		b:    edit("set gang.bottled = true", "set gang.bottled = false"),
		want: []string{
			"procedure bottle_check changed",
			"  changed statements:  | ",
		},
	}, {
		name: "a let declared in two blocks: the one that differs",
		a:    edit("    set gang.bottled = true\n", "    let threshold = 1\n    set gang.bottled = true\n"),
		b:    edit("    set gang.bottled = true\n", "    let threshold = 2\n    set gang.bottled = true\n"),
		want: []string{
			"procedure bottle_check changed",
			"  changed let threshold: = 1 | = 2",
		},
	}, {
		name: "a let only in one block",
		a:    base,
		b:    edit("    set gang.bottled = true\n", "    let threshold = 2\n    set gang.bottled = true\n"),
		want: []string{
			"procedure bottle_check changed",
			"  changed let threshold: (none) | = 2",
		},
	}, {
		name: "dice faces",
		a:    base,
		b:    edit(`face flesh_wound "Flesh Wound" x 2`, `face flesh_wound "Flesh Wound" x 3`),
		want: []string{
			"dice injury changed",
			"  changed face flesh_wound: \"Flesh Wound\" x 2 | \"Flesh Wound\" x 3",
		},
	}, {
		name: "numeric faces and a title",
		a:    base,
		b:    edit(`dice d6 "D6" {`+"\n  faces 1, 2, 3, 4, 5, 6", `dice d6 "Six" {`+"\n  faces 1, 2, 3, 4, 5, 5"),
		want: []string{
			"dice d6 changed",
			"  changed title: D6 | Six",
			"  changed faces: 1, 2, 3, 4, 5, 6 | 1, 2, 3, 4, 5, 5",
		},
	}, {
		name: "rows added and removed",
		a:    base,
		b:    edit(`  4-6 bad "Bad" {}`, `  4-5 bad "Bad" {}`+"\n"+`  6 worst "Worst" {}`),
		want: []string{
			"table injuries changed",
			"  changed row bad 4-5: 4-6 \"Bad\" | 4-5 \"Bad\"",
			"  added row worst 6:  | 6 \"Worst\"",
		},
	}, {
		name: "declarations only on one side, and a skill's effect",
		a:    base,
		b:    edit("skill iron_will \"Iron Will\" {\n  number 3\n  modify bottle_check.check as any by -1\n}", "skill iron_will \"Iron Will\" {\n  number 2\n}\n\ncondition broken \"Broken\" {}"),
		want: []string{
			"skill iron_will changed",
			"  changed number: 3 | 2",
			"  removed modify: modify bottle_check.check as any by -1 | ",
			"condition broken added",
			"effect removed roll check of procedure bottle_check: modified by skill iron_will by -1",
		},
	}, {
		name: "kinds of model and enums: statuses, secondaries and members",
		a:    map[string]string{"base.munda": diffBase, "vocabulary.munda": "kind vehicle \"Vehicle\" {\n  status mobile \"Mobile\"\n  status stationary \"Stationary\" {\n    stalled \"Stalled\"\n  }\n}\n\nenum type \"Action type\" {\n  basic \"Basic\"\n}\n"},
		b:    map[string]string{"base.munda": diffBase, "vocabulary.munda": "kind vehicle \"Vehicle\" {\n  carries vehicle\n  status mobile \"Mobile\"\n  status stationary \"Stationary\" {\n    stalled \"Stalled\"\n    wrecked \"Wrecked\"\n  }\n}\n\nenum type \"Action type\" {\n  basic \"Basic\"\n  free \"Free\"\n}\n\nenum set \"Skill set\" {\n  agility \"Agility\"\n}\n"},
		want: []string{
			"kind vehicle changed",
			"  changed status stationary: \"Stationary\" { … } | \"Stationary\" { … }",
			"  added carries:  | vehicle",
			"enum set added",
			"enum type changed",
			"  added member free:  | \"Free\"",
		},
	}, {
		name: "a standing rule's hook changed in its body",
		a:    map[string]string{"base.munda": diffBase, "rule.munda": "rule r \"R\" {\n  after bottle_check {\n    emit \"one\"\n  }\n}\n"},
		b:    map[string]string{"base.munda": diffBase, "rule.munda": "rule r \"R\" {\n  after bottle_check {\n    emit \"two\"\n  }\n}\n"},
		want: []string{
			"rule r changed",
			"  changed after: after bottle_check { … } | after bottle_check { … }",
			"effect changed procedure bottle_check: after-hook by rule r",
		},
	}, {
		name: "a handler's body changed",
		a:    withHouse,
		b:    map[string]string{"base.munda": diffBase, "house.munda": strings.Replace(diffHouse, `emit "{gang.name} fell"`, `emit "{gang.name} fell hard"`, 1)},
		togA: []string{"aa.herald"}, togB: []string{"aa.herald"},
		want: []string{
			"effect changed event fell: handled by house rule aa.herald",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			a := diffRules(t, tc.a, tc.togA...)
			b := diffRules(t, tc.b, tc.togB...)
			d := Diff(a, b)
			got := diffLines(d)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if d.Empty() != (len(tc.want) == 0) {
				t.Errorf("Empty() = %v", d.Empty())
			}
			// Diffing the other way round swaps removed and added.
			back := Diff(b, a)
			if len(back.Declarations) != len(d.Declarations) || len(back.Effects) != len(d.Effects) || len(back.HouseRules) != len(d.HouseRules) {
				t.Errorf("B→A has %d/%d/%d changes, A→B %d/%d/%d", len(back.HouseRules), len(back.Declarations), len(back.Effects),
					len(d.HouseRules), len(d.Declarations), len(d.Effects))
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	f, diags := syntax.ParseString("x.munda", "// c\nprocedure p(gang) \"P\" {\n  let x   =  1 +\n    2 // two\n\n\n  roll y = d6\n}\n")
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	want := "procedure p(gang) \"P\" {\n  let x = 1 + 2\n  roll y = d6\n}"
	if got := syntax.Canonical(f.Decls[0]); got != want {
		t.Errorf("Canonical:\n%s\nwant:\n%s", got, want)
	}
	// The original keeps its positions.
	if f.Decls[0].(*syntax.Procedure).ID.Pos.Line != 2 {
		t.Errorf("Canonical changed the tree")
	}
	stmt := f.Decls[0].(*syntax.Procedure).Body.Stmts[0]
	if got := syntax.Canonical(stmt); got != "let x = 1 + 2" {
		t.Errorf("Canonical(let) = %q", got)
	}
	if got := syntax.Canonical(nil); got != "" {
		t.Errorf("Canonical(nil) = %q", got)
	}
}

func TestDescribeEffect(t *testing.T) {
	rules := diffRules(t, map[string]string{"base.munda": diffBase, "house.munda": diffHouse + `
house hb "Hooks" {
  rule after "After" {
    after bottle_check when gang.bottled {
      emit "done"
    }
    reroll bottle_check.check when check == 1
    extra_dice bottle_check.check 1 pick highest
    modify injuries by 1
  }
}
`}, "aa", "hb")
	var got []string
	for _, e := range rules.Index.Effects {
		got = append(got, DescribeEffect(e).String())
	}
	want := []string{
		"roll check of procedure bottle_check: modified by skill iron_will by -1",
		"event fell: handled by house rule aa.herald",
		"let threshold of procedure bottle_check: overridden by house rule aa.reinforcements = gang.eligible_models",
		"procedure bottle_check: after-hook by house rule hb.after when gang.bottled",
		"roll check of procedure bottle_check: re-rolled by house rule hb.after when check == 1",
		"roll check of procedure bottle_check: given 1 extra dice (pick highest) by house rule hb.after",
		"roll of table injuries: modified by house rule hb.after by 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ item, want string }{
		{"after", "after bottle_check when gang.bottled { … }"},
		{"override", "override bottle_check.threshold = gang.eligible_models"},
	} {
		for _, e := range rules.Index.Effects {
			if strings.HasPrefix(syntax.Canonical(e.Item), tc.item+" ") {
				if got := ItemHead(e.Item); got != tc.want {
					t.Errorf("ItemHead = %q, want %q", got, tc.want)
				}
			}
		}
	}
}

func TestDescribeReplace(t *testing.T) {
	rules := diffRules(t, map[string]string{"base.munda": diffBase, "house.munda": diffHouse + `
house hc "Replacements" {
  rule dice "Dice" {
    replace dice injury "Injury (hc)" {
      face flesh_wound "Flesh Wound" x 3
      face out_of_action "Out of Action" x 1
    }
  }
}
`}, "aa.milder", "hc")
	var got []string
	for _, id := range []string{"aa.milder", "hc.dice"} {
		for _, it := range rules.Index.HouseRules[id].Items {
			if r, ok := it.(*syntax.Replace); ok {
				got = append(got, DescribeReplace(r)+" | "+ItemHead(r))
			}
		}
	}
	want := []string{
		`row 1-3 mild of table injuries | replace row injuries 1-3 mild "Mild (A&A)" { … }`,
		`dice injury | replace dice injury "Injury (hc)" { … }`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Who replaced what is in force.
	reps := rules.Replacers()
	if by := reps[rules.Index.Dice["injury"].Decl]; by != "house rule hc.dice" {
		t.Errorf("the injury dice in force was replaced by %q", by)
	}
	if by := reps[rules.Index.Dice["d6"].Decl]; by != "" {
		t.Errorf("d6 was replaced by %q", by)
	}
}
