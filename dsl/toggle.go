package dsl

import "strings"

// Toggle is one item of a --house list: a house group, or one rule of
// it, switched on or off. It is read in one place, ParseToggle, for every
// verb and for stacks such as `core-2023+aa,-aa.single_lasting_injury`.
type Toggle struct {
	Off   bool   // written with a leading "-"
	House string // the house group's id, normalized ("aa")
	Rule  string // one rule's id, normalized; "" for the whole group
}

// ParseToggle reads "aa", "aa.single_lasting_injury" or
// "-aa.single-lasting-injury" (names as typed on a command line, with "-"
// for "_"). Blank text gives a Toggle with no House.
func ParseToggle(text string) Toggle {
	text = strings.TrimSpace(text)
	var t Toggle
	text, t.Off = strings.CutPrefix(text, "-")
	house, rule, _ := strings.Cut(NormalizeID(strings.TrimSpace(text)), ".")
	t.House, t.Rule = house, rule
	return t
}

// String is the toggle as written canonically: "-aa.single_lasting_injury".
func (t Toggle) String() string {
	s := t.House
	if t.Rule != "" {
		s += "." + t.Rule
	}
	if t.Off {
		s = "-" + s
	}
	return s
}
