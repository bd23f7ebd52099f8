//go:build !race

package interpreter_test

// raceEnabled: the race detector is off (see race_test.go).
const raceEnabled = false
