package playground

import (
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/catalogue"
	"github.com/munda-rules/munda/stdlib/state"
	"github.com/munda-rules/munda/stdlib/yaktribe"
)

// ExportName is how diagnostics name an uploaded Yaktribe export.
const ExportName = "export"

// ImportRequest is a Yaktribe gang export to import, under a selection's
// rules (their catalogue, import mapping, skills and Lasting Injuries).
type ImportRequest struct {
	Selection
	Export string `json:"export"`
}

// ImportAnswer is the state holding the imported gang, as `munda import
// yaktribe` writes it, and the warnings of the import (names kept that
// the rules lack, equipment the catalogue does not know).
type ImportAnswer struct {
	State    string           `json:"state"`
	Warnings diag.Diagnostics `json:"warnings"`
}

func (p *Playground) importYaktribe(req ImportRequest) (*ImportAnswer, *Error) {
	l, err := p.runnable(req.Selection)
	if err != nil {
		return nil, err
	}
	rules := l.program.Rules
	base := req.Ruleset
	if base == "" {
		base = rulesets.DefaultBase
	}
	// The ruleset's own catalogue and mapping, as munda import yaktribe
	// uses with no --catalogue.
	dir := rulesets.CatalogueDir(base)
	shipped, diags := catalogue.ReadFS(rulesets.FS, dir, "rulesets/"+dir)
	if diags.HasErrors() {
		return nil, &Error{Message: "the ruleset's catalogue has errors", Diagnostics: diags}
	}
	cat, diags := catalogue.Build(shipped, nil)
	if diags.HasErrors() {
		return nil, &Error{Message: "the ruleset's catalogue has errors", Diagnostics: diags}
	}
	mappingPath := rulesets.ImportMapping(base, "yaktribe")
	m, diags := yaktribe.LoadMapping(rulesets.FS, mappingPath, "rulesets/"+mappingPath)
	if diags.HasErrors() {
		return nil, &Error{Message: base + " has no Yaktribe import mapping", Diagnostics: diags}
	}
	skills, injuries, diags := yaktribe.RuleNames(rules.Index, m)
	if diags.HasErrors() {
		return nil, &Error{Message: "the import mapping does not fit these rules", Diagnostics: diags}
	}
	gang, diags := yaktribe.Import(ExportName, []byte(req.Export), yaktribe.Config{Catalogue: cat, Mapping: m, Skills: skills, Injuries: injuries})
	if diags.HasErrors() {
		return nil, &Error{Message: "the Yaktribe export cannot be imported", Diagnostics: errorsOnly(diags)}
	}
	st := &state.State{Gangs: []*state.Gang{gang}}
	// Names the rules lack were warned about and kept, as the CLI keeps
	// them: the page's "accept unknown names" runs such a state.
	voc := rules.Index.Vocabulary.Lenient()
	if err := state.ValidateWith(st, voc); err != nil {
		return nil, failWith("the imported state is invalid", err)
	}
	data, eerr := state.Encode(st, "yaml")
	if eerr != nil {
		return nil, fail("cannot write the imported state: %v", eerr)
	}
	return &ImportAnswer{State: string(data), Warnings: orEmpty(diags)}, nil
}
