package lsp

import "flag"

// update makes the golden tests write what they got over the files they
// compare with, instead of comparing: go test ./dsl/lsp -update, then review
// the diff. Every package with golden files takes the same flag.
var update = flag.Bool("update", false, "rewrite golden files with the output the tests got, instead of comparing")
