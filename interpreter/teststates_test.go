package interpreter

import (
	"reflect"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

const cachedStateYAML = `
battle:
  round: 2
gangs:
  - id: goliaths
    name: Goliaths
    models:
      - id: gunner
        name: Gunner
        kind: fighter
        status: standing
        base: 25
        x: 0
        y: 0
        skills: [nerves_of_steel]
`

// A cached state is decoded once and handed out as copies: what one test
// does to its state is never seen by the next.
func TestStateCacheHandsOutCopies(t *testing.T) {
	var cache StateCache
	fresh, err := state.DecodeWith("s.yaml", []byte(cachedStateYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := cache.decode("s.yaml", []byte(cachedStateYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Battle.Round = 5
	first.Gangs[0].Models[0].Skills[0] = "changed"
	first.Gangs[0].Models[0].Skills = append(first.Gangs[0].Models[0].Skills, "more")
	second, err := cache.decode("s.yaml", []byte(cachedStateYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, fresh.Clone()) {
		t.Errorf("the second copy differs from a fresh decode: %+v", second.Gangs[0].Models[0])
	}
	if second.Gangs[0].Models[0].Gang != second.Gangs[0] || second.Gangs[0].State != second {
		t.Error("the copy's back-pointers are not into the copy")
	}
	if len(cache.states) != 1 {
		t.Errorf("%d states cached, want 1", len(cache.states))
	}
	// Other bytes under the same name are another state.
	if _, err := cache.decode("s.yaml", []byte(cachedStateYAML+"\n# edited\n"), nil); err != nil {
		t.Fatal(err)
	}
	if len(cache.states) != 2 {
		t.Errorf("%d states cached, want 2", len(cache.states))
	}
	// A state that does not decode fails every time, and is not kept.
	for range 2 {
		if _, err := cache.decode("bad.yaml", []byte("gangs: 3\n"), nil); err == nil {
			t.Fatal("a bad state decoded")
		}
	}
	if len(cache.states) != 2 {
		t.Errorf("%d states cached after errors, want 2", len(cache.states))
	}
}
