package state

// State is one battle in progress: the battle itself and the gangs in it.
//
// In state files (see Decode, Encode and docs/state-format.md) a field's
// name is its `json` tag; `state` tags say which fields are required and
// which numbers are written as on a card ("4+", '5"', "S+1", "-").
type State struct {
	Battle Battle  `expr:"battle" json:"battle"`
	Gangs  []*Gang `expr:"gangs" json:"gangs" munda:"fixed"`

	// Effects, set by a run, answers for the effects in force (granted
	// features, effective values); nil reads the state as written.
	Effects Effective `expr:"-" json:"-"`
}

// Battle holds what belongs to the battle rather than to a gang.
type Battle struct {
	Round     int       `expr:"round" json:"round"`
	Phase     string    `expr:"phase" json:"phase,omitempty"`
	Priority  string    `expr:"priority" json:"priority,omitempty"` // id of the gang holding Priority
	Scenario  string    `expr:"scenario" json:"scenario,omitempty"`
	Rules     []string  `expr:"rules" json:"rules,omitempty"` // scenario rules in play, e.g. reinforcements, flooded_passage, badzone
	Markers   []*Marker `expr:"markers" json:"markers,omitempty"`
	Ended     bool      `expr:"ended" json:"ended,omitempty"`
	EndReason string    `expr:"end_reason" json:"end_reason,omitempty"`
	Winner    string    `expr:"winner" json:"winner,omitempty"`       // gang id; empty while undecided or for a draw
	Territory string    `expr:"territory" json:"territory,omitempty"` // the Territory staked on the battle (campaign play)

	// Recorded holds answers to choices made at the table, by key, for a
	// rule's `choose … recorded KEY` to use instead of asking: strings,
	// numbers, true/false, lists and maps of them.
	Recorded map[string]any `expr:"recorded" json:"recorded,omitempty"`

	// Durations is what effects keep until a period of the rules ends: ids
	// added `until end of PERIOD`, and effects used `once per PERIOD`. It
	// is in the state so that a battle can be run step by step across
	// several runs.
	Durations []*Duration `expr:"durations" json:"durations,omitempty"`
}

// Duration is one thing that lasts until a period ends (an event declared
// `ends PERIOD` is signalled): an id a rule added to a list (Item, Field
// and its holder), or an effect that applied `once per PERIOD` (Used).
// The holder is a model (Model), else a gang (Gang), else the battle.
// An entry held by a model ends only when the ending event names that
// model, if the event has a model parameter.
type Duration struct {
	Period string `expr:"period" json:"period" state:"required"`
	Model  string `expr:"model" json:"model,omitempty"`
	Gang   string `expr:"gang" json:"gang,omitempty"`
	Item   string `expr:"item" json:"item,omitempty"`   // the id added
	Field  string `expr:"field" json:"field,omitempty"` // the list it was added to: conditions, rules…
	Used   string `expr:"used" json:"used,omitempty"`   // the effect used: "skill x: modify p.r"
}

// Marker is something placed on the battlefield: a smoke cloud, a Graviton
// Pulse blast, a pool of toxic sludge, a door, a Loot casket. What its
// kind means is the rules' to say. Rules place markers (`set
// battle.markers = concat(battle.markers, [{id: …, kind: …, x: …, y: …}])`)
// and remove them; one that lasts while its placer keeps it (a Wall of
// Flame while maintained) names that model as its Owner.
type Marker struct {
	ID     string  `expr:"id" json:"id"`
	Kind   string  `expr:"kind" json:"kind"`
	X      float64 `expr:"x" json:"x"`
	Y      float64 `expr:"y" json:"y"`
	Radius float64 `expr:"radius" json:"radius,omitempty"` // inches
	Owner  string  `expr:"owner" json:"owner,omitempty"`   // id of the model that placed it, if it belongs to one
}

// Gang is one side of the battle.
type Gang struct {
	ID              string   `expr:"id" json:"id" state:"required"`
	Name            string   `expr:"name" json:"name"`
	House           string   `expr:"house" json:"house,omitempty"`
	StartingCrew    int      `expr:"starting_crew" json:"starting_crew"`     // models present at the start of the battle
	EligibleModels  int      `expr:"eligible_models" json:"eligible_models"` // models eligible to take part (reinforcement scenarios)
	Bottled         bool     `expr:"bottled" json:"bottled"`
	BottledByChoice bool     `expr:"bottled_by_choice" json:"bottled_by_choice,omitempty"` // failed a Bottle check voluntarily
	Fleeing         bool     `expr:"fleeing" json:"fleeing,omitempty"`                     // declared that it flees the battlefield
	Lost            bool     `expr:"lost" json:"lost,omitempty"`                           // has lost the match
	Reputation      int      `expr:"reputation" json:"reputation,omitempty"`
	Credits         int      `expr:"credits" json:"credits,omitempty"`
	Stash           []string `expr:"stash" json:"stash,omitempty"`
	Outlaw          bool     `expr:"outlaw" json:"outlaw,omitempty"`           // an Outlaw gang; otherwise Law-abiding
	Territories     []string `expr:"territories" json:"territories,omitempty"` // Territories it controls
	Rating          int      `expr:"rating" json:"rating,omitempty"`           // Gang Rating, as last worked out
	Models          []*Model `expr:"models" json:"models" munda:"fixed"`

	State *State `expr:"-" json:"-"` // back-pointer, set when the state is loaded
}

