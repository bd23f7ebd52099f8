//go:build race

package lsp

// raceEnabled: the race detector slows the server down several times.
const raceEnabled = true
