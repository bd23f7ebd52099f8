package yaktribe

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A large export within the limits imports in reasonable time, warnings
// and all: 1,000 gangers of 100 unknown items and 100 unknown skills.
func TestImportLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	cfg := shippedConfig(t)
	items := strings.TrimSuffix(strings.Repeat(`{"name": "Odd thing", "qty": 1}, `, 100), ", ")
	skills := strings.TrimSuffix(strings.Repeat(`"Odd skill", `, 100), ", ")
	gangers := make([]string, MaxGangers)
	for i := range gangers {
		gangers[i] = ganger(strconv.Itoa(i), `"equipment": [`+items+`], "skills": [`+skills+`]`)
	}
	src := export(gangers...)
	if len(src) > MaxBytes {
		t.Fatalf("the export is %d bytes, over the limit", len(src))
	}
	start := time.Now()
	gang, diags := Import("big.json", []byte(src), cfg)
	if gang == nil || len(gang.Models) != MaxGangers {
		t.Fatalf("not imported: %v", diags[:min(3, len(diags))])
	}
	if len(diags) != MaxWarnings+1 || !strings.Contains(diags[MaxWarnings].Summary, "more warnings not shown") {
		t.Errorf("%d warnings, want %d and a count of the rest", len(diags), MaxWarnings+1)
	}
	t.Logf("%d bytes in %v", len(src), time.Since(start))
}
