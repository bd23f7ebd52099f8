//go:build !race

package odds_test

// raceEnabled: the race detector is off (see race_test.go).
const raceEnabled = false
