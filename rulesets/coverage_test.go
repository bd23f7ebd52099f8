package rulesets_test

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
)

// How much of the shipped rules runs. Every skill, weapon trait, wyrd
// power and condition a shipped pack declares either runs (it has
// effects, or the rules read it: has_skill, has_condition, trait_value, a
// grant or prevent of it, `"id" in m.conditions`), or says why it is only
// text with `text_only "REASON"`; a reason starting "no rule in the
// sources" counts apart. A feature with neither fails the test.
//
// pendingCoverage lists the features that had neither when the issue-12
// branches were started (skills, traits and powers were being written
// then). The lead removes it when the issue-12 branches land.
var pendingCoverage = map[string]bool{
	// skills
	"skill acrobatic": true, "skill avatar_of_blood": true, "skill backstab": true,
	"skill ballistics_expert": true, "skill beast_handler": true, "skill big_brother": true,
	"skill blazing_faith": true, "skill bloodlust": true, "skill born_of_the_wastes": true,
	"skill bring_it_down": true, "skill bring_it_on": true, "skill bulging_biceps": true,
	"skill bull_charge": true, "skill catfall": true, "skill chemical_bonds_never_break": true,
	"skill clamber": true, "skill cold_and_calculating": true, "skill combat_focus": true,
	"skill combat_master": true, "skill combat_virtuoso": true, "skill connected": true,
	"skill counter_attack": true, "skill crimson_haze": true, "skill crushing_blow": true,
	"skill dependable_like_kin": true, "skill devotional_frenzy": true, "skill disarm": true,
	"skill dodge": true, "skill doppelganger": true, "skill escape_artist": true, "skill evade": true,
	"skill ever_vigilant": true, "skill expert_driver": true, "skill eyes_of_the_wasteland": true,
	"skill faceless": true, "skill fake_out": true, "skill fast_shot": true, "skill fearful_aura": true,
	"skill fire_shield": true, "skill fists_of_fury": true, "skill fists_of_steel": true, "skill fixer": true,
	"skill flicker": true, "skill frenzy": true, "skill future_sight": true, "skill gadgeteer": true,
	"skill got_your_six": true, "skill guilder_contacts": true, "skill gunfighter": true,
	"skill headbutt": true, "skill heavy_foot": true, "skill helmars_justice": true, "skill hip_shooting": true,
	"skill hit_and_run": true, "skill hurl": true, "skill immovable_stance": true, "skill impetuous": true,
	"skill infiltrate": true, "skill iron_jaw": true, "skill iron_man": true, "skill jink": true,
	"skill killing_blow": true, "skill king_hit": true, "skill lie_low": true, "skill lightning_reflexes": true,
	"skill lord_of_the_rats": true, "skill marksman": true, "skill medicae": true, "skill mental_mastery": true,
	"skill mentor": true, "skill mighty_leap": true, "skill munitioneer": true, "skill naaargah": true,
	"skill nerves_of_steel": true, "skill nobody_pushes_kin_around": true,
	"skill non_verbal_communication": true, "skill overseer": true, "skill overwatch": true,
	"skill parry": true, "skill photonic_engineer": true, "skill precision_shot": true,
	"skill psi_touched": true, "skill rad_phaged": true, "skill rain_of_blows": true, "skill regroup": true,
	"skill restless_faith": true, "skill restraint_protocols": true, "skill rumour_monger": true,
	"skill running_repairs": true, "skill savvy_trader": true, "skill scavengers_eye": true,
	"skill shotgun_savant": true, "skill slalom": true, "skill slaughterborn": true, "skill somersault": true,
	"skill spring_up": true, "skill sprint": true, "skill steady_hands": true, "skill step_aside": true,
	"skill stormwalker": true, "skill stubborn_to_the_last": true, "skill t_bone": true,
	"skill take_down": true, "skill techno_affinity": true, "skill theres_always_another_secret": true,
	"skill threat_response": true, "skill trick_shot": true, "skill true_grit": true,
	"skill unleash_the_beast": true, "skill unshakable_conviction": true, "skill walk_it_off": true,
	"skill weaponsmith": true, "skill where_theres_scrap_theres_creds": true,
	// traits
	"trait assault_shield": true, "trait backstab": true, "trait burrowing": true, "trait chem_delivery": true,
	"trait combi": true, "trait crew_operated": true, "trait cursed": true, "trait demolitions": true,
	"trait digi": true, "trait disarm": true, "trait drag": true, "trait entangle": true,
	"trait esoteric": true, "trait exclusive": true, "trait flare": true, "trait flash": true,
	"trait force": true, "trait graviton_pulse": true, "trait grenade": true, "trait impale": true,
	"trait knockback": true, "trait master_crafted": true, "trait paired": true, "trait parry": true,
	"trait reckless": true, "trait silent": true, "trait single_shot": true, "trait smoke": true,
	"trait twin_linked": true, "trait unstable": true, "trait versatile": true,
	// powers
	"power arachnosis": true, "power assail": true, "power body_of_flame": true, "power cause_pain": true,
	"power chameleon": true, "power crack_lock": true, "power crush": true, "power flame_blast": true,
	"power force_blast": true, "power force_field": true, "power foreboding": true, "power forewarning": true,
	"power freeze_time": true, "power hailstorm": true, "power hallucinations": true, "power hardening": true,
	"power invisibility": true, "power iron_arm": true, "power levitation": true, "power lucky_aura": true,
	"power manipulate_door": true, "power manipulate_lumens": true, "power mental_assault": true,
	"power mind_control": true, "power mirror_image": true, "power misfortune": true, "power molten_bolt": true,
	"power overcharge": true, "power precognition": true, "power quickening": true, "power scouring": true,
	"power stoke_flames": true, "power stop_bleeding": true, "power suppress_power": true,
	"power terrify": true, "power unbreakable_will": true, "power visions": true,
	"power walk_through_walls": true, "power wall_of_flame": true, "power warp_whispers": true,
	"power weapon_jinx": true, "power zen_shootist": true,
}

