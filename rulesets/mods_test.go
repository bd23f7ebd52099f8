package rulesets_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

// modCase is a mod (a pack loaded with --with) that writes one kind of
// declaration. Either it must fail to check with an error containing
// want, or it must check clean and the test blocks it carries, which fail
// unless its declaration took effect, must pass.
type modCase struct {
	name   string
	files  map[string]string // mod.munda is the file loaded; it may include others
	houses []string          // house rules to switch on (--house)
	want   string
}

// modState is a test block's state: one fighter, F, with EXTRA replaced by
// more of its fields.
const modState = "state `\ngangs:\n  - id: g\n    name: Gang\n    models:\n" +
	"      - {id: f, name: F, kind: fighter, status: standing, secondary: active, x: 0, y: 0, base: 25, stats: {cl: 7+, int: 4+}EXTRA}\n`"

// mod builds a one-file mod, with STATE standing for modState.
func mod(src string) map[string]string {
	return map[string]string{"mod.munda": strings.ReplaceAll(strings.ReplaceAll(src, "STATE", modState), "EXTRA", "")}
}

// topLevelCases are keyed by the grammar's declaration kinds.
var topLevelCases = map[reflect.Type][]modCase{
	reflect.TypeOf(&syntax.Feature{}): {{name: "a skill with an effect", files: map[string]string{"mod.munda": strings.ReplaceAll(`
skill mod_grit "Grit" {
  source "test"
  text "+1 to Nerve tests."
  modify nerve_test.nerve by 1 when has_skill(model, "mod_grit")
}
test "Grit adds 1 to a Nerve test" {
  STATE
  dice 3, 3
  run nerve_test(model: "f")
  expect not broken(model("f"))
}`, "STATE", strings.ReplaceAll(modState, "EXTRA", ", skills: [mod_grit]"))}}},
	reflect.TypeOf(&syntax.Table{}): {{name: "a table", files: mod(`
table mod_table(fighter: model) "Mod table" {
  source "test"
  roll d6
  1-3 low "Low" { emit "mod table: low" }
  4-6 high "High" { emit "mod table: high" }
}
test "the mod's table rolls" {
  STATE
  dice 5
  run mod_table(fighter: "f")
  expect emit "mod table: high"
}`)}},
	reflect.TypeOf(&syntax.Procedure{}): {{name: "a procedure", files: mod(`
procedure mod_proc(fighter: model) "Mod procedure" {
  source "test"
  emit "mod procedure ran for {fighter.name}"
}
test "the mod's procedure runs" {
  STATE
  run mod_proc(fighter: "f")
  expect emit "mod procedure ran for F"
}`)}},
	reflect.TypeOf(&syntax.TestDecl{}): {{name: "a test", files: mod(`
test "the mod's test runs" {
  STATE
  dice 3, 3
  run nerve_test(model: "f")
  expect broken(model("f"))
}`)}},
	reflect.TypeOf(&syntax.Function{}): {{name: "a function", files: mod(`
function mod_shout(m: model) "Shouted" = m.name + "!"
procedure mod_proc(fighter: model) "Mod procedure" {
  source "test"
  emit "{mod_shout(fighter)}"
}
test "the mod's function is called" {
  STATE
  run mod_proc(fighter: "f")
  expect emit "F!"
}`)}},
	reflect.TypeOf(&syntax.Dice{}): {{name: "a dice", files: mod(`
dice mod_d2 "D2" {
  source "test"
  faces 1, 2
}
procedure mod_coin() "Coin" {
  source "test"
  roll coin = mod_d2
  emit "coin {coin}"
}
test "the mod's dice rolls" {
  STATE
  dice 2
  run mod_coin()
  expect emit "coin 2"
}`)}},
	reflect.TypeOf(&syntax.Characteristic{}): {{name: "a characteristic", files: mod(`
characteristic mod_wits "Wits" {
  source "test"
  check d6 at_least
  target
  field int
}
procedure mod_think(fighter: model) "Think" {
  source "test"
  test sharp = mod_wits(fighter)
  emit "sharp {sharp}"
}
test "the mod's characteristic is tested on one D6" {
  STATE
  dice 5
  run mod_think(fighter: "f")
  expect emit "sharp true"
}`)}},
	reflect.TypeOf(&syntax.Event{}): {{name: "an event", files: mod(`
event mod_event(fighter: model) "Something happens"
procedure mod_signal(fighter: model) "Signal" {
  source "test"
  signal mod_event(fighter)
}
rule mod_listener "Listener" {
  source "test"
  on mod_event { emit "heard {fighter.name}" }
}
test "the mod's event is answered" {
  STATE
  run mod_signal(fighter: "f")
  expect emit "heard F"
}`)}},
	reflect.TypeOf(&syntax.HouseRule{}): {{name: "a standing rule", files: mod(`
rule mod_steady "Steady" {
  source "test"
  modify nerve_test.nerve by 1
}
test "the mod's standing rule adds 1 to a Nerve test" {
  STATE
  dice 3, 3
  run nerve_test(model: "f")
  expect not broken(model("f"))
}`)}},
	reflect.TypeOf(&syntax.House{}): {
		{name: "a house rule with an effect", houses: []string{"mod_house"}, files: mod(`
house mod_house "Mod house rules" {
  source "test"
  rule steady "Steady" { modify nerve_test.nerve by 1 }
}
test "the mod's house rule, switched on, adds 1 to a Nerve test" {
  STATE
  dice 3, 3
  run nerve_test(model: "f")
  expect not broken(model("f"))
}`)},
		{name: "a house rule replacing a row", houses: []string{"mod_house"}, files: mod(`
house mod_house "Mod house rules" {
  source "test"
  rule farewell "Farewell" {
    replace row lasting_injury 66 memorable_death "Memorable Death (mod house)" { emit "a mod house rule's row" }
  }
}
test "the mod's house rule's row is rolled" {
  STATE
  dice 6, 6
  run lasting_injury(fighter: "f", attacker: nil)
  expect emit "a mod house rule's row"
}`)},
	},
	reflect.TypeOf(&syntax.Include{}): {{name: "an include", files: map[string]string{
		"mod.munda": `include "more/extra.munda"`,
		"more/extra.munda": strings.ReplaceAll(strings.ReplaceAll(`
procedure mod_proc(fighter: model) "Mod procedure" {
  source "test"
  emit "included procedure ran"
}
test "the included file's procedure runs" {
  STATE
  run mod_proc(fighter: "f")
  expect emit "included procedure ran"
}`, "STATE", modState), "EXTRA", ""),
	}}},
	reflect.TypeOf(&syntax.Ruleset{}): {{name: "a ruleset header", want: "ruleset mod_rules is loaded on top of other rules", files: mod(`
ruleset mod_rules "Mod rules" {
  source "test"
  extends legacy_2017
}`)}},
	reflect.TypeOf(&syntax.ModelKind{}): {{name: "a kind of model", files: map[string]string{"mod.munda": `
kind mount "Mount" {
  source "test"
  status ready "Ready"
}
test "a model of the mod's kind is a valid state" {
  state ` + "`" + `
gangs:
  - id: g
    name: Gang
    models:
      - {id: m, name: M, kind: mount, status: ready, x: 0, y: 0, base: 25}
` + "`" + `
  run flooded_passage()
  expect model("m").kind == "mount"
}`}}},
	reflect.TypeOf(&syntax.Enum{}): {{name: "an enum declared twice", want: "enum type is declared twice", files: mod(`
enum type "Action type (mod)" {
  source "test"
  ploy "Ploy"
}`)}, {name: "an enum of its own", files: mod(`
enum mod_colour "Colour" {
  source "test"
  red "Red"
}
test "an enum of the mod's own checks" {
  STATE
  run flooded_passage()
  expect true
}`)}},
	// Replace: see replaceCases, one per kind of declaration replaced.
	reflect.TypeOf(&syntax.Replace{}): {{name: "a replaced row", files: mod(`
replace row lasting_injury 66 memorable_death "Memorable Death (mod)" {
  source "test"
  emit "the mod's row"
}
test "the mod's row is rolled" {
  STATE
  dice 6, 6
  run lasting_injury(fighter: "f", attacker: nil)
  expect emit "the mod's row"
  expect not model("f").dead
}`)}},
}

