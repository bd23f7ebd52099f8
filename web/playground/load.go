package playground

import (
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/rulesets"
)

// LoadAnswer is a selection's rules: their diagnostics, and when they
// have no errors what there is to run.
type LoadAnswer struct {
	Name        string           `json:"name"`
	OK          bool             `json:"ok"`
	Diagnostics diag.Diagnostics `json:"diagnostics"`
	Procedures  []Procedure      `json:"procedures"`
}

// Procedure is a procedure or action to run, with its parameters.
type Procedure struct {
	Name   string  `json:"name"` // as munda run takes it: end-phase
	Title  string  `json:"title"`
	Source string  `json:"source,omitempty"`
	Params []Param `json:"params"`
	Action bool    `json:"action,omitempty"`
}

// Param is a parameter: its name, its type (model, gang, weapon, int…)
// and whether it may be left out.
type Param struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Optional bool   `json:"optional,omitempty"`
}

func (p *Playground) load(s Selection) (*LoadAnswer, *Error) {
	l, err := p.program(s)
	if err != nil {
		return nil, err
	}
	a := &LoadAnswer{Name: l.name, OK: l.program != nil, Diagnostics: orEmpty(l.diags), Procedures: []Procedure{}}
	if l.program == nil {
		return a, nil
	}
	rules := l.program.Rules
	list, _ := ruledoc.Declarations(rules, "procedures")
	for _, d := range list {
		info := rules.Index.Procedures[d.ID]
		a.Procedures = append(a.Procedures, Procedure{Name: kebab(d.ID), Title: d.Title, Source: d.Source, Params: params(info.Params)})
	}
	for id, act := range rules.Index.Actions {
		proc := act.Procedure()
		a.Procedures = append(a.Procedures, Procedure{Name: kebab(id), Title: proc.Title, Source: proc.Meta.Source,
			Params: params(proc.Params), Action: true})
	}
	sort.Slice(a.Procedures, func(i, j int) bool { return a.Procedures[i].Name < a.Procedures[j].Name })
	return a, nil
}

func params(ps []dsl.ParamInfo) []Param {
	out := []Param{}
	for _, prm := range ps {
		out = append(out, Param{Name: prm.Name, Type: dsl.TypeName(prm.Type), Optional: prm.Default != nil})
	}
	return out
}

// CheckAnswer is what `munda check` says of a selection.
type CheckAnswer struct {
	Name        string           `json:"name"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
	Diagnostics diag.Diagnostics `json:"diagnostics"`
}

// check checks a selection as `munda check` does, test blocks and all.
func (p *Playground) check(s Selection) (*CheckAnswer, *Error) {
	sel, err := rulesSelection(s)
	if err != nil {
		return nil, err
	}
	sel.SkipTests = false
	_, diags := rulesets.Load(sel)
	a := &CheckAnswer{Name: stackName(s), Diagnostics: orEmpty(diags)}
	for _, d := range diags {
		if d.Severity == diag.Error {
			a.Errors++
		} else {
			a.Warnings++
		}
	}
	return a, nil
}

func orEmpty(ds diag.Diagnostics) diag.Diagnostics {
	if ds == nil {
		return diag.Diagnostics{}
	}
	return ds
}

// kebab writes an id as a command line takes it: end_phase → end-phase.
func kebab(id string) string { return strings.ReplaceAll(id, "_", "-") }
