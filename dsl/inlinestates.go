package dsl

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/munda-rules/munda/stdlib/state"
)

// This file remembers which test blocks' inline states are valid, across
// the checks of one process. Every check reads each inline state to
// report one that does not decode at its place; decoding YAML was a fifth
// of re-checking core-2023 after an edit (the language server) and of
// every selection a test run loads. Whether a state decodes depends on
// its text and on the vocabulary it is checked against (the rules' kinds,
// statuses and declared ids), nothing else: both are the key. Only valid
// states are kept; an invalid one is decoded again for its problems.

// maxValidStates and maxValidStateBytes bound what is kept, far above
// the shipped rules' inline states.
const (
	maxValidStates     = 4096
	maxValidStateBytes = 8 << 20
)

var validStates = struct {
	sync.Mutex
	keys  map[validStateKey]bool
	bytes int
}{keys: map[validStateKey]bool{}}

type validStateKey struct {
	text       string
	vocabulary [sha256.Size]byte
}

// checkInlineState decodes an inline state against the rules' vocabulary,
// unless the same text was found valid against the same vocabulary
// before; it returns the decoding error.
func (c *checker) checkInlineState(text string) error {
	if !c.vocabularyKeyed {
		c.vocabularyKey = vocabularyKey(c.idx.Vocabulary)
		c.vocabularyKeyed = true
	}
	key := validStateKey{text: text, vocabulary: c.vocabularyKey}
	validStates.Lock()
	valid := validStates.keys[key]
	validStates.Unlock()
	if valid {
		return nil
	}
	if _, err := state.DecodeWith("state", []byte(text), c.idx.Vocabulary); err != nil {
		return err
	}
	validStates.Lock()
	defer validStates.Unlock()
	if len(validStates.keys) >= maxValidStates || validStates.bytes+len(text) > maxValidStateBytes {
		validStates.keys, validStates.bytes = map[validStateKey]bool{}, 0 // a crude bound: start again
	}
	validStates.keys[key] = true
	validStates.bytes += len(text)
	return nil
}

// vocabularyKey is a digest of everything in a vocabulary: fmt prints
// its fields in order and its map sorted by key.
func vocabularyKey(v *state.Vocabulary) [sha256.Size]byte {
	if v == nil {
		return sha256.Sum256([]byte("nil"))
	}
	return sha256.Sum256(fmt.Appendf(nil, "%#v", *v))
}
