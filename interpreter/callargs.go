package interpreter

import (
	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/syntax"
)

// callArgs are a call's arguments by parameter: vals[i] is the value of
// params[i], given[i] whether the call gave it (else its default, or
// nil). Calls evaluate their arguments straight into these, with no map;
// the slices are carved from the runner's stacks and given back when the
// call returns (release), calls being nested.
type callArgs struct {
	vals  []any
	given []bool
	base  int // where they start on the runner's stacks
	// unknown is a named argument no parameter has, "" for an argument
	// past the last parameter; only a dynamic perform can have one (the
	// checker rejects them elsewhere), and checkArgs reports it.
	unknown    string
	hasUnknown bool
}

// args evaluates call arguments into parameter slots.
func (r *runner) args(f *frame, args []*syntax.Arg, params []dsl.ParamInfo) (callArgs, error) {
	base := len(r.argVals)
	for range params {
		r.argVals = append(r.argVals, nil)
		r.argGiven = append(r.argGiven, false)
	}
	out := callArgs{vals: r.argVals[base:], given: r.argGiven[base:], base: base}
	for i, a := range args {
		v, err := r.eval(f, a.Value)
		if err != nil {
			r.releaseArgs(out)
			return callArgs{}, err
		}
		at := -1
		if a.Name != nil {
			for j, p := range params {
				if p.Name == a.Name.Name {
					at = j
					break
				}
			}
			if at < 0 && !out.hasUnknown {
				out.unknown, out.hasUnknown = a.Name.Name, true
			}
		} else if i < len(params) {
			at = i
		} else if !out.hasUnknown {
			out.unknown, out.hasUnknown = "", true
		}
		if at >= 0 {
			out.vals[at], out.given[at] = v, true
		}
	}
	return out, nil
}

// releaseArgs gives back the slots of a call's arguments, once it has
// bound its parameters and returned, with those of any call above them
// (calls nest, so there are none unless one failed on its way).
func (r *runner) releaseArgs(a callArgs) {
	if a.vals != nil && a.base <= len(r.argVals) {
		clear(r.argVals[a.base:])
		r.argVals, r.argGiven = r.argVals[:a.base], r.argGiven[:a.base]
	}
}

// argsFromMap is a map of arguments by name (Program.Run and its kin)
// as callArgs, carved from the runner's stacks as a call's are (the run
// gives them back when it is done); names no parameter has are left
// out, as before.
func (r *runner) argsFromMap(params []dsl.ParamInfo, m map[string]any) callArgs {
	base := len(r.argVals)
	for _, p := range params {
		v, ok := m[p.Name]
		r.argVals = append(r.argVals, v)
		r.argGiven = append(r.argGiven, ok)
	}
	return callArgs{vals: r.argVals[base:], given: r.argGiven[base:], base: base}
}
