package dsl

// This file checks a ruleset's stand-in: the state whose first model a
// table is rolled for when there is no battle at hand.

import (
	"errors"
	"path"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// StandInInfo is a checked stand-in clause.
type StandInInfo struct {
	Decl    *syntax.StandIn
	Ruleset string      // the id of the ruleset that names it
	Pack    *LoadedPack // where the file is
	// The state: a file of the pack (Path, relative to the pack root) or
	// given inline (Inline).
	Path   string
	Inline string

	vocabulary *state.Vocabulary
}

// State decodes a fresh copy of the stand-in state, checked against the
// rules' vocabulary. Its first model is the one that stands in.
func (s *StandInInfo) State() (*state.State, error) {
	if s.Inline != "" {
		return state.DecodeWith(diag.RangeOf(s.Decl.Pos, s.Decl.Pos).String()+" (inline state)", []byte(s.Inline), s.vocabulary)
	}
	data, err := s.Pack.Pack.ReadFile(s.Path, state.MaxStateBytes)
	if err != nil {
		return nil, err
	}
	return state.DecodeWith(s.Pack.Pack.DisplayPath(s.Path), data, s.vocabulary)
}

// StandInModel is the model that stands in: the first of the state's first gang.
func StandInModel(st *state.State) *state.Model {
	for _, g := range st.Gangs {
		if g != nil && len(g.Models) > 0 {
			return g.Models[0]
		}
	}
	return nil
}

// checkStandIn checks every ruleset's stand-in and picks the one in force:
// the base ruleset's own, or else that of the ruleset it extends (packs
// come ancestors first, so the last one found wins).
func (c *checker) checkStandIn() {
	for _, pack := range c.rules.Packs {
		if pack.Header == nil {
			continue
		}
		dir := "." // of the file with the header: paths are relative to it
		for _, f := range pack.Files {
			for _, d := range f.Decls {
				if d == syntax.Decl(pack.Header) {
					dir = path.Dir(f.Rel)
				}
			}
		}
		var info *StandInInfo
		for _, it := range pack.Header.Items {
			si, ok := it.(*syntax.StandIn)
			if !ok {
				continue
			}
			at := diag.RangeOf(si.Source.Pos, si.Source.EndPos)
			if info != nil {
				c.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(si.Pos, si.EndPos), "a ruleset has one stand-in")
				continue
			}
			info = &StandInInfo{Decl: si, Ruleset: pack.Header.ID.Name, Pack: pack, vocabulary: c.idx.Vocabulary}
			if strings.HasPrefix(si.Source.Raw, "`") {
				info.Inline = si.Source.Value()
			} else {
				rel, err := packRelative(dir, si.Source.Value())
				if err != nil {
					c.diags.errorf(diag.CodeFileError, at, "stand_in: %v", err)
					continue
				}
				info.Path = rel
			}
			st, err := info.State()
			if err != nil {
				var problems diag.Diagnostics
				if errors.As(err, &problems) {
					d := c.diags.errorf(diag.CodeStandIn, at, "the stand-in state is not valid")
					d.Detail = problems.Error()
				} else {
					c.diags.errorf(diag.CodeFileError, at, "stand-in state %s: %v", pack.Pack.DisplayPath(info.Path), unwrapPathError(err))
				}
				continue
			}
			if StandInModel(st) == nil {
				c.diags.errorf(diag.CodeStandIn, at, "the stand-in state has no model to stand in")
				continue
			}
			if pack.Layer == LayerBase {
				c.idx.StandIn = info
			}
		}
	}
}
