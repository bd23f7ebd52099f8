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
// the 0-based byte offset.
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

func (r Range) String() string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
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

// Diagnostic is one problem found in the rules, in the spirit of
// hcl.Diagnostic: a stable code tools can match on, a terse summary, a
// detail that explains (often with the fix), and the range at fault.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	Subject  *Range   `json:"range,omitempty"`
}

// Stable diagnostic codes.
const (
	CodeFileError       = "file_error"     // a file could not be read
	CodeEncoding        = "encoding_error" // binary, invalid UTF-8, too long
	CodeEmptyFile       = "empty_file"     // no declarations
	CodeParseError      = "parse_error"    // the grammar does not match
	CodeIncludeError    = "include_error"  // missing include or one escaping the pack
	CodeIncludeCycle    = "include_cycle"  // a file includes itself
	CodeDuplicateID     = "duplicate_id"   // two declarations with one id
	CodeUnknownRef      = "unknown_reference"
	CodeTypeError       = "type_error"       // expr compile errors
	CodeTableCoverage   = "table_coverage"   // results not covered, or covered twice
	CodeInvalid         = "invalid"          // a value that makes no sense
	CodeOverlayConflict = "overlay_conflict" // two overlays change one thing
	CodeUnused          = "unused"
	CodeNumberRange     = "number_out_of_range" // an integer literal too large
	CodeTestError       = "test_error"          // a test block that cannot run
)

func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Subject != nil {
		fmt.Fprintf(&b, "%s: ", d.Subject)
	}
	fmt.Fprintf(&b, "%s: %s", d.Severity, d.Summary)
	return b.String()
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

// HasErrors reports whether any diagnostic is an error (not a warning).
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the diagnostics as an error, or nil if there are no errors.
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