// Model is a fighter or a vehicle (a vehicle's characteristics include its
// crew's).
type Model struct {
	ID       string `expr:"id" json:"id" state:"required"`
	Name     string `expr:"name" json:"name"`
	Kind     string `expr:"kind" json:"kind" state:"required"`  // fighter or vehicle
	Category string `expr:"category" json:"category,omitempty"` // leader, champion, ganger, juve, prospect, specialist, brute, crew, …
	Type     string `expr:"type" json:"type,omitempty"`         // e.g. "Orlock Gunner"
	Group    string `expr:"group" json:"group,omitempty"`       // alliance or sub-group, for rules about "the same group"
	Cost     int    `expr:"cost" json:"cost,omitempty"`         // credits value
	Joined   bool   `expr:"joined" json:"joined,omitempty"`     // joined after the battle began (not part of the starting crew)
	Absent   bool   `expr:"absent" json:"absent,omitempty"`     // on the roster but not in this battle (In Recovery, Captive, not picked)

	Stats Stats `expr:"stats" json:"stats"`

	Status     string   `expr:"status" json:"status" state:"required"` // standing, prone, out_of_action; mobile, stationary
	Secondary  string   `expr:"secondary" json:"secondary,omitempty"`  // active, engaged, pinned, seriously_injured; stalled, wrecked
	Conditions []string `expr:"conditions" json:"conditions,omitempty" munda:"condition"`
	Fled       bool     `expr:"fled" json:"fled,omitempty"` // has fled the battlefield

	WoundsLost     int `expr:"wounds_lost" json:"wounds_lost,omitempty"`
	FleshWounds    int `expr:"flesh_wounds" json:"flesh_wounds,omitempty"` // for a vehicle: its driver's
	HullPointsLost int `expr:"hull_points_lost" json:"hull_points_lost,omitempty"`

	Skills  []string  `expr:"skills" json:"skills,omitempty" munda:"skill"`
	Powers  []string  `expr:"powers" json:"powers,omitempty" munda:"power"` // wyrd powers
	Rules   []string  `expr:"rules" json:"rules,omitempty"`                 // special rules, e.g. gang_hierarchy_leader
	Weapons []*Weapon `expr:"weapons" json:"weapons,omitempty"`             // rules may arm a model (interpreter/arms.go)
	Armour  []*Armour `expr:"armour" json:"armour,omitempty" munda:"fixed"`
	Wargear []string  `expr:"wargear" json:"wargear,omitempty"`
	Terrain []string  `expr:"terrain" json:"terrain,omitempty"`           // what the model stands in: toxic_sludge, flood_water
	Aboard  string    `expr:"aboard" json:"aboard,omitempty"`             // id of the vehicle carrying this fighter
	Marks   []string  `expr:"marks" json:"marks,omitempty" odds:"detail"` // bookkeeping for rules, e.g. assisted_this_end_phase

	X    float64 `expr:"x" json:"x"`
	Y    float64 `expr:"y" json:"y"`
	Base float64 `expr:"base" json:"base" state:"required"` // base diameter in millimetres
	// Facing is the direction the model faces, in degrees (0 along +x,
	// 90 along +y); nil when the state does not say (see has_facing).
	Facing *float64 `expr:"facing" json:"facing,omitempty"`

	// Campaign records.
	XP              int      `expr:"xp" json:"xp,omitempty" odds:"detail"`
	Kills           int      `expr:"kills" json:"kills,omitempty" odds:"detail"` // enemies taken Out of Action, as a roster counts them
	Advancements    int      `expr:"advancements" json:"advancements,omitempty" odds:"detail"`
	Improvements    []string `expr:"improvements" json:"improvements,omitempty" odds:"detail"` // a characteristic id for each Advancement that improved it
	PrimarySets     []string `expr:"primary_sets" json:"primary_sets,omitempty"`               // Skill Sets with Primary access
	SecondarySets   []string `expr:"secondary_sets" json:"secondary_sets,omitempty"`           // Skill Sets with Secondary access
	LastingInjuries []string `expr:"lasting_injuries" json:"lasting_injuries,omitempty" munda:"row"`
	Enmities        []string `expr:"enmities" json:"enmities,omitempty"` // ids of gangs this fighter bears a grudge against (Bitter Enmity)
	InRecovery      bool     `expr:"in_recovery" json:"in_recovery,omitempty"`
	Convalescence   bool     `expr:"convalescence" json:"convalescence,omitempty"`
	Captured        bool     `expr:"captured" json:"captured,omitempty"`
	CapturedBy      string   `expr:"captured_by" json:"captured_by,omitempty"`
	Dead            bool     `expr:"dead" json:"dead,omitempty"`
	SuccumbTest     bool     `expr:"succumb_test" json:"succumb_test,omitempty"` // tests for succumbing to injuries in the Wrap-up
	InRepair        bool     `expr:"in_repair" json:"in_repair,omitempty"`
	LastingDamage   []string `expr:"lasting_damage" json:"lasting_damage,omitempty" munda:"row"`
	Removed         string   `expr:"removed" json:"removed,omitempty"` // why it left the roster (dead, retired, sold, …); empty while on it

	Gang *Gang `expr:"gang" json:"-"` // back-pointer, set when the state is loaded

	friends []*Model `json:"-" expr:"-"` // cache of Friends()
}

