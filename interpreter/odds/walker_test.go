package odds

import (
	"strings"
	"testing"
)

func TestDescribeLongPath(t *testing.T) {
	w := &walker{}
	for range 20 {
		w.path = append(w.path, branch{pick: 1, n: 6, label: "lasting_injury"})
	}
	w.pos = len(w.path)
	got := w.describe()
	if n := strings.Count(got, "lasting_injury #2 of 6"); n != 8 {
		t.Errorf("%d decisions shown, want the first and last 4: %s", n, got)
	}
	if !strings.Contains(got, "… 12 more") {
		t.Errorf("no count of the rest: %s", got)
	}
	w.path, w.pos = w.path[:3], 3
	if got := w.describe(); strings.Count(got, "#2 of 6") != 3 || strings.Contains(got, "more") {
		t.Errorf("a short path in full: %s", got)
	}
}
