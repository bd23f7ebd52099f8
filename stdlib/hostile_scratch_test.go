package stdlib

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestHostileScratch(t *testing.T) {
	for name, in := range map[string]string{
		"flowmap": "{" + strings.Repeat("a,", MaxStateNodes-2) + "a}",
		"flowseq": "[" + strings.Repeat("0,", MaxStateNodes-2) + "0]",
		"nested":  strings.Repeat("[{a}],", 330000),
		"bigstr":  "battle: {scenario: \"" + strings.Repeat("x", MaxStateBytes-100) + "\"}\ngangs: []\n",
		"lines":   strings.Repeat("a\n", MaxStateBytes/2-10),
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Decode("x", []byte(in))
		runtime.ReadMemStats(&after)
		msg := ""
		if err != nil {
			msg = strings.SplitN(err.Error(), "\n", 2)[0]
		}
		t.Logf("%s: %d bytes, %v, %d MiB allocated; %s", name, len(in), time.Since(start), (after.TotalAlloc-before.TotalAlloc)>>20, msg)
	}
}
