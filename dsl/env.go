package dsl

import (
	"reflect"
	"unsafe"

	"github.com/munda-rules/munda/stdlib"
	"github.com/munda-rules/munda/stdlib/state"
)

// This file is the one place that says which names every expression sees,
// whatever declares it: the checker types them (globalScope), and the
// interpreter and lookups give them values (FillEnv into a map,
// FillGlobalSlots into a frame's slots: frameslots.go).

// The names every expression sees, besides the built-in functions and the
// rules' own functions.
const (
	GlobalState   = stdlib.StateVar // the whole battle state
	GlobalBattle  = "battle"        // state.battle
	GlobalGangs   = "gangs"         // state.gangs
	GlobalNatural = "natural"       // natural.ROLL: the unmodified total of a roll
	GlobalRolled  = "rolled"        // rolled.ROLL: each die of a roll
)

// globalScope holds what every expression sees, with its types.
func globalScope() *scope {
	s := newScope(nil)
	for _, g := range []*symbol{
		{name: GlobalState, typ: typeState},
		{name: GlobalBattle, typ: typeBattle},
		{name: GlobalGangs, typ: reflect.TypeOf([]*state.Gang(nil))},
		{name: GlobalNatural, typ: reflect.TypeOf(map[string]int(nil))},
		{name: GlobalRolled, typ: reflect.TypeOf(map[string][]int(nil))},
	} {
		g.kind, g.used = symGlobal, true
		s.define(g)
	}
	return s
}

// FillEnv puts the global names into env: the state (which may be nil)
// and its parts, and the frame's natural and rolled tables. gangs is
// st.Gangs as an interface value: a run fills thousands of frames, and
// boxing the slice each time would allocate each time.
func FillEnv(env map[string]any, st *state.State, gangs any, natural map[string]int, rolled map[string][]int) {
	env[GlobalState] = st
	if st != nil {
		env[GlobalBattle] = &st.Battle
		env[GlobalGangs] = gangs
	} else {
		env[GlobalBattle] = (*state.Battle)(nil)
		env[GlobalGangs] = []*state.Gang(nil)
	}
	env[GlobalNatural] = natural
	env[GlobalRolled] = rolled
}

// BoxGangs is gangs as an any (FillEnv's gangs), with prev's box where
// prev holds the very same list (its array, length and capacity): a box
// is never written once made, so sharing it shares the value. A run in a
// reused state buffer boxes the same gangs every time, and allocates
// nothing for them.
func BoxGangs(prev any, gangs []*state.Gang) any {
	if p, ok := prev.([]*state.Gang); ok && len(p) == len(gangs) && cap(p) == cap(gangs) && unsafe.SliceData(p) == unsafe.SliceData(gangs) {
		return prev
	}
	return gangs
}

// BaseEnv is the environment every expression starts from: the state and
// its parts, and empty natural/rolled tables.
func BaseEnv(st *state.State) map[string]any {
	env := make(map[string]any, 8)
	var gangs any
	if st != nil {
		gangs = st.Gangs
	}
	FillEnv(env, st, gangs, map[string]int{}, map[string][]int{})
	return env
}
