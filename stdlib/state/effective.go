package state

import "reflect"

// Effective answers what the effects in force make of a state: the
// features a model or weapon holds, granted ones included, and the value
// every rule reads for a characteristic or a weapon's profile. A run sets
// it (State.Effects) for the functions that read the state through it;
// without one, what the state file says is the answer.
type Effective interface {
	// Holds reports whether x (a *Model or *Weapon) holds the feature of
	// that kind ("skill", "power", "condition", "trait") and id.
	Holds(x any, kind, id string) (bool, error)
	// Stat is the effective value of x's field (a stats field of a model,
	// a profile number of a weapon).
	Stat(x any, field string) (int, error)
}

// ProfileFields are the numbers of a weapon's profile that effects may
// change and stat reads, in card order.
var ProfileFields = []string{"range_short", "range_long", "acc_short", "acc_long", "s", "ap", "d", "am"}

// Profile is the number of a weapon's profile named field (one of
// ProfileFields) as the state writes it.
func (w *Weapon) Profile(field string) (int, bool) {
	switch field {
	case "range_short":
		return w.RangeShort, true
	case "range_long":
		return w.RangeLong, true
	case "acc_short":
		return w.AccShort, true
	case "acc_long":
		return w.AccLong, true
	case "s":
		return w.S, true
	case "ap":
		return w.AP, true
	case "d":
		return w.D, true
	case "am":
		return w.Am, true
	}
	return 0, false
}

// statIndex maps a stats field's name (its expr tag) to its index.
var statIndex = func() map[string]int {
	t := reflect.TypeOf(Stats{})
	m := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		m[t.Field(i).Tag.Get("expr")] = i
	}
	return m
}()

// Stat is the model's stats field named field ("ws", "cl") as the state
// writes it.
func (m *Model) Stat(field string) (int, bool) {
	i, ok := statIndex[field]
	if !ok {
		return 0, false
	}
	return int(reflect.ValueOf(&m.Stats).Elem().Field(i).Int()), true
}
