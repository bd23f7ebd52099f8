package odds

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/munda-rules/munda/stdlib/state"
)

// Summary says what a run changed, field by field, in a stable order:
// "goliaths.bottled: true; vorst.status: out_of_action;
// vorst.lasting_injuries: +spinal_injury". Outcomes are merged by it.
// Details are left out (fields tagged odds:"detail": a rule's bookkeeping
// marks, experience), so runs that differ only in them are one outcome;
// with focus, only the changes of those models count ("what happens to the
// target"), so an attacker's gains do not split what befalls it.
func Summary(before, after *state.State, focus ...string) string {
	var parts []string
	if len(focus) == 0 {
		diffStruct(&parts, "battle", reflect.ValueOf(before.Battle), reflect.ValueOf(after.Battle))
	}
	for _, ga := range after.Gangs {
		gb := before.Gang(ga.ID)
		if gb == nil {
			parts = append(parts, ga.ID+": new")
			continue
		}
		if len(focus) == 0 {
			diffStruct(&parts, ga.ID, reflect.ValueOf(*gb), reflect.ValueOf(*ga))
		}
		for _, ma := range ga.Models {
			if len(focus) > 0 && !slices.Contains(focus, ma.ID) {
				continue
			}
			mb := before.Model(ma.ID)
			if mb == nil {
				parts = append(parts, ma.ID+": new")
				continue
			}
			diffStruct(&parts, ma.ID, reflect.ValueOf(*mb), reflect.ValueOf(*ma))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

// diffStruct compares the fields the rules can see (those with an expr
// name), except lists of gangs, models and weapons, which are compared by
// their own ids, and back-links.
func diffStruct(parts *[]string, prefix string, a, b reflect.Value) {
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("expr")
		if name == "" || name == "-" || !f.IsExported() || f.Tag.Get("odds") == "detail" {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			diffStruct(parts, prefix+"."+name, fa, fb)
		case f.Type.Kind() == reflect.Pointer:
			// Back-links (a model's gang) and the like: not part of the change.
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			if s := listChange(fa.Interface().([]string), fb.Interface().([]string)); s != "" {
				*parts = append(*parts, prefix+"."+name+": "+s)
			}
		case f.Type.Kind() == reflect.Map: // battle.recorded
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				*parts = append(*parts, prefix+"."+name+": changed")
			}
		case f.Type.Kind() == reflect.Slice && name == "weapons":
			diffWeapons(parts, prefix, fa.Interface().([]*state.Weapon), fb.Interface().([]*state.Weapon))
		case f.Type.Kind() == reflect.Slice:
			// models, markers, armour: models are compared one by one;
			// markers and armour only when they differ as a whole.
			if name != "models" && !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				*parts = append(*parts, prefix+"."+name+": changed")
			}
		default:
			if fa.Interface() != fb.Interface() {
				*parts = append(*parts, fmt.Sprintf("%s.%s: %v", prefix, name, show(fb.Interface())))
			}
		}
	}
}

func diffWeapons(parts *[]string, prefix string, a, b []*state.Weapon) {
	for _, wb := range b {
		for _, wa := range a {
			if wa.ID == wb.ID && wa.Damaged != wb.Damaged {
				*parts = append(*parts, fmt.Sprintf("%s.%s.damaged: %v", prefix, wb.ID, wb.Damaged))
			}
		}
	}
}

// listChange is "+x -y" for what a list gained and lost, counting repeats.
func listChange(a, b []string) string {
	count := map[string]int{}
	for _, s := range a {
		count[s]--
	}
	for _, s := range b {
		count[s]++
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range append(append([]string(nil), b...), a...) {
		if seen[s] {
			continue
		}
		seen[s] = true
		for n := count[s]; n > 0; n-- {
			out = append(out, "+"+s)
		}
		for n := count[s]; n < 0; n++ {
			out = append(out, "-"+s)
		}
	}
	return strings.Join(out, " ")
}

func show(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return "—"
	}
	return fmt.Sprint(v)
}