// replaceCases are top-level `replace`s in a mod, keyed by the kind of
// declaration replaced.
var replaceCases = map[reflect.Type]modCase{
	reflect.TypeOf(&syntax.Dice{}): {name: "replace dice", files: mod(`
replace dice d3 "D3 (mod)" {
  source "test"
  faces 1, 2, 3, 4
}
procedure mod_roll() "Roll a D3" {
  source "test"
  roll x = d3
  emit "d3 gave {x}"
}
test "the mod's D3 has a 4" {
  STATE
  dice 4
  run mod_roll()
  expect emit "d3 gave 4"
}`)},
	reflect.TypeOf(&syntax.Characteristic{}): {name: "replace characteristic", files: mod(`
replace characteristic int "Intelligence (mod)" {
  source "test"
  check d6 at_least
  target
  limits fighter 10 to 3
  limits vehicle 10 to 3
}
procedure mod_think(fighter: model) "Think" {
  source "test"
  test sharp = int(fighter)
  emit "sharp {sharp}"
}
test "the mod's Intelligence is tested on one D6" {
  STATE
  dice 5
  run mod_think(fighter: "f")
  expect emit "sharp true"
}`)},
	reflect.TypeOf(&syntax.Table{}): {name: "replace table", files: mod(`
replace table perils_of_the_warp(psyker: model) "Perils of the Warp (mod)" {
  source "test"
  roll d6
  1-6 calm "Calm" { emit "the warp is calm" }
}
test "the mod's Perils of the Warp is rolled" {
  STATE
  dice 2
  run perils_of_the_warp(psyker: "f")
  expect emit "the warp is calm"
}`)},
	reflect.TypeOf(&syntax.Procedure{}): {name: "replace procedure", files: mod(`
replace procedure flooded_passage() "Flooded Passage (mod)" {
  source "test"
  emit "no flood"
}
test "the mod's Flooded Passage runs" {
  STATE
  run flooded_passage()
  expect emit "no flood"
}`)},
	reflect.TypeOf(&syntax.Function{}): {name: "replace function", files: mod(`
replace function broken(m: model) "Broken (mod)" = true
test "the mod's broken is called" {
  STATE
  run flooded_passage()
  expect broken(model("f"))
}`)},
	reflect.TypeOf(&syntax.ModelKind{}): {name: "replace kind", files: mod(`
replace kind fighter "Fighter (mod)" {
  source "test"
  status standing "Standing" {
    active "Active"
    engaged "Engaged"
    dancing "Dancing"
  }
  status prone "Prone" {
    pinned "Pinned"
    seriously_injured "Seriously Injured"
  }
  status out_of_action "Out of Action"
}
test "the mod's fighters may dance" {
  state ` + "`" + `
gangs:
  - id: g
    name: Gang
    models:
      - {id: f, name: F, kind: fighter, status: standing, secondary: dancing, x: 0, y: 0, base: 25}
` + "`" + `
  run flooded_passage()
  expect model("f").secondary == "dancing"
}`)},
	reflect.TypeOf(&syntax.Enum{}): {name: "replace enum", files: mod(`
replace enum type "Action type (mod)" {
  source "test"
  simple "Simple"
  basic "Basic"
  double "Double"
  free "Free"
  special "Special"
  ploy "Ploy"
}
action mod_ploy "A ploy" {
  source "test"
  type ploy
}
test "an action of the mod's new type checks" {
  STATE
  run flooded_passage()
  expect true
}`)},
	reflect.TypeOf(&syntax.Event{}): {name: "replace event", want: "an event cannot be replaced", files: mod(`
replace event wrecked(vehicle: model, was_mobile: bool) "Wrecked (mod)"`)},
	reflect.TypeOf(&syntax.Feature{}): {name: "replace skill", want: "a skill cannot be replaced", files: mod(`
replace skill iron_will "Iron Will (mod)" { text "…" }`)},
	reflect.TypeOf(&syntax.HouseRule{}): {name: "replace rule", want: "a rule cannot be replaced", files: mod(`
replace rule handling_glitch "Handling Glitch (mod)" { text "…" }`)},
	reflect.TypeOf(&syntax.House{}): {name: "replace house", want: "a house cannot be replaced", files: mod(`
replace house aa "A&A (mod)" { text "…" }`)},
	reflect.TypeOf(&syntax.TestDecl{}): {name: "replace test", want: "a test cannot be replaced", files: mod(`
replace test "a test" { run flooded_passage() }`)},
	reflect.TypeOf(&syntax.Include{}): {name: "replace include", want: "an include cannot be replaced", files: mod(`
replace include "other.munda"`)},
	reflect.TypeOf(&syntax.Ruleset{}): {name: "replace ruleset", want: "a ruleset cannot be replaced", files: mod(`
replace ruleset core_2023 "Necromunda (mod)" { source "test" }`)},
	reflect.TypeOf(&syntax.Replace{}): {name: "replace replace", want: "a replace cannot be replaced", files: mod(`
replace replace dice d3 "D3" { faces 1, 2, 3 }`)},
}

