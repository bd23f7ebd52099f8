package main

import (
	"github.com/spf13/cobra"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/interpreter"
	"github.com/munda-rules/munda/stdlib/state"
)

// tableState is the state a table is rolled on, for munda roll and munda
// odds of a table. The table's first model parameter is the model it
// applies to: model (--model) or --arg names it, or, with no state file,
// the ruleset's stand-in is the state and its model is that model (so
// "munda roll lasting-injury" needs no files). The model is added to
// given; other model parameters not given stay empty (see
// interpreter.BindTableArgs).
func tableState(cmd *cobra.Command, prog *interpreter.Program, table *dsl.TableInfo, stateFile, model string, given map[string]string, allowUnknown bool) (*state.State, error) {
	var modelParam string
	for _, prm := range table.Params {
		if dsl.TypeName(prm.Type) == "model" {
			modelParam = prm.Name
			break
		}
	}
	if _, named := given[modelParam]; named && modelParam != "" {
		if model != "" {
			return nil, usagef("give the model of table %s once: --model or --arg %s, not both", table.ID, modelParam)
		}
		modelParam = "" // named already: nothing more is needed
	}
	var st *state.State
	switch {
	case stateFile != "":
		var err error
		if st, err = readState(cmd, stateFile, prog, allowUnknown); err != nil {
			return nil, err
		}
		if modelParam != "" && model == "" {
			return nil, usagef("table %s applies to a model: give --model ID (or --arg %s=ID)", table.ID, modelParam)
		}
	case prog.Index().StandIn != nil:
		standIn := prog.Index().StandIn
		var err error
		if st, err = standIn.State(); err != nil {
			return nil, failed("the stand-in of ruleset %s: %v", standIn.Ruleset, err)
		}
		if modelParam != "" && model == "" {
			model = dsl.StandInModel(st).ID
		}
	case modelParam != "" && model == "":
		return nil, usagef("table %s applies to a model, and these rules name no stand-in for it (a ruleset's stand_in): give --state FILE --model ID", table.ID)
	default:
		st = &state.State{} // a table of no model needs no battle
	}
	if model != "" {
		if modelParam == "" {
			return nil, usagef("table %s has no model parameter for --model", table.ID)
		}
		given[modelParam] = model
	}
	return st, nil
}
