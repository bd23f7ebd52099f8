package odds

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

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
	for _, f := range summaryFieldsOf(a.Type()) {
		fa, fb := a.Field(f.index), b.Field(f.index)
		switch f.kind {
		case summaryStruct:
			diffStruct(parts, prefix+"."+f.name, fa, fb)
		case summaryStrings:
			la, lb := fa.Interface().([]string), fb.Interface().([]string)
			if slices.Equal(la, lb) {
				continue
			}
			if s := listChange(la, lb); s != "" {
				*parts = append(*parts, prefix+"."+f.name+": "+s)
			}
		case summaryWhole: // battle.recorded, markers, armour: only as a whole
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				*parts = append(*parts, prefix+"."+f.name+": changed")
			}
		case summaryWeapons:
			diffWeapons(parts, prefix, fa.Interface().([]*state.Weapon), fb.Interface().([]*state.Weapon))
		case summaryScalar:
			if !sameScalar(fa, fb) {
				*parts = append(*parts, fmt.Sprintf("%s.%s: %v", prefix, f.name, show(fb.Interface())))
			}
		}
	}
}

// sameScalar compares two fields of one plain kind without boxing them:
// a summary is made for every end of an exact enumeration.
func sameScalar(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	return a.Interface() == b.Interface()
}

// A summaryField is a field diffStruct compares, and how.
type summaryField struct {
	index int
	name  string
	kind  summaryKind
}

type summaryKind int

const (
	summaryScalar  summaryKind = iota // compared by value
	summaryStruct                     // compared field by field
	summaryStrings                    // a list of ids: what it gained and lost
	summaryWhole                      // changed or not, as a whole
	summaryWeapons                    // by weapon id: what was damaged
)

// summaryFields holds each struct type's fields, found once by their tags.
var summaryFields sync.Map // reflect.Type → []summaryField

func summaryFieldsOf(t reflect.Type) []summaryField {
	if v, ok := summaryFields.Load(t); ok {
		return v.([]summaryField)
	}
	var out []summaryField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("expr")
		if name == "" || name == "-" || !f.IsExported() || f.Tag.Get("odds") == "detail" {
			continue
		}
		sf := summaryField{index: i, name: name}
		switch k := f.Type.Kind(); {
		case k == reflect.Struct:
			sf.kind = summaryStruct
		case k == reflect.Pointer:
			continue // back-links (a model's gang) and the like: not part of the change
		case k == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			sf.kind = summaryStrings
		case k == reflect.Map:
			sf.kind = summaryWhole
		case k == reflect.Slice && name == "weapons":
			sf.kind = summaryWeapons
		case k == reflect.Slice && name == "models":
			continue // compared one by one, by Summary
		case k == reflect.Slice:
			sf.kind = summaryWhole
		}
		out = append(out, sf)
	}
	summaryFields.Store(t, out)
	return out
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

// listChange is "+x -y" for what a list gained and lost, counting repeats,
// gains then losses, each in alphabetical order: a list's order is not
// part of an outcome (two Lasting Injuries rolled in either order are
// one outcome), and exact odds merge runs whose lists differ only in
// order when nothing reads it (see Reads.orderFree).
func listChange(a, b []string) string {
	count := map[string]int{}
	for _, s := range a {
		count[s]--
	}
	for _, s := range b {
		count[s]++
	}
	var gained, lost []string
	for _, s := range slices.Sorted(maps.Keys(count)) {
		for n := count[s]; n > 0; n-- {
			gained = append(gained, "+"+s)
		}
		for n := count[s]; n < 0; n++ {
			lost = append(lost, "-"+s)
		}
	}
	return strings.Join(append(gained, lost...), " ")
}

func show(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return "—"
	}
	return fmt.Sprint(v)
}
