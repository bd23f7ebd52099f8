package dsl

import (
	"fmt"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// generatedPack writes a rule file of n declarations: a third tables, a
// third procedures with conditions, a third skills whose effects modify
// those procedures' rolls.
func generatedPack(n int) []byte {
	var b strings.Builder
	b.WriteString("dice d6 \"D6\" {\n  faces 1, 2, 3, 4, 5, 6\n}\n\n")
	b.WriteString("condition broken \"Broken\" {}\n\n")
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `table table_%d(fighter: model) "Table %d" {
  source "generated"
  roll d6
  1-2 low_%d "Low" {
    set fighter.xp = fighter.xp + 1
  }
  3-5 mid_%d "Middle" {
    add broken to fighter.conditions
  }
  6 high_%d "High" {
    emit "{fighter.name} rolled high"
  }
}

`, i, i, i, i, i)
		case 1:
			fmt.Fprintf(&b, `procedure proc_%d(gang) "Procedure %d" when not gang.bottled and len(gang.models) > %d {
  let threshold = gang.starting_crew + %d
  roll check = d6 + count(gang.models, .status == "out_of_action")
  if check > threshold {
    set gang.bottled = true
    emit "{gang.name} bottles out ({check} > {threshold})"
  }
}

`, i, i, i%7, i%5)
		case 2:
			fmt.Fprintf(&b, `skill skill_%d "Skill %d" {
  source "generated"
  text "Modifies a roll."
  modify proc_%d.check as any by -1 when any(gang.models, has_skill(#, "skill_%d") and .status == "standing")
}

`, i, i, i-1, i)
		}
	}
	return []byte(b.String())
}

// checkGenerated parses and checks a generated pack as one file, failing
// the benchmark on any error; it returns the checked rules.
func checkGenerated(b *testing.B, src []byte) *Rules {
	return checkParsed(b, src, syntax.Parse)
}

// checkParsed is checkGenerated with a parser of one's choice.
func checkParsed(b *testing.B, src []byte, parse func(string, []byte) (*syntax.File, diag.Diagnostics)) *Rules {
	file, diags := parse("generated.munda", src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	rules, _ := Assemble(nil, []*LoadedPack{{Pack: &Pack{}, Files: []*syntax.File{file}}}, nil)
	if diags := Check(rules); diags.HasErrors() {
		b.Fatal(diags[:1])
	}
	return rules
}

// benchmarkCheck parses and checks a generated pack of n declarations
// per iteration, reporting the time per declaration; the README's Speed
// section reports it. BenchmarkCheck1000 and BenchmarkCheck10000 side by
// side show it grows linearly.
//
// With again, the pack was checked once before in the process, as by the
// language server or a test run: its file's parse is kept
// (syntax.ParseCached) and its expressions' compilations are in the
// shared cache (sharedprograms.go).
func benchmarkCheck(b *testing.B, n int, again bool) {
	src := generatedPack(n)
	parse := syntax.Parse
	if again {
		parse = syntax.ParseCached
		checkParsed(b, src, parse)
		b.ResetTimer()
	}
	b.ReportAllocs()
	// The caller's own thread: its CPU time is the part of the work no
	// other core took (parsing's and the check's helpers, the collector's
	// workers), which on a loaded machine shows what wall time cannot.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu, own := processCPU(), threadCPU()
	for i := 0; i < b.N; i++ {
		if !again {
			resetShared() // cold: as the first check of a process
		}
		checkParsed(b, src, parse)
	}
	// CPU time, which on a loaded machine says more than wall time (it
	// includes the garbage collector's workers).
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/float64(n), "cpu-ns/decl")
	b.ReportMetric(float64(threadCPU()-own)/float64(b.N)/float64(n), "own-cpu-ns/decl")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/decl")
}

// BenchmarkCheck1000NoProgramCache is BenchmarkCheck1000 compiling every
// expression, however often its text and types repeat: the program
// cache's worth, measured in the same run.
func BenchmarkCheck1000NoProgramCache(b *testing.B) {
	programCacheOff = true
	defer func() { programCacheOff = false }()
	benchmarkCheck(b, 1000, false)
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

// threadCPU is the CPU time the calling thread has used, user and
// system, in nanoseconds (Linux's RUSAGE_THREAD; 0 where there is none).
func threadCPU() int64 {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkCheck1000(b *testing.B)  { benchmarkCheck(b, 1000, false) }
func BenchmarkCheck10000(b *testing.B) { benchmarkCheck(b, 10000, false) }

// BenchmarkCheck1000Again checks the same pack a second time in the
// process: what the shared cache saves.
func BenchmarkCheck1000Again(b *testing.B) { benchmarkCheck(b, 1000, true) }

// BenchmarkCheckKept1000 measures the memory a checked pack of 1,000
// declarations keeps: the heap in use (HeapInuse: the spans holding live
// objects) after a collection with the rules alive, less that before
// loading them (the goal is < 10 MB); and the live objects' bytes alone
// (HeapAlloc), which leaves out the spans' free space.
func BenchmarkCheckKept1000(b *testing.B) {
	src := generatedPack(1000)
	checkGenerated(b, src) // process-wide caches filled, as in a long-lived process
	var kept, live float64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rules := checkGenerated(b, src)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(rules)
		kept += float64(int64(after.HeapInuse)-int64(before.HeapInuse)) / (1 << 20)
		live += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
	}
	b.ReportMetric(kept/float64(b.N), "MB-kept")
	b.ReportMetric(live/float64(b.N), "MB-live")
}

// BenchmarkParse isolates parsing, to see where checking time goes.
func BenchmarkParse(b *testing.B) {
	src := generatedPack(1000)
	b.ReportAllocs()
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		if _, diags := syntax.Parse("generated.munda", src); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
