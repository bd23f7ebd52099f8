package state

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
)

// Vocabulary is the part of a state's words that the rules declare, not
// Go: the kinds of model, the statuses a model of each kind may have with
// the secondary statuses each allows, and which kinds ride aboard which.
// The checker fills it from the rules' `kind` declarations
// (dsl.Index.Vocabulary); DecodeWith and ValidateWith check a state
// against it. A nil Vocabulary checks nothing beyond the schema.
type Vocabulary struct {
	Kinds []ModelKind // in the order the rules declare them
	// IDs are the ids the rules declare for the state's lists of them, by
	// what the list's field names in its `munda` tag (skill, power,
	// condition, trait): a misspelt `unstopable` in a model's skills would
	// otherwise switch a rule off without a word.
	IDs map[string][]string
	// AllowUnknown accepts ids the rules do not declare (a state written for
	// other rules, a mod not loaded); UnknownIDs still lists them.
	AllowUnknown bool
}

// Lenient is a copy of v that accepts ids the rules do not declare
// (AllowUnknown), for a state kept with names to fix later; nil stays nil.
func (v *Vocabulary) Lenient() *Vocabulary {
	if v == nil {
		return nil
	}
	c := *v
	c.AllowUnknown = true
	return &c
}

// ModelKind is one kind of model and its statuses.
type ModelKind struct {
	ID       string
	Statuses []Status // in the order the rules declare them
	Carries  []string // the kinds that may be aboard a model of this kind
}

// Status is a status and the secondary statuses that may go with it; with
// none, the status takes no secondary status.
type Status struct {
	ID          string
	Secondaries []string
}

// Kind returns the kind with the id, or nil.
func (v *Vocabulary) Kind(id string) *ModelKind {
	if v == nil {
		return nil
	}
	for i := range v.Kinds {
		if v.Kinds[i].ID == id {
			return &v.Kinds[i]
		}
	}
	return nil
}

// KindIDs lists the kinds' ids, in order.
func (v *Vocabulary) KindIDs() []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v.Kinds))
	for i, k := range v.Kinds {
		out[i] = k.ID
	}
	return out
}

// Carriers lists the kinds that carry models of the kind, in order.
func (v *Vocabulary) Carriers(kind string) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, k := range v.Kinds {
		for _, c := range k.Carries {
			if c == kind {
				out = append(out, k.ID)
				break
			}
		}
	}
	return out
}

// Status returns the kind's status with the id, or nil.
func (k *ModelKind) Status(id string) *Status {
	for i := range k.Statuses {
		if k.Statuses[i].ID == id {
			return &k.Statuses[i]
		}
	}
	return nil
}

// StatusIDs lists the kind's statuses' ids, in order.
func (k *ModelKind) StatusIDs() []string {
	out := make([]string, len(k.Statuses))
	for i, s := range k.Statuses {
		out[i] = s.ID
	}
	return out
}

// hint explains a required field the vocabulary knows the words of, for a
// "required field is missing" message: the kinds, or each kind's
// statuses.
func (v *Vocabulary) hint(field string) string {
	if v == nil || len(v.Kinds) == 0 {
		return ""
	}
	switch field {
	case "kind":
		return orList(v.KindIDs())
	case "status":
		var parts []string
		for i := range v.Kinds {
			k := &v.Kinds[i]
			parts = append(parts, orList(k.StatusIDs())+" for "+plural(k.ID))
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// plural writes a kind's id as a plural for messages: fighter → fighters.
func plural(id string) string { return id + "s" }

// UnknownIDs lists every id in the state's lists of declared things
// (skills, powers, conditions, traits) that the vocabulary does not know,
// with the field's path and a did-you-mean, as errors, or as warnings
// when AllowUnknown is set. A trait's value, rapid_fire(2), is read as its
// id.
func UnknownIDs(st *State, voc *Vocabulary) diag.Diagnostics {
	if st == nil || voc == nil || voc.IDs == nil {
		return nil
	}
	sev := diag.Error
	if voc.AllowUnknown {
		sev = diag.Warning
	}
	var out diag.Diagnostics
	walkIDLists(reflect.ValueOf(st).Elem(), "", func(path, what string, ids []string) {
		known, declared := voc.IDs[what]
		if !declared {
			return
		}
		for i, id := range ids {
			name, _, _ := strings.Cut(id, "(")
			name = strings.TrimSpace(name)
			if slices.Contains(known, name) {
				continue
			}
			msg := diag.Suggest(fmt.Sprintf("the rules have no %s %q", what, name), name, known)
			out = append(out, &diag.Diagnostic{Severity: sev, Code: diag.CodeStateUnknownID,
				Path: fmt.Sprintf("%s[%d]", path, i), Summary: msg})
			if len(out) >= MaxProblems {
				return
			}
		}
	})
	return out
}

// walkIDLists calls fn for every list of ids in v whose field's `munda`
// tag names what they are (skill, power, condition, trait), with its path.
func walkIDLists(v reflect.Value, path string, fn func(path, what string, ids []string)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		fv := v.Field(i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			walkIDLists(fv, p, fn)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			if what := f.Tag.Get("munda"); what != "" && what != "row" {
				fn(p, what, fv.Interface().([]string))
			}
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Pointer && f.Type.Elem().Elem().Kind() == reflect.Struct:
			for j := 0; j < fv.Len(); j++ {
				if e := fv.Index(j); !e.IsNil() {
					walkIDLists(e.Elem(), fmt.Sprintf("%s[%d]", p, j), fn)
				}
			}
		}
	}
}
