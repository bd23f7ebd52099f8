package rulesets_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage at a slower pace than Go's default: these
// tests load the whole ruleset many times over and keep what they share,
// so the default pace spends a third of their time re-marking it.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}