// Every kind of declaration a mod may write takes effect, in the mods
// layer, or is a check error saying why: nothing that checks clean is
// dropped (issue 16: a mod's top-level `replace row` checked clean and was
// then ignored). The cases are keyed by the grammar's declaration kinds,
// so a kind added to the grammar without a case here fails.
func TestModDeclarationKinds(t *testing.T) {
	for _, d := range syntax.DeclKinds() {
		typ := reflect.TypeOf(d)
		if len(topLevelCases[typ]) == 0 {
			t.Errorf("no case for a mod's top-level %s: add one to topLevelCases", syntax.KindOf(d))
		}
		rc, ok := replaceCases[typ]
		if !ok {
			t.Errorf("no case for a mod's `replace %s`: add one to replaceCases", syntax.KindOf(d))
			continue
		}
		topLevelCases[reflect.TypeOf(&syntax.Replace{})] = append(topLevelCases[reflect.TypeOf(&syntax.Replace{})], rc)
	}
	for _, d := range syntax.DeclKinds() {
		for _, c := range topLevelCases[reflect.TypeOf(d)] {
			t.Run(syntax.KindOf(d)+"/"+c.name, func(t *testing.T) {
				t.Parallel() // each loads the whole ruleset under its mod
				checkModCase(t, c)
			})
		}
	}
}

