package stdlib

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Validate checks what the schema alone cannot: ids are unique, references
// (battle.priority, battle.winner, aboard) name what they should, statuses
// are valid pairs and numbers are within sane bounds. Decode calls it; call
// it on states built in memory. The error is a *StateError whose problems
// have paths but no lines.
func Validate(st *State) error {
	v := &validator{}
	v.state(st)
	if len(v.problems) == 0 {
		return nil
	}
	return &StateError{Problems: v.problems}
}

// statusPairs lists, by kind, each status and the secondary statuses that
// may go with it ("" for none).
var statusPairs = map[string]map[string][]string{
	"fighter": {
		"standing":      {"active", "engaged"},
		"prone":         {"pinned", "seriously_injured"},
		"out_of_action": {""},
	},
	"vehicle": {
		"mobile":     {""},
		"stationary": {"stalled", "wrecked"},
	},
}

var statusOrder = map[string][]string{
	"fighter": {"standing", "prone", "out_of_action"},
	"vehicle": {"mobile", "stationary"},
}

// Bounds on numbers. Target numbers are 1+ to 12+ (0 for a characteristic
// the model does not have); other characteristics 0 to 20.
const (
	maxStat     = 20
	maxTarget   = 12
	maxRange    = 100  // inches
	maxAcc      = 6    // ± accuracy modifier
	maxAP       = 10   // AP is 0 down to -maxAP
	maxDamage   = 10   // Damage
	maxBase     = 1000 // millimetres
	maxPosition = 1e6  // inches from the origin
)

type validator struct {
	st       *State
	models   map[string]string // id → path of the first model with it
	problems []Problem
	stop     bool
}

