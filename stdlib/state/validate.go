package state

import (
	"fmt"
	"github.com/munda-rules/munda/dsl/diag"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Validate checks what the schema alone cannot: ids are unique, references
// (battle.priority, battle.winner, aboard) name what they should and
// numbers are within sane bounds. The words of the game (kinds, statuses)
// are the rules' to say: ValidateWith checks them too. Decode calls
// Validate; call it on states built in memory. The error is a
// diag.Diagnostics whose problems have codes and paths, but no places in
// a file.
func Validate(st *State) error { return ValidateWith(st, nil) }

// ValidateWith is Validate, and checks the state's words against the
// rules' vocabulary: each model's kind, its status and secondary status,
// and what it is aboard. A nil vocabulary checks the schema only.
func ValidateWith(st *State, voc *Vocabulary) error {
	v := &validator{voc: voc}
	if voc != nil && len(voc.Kinds) == 0 {
		v.voc = nil // rules that declare no kinds say nothing about them
	}
	v.state(st)
	if voc != nil && !voc.AllowUnknown {
		v.problems = append(v.problems, UnknownIDs(st, voc)...)
	}
	if len(v.problems) == 0 {
		return nil
	}
	return v.problems
}

// Bounds on numbers. Target numbers are 1+ to 12+ (0 for a characteristic
// the model does not have); other characteristics 0 to 20.
const (
	maxStat     = 20
	maxTarget   = 12
	maxRange    = 100       // inches
	maxAcc      = 6         // ± accuracy modifier
	maxAP       = 10        // AP is 0 down to -maxAP
	maxDamage   = 10        // Damage
	maxBase     = 1000      // millimetres
	maxPosition = 1e6       // inches from the origin
	maxCount    = 1_000_000 // rounds, costs, XP, credits: room for any campaign, none for overflow
)

type validator struct {
	voc      *Vocabulary // nil: the schema only
	st       *State
	models   map[string]modelRef // id → the first model with it
	problems diag.Diagnostics
	stop     bool
}

func (v *validator) add(code, path, format string, args ...any) {
	if v.stop {
		return
	}
	v.problems = append(v.problems, &diag.Diagnostic{Severity: diag.Error, Code: code, Path: path, Summary: fmt.Sprintf(format, args...)})
	if len(v.problems) >= MaxProblems {
		v.problems = append(v.problems, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeStateLimit, Summary: "too many problems; stopping here"})
		v.stop = true
	}
}

// indexModels maps each model id to the first model with it.
func (v *validator) indexModels(st *State) {
	v.models = make(map[string]modelRef)
	for gi, g := range st.Gangs {
		if g == nil {
			continue
		}
		for mi, m := range g.Models {
			if m != nil && m.ID != "" {
				if _, dup := v.models[m.ID]; !dup {
					v.models[m.ID] = modelRef{where{g: gi, m: mi}, m, g}
				}
			}
		}
	}
}

// modelIDs are the ids of the state's models, for a did-you-mean.
func (v *validator) modelIDs() []string {
	ids := make([]string, 0, len(v.models))
	for id := range v.models {
		ids = append(ids, id)
	}
	return ids
}

