package interpreter_test

import (
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
