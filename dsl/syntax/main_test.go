package syntax

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage at a slower pace than Go's default: the
// formatter and parser tests parse the shipped rules thousands of times
// over, and at the default pace collecting is much of their time.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}
