package slab

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// poison makes Rewind fill what it takes back with garbage rather than
// zeros (Poison).
var poison atomic.Bool

// Poison, for tests, makes every Rewind fill the arrays it takes back
// with garbage (a number no rule makes, a string of its own, a list of
// them) rather than zeros, until they are cut again: a slice or box kept
// past a Rewind, which is a bug, then reads that garbage, and a test
// comparing outcomes with and without rewinding fails, where zeros would
// often pass unseen. It returns a function that turns it off again.
func Poison() (off func()) {
	poison.Store(true)
	return func() { poison.Store(false) }
}

// poisonString is the text of a poisoned string.
const poisonString = "\x00slab: rewound memory read"

// fill fills every item of the arrays with T's garbage.
func fill[T any](arrays [][]T) {
	if len(arrays) == 0 {
		return
	}
	var g T
	garbage(reflect.ValueOf(&g).Elem())
	for _, a := range arrays {
		a = a[:cap(a)]
		for i := range a {
			a[i] = g
		}
	}
}

// garbage sets v, a settable value, to garbage of its type: pointers,
// maps, channels and functions stay nil (a read of them fails at once).
func garbage(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-0x5a5a5a5a5a5a5a5a) // truncated to the kind's size
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(0xa5a5a5a5a5a5a5a5)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(-5.5e55)
	case reflect.String:
		v.SetString(poisonString)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		garbage(s.Index(0))
		v.Set(s)
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(poisonString))
		}
	case reflect.Array:
		for i := range v.Len() {
			garbage(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			// unexported fields too: set through their address
			garbage(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		}
	}
}
