package interpreter

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/state"
)

// Event kinds.
const (
	EventCall   = "call"   // a procedure starts
	EventSkip   = "skip"   // a procedure's when was false
	EventApply  = "apply"  // a table row is applied
	EventRoll   = "roll"   // dice were rolled
	EventTest   = "test"   // a characteristic test
	EventChoice = "choice" // a decision was made
	EventSet    = "set"    // the state changed
	EventEmit   = "emit"   // a message from the rules
	EventSignal = "signal" // an event was signalled
	EventEffect = "effect" // a skill, trait, condition or house rule acted
	EventStep   = "step"   // a named step of a procedure begins
	EventError  = "error"  // the run stopped: the last event (see ErrorEvent)
)

// Event is one entry of a run's log: every roll, test, choice, change of
// state and message, with the rule that caused it and its source.
type Event struct {
	Seq    int    `json:"seq"`
	Depth  int    `json:"depth"`
	Kind   string `json:"kind"`
	Rule   string `json:"rule"`             // "procedure bottle_check", "table lasting_injury", "skill iron_will"
	Source string `json:"source,omitempty"` // the rule's citation
	At     string `json:"at,omitempty"`     // file:line:col of the statement
	Text   string `json:"text"`             // narration for people

	// What happened, for tools.
	Name      string     `json:"name,omitempty"`      // roll, test, choice, procedure, table or event name
	Dice      string     `json:"dice,omitempty"`      // the dice rolled
	Rolled    []int      `json:"rolled,omitempty"`    // each die
	Faces     []string   `json:"faces,omitempty"`     // each symbolic die
	Natural   *int       `json:"natural,omitempty"`   // the unmodified total
	Modifiers []Modifier `json:"modifiers,omitempty"` // what changed the roll
	Total     *int       `json:"total,omitempty"`     // the modified total
	Face      string     `json:"face,omitempty"`      // a symbolic result
	Target    *int       `json:"target,omitempty"`    // a test's characteristic value
	Pass      *bool      `json:"pass,omitempty"`      // a test's outcome
	Row       string     `json:"row,omitempty"`       // a table's row id
	Rerolled  bool       `json:"rerolled,omitempty"`  // the row was rolled again (apply … reroll)
	Object    string     `json:"object,omitempty"`    // what was changed: a model, gang or weapon id
	Field     string     `json:"field,omitempty"`
	Old       any        `json:"old,omitempty"`
	New       any        `json:"new,omitempty"`
	Value     any        `json:"value,omitempty"`   // a choice's answer
	Options   []any      `json:"options,omitempty"` // what a choice offered: a menu, for tools
	Args      []string   `json:"args,omitempty"`

	// Diagnostic is why the run stopped, on an error event.
	Diagnostic *diag.Diagnostic `json:"diagnostic,omitempty"`
}

// ErrorEvent is the event that ends the log of a run that stopped with
// err (a *diag.Diagnostic, as Run returns): its diagnostic, with the rule,
// its source and the place lifted out as every event has them. seq
// numbers it after the run's last event.
func ErrorEvent(err error, seq int) *Event {
	var d *diag.Diagnostic
	if !errors.As(err, &d) {
		d = &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeRunInternal, Summary: err.Error(), Cause: err}
	}
	e := &Event{Seq: seq, Kind: EventError, Rule: d.Rule, Source: d.Source, Text: d.Summary, Diagnostic: d}
	if d.Subject != nil {
		e.At = d.Subject.String()
	}
	return e
}

// Modifier is one contribution to a roll.
type Modifier struct {
	By    int    `json:"by"`
	Owner string `json:"owner"` // "roll" for the rule's own, else the effect's owner
}

// Log receives events as they happen.
type Log interface {
	Event(e *Event)
}

// Events is a Log that keeps every event.
type Events []*Event

// Event implements Log.
func (l *Events) Event(e *Event) { *l = append(*l, e) }

// WriteText prints the events as a narration, with control characters
// escaped (names and messages come from untrusted files).
func WriteText(w io.Writer, events []*Event) error {
	var b strings.Builder
	for _, e := range events {
		b.WriteString(strings.Repeat("  ", e.Depth))
		b.WriteString(diag.Printable(e.Text))
		switch e.Kind {
		case EventCall, EventApply, EventEffect, EventSignal:
			if e.Source != "" {
				b.WriteString("  [" + diag.Printable(e.Source) + "]")
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the events as JSON lines.
func WriteJSON(w io.Writer, events []*Event) error {
	enc := json.NewEncoder(w)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

// display shows a value the way the rules' messages and the narration do:
// models, gangs and weapons by name, lists in brackets, numbers plainly.
func display(v any) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case *state.Model:
		if v == nil {
			return "none"
		}
		return v.Name
	case *state.Gang:
		if v == nil {
			return "no gang"
		}
		return v.Name
	case *state.Weapon:
		if v == nil {
			return "no weapon"
		}
		return v.Name
	case string:
		if v == "" {
			return "—"
		}
		return v
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []string:
		return "[" + strings.Join(v, ", ") + "]"
	case []int:
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = strconv.Itoa(n)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = display(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []*state.Model:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = display(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *state.Battle:
		return "the battle"
	case *state.Marker:
		if v == nil {
			return "no marker"
		}
		return v.Kind + " " + v.ID
	case *state.Armour:
		if v == nil {
			return "no armour"
		}
		return v.Name
	case *state.State:
		return "the state"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + display(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	// Any other list: its elements, each shown as above.
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = display(rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// identify names an object of the state for an event: its id.
func identify(v any) string {
	switch v := v.(type) {
	case *state.Model:
		return v.ID
	case *state.Gang:
		return v.ID
	case *state.Weapon:
		return v.ID
	case *state.Battle:
		return "battle"
	}
	return ""
}
