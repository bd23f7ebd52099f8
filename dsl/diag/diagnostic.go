package diag

import (
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Severity says whether a diagnostic stops the rules from running.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText makes Severity print as "error" or "warning" in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Pos is a place in a file: 1-based line and column (in characters), and
// the 0-based byte offset. A line or column of 0 is unknown.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"offset"`
}

// Range is a span of a file.
type Range struct {
	Filename string `json:"file"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// String writes where the range starts as file:line:col, leaving out what
// is unknown (file:line, or file alone).
func (r Range) String() string {
	var b strings.Builder
	b.WriteString(r.Filename)
	if r.Start.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d", r.Start.Line)
		if r.Start.Column > 0 {
			fmt.Fprintf(&b, ":%d", r.Start.Column)
		}
	}
	return b.String()
}

// RangeOf turns participle positions into a Range.
func RangeOf(start, end lexer.Position) *Range {
	r := &Range{
		Filename: start.Filename,
		Start:    Pos{Line: start.Line, Column: start.Column, Offset: start.Offset},
		End:      Pos{Line: end.Line, Column: end.Column, Offset: end.Offset},
	}
	if r.End.Line == 0 || r.End.Offset < r.Start.Offset {
		r.End = r.Start
	}
	return r
}

// Contains reports whether o lies within r (same file, offsets inside).
func (r *Range) Contains(o *Range) bool {
	return r != nil && o != nil && r.Filename == o.Filename &&
		r.Start.Offset <= o.Start.Offset && o.End.Offset <= r.End.Offset
}

// Diagnostic is one problem, in the spirit of hcl.Diagnostic: a stable
// code tools can match on, a terse summary, a detail that explains (often
// with the fix), the range at fault and the range around it. The rules'
// checker, the state reader and the interpreter all report with it:
//
//   - a problem in the rules has a subject in a rule file, and a context
//     (the declaration around it);
//   - a problem in a state file has a subject in the state file (when the
//     place is known) and the path of the field at fault;
//   - a run that stopped has a subject (where in the rule file it
//     stopped), a context (the statement running), the rule running, its
//     source citation and the stack of rules that called it.
//
// It is an error, and wraps the error that caused it (Cause), if any, so
// errors.As still finds, say, an *interpreter.ScriptError.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	Subject  *Range   `json:"range,omitempty"`
	Context  *Range   `json:"context,omitempty"`

	// Path is the field of a state file at fault: gangs[0].models[2].status.
	Path string `json:"path,omitempty"`
	// Rule is the rule that was running: "procedure bottle_check".
	Rule string `json:"rule,omitempty"`
	// Source is the running rule's citation: its `source "…"`.
	Source string `json:"source,omitempty"`
	// Stack is the rules that were running, innermost (Rule) first, with
	// repeats folded ("procedure forever (×63)").
	Stack []string `json:"stack,omitempty"`

	// Cause is the error behind the diagnostic, for errors.Is and As.
	Cause error `json:"-"`
}

// Error writes the diagnostic on one line:
//
//	file:line:col: error: summary                  (the rules)
//	file:line:col: gangs[0].id: summary            (a state file)
//	file:line:col: in procedure p: summary (called from …)   (a run)
//
// Errors in state files, runs, catalogues and imports stop what was asked,
// so their line leaves the severity out, as the error of a Go function
// would; the rules' diagnostics (and an import's warnings) mix errors and
// warnings, and say which.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil {
		if at := d.Subject.String(); at != "" {
			b.WriteString(at + ": ")
		}
	}
	if !d.fatal() {
		b.WriteString(d.Severity.String() + ": ")
	}
	if d.Path != "" {
		b.WriteString(d.Path + ": ")
	}
	if d.Rule != "" {
		b.WriteString("in " + d.Rule + ": ")
	}
	b.WriteString(d.Summary)
	if len(d.Stack) > 1 {
		callers := d.Stack[1:]
		if len(callers) > 5 {
			callers = append(callers[:5:5], fmt.Sprintf("… %d more", len(d.Stack)-6))
		}
		b.WriteString(" (called from " + strings.Join(callers, ", from ") + ")")
	}
	return b.String()
}

// fatal reports whether the diagnostic is an error of a state file, a
// run, a catalogue or an import (see Error): their codes start with
// "state_", "run_", "catalogue_" and "import_".
func (d *Diagnostic) fatal() bool {
	if d.Severity != Error {
		return false
	}
	for _, family := range []string{"state_", "run_", "catalogue_", "import_"} {
		if strings.HasPrefix(d.Code, family) {
			return true
		}
	}
	return false
}

// Unwrap returns the cause.
func (d *Diagnostic) Unwrap() error { return d.Cause }

// Suggest adds "; did you mean x?" to the summary when a candidate is
// close to name (see Suggestion), and returns d.
func (d *Diagnostic) Suggest(name string, candidates []string) *Diagnostic {
	d.Summary = Suggest(d.Summary, name, candidates)
	return d
}

// Diagnostics is a list of problems. As an error it reports them all.
type Diagnostics []*Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each diagnostic, so errors.As finds one in the list (and
// errors.As and Is look through to their causes).
func (ds Diagnostics) Unwrap() []error {
	out := make([]error, len(ds))
	for i, d := range ds {
		out[i] = d
	}
	return out
}

// HasErrors reports whether any diagnostic is an error (not a warning).
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the diagnostics as an error, or nil if there are no errors.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Sort orders diagnostics by file, then position, then code, so output is
// stable whatever order the checks ran in.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if (a.Subject == nil) != (b.Subject == nil) {
			return a.Subject == nil
		}
		if a.Subject != nil {
			if a.Subject.Filename != b.Subject.Filename {
				return a.Subject.Filename < b.Subject.Filename
			}
			if a.Subject.Start.Offset != b.Subject.Start.Offset {
				return a.Subject.Start.Offset < b.Subject.Start.Offset
			}
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Summary < b.Summary
	})
}
