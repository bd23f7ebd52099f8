package interpreter_test

import (
	"syscall"
	"testing"

	"github.com/munda-rules/munda/dsl"
)

// The End Phase and the activation with expressions run by expr's VM
// only, as before dsl/fastexpr: beside BenchmarkEndPhaseInterpreted and
// BenchmarkActivationInterpreted (closures) in the same run, this is the
// gain of the closures.

func BenchmarkEndPhaseVMOnly(b *testing.B) {
	dsl.SetVMOnly(true)
	defer dsl.SetVMOnly(false)
	BenchmarkEndPhaseInterpreted(b)
}

func BenchmarkActivationVMOnly(b *testing.B) {
	dsl.SetVMOnly(true)
	defer dsl.SetVMOnly(false)
	BenchmarkActivationInterpreted(b)
}

// BenchmarkCPU runs the End Phase and activation benchmarks, closures,
// VM only and native, and Monte Carlo and its baseline, one after another, and reports beside the wall
// time the process's CPU time per operation (cpu-ns/op): on a machine
// shared with other work, wall time swings twofold from run to run, CPU
// time much less.
func BenchmarkCPU(b *testing.B) {
	coreProgram(b) // loaded before any timing
	for _, bench := range []struct {
		name string
		run  func(*testing.B)
	}{
		{"EndPhaseInterpreted", BenchmarkEndPhaseInterpreted},
		{"EndPhaseVMOnly", BenchmarkEndPhaseVMOnly},
		{"EndPhaseNative", BenchmarkEndPhaseNative},
		{"ActivationInterpreted", BenchmarkActivationInterpreted},
		{"ActivationVMOnly", BenchmarkActivationVMOnly},
		{"ActivationNative", BenchmarkActivationNative},
		{"MonteCarlo", BenchmarkMonteCarlo},
		{"MonteCarloNative", BenchmarkMonteCarloNative},
	} {
		b.Run(bench.name, func(b *testing.B) {
			start := processCPU()
			bench.run(b)
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
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
