package dsl

import "flag"

// update rewrites golden files: go test ./dsl -update.
var update = flag.Bool("update", false, "rewrite golden files")
