package stdlib

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/munda-rules/munda/stdlib/state"
)

// weaponOf builds a weapon from a profile written as a map with a state
// file's weapon fields ({id: "x", name: "X", s: 3, ap: -1, d: 1, traits:
// ["melee"]}): a profile the rules hold as data (an unarmed attack, a
// wyrd power's bolt) that no model carries. Each call makes a new weapon.
func weaponOf(profile map[string]any) (*state.Weapon, error) {
	w := &state.Weapon{}
	v := reflect.ValueOf(w).Elem()
	fields := weaponFieldIndex()
	keys := make([]string, 0, len(profile))
	for k := range profile {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i, ok := fields[k]
		if !ok {
			return nil, fmt.Errorf("weapon_of: a weapon has no field %q (it has %s)", k, strings.Join(WeaponFields(), ", "))
		}
		if err := setWeaponField(v.Field(i), k, profile[k]); err != nil {
			return nil, err
		}
	}
	if w.ID == "" || w.Name == "" {
		return nil, fmt.Errorf("weapon_of: a weapon needs an id and a name")
	}
	return w, nil
}

func setWeaponField(f reflect.Value, key string, x any) error {
	wrong := func(want string) error {
		return fmt.Errorf("weapon_of: %s must be %s, not %v", key, want, x)
	}
	switch f.Kind() {
	case reflect.Int:
		switch n := x.(type) {
		case int:
			f.SetInt(int64(n))
		case float64:
			if n != math.Trunc(n) || math.Abs(n) > 1e9 {
				return wrong("a whole number")
			}
			f.SetInt(int64(n))
		default:
			return wrong("a whole number")
		}
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return wrong("true or false")
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return wrong("a string")
		}
		f.SetString(s)
	case reflect.Slice:
		list, ok := x.([]any)
		if !ok {
			return wrong("a list of strings")
		}
		out := make([]string, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return wrong("a list of strings")
			}
			out[i] = s
		}
		f.Set(reflect.ValueOf(out))
	default:
		return wrong("something a weapon holds")
	}
	return nil
}

// weaponFieldIndex maps each expr name of a weapon's fields to its index.
func weaponFieldIndex() map[string]int {
	t := reflect.TypeOf(state.Weapon{})
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		if name := t.Field(i).Tag.Get("expr"); name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}

// WeaponFields are the fields weapon_of takes (a state file's weapon's),
// sorted, for checking a literal profile.
func WeaponFields() []string {
	var out []string
	for k := range weaponFieldIndex() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
