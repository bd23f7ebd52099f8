package interpreter

import (
	"fmt"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// StateWarnings checks a state against what the rules expect of every
// model of each kind (a kind's `warn` items): a Standing fighter with no
// Toughness left, more wounds lost than it has. Each model that breaks
// one gets a warning with its field path (gangs[i].models[j]); a state
// with warnings is still run, since a battle may be mid-way and odd. A
// warning whose condition fails to evaluate says so, as a warning too.
func (p *Program) StateWarnings(st *state.State) diag.Diagnostics {
	var out diag.Diagnostics
	if st == nil {
		return nil
	}
	prev := st.Effects
	r := newRunner(p, st, Options{})
	defer func() { st.Effects = prev }() // the state may be shared: leave it as found
	defer r.done()
	for gi, g := range st.Gangs {
		for mi, m := range g.Models {
			k := p.idx.Kinds[m.Kind]
			if k == nil {
				continue
			}
			for _, w := range k.Warns {
				f := r.newFrame("kind "+k.ID, "", "")
				f.set(dsl.WarnedModel, m)
				hit, err := r.evalBool(f, w.Decl.When)
				msg := ""
				if err == nil && hit {
					msg, err = r.template(f, w.Parts)
				}
				r.release(f)
				path := fmt.Sprintf("gangs[%d].models[%d]", gi, mi)
				switch {
				case err != nil:
					out = append(out, &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeStateInvariant, Path: path,
						Summary: fmt.Sprintf("a warning of kind %s could not be checked: %v", k.ID, err), Rule: "kind " + k.ID})
				case hit:
					out = append(out, &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeStateInvariant, Path: path,
						Summary: msg, Rule: "kind " + k.ID, Source: syntax.MetaOf(k.Decl.Items).Source})
				}
			}
		}
	}
	return out
}