func checkModCase(t *testing.T, c modCase) {
	fsys := fstest.MapFS{}
	for name, src := range c.files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	pack := &dsl.Pack{FS: fsys, Root: ".", Display: "mod", Files: []string{"mod.munda"}}
	// Only the mod's tests: the ruleset's own are checked elsewhere.
	only := func(lp *dsl.LoadedPack) bool { return lp.Pack == pack }
	rules, diags := rulesets.Load(rulesets.Selection{With: []*dsl.Pack{pack}, Houses: c.houses, TestsOf: only})
	if c.want != "" {
		if !diags.HasErrors() || !strings.Contains(diags.Err().Error(), c.want) {
			t.Fatalf("want a check error containing %q, got:\n%v", c.want, diags)
		}
		return
	}
	if diags.HasErrors() {
		t.Fatalf("the mod does not check:\n%v", diags)
	}
	prog, err := interpreter.Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	var tests []*dsl.TestInfo
	for _, ti := range rules.Index.Tests {
		if ti.Pack.Pack == pack {
			tests = append(tests, ti)
		}
	}
	if len(tests) == 0 {
		t.Fatal("the mod has no test showing its declaration takes effect")
	}
	for _, res := range interpreter.RunTests(prog, tests, nil) {
		if !res.Passed {
			var b strings.Builder
			_ = interpreter.WriteText(&b, res.Events)
			t.Errorf("%s: %s\n%s\nevents:\n%s", res.Name, res.At, strings.Join(res.Failures, "\n"), b.String())
		}
	}
}