func (v *validator) add(path, format string, args ...any) {
	if v.stop {
		return
	}
	v.problems = append(v.problems, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	if len(v.problems) >= MaxProblems {
		v.problems = append(v.problems, Problem{Msg: "too many problems; stopping here"})
		v.stop = true
	}
}

func (v *validator) state(st *State) {
	if st == nil {
		v.add("", "no state")
		return
	}
	v.st = st
	gangs := make(map[string]int, len(st.Gangs)) // id → index of its first gang
	for gi, g := range st.Gangs {
		if g != nil && g.ID != "" {
			if _, dup := gangs[g.ID]; !dup {
				gangs[g.ID] = gi
			}
		}
	}
	v.battle(&st.Battle, gangs)
	v.models = map[string]string{}
	for gi, g := range st.Gangs {
		gp := fmt.Sprintf("gangs[%d]", gi)
		if g == nil {
			v.add(gp, "want a gang, got null")
			continue
		}
		if g.ID == "" {
			v.add(gp+".id", "required field is missing")
		} else if first := gangs[g.ID]; first != gi {
			v.add(gp+".id", "duplicate gang id %q (also gangs[%d])", g.ID, first)
		}
		if g.StartingCrew < 0 {
			v.add(gp+".starting_crew", "want 0 or more, got %d", g.StartingCrew)
		}
		if g.EligibleModels < 0 {
			v.add(gp+".eligible_models", "want 0 or more, got %d", g.EligibleModels)
		}
		for mi, m := range g.Models {
			v.model(fmt.Sprintf("%s.models[%d]", gp, mi), m, g)
		}
	}
}

func (v *validator) battle(b *Battle, gangs map[string]int) {
	if b.Round < 0 {
		v.add("battle.round", "want 0 or more, got %d", b.Round)
	}
	if _, ok := gangs[b.Priority]; b.Priority != "" && !ok {
		v.add("battle.priority", "no gang has the id %q%s", b.Priority, suggestKey(b.Priority, gangs))
	}
	if _, ok := gangs[b.Winner]; b.Winner != "" && !ok {
		v.add("battle.winner", "no gang has the id %q%s", b.Winner, suggestKey(b.Winner, gangs))
	}
	ids := map[string]int{}
	for i, mk := range b.Markers {
		p := fmt.Sprintf("battle.markers[%d]", i)
		if mk == nil {
			v.add(p, "want a marker, got null")
			continue
		}
		if first, dup := ids[mk.ID]; dup && mk.ID != "" {
			v.add(p+".id", "duplicate marker id %q (also battle.markers[%d])", mk.ID, first)
		} else {
			ids[mk.ID] = i
		}
		v.position(p, mk.X, mk.Y)
		if !finite(mk.Radius) || mk.Radius < 0 || mk.Radius > maxPosition {
			v.add(p+".radius", "want a radius in inches, 0 or more, got %v", mk.Radius)
		}
	}
}

func (v *validator) model(p string, m *Model, g *Gang) {
	if m == nil {
		v.add(p, "want a model, got null")
		return
	}
	if first, dup := v.models[m.ID]; m.ID == "" {
		v.add(p+".id", "required field is missing")
	} else if dup {
		v.add(p+".id", "duplicate model id %q (also %s)", m.ID, first)
	} else {
		v.models[m.ID] = p
	}
	pairs, ok := statusPairs[m.Kind]
	if !ok {
		v.add(p+".kind", "want fighter or vehicle, got %q", m.Kind)
	} else if seconds, ok := pairs[m.Status]; !ok {
		v.add(p+".status", "a %s's status is %s, got %q", m.Kind, orList(statusOrder[m.Kind]), m.Status)
	} else if !contains(seconds, m.Secondary) {
		switch {
		case seconds[0] == "":
			v.add(p+".secondary", "a %s that is %s has no secondary status, got %q", m.Kind, statusWord(m.Status), m.Secondary)
		case m.Secondary == "":
			v.add(p+".secondary", "a %s that is %s needs a secondary status: %s", m.Kind, statusWord(m.Status), orList(seconds))
		default:
			v.add(p+".secondary", "a %s that is %s is %s, got %q", m.Kind, statusWord(m.Status), orList(seconds), m.Secondary)
		}
	}
	v.stats(p+".stats", &m.Stats)
	for _, c := range []struct {
		name string
		n    int
	}{{"cost", m.Cost}, {"wounds_lost", m.WoundsLost}, {"flesh_wounds", m.FleshWounds}, {"hull_points_lost", m.HullPointsLost}, {"xp", m.XP}, {"advancements", m.Advancements}} {
		if c.n < 0 {
			v.add(p+"."+c.name, "want 0 or more, got %d", c.n)
		}
	}
	v.position(p, m.X, m.Y)
	if !finite(m.Base) || m.Base <= 0 || m.Base > maxBase {
		v.add(p+".base", "want a base diameter in millimetres, more than 0 and at most %d, got %v", maxBase, m.Base)
	}
	if m.Aboard != "" {
		v.aboard(p, m, g)
	}
	for i, w := range m.Weapons {
		v.weapon(fmt.Sprintf("%s.weapons[%d]", p, i), w)
	}
	for i, a := range m.Armour {
		ap := fmt.Sprintf("%s.armour[%d]", p, i)
		if a == nil {
			v.add(ap, "want armour, got null")
		} else {
			v.target(ap+".save", a.Save)
		}
	}
}

func (v *validator) aboard(p string, m *Model, g *Gang) {
	switch {
	case m.Kind == "vehicle":
		v.add(p+".aboard", "a vehicle cannot be aboard another")
		return
	case m.Aboard == m.ID:
		v.add(p+".aboard", "a model cannot be aboard itself")
		return
	}
	for _, o := range g.Models {
		if o != nil && o.ID == m.Aboard {
			if o.Kind != "vehicle" {
				v.add(p+".aboard", "%q is a %s, not a vehicle", m.Aboard, o.Kind)
			}
			return
		}
	}
	for _, og := range v.st.Gangs {
		if og == nil || og == g {
			continue
		}
		for _, o := range og.Models {
			if o != nil && o.ID == m.Aboard {
				v.add(p+".aboard", "%q belongs to gang %q; fighters ride only their own gang's vehicles", m.Aboard, og.ID)
				return
			}
		}
	}
	var ids []string
	for _, o := range g.Models {
		if o != nil && o.Kind == "vehicle" {
			ids = append(ids, o.ID)
		}
	}
	msg := fmt.Sprintf("gang %q has no vehicle with the id %q", g.ID, m.Aboard)
	if s := didYouMean(m.Aboard, ids); s != "" {
		msg += "; did you mean " + s + "?"
	}
	v.add(p+".aboard", "%s", msg)
}

func (v *validator) stats(p string, s *Stats) {
	rv := reflect.ValueOf(s).Elem()
	for i := range statsSchema.fields {
		f := &statsSchema.fields[i]
		if f.kind != kindInt {
			continue
		}
		x := int(rv.Field(f.index).Int())
		if f.format == formatTarget {
			v.target(p+"."+f.name, x)
		} else if x < 0 || x > maxStat {
			v.add(p+"."+f.name, "want 0 to %d, got %d", maxStat, x)
		}
	}
}

// target checks a target number: 0 (none) or 1+ to 12+.
func (v *validator) target(p string, x int) {
	if x < 0 || x > maxTarget {
		v.add(p, "want a target number from 1+ to %d+ (or 0 for none), got %d", maxTarget, x)
	}
}

func (v *validator) weapon(p string, w *Weapon) {
	if w == nil {
		v.add(p, "want a weapon, got null")
		return
	}
	for _, r := range []struct {
		name string
		n    int
	}{{"range_short", w.RangeShort}, {"range_long", w.RangeLong}} {
		if r.n < 0 || r.n > maxRange {
			v.add(p+"."+r.name, "want a range from 0 to %d inches, got %d", maxRange, r.n)
		}
	}
	for _, a := range []struct {
		name string
		n    int
	}{{"acc_short", w.AccShort}, {"acc_long", w.AccLong}} {
		if a.n < -maxAcc || a.n > maxAcc {
			v.add(p+"."+a.name, "want an accuracy modifier from -%d to +%d, got %d", maxAcc, maxAcc, a.n)
		}
	}
	if w.UserStrength {
		if w.S < -maxStat/2 || w.S > maxStat/2 {
			v.add(p+".s", "want a Strength bonus from S-%d to S+%d, got %d", maxStat/2, maxStat/2, w.S)
		}
	} else if w.S < 0 || w.S > maxStat {
		v.add(p+".s", "want a Strength from 0 to %d, got %d", maxStat, w.S)
	}
	if w.AP > 0 || w.AP < -maxAP {
		v.add(p+".ap", "want 0 or a negative AP down to -%d, got %d", maxAP, w.AP)
	}
	switch {
	case w.NoDamage && w.D != 0:
		v.add(p+".d", "a weapon with no Damage (no_damage, written \"-\") has d 0, got %d", w.D)
	case w.D < 0 || w.D > maxDamage:
		v.add(p+".d", "want a Damage from 0 to %d, got %d", maxDamage, w.D)
	}
	v.target(p+".am", w.Am)
}

func (v *validator) position(p string, x, y float64) {
	if !finite(x) || math.Abs(x) > maxPosition {
		v.add(p+".x", "want a position in inches, got %v", x)
	}
	if !finite(y) || math.Abs(y) > maxPosition {
		v.add(p+".y", "want a position in inches, got %v", y)
	}
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// statusWord writes a status id as words: out_of_action → out of action.
func statusWord(s string) string { return strings.ReplaceAll(s, "_", " ") }

// orList writes a, b or c.
func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// suggestKey is "; did you mean x?" for the closest key of m, or "".
func suggestKey(name string, m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if s := didYouMean(name, keys); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}
