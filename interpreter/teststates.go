package interpreter

import (
	"sync"

	"github.com/munda-rules/munda/stdlib/state"
)

// StateCache keeps the states test blocks decode, so that the many tests
// sharing a state file (states/hits.yaml) read it once: decoding YAML
// costs far more than a copy. Each test gets its own deep copy
// (state.Clone), never the cached state itself, so no test sees another's
// changes. A state is keyed by its name, its bytes and the vocabulary it
// was checked against: the same three always decode to the same state.
// The zero StateCache is ready to use and safe for concurrent use.
type StateCache struct {
	mu     sync.Mutex
	states map[stateKey]*state.State
}

type stateKey struct {
	name, data string
	voc        *state.Vocabulary
}

// decode is state.DecodeWith through the cache. Errors are not kept: a
// state that does not decode fails its test at once.
func (c *StateCache) decode(name string, data []byte, voc *state.Vocabulary) (*state.State, error) {
	if c == nil {
		return state.DecodeWith(name, data, voc)
	}
	key := stateKey{name, string(data), voc}
	c.mu.Lock()
	st, ok := c.states[key]
	c.mu.Unlock()
	if !ok {
		var err error
		if st, err = state.DecodeWith(name, data, voc); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.states == nil {
			c.states = map[stateKey]*state.State{}
		}
		c.states[key] = st
		c.mu.Unlock()
	}
	return st.Clone(), nil
}