// Stats are a model's characteristics. Target numbers (WS, BS, I, Ld, Cl,
// Wil, Int, Hnd, Sv) are stored as the number before the "+".
type Stats struct {
	M   int `expr:"m" json:"m,omitempty" state:"inches"`
	WS  int `expr:"ws" json:"ws,omitempty" state:"target"`
	BS  int `expr:"bs" json:"bs,omitempty" state:"target"`
	S   int `expr:"s" json:"s,omitempty"`
	T   int `expr:"t" json:"t,omitempty"`
	W   int `expr:"w" json:"w,omitempty"`
	I   int `expr:"i" json:"i,omitempty" state:"target"`
	A   int `expr:"a" json:"a,omitempty"`
	Ld  int `expr:"ld" json:"ld,omitempty" state:"target"`
	Cl  int `expr:"cl" json:"cl,omitempty" state:"target"`
	Wil int `expr:"wil" json:"wil,omitempty" state:"target"`
	Int int `expr:"int" json:"int,omitempty" state:"target"`

	Front int `expr:"front" json:"front,omitempty"`
	Side  int `expr:"side" json:"side,omitempty"`
	Rear  int `expr:"rear" json:"rear,omitempty"`
	HP    int `expr:"hp" json:"hp,omitempty"`
	Hnd   int `expr:"hnd" json:"hnd,omitempty" state:"target"`
	Sv    int `expr:"sv" json:"sv,omitempty" state:"target"`
}

// Weapon is a weapon profile as carried by a model.
type Weapon struct {
	ID           string   `expr:"id" json:"id"`
	Name         string   `expr:"name" json:"name"`
	NoProfile    bool     `expr:"no_profile" json:"no_profile,omitempty"` // its profile is unknown (an import found it in no catalogue): rules that read it stop
	RangeShort   int      `expr:"range_short" json:"range_short,omitempty" state:"inches"`
	RangeLong    int      `expr:"range_long" json:"range_long,omitempty" state:"inches"`
	AccShort     int      `expr:"acc_short" json:"acc_short,omitempty" state:"modifier"`
	AccLong      int      `expr:"acc_long" json:"acc_long,omitempty" state:"modifier"`
	S            int      `expr:"s" json:"s" state:"strength=user_strength"`
	UserStrength bool     `expr:"user_strength" json:"user_strength,omitempty"` // "S+1": s is added to the user's Strength
	AP           int      `expr:"ap" json:"ap,omitempty" state:"modifier"`
	D            int      `expr:"d" json:"d" state:"damage=no_damage"`
	NoDamage     bool     `expr:"no_damage" json:"no_damage,omitempty"` // Damage '-'
	Am           int      `expr:"am" json:"am,omitempty" state:"target"`
	Traits       []string `expr:"traits" json:"traits,omitempty" munda:"trait"`
	Damaged      bool     `expr:"damaged" json:"damaged,omitempty"` // destroyed for this battle
}

// Armour is one item that grants a save.
type Armour struct {
	ID    string `expr:"id" json:"id"`
	Name  string `expr:"name" json:"name"`
	Save  int    `expr:"save" json:"save" state:"target"` // the N of N+
	Field bool   `expr:"field" json:"field,omitempty"`    // field armour: positive modifiers never apply
}
