//go:build race

package odds_test

// raceEnabled: the race detector is on, under which allocation counts
// are not the run's own.
const raceEnabled = true
