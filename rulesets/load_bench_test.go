package rulesets_test

import (
	"syscall"
	"testing"

	"github.com/munda-rules/munda/rulesets"
)

// benchmarkLoad loads and checks each selection in turn, once per
// iteration, in a process that has loaded them all before (the parsed
// files and the compiled expressions it keeps are warm): what a test run,
// `munda test` or the language server pays for every selection after the
// first. It reports CPU time per load, which on a loaded machine says
// more than wall time.
func benchmarkLoad(b *testing.B, sels []rulesets.Selection) {
	load := func() {
		for _, sel := range sels {
			if _, diags := rulesets.Load(sel); diags.HasErrors() {
				b.Fatal(diags[:1])
			}
		}
	}
	load()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		load()
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N*len(sels))/1e6, "cpu-ms/load")
}

// BenchmarkLoadAgain checks the default ruleset with its tests again.
func BenchmarkLoadAgain(b *testing.B) { benchmarkLoad(b, []rulesets.Selection{{}}) }

// BenchmarkLoadSelections checks the default ruleset under each shipped
// house pack and the legacy ruleset, one after the other: selections that
// share most of their files but no checked result.
func BenchmarkLoadSelections(b *testing.B) {
	benchmarkLoad(b, []rulesets.Selection{
		{Houses: []string{"aa"}},
		{Houses: []string{"n17"}},
		{Houses: []string{"necrodamus"}},
		{Base: "legacy-2017"},
	})
}

// processCPU is the CPU time the process has used, user and system, in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