func (v *validator) state(st *State) {
	if st == nil {
		v.add(diag.CodeStateValue, "", "no state")
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
	v.indexModels(st)
	v.battle(&st.Battle, gangs)
	for gi, g := range st.Gangs {
		gw := where{g: gi, m: -1}
		if g == nil {
			v.add(diag.CodeStateType, gw.at(""), "want a gang, got null")
			continue
		}
		if g.ID == "" {
			v.add(diag.CodeStateMissingField, gw.at("id"), "required field is missing")
		} else if first := gangs[g.ID]; first != gi {
			v.add(diag.CodeStateDuplicateID, gw.at("id"), "duplicate gang id %q (also gangs[%d])", g.ID, first)
		}
		if g.StartingCrew < 0 || g.StartingCrew > MaxModels {
			v.add(diag.CodeStateValue, gw.at("starting_crew"), "want 0 to %d, got %d", MaxModels, g.StartingCrew)
		}
		if g.EligibleModels < 0 || g.EligibleModels > MaxModels {
			v.add(diag.CodeStateValue, gw.at("eligible_models"), "want 0 to %d, got %d", MaxModels, g.EligibleModels)
		}
		if g.Reputation < -maxCount || g.Reputation > maxCount {
			v.add(diag.CodeStateValue, gw.at("reputation"), "want -%d to %d, got %d", maxCount, maxCount, g.Reputation)
		}
		if g.Credits < -maxCount || g.Credits > maxCount {
			v.add(diag.CodeStateValue, gw.at("credits"), "want -%d to %d, got %d", maxCount, maxCount, g.Credits)
		}
		if g.Rating < -maxCount || g.Rating > maxCount {
			v.add(diag.CodeStateValue, gw.at("rating"), "want -%d to %d, got %d", maxCount, maxCount, g.Rating)
		}
		for mi, m := range g.Models {
			v.model(where{g: gi, m: mi}, m, g)
		}
	}
}

func (v *validator) battle(b *Battle, gangs map[string]int) {
	if b.Round < 0 || b.Round > maxCount {
		v.add(diag.CodeStateValue, "battle.round", "want 0 to %d, got %d", maxCount, b.Round)
	}
	if _, ok := gangs[b.Priority]; b.Priority != "" && !ok {
		v.add(diag.CodeStateReference, "battle.priority", "%s", suggestKey(fmt.Sprintf("no gang has the id %q", b.Priority), b.Priority, gangs))
	}
	if _, ok := gangs[b.Winner]; b.Winner != "" && !ok {
		v.add(diag.CodeStateReference, "battle.winner", "%s", suggestKey(fmt.Sprintf("no gang has the id %q", b.Winner), b.Winner, gangs))
	}
	v.markers(b.Markers)
	// A rule looks an answer up by a key it builds ("jump_down_" + id):
	// an empty key is one no rule can mean.
	if _, ok := b.Recorded[""]; ok {
		v.add(diag.CodeStateValue, "battle.recorded", "an answer recorded under an empty key answers no choice")
	}
	for i, du := range b.Durations {
		w := where{g: -1, m: -1, list: "battle.durations", i: i}
		if du == nil {
			v.add(diag.CodeStateType, w.at(""), "want a duration, got null")
			continue
		}
		if du.Period == "" {
			v.add(diag.CodeStateMissingField, w.at("period"), "required field is missing")
		}
		switch {
		case du.Used == "" && du.Item == "":
			v.add(diag.CodeStateMissingField, w.at("item"), "a duration is an item added (item and field) or an effect used (used)")
		case du.Used != "" && du.Item != "":
			v.add(diag.CodeStateValue, w.at("used"), "a duration is an item added or an effect used, not both")
		case du.Item != "" && du.Field == "":
			v.add(diag.CodeStateMissingField, w.at("field"), "required field is missing: the list the item was added to")
		}
		if _, ok := v.models[du.Model]; du.Model != "" && !ok {
			v.add(diag.CodeStateReference, w.at("model"), "no model has the id %q", du.Model)
		}
		if _, ok := gangs[du.Gang]; du.Gang != "" && !ok {
			v.add(diag.CodeStateReference, w.at("gang"), "%s", suggestKey(fmt.Sprintf("no gang has the id %q", du.Gang), du.Gang, gangs))
		}
	}
}

// markers checks the battle's markers: ids unique, positions and radii
// finite and in bounds, an owner that names a model.
func (v *validator) markers(markers []*Marker) {
	var ids map[string]int
	if len(markers) > 0 {
		ids = make(map[string]int, len(markers))
	}
	for i, mk := range markers {
		w := where{g: -1, m: -1, list: "battle.markers", i: i}
		if mk == nil {
			v.add(diag.CodeStateType, w.at(""), "want a marker, got null")
			continue
		}
		if first, dup := ids[mk.ID]; dup && mk.ID != "" {
			v.add(diag.CodeStateDuplicateID, w.at("id"), "duplicate marker id %q (also battle.markers[%d])", mk.ID, first)
		} else {
			ids[mk.ID] = i
		}
		if mk.Kind == "" {
			v.add(diag.CodeStateMissingField, w.at("kind"), "required field is missing: the kind of marker")
		}
		v.position(w, mk.X, mk.Y)
		if !finite(mk.Radius) || mk.Radius < 0 || mk.Radius > maxPosition {
			v.add(diag.CodeStateValue, w.at("radius"), "want a radius in inches, 0 or more, got %v", mk.Radius)
		}
		if _, ok := v.models[mk.Owner]; mk.Owner != "" && !ok {
			v.add(diag.CodeStateReference, w.at("owner"), "%s", diag.Suggest(fmt.Sprintf("no model has the id %q", mk.Owner), mk.Owner, v.modelIDs()))
		}
	}
}

// ValidateMarkers checks the markers of a state, as Validate does: what a
// rule that places markers must keep (unique ids, finite places, an owner
// that is a model of the state). The error is a diag.Diagnostics.
func ValidateMarkers(st *State) error {
	v := &validator{st: st}
	v.indexModels(st)
	v.markers(st.Battle.Markers)
	if len(v.problems) == 0 {
		return nil
	}
	return v.problems
}

// ValidateWeapon checks one weapon's profile as Validate does (a rule
// that arms a model must keep it readable). The error names the field.
func ValidateWeapon(wp *Weapon) error {
	v := &validator{}
	v.weapon(where{g: -1, m: -1}, wp)
	if len(v.problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", v.problems[0].Path, v.problems[0].Summary)
}

func (v *validator) model(w where, m *Model, g *Gang) {
	if m == nil {
		v.add(diag.CodeStateType, w.at(""), "want a model, got null")
		return
	}
	if m.ID == "" {
		v.add(diag.CodeStateMissingField, w.at("id"), "required field is missing")
	} else if first := v.models[m.ID]; first.w != w {
		v.add(diag.CodeStateDuplicateID, w.at("id"), "duplicate model id %q (also %s)", m.ID, first.w.at(""))
	}
	if v.voc != nil {
		v.status(w, m)
	}
	v.stats(w, &m.Stats)
	for _, c := range []struct {
		name string
		n    int
	}{{"cost", m.Cost}, {"wounds_lost", m.WoundsLost}, {"flesh_wounds", m.FleshWounds}, {"hull_points_lost", m.HullPointsLost}, {"xp", m.XP}, {"kills", m.Kills}, {"advancements", m.Advancements}} {
		if c.n < 0 || c.n > maxCount {
			v.add(diag.CodeStateValue, w.at(c.name), "want 0 to %d, got %d", maxCount, c.n)
		}
	}
	// A campaign's gangs need not be in this battle, so these are checked
	// as ids, not as references (docs/state-format.md).
	if m.CapturedBy != "" && !isID(m.CapturedBy) {
		v.add(diag.CodeStateValue, w.at("captured_by"), "want a gang id (letters, digits, _ and -), got %q", m.CapturedBy)
	}
	for i, g := range m.Enmities {
		if !isID(g) {
			v.add(diag.CodeStateValue, w.at(fmt.Sprintf("enmities[%d]", i)), "want a gang id (letters, digits, _ and -), got %q", g)
		}
	}
	v.position(w, m.X, m.Y)
	if !finite(m.Base) || m.Base <= 0 || m.Base > maxBase {
		v.add(diag.CodeStateValue, w.at("base"), "want a base diameter in millimetres, more than 0 and at most %d, got %v", maxBase, m.Base)
	}
	if m.Aboard != "" {
		v.aboard(w, m, g)
	}
	for i, wp := range m.Weapons {
		v.weapon(where{g: w.g, m: w.m, list: "weapons", i: i}, wp)
	}
	for i, a := range m.Armour {
		aw := where{g: w.g, m: w.m, list: "armour", i: i}
		if a == nil {
			v.add(diag.CodeStateType, aw.at(""), "want armour, got null")
		} else if a.Save < 0 || a.Save > maxTarget {
			v.target(aw, "save", a.Save)
		}
	}
}

// status checks a model's kind, status and secondary status against the
// vocabulary.
func (v *validator) status(w where, m *Model) {
	k := v.voc.Kind(m.Kind)
	if k == nil {
		v.add(diag.CodeStateValue, w.at("kind"), "want %s, got %q", orList(v.voc.KindIDs()), m.Kind)
		return
	}
	s := k.Status(m.Status)
	if s == nil {
		v.add(diag.CodeStateValue, w.at("status"), "a %s's status is %s, got %q", m.Kind, orList(k.StatusIDs()), m.Status)
		return
	}
	if slices.Contains(s.Secondaries, m.Secondary) || len(s.Secondaries) == 0 && m.Secondary == "" {
		return
	}
	switch {
	case len(s.Secondaries) == 0:
		v.add(diag.CodeStateValue, w.at("secondary"), "a %s that is %s has no secondary status, got %q", m.Kind, statusWord(m.Status), m.Secondary)
	case m.Secondary == "":
		v.add(diag.CodeStateValue, w.at("secondary"), "a %s that is %s needs a secondary status: %s", m.Kind, statusWord(m.Status), orList(s.Secondaries))
	default:
		v.add(diag.CodeStateValue, w.at("secondary"), "a %s that is %s is %s, got %q", m.Kind, statusWord(m.Status), orList(s.Secondaries), m.Secondary)
	}
}

// aboard checks what a model rides in: another model, and with a
// vocabulary, one of its own gang of a kind that carries the model's kind.
func (v *validator) aboard(w where, m *Model, g *Gang) {
	known := v.voc.Kind(m.Kind) != nil // with no vocabulary, never
	carriers := v.voc.Carriers(m.Kind)
	switch {
	case known && len(carriers) == 0:
		v.add(diag.CodeStateReference, w.at("aboard"), "a %s cannot be aboard another", m.Kind)
		return
	case m.Aboard == m.ID:
		v.add(diag.CodeStateReference, w.at("aboard"), "a model cannot be aboard itself")
		return
	}
	if o, ok := v.models[m.Aboard]; ok {
		switch {
		case !known:
		case o.g != g:
			v.add(diag.CodeStateReference, w.at("aboard"), "%q belongs to gang %q; %s ride only their own gang's %s", m.Aboard, o.g.ID, plural(m.Kind), orList(plurals(carriers)))
		case !slices.Contains(carriers, o.m.Kind):
			v.add(diag.CodeStateReference, w.at("aboard"), "%q is a %s, not a %s", m.Aboard, o.m.Kind, orList(carriers))
		}
		return
	}
	if !known {
		v.add(diag.CodeStateReference, w.at("aboard"), "%s", diag.Suggest(fmt.Sprintf("no model has the id %q", m.Aboard), m.Aboard, v.modelIDs()))
		return
	}
	var ids []string
	for _, o := range g.Models {
		if o != nil && slices.Contains(carriers, o.Kind) {
			ids = append(ids, o.ID)
		}
	}
	v.add(diag.CodeStateReference, w.at("aboard"), "%s", diag.Suggest(fmt.Sprintf("gang %q has no %s with the id %q", g.ID, orList(carriers), m.Aboard), m.Aboard, ids))
}

func (v *validator) stats(w where, s *Stats) {
	rv := reflect.ValueOf(s).Elem()
	for i := range statsSchema.fields {
		f := &statsSchema.fields[i]
		if f.kind != kindInt {
			continue
		}
		x := int(rv.Field(f.index).Int())
		if f.format == formatTarget {
			if x < 0 || x > maxTarget {
				v.target(w, "stats."+f.name, x)
			}
		} else if x < 0 || x > maxStat {
			v.add(diag.CodeStateValue, w.at("stats."+f.name), "want 0 to %d, got %d", maxStat, x)
		}
	}
}

// target reports a target number out of bounds: they are 0 (none) or 1+
// to 12+.
func (v *validator) target(w where, field string, x int) {
	v.add(diag.CodeStateValue, w.at(field), "want a target number from 1+ to %d+ (or 0 for none), got %d", maxTarget, x)
}

func (v *validator) weapon(w where, wp *Weapon) {
	if wp == nil {
		v.add(diag.CodeStateType, w.at(""), "want a weapon, got null")
		return
	}
	if wp.NoProfile && (wp.RangeShort != 0 || wp.RangeLong != 0 || wp.AccShort != 0 || wp.AccLong != 0 || wp.S != 0 || wp.UserStrength ||
		wp.AP != 0 || wp.D != 0 || wp.NoDamage || wp.Am != 0 || len(wp.Traits) > 0) {
		v.add(diag.CodeStateValue, w.at("no_profile"), "no_profile says the profile is unknown, but one is given: remove no_profile (or the profile)")
	}
	if wp.RangeShort < 0 || wp.RangeShort > maxRange {
		v.add(diag.CodeStateValue, w.at("range_short"), "want a range from 0 to %d inches, got %d", maxRange, wp.RangeShort)
	}
	if wp.RangeLong < 0 || wp.RangeLong > maxRange {
		v.add(diag.CodeStateValue, w.at("range_long"), "want a range from 0 to %d inches, got %d", maxRange, wp.RangeLong)
	}
	if wp.AccShort < -maxAcc || wp.AccShort > maxAcc {
		v.add(diag.CodeStateValue, w.at("acc_short"), "want an accuracy modifier from -%d to +%d, got %d", maxAcc, maxAcc, wp.AccShort)
	}
	if wp.AccLong < -maxAcc || wp.AccLong > maxAcc {
		v.add(diag.CodeStateValue, w.at("acc_long"), "want an accuracy modifier from -%d to +%d, got %d", maxAcc, maxAcc, wp.AccLong)
	}
	if wp.UserStrength {
		if wp.S < -maxStat/2 || wp.S > maxStat/2 {
			v.add(diag.CodeStateValue, w.at("s"), "want a Strength bonus from S-%d to S+%d, got %d", maxStat/2, maxStat/2, wp.S)
		}
	} else if wp.S < 0 || wp.S > maxStat {
		v.add(diag.CodeStateValue, w.at("s"), "want a Strength from 0 to %d, got %d", maxStat, wp.S)
	}
	if wp.AP > 0 || wp.AP < -maxAP {
		v.add(diag.CodeStateValue, w.at("ap"), "want 0 or a negative AP down to -%d, got %d", maxAP, wp.AP)
	}
	switch {
	case wp.NoDamage && wp.D != 0:
		v.add(diag.CodeStateValue, w.at("d"), "a weapon with no Damage (no_damage, written \"-\") has d 0, got %d", wp.D)
	case wp.D < 0 || wp.D > maxDamage:
		v.add(diag.CodeStateValue, w.at("d"), "want a Damage from 0 to %d, got %d", maxDamage, wp.D)
	}
	if wp.Am < 0 || wp.Am > maxTarget {
		v.target(w, "am", wp.Am)
	}
}

func (v *validator) position(w where, x, y float64) {
	if !finite(x) || math.Abs(x) > maxPosition {
		v.add(diag.CodeStateValue, w.at("x"), "want a position in inches, got %v", x)
	}
	if !finite(y) || math.Abs(y) > maxPosition {
		v.add(diag.CodeStateValue, w.at("y"), "want a position in inches, got %v", y)
	}
}

// modelRef is a model, its gang and where it is.
type modelRef struct {
	w where
	m *Model
	g *Gang
}

// where is a place in a state, turned into a path only for a problem:
// gangs[g].models[m].list[i] (g, m -1 when not in a gang or model).
type where struct {
	g, m int
	list string
	i    int
}

func (w where) at(field string) string {
	var b strings.Builder
	if w.g >= 0 {
		fmt.Fprintf(&b, "gangs[%d]", w.g)
		if w.m >= 0 {
			fmt.Fprintf(&b, ".models[%d]", w.m)
		}
	}
	if w.list != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%s[%d]", w.list, w.i)
	}
	if field != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(field)
	}
	return b.String()
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

// plurals writes kinds' ids as plurals.
func plurals(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = plural(id)
	}
	return out
}

// suggestKey is msg with a did-you-mean of the closest key of m.
func suggestKey(msg, name string, m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return diag.Suggest(msg, name, keys)
}

// isID reports whether s is written as an id: letters, digits, _ and -.
func isID(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
