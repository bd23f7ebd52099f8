package odds

import "context"

// ExactReplay is the first exact engine (a whole run per branch), the
// reference Exact is tested against.
var ExactReplay = exactReplay

// ExactWith is Exact with workers workers, continuing configurations from
// snapshots or (snapshots false) by replaying their paths, and (runAgain)
// taking every configuration by running the paused run again.
func ExactWith(ctx context.Context, q Question, maxConfigs, workers int, snapshots, runAgain bool) (*Result, error) {
	return exact(ctx, q, maxConfigs, exactOptions{workers: workers, noSnapshots: !snapshots, runAgain: runAgain})
}