var coverageKinds = []string{"skill", "trait", "power", "condition"}

const noRulePrefix = "no rule in the sources"

type coverageFeature struct {
	kind, id, at string
	effects      bool
	marker       *syntax.TextOnly
}

func TestFeatureCoverage(t *testing.T) {
	var feats []*coverageFeature
	var ruleText strings.Builder
	for _, dir := range rulesets.Dirs() {
		err := fs.WalkDir(rulesets.FS, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "tests" {
				return fs.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".munda") {
				return nil
			}
			src, err := fs.ReadFile(rulesets.FS, p)
			if err != nil {
				return err
			}
			file, diags := syntax.Parse(path.Join("rulesets", p), src)
			if diags.HasErrors() {
				return fmt.Errorf("%s: %v", p, diags)
			}
			ruleText.Write(src)
			ruleText.WriteByte('\n')
			for _, decl := range file.Decls {
				if r, ok := decl.(*syntax.Replace); ok {
					decl = r.Decl
				}
				f, ok := decl.(*syntax.Feature)
				if !ok || !isCoverageKind(f.Kind) {
					continue
				}
				feats = append(feats, &coverageFeature{
					kind:    f.Kind,
					id:      f.ID.Name,
					at:      fmt.Sprintf("rulesets/%s:%d", p, f.Pos.Line),
					effects: hasEffects(f.Items),
					marker:  syntax.TextOnlyOf(f.Items),
				})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read := readFeatures(ruleText.String())

	type figures struct{ runs, textOnly, noRule, missing int }
	counts := map[string]*figures{}
	for _, k := range coverageKinds {
		counts[k] = &figures{}
	}
	var missing []string
	for _, f := range feats {
		key := f.kind + " " + f.id
		c := counts[f.kind]
		switch {
		case f.effects || read[key]:
			c.runs++
		case f.marker != nil && strings.HasPrefix(f.marker.Reason.Value(), noRulePrefix):
			c.noRule++
		case f.marker != nil:
			c.textOnly++
		default:
			c.missing++
			if !pendingCoverage[key] {
				missing = append(missing, fmt.Sprintf("%s: %s has neither effects nor a text_only marker with a reason", f.at, key))
			}
		}
	}
	for _, k := range coverageKinds {
		c := counts[k]
		t.Logf("%-9s %3d: %3d run, %3d text only, %3d no rule in the sources, %3d neither (pending)", k+"s", c.runs+c.textOnly+c.noRule+c.missing, c.runs, c.textOnly, c.noRule, c.missing)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	// The pending list only shrinks: a feature on it that now runs or is
	// marked is taken off it.
	stale := []string{}
	for key := range pendingCoverage {
		found := false
		for _, f := range feats {
			if f.kind+" "+f.id == key && !f.effects && !read[key] && f.marker == nil {
				found = true
			}
		}
		if !found {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		t.Errorf("pendingCoverage lists %s, which now runs, is marked or is gone: take it off the list", s)
	}
}

func isCoverageKind(k string) bool {
	for _, c := range coverageKinds {
		if c == k {
			return true
		}
	}
	return false
}

// hasEffects reports whether a feature's items change anything.
func hasEffects(items []syntax.FeatureItem) bool {
	for _, it := range items {
		switch it.(type) {
		case *syntax.Modify, *syntax.Hook, *syntax.On, *syntax.Reroll, *syntax.ExtraDice, *syntax.Override, *syntax.Grant, *syntax.Prevent:
			return true
		}
	}
	return false
}

var (
	hasCall    = regexp.MustCompile(`\bhas_(skill|trait|power|condition)\([^;{}]*?,\s*"(\w+)"\s*\)`)
	traitValue = regexp.MustCompile(`\btrait_value\([^;{}]*?,\s*"(\w+)"\s*\)`)
	grantOf    = regexp.MustCompile(`\b(?:grant|prevent)\s+(skill|trait|power|condition)\s+(\w+)`)
	inList     = regexp.MustCompile(`"(\w+)"\s+in\s+[\w.()"]*\.(skills|traits|powers|conditions)\b`)
)

// readFeatures finds the features the rules read or grant, as "KIND ID".
func readFeatures(src string) map[string]bool {
	out := map[string]bool{}
	for _, m := range hasCall.FindAllStringSubmatch(src, -1) {
		out[m[1]+" "+m[2]] = true
	}
	for _, m := range traitValue.FindAllStringSubmatch(src, -1) {
		out["trait "+m[1]] = true
	}
	for _, m := range grantOf.FindAllStringSubmatch(src, -1) {
		out[m[1]+" "+m[2]] = true
	}
	for _, m := range inList.FindAllStringSubmatch(src, -1) {
		out[strings.TrimSuffix(m[2], "s")+" "+m[1]] = true
	}
	return out
}
