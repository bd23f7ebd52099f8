//go:build race

package interpreter_test

// raceEnabled: the race detector is on, under which sync.Pool drops
// some of what is put back (allocation counts are then not the run's).
const raceEnabled = true
