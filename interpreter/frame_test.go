package interpreter

import (
	"reflect"
	"testing"

	"github.com/munda-rules/munda/dsl"
)

// TestFrame checks the frame's API against a map, which is what frames
// were: set, unset, get, each, Env and reset.
func TestFrame(t *testing.T) {
	f := framePool.Get().(*frame)
	f.slots = dsl.NewSlots()
	f.fillGlobals(nil, nil)
	f.set("x", 1)
	f.set("frame_test_name_never_seen", "a")
	f.set("x", 2)
	f.unset("frame_test_name_never_seen")
	f.set("y", nil)
	f.natural["x"] = 4
	want := map[string]any{"x": 2, "y": nil}
	got := f.Env()
	for _, g := range []string{"state", "battle", "gangs", "natural", "rolled"} {
		if _, ok := got[g]; !ok {
			t.Errorf("the frame has no %s", g)
		}
		delete(got, g)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Env() = %v, want %v", got, want)
	}
	if _, ok := f.get("frame_test_name_never_seen"); ok {
		t.Error("an unset name is still held")
	}
	if v, ok := f.get("y"); !ok || v != nil {
		t.Errorf("a name set to nil: get = %v, %v; want nil, true", v, ok)
	}
	if _, ok := f.get("frame_test_no_frame_ever_held_this"); ok {
		t.Error("a name no frame set is held")
	}
	f.reset()
	if f.size() != 0 || len(f.natural) != 0 {
		t.Errorf("after reset the frame holds %v", f.Env())
	}
	f.set("frame_test_name_never_seen", true)
	if f.size() != 1 {
		t.Errorf("set after unset and reset: %d names, want 1", f.size())
	}
}
