package dsl

// This file checks event declarations, which `signal` raises and `on` effects answer.

import (
	"github.com/munda-rules/munda/dsl/syntax"
)

func (c *checker) checkEvents() {
	for _, d := range c.all {
		ev, ok := d.(*syntax.Event)
		if !ok {
			continue
		}
		c.eventParams[ev] = c.params(ev.Params, c.rootScope())
		if c.lookup(nsCore, ev.ID.Name) == ev {
			c.idx.Events[ev.ID.Name] = ev
		}
	}
}
