package odds

// ExactReplay is the first exact engine (a whole run per branch), the
// reference Exact is tested against.
var ExactReplay = exactReplay
