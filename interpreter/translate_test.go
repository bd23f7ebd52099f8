package interpreter_test

import (
	"io/fs"
	"testing"

	"github.com/munda-rules/munda/dsl/i18n"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/rulesets"
)

// czechCatalog is the shipped Czech overlay of the core rules, compiled.
func czechCatalog(t testing.TB, p *interpreter.Program) *i18n.Catalog {
	t.Helper()
	src, err := fs.ReadFile(rulesets.FS, "core-2023/i18n/cs.i18n")
	if err != nil {
		t.Fatal(err)
	}
	ov, d := i18n.Parse("cs.i18n", src)
	if d != nil {
		t.Fatal(d)
	}
	cat, diags := i18n.Compile("cs", []*i18n.Overlay{ov}, i18n.Declarations(p.Rules.Files()), i18n.Untranslated{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cat
}

// A Czech run decides exactly what an English run decides: translation
// changes the words of the narration, never a roll, a choice or the state.
func TestCzechRunMatchesEnglish(t *testing.T) {
	p := coreProgram(t)
	cat := czechCatalog(t, p)
	for seed := uint64(0); seed < 20; seed++ {
		var en, cs interpreter.Events
		a, b := benchState(), benchState()
		if err := p.Run(a, "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(seed), Log: &en}); err != nil {
			t.Fatal(err)
		}
		if err := p.Run(b, "end_phase", nil, interpreter.Options{Dice: interpreter.NewSeeded(seed), Log: &cs, Lang: "cs", Translation: cat}); err != nil {
			t.Fatal(err)
		}
		if len(en) != len(cs) {
			t.Fatalf("seed %d: %d events in English, %d in Czech", seed, len(en), len(cs))
		}
		translated := 0
		for i := range en {
			if en[i].Kind != cs[i].Kind || en[i].Rule != cs[i].Rule || en[i].Row != cs[i].Row || en[i].Field != cs[i].Field {
				t.Fatalf("seed %d, event %d: %+v in English, %+v in Czech", seed, i, en[i], cs[i])
			}
			if en[i].Text != cs[i].Text {
				translated++
			}
		}
		if translated == 0 {
			t.Errorf("seed %d: nothing was translated", seed)
		}
	}
}

// benchmarkNarrated runs the End Phase with its narration kept, the case
// where translation costs anything (without a log nothing is rendered).
func benchmarkNarrated(b *testing.B, opts func() interpreter.Options) {
	p := coreProgram(b)
	st := benchState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var events interpreter.Events
		o := opts()
		o.Dice, o.Log = interpreter.NewSeeded(uint64(i)), &events
		if err := p.Run(st.Clone(), "end_phase", nil, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEndPhaseNarratedEnglish(b *testing.B) {
	benchmarkNarrated(b, func() interpreter.Options { return interpreter.Options{} })
}

func BenchmarkEndPhaseNarratedCzech(b *testing.B) {
	cat := czechCatalog(b, coreProgram(b))
	benchmarkNarrated(b, func() interpreter.Options { return interpreter.Options{Lang: "cs", Translation: cat} })
}
