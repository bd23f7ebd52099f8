package state

import "strings"

// Vocabulary is the part of a state's words that the rules declare, not
// Go: the kinds of model, the statuses a model of each kind may have with
// the secondary statuses each allows, and which kinds ride aboard which.
// The checker fills it from the rules' `kind` declarations
// (dsl.Index.Vocabulary); DecodeWith and ValidateWith check a state
// against it. A nil Vocabulary checks nothing beyond the schema.
type Vocabulary struct {
	Kinds []ModelKind // in the order the rules declare them
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
