package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Sources maps file names (as diagnostics show them) to their contents,
// so a renderer can quote the line at fault.
type Sources map[string][]byte

// WriteText prints diagnostics for people: each as its one line (see
// Diagnostic.Error), the line of the file at fault with a marker under the
// subject (when the file is in src), the detail, and a run's rule source:
//
//	path:line:col: error: summary
//	  12 |   31-35 convalescence "Convalescence" {
//	     |   ^
//	  detail
func WriteText(w io.Writer, diags Diagnostics, src Sources) error {
	var b bytes.Buffer
	for _, d := range diags {
		b.WriteString(Printable(d.Error()))
		b.WriteByte('\n')
		if d.Subject != nil {
			writeSnippet(&b, d.Subject, src[d.Subject.Filename])
		}
		if d.Detail != "" {
			for _, line := range strings.Split(d.Detail, "\n") {
				fmt.Fprintf(&b, "  %s\n", Printable(line))
			}
		}
		if d.Source != "" {
			fmt.Fprintf(&b, "  source: %s\n", Printable(d.Source))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Snippets show at most this many characters of a line, around the
// subject: a state file may be JSON on one line of megabytes.
const snippetWidth = 160

// writeSnippet quotes the subject's first line, with a marker under the
// subject when its column is known. A line that is not plain text (a
// binary file's) is not quoted.
func writeSnippet(b *bytes.Buffer, r *Range, src []byte) {
	if src == nil || r.Start.Line < 1 {
		return
	}
	lines := bytes.Split(src, []byte("\n"))
	if r.Start.Line > len(lines) {
		return
	}
	raw := bytes.TrimRight(lines[r.Start.Line-1], "\r")
	if !utf8.Valid(raw) {
		return
	}
	line := []rune(string(raw))
	for i, c := range line {
		switch {
		case c == '\t':
			line[i] = ' '
		case c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0:
			return
		}
	}
	idx := r.Start.Column - 1 // the subject's first character, 0-based
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	}
	// A long line is shown around the subject, cut at both ends.
	prefix, suffix := "", ""
	if len(line) > snippetWidth {
		from := 0
		if idx > snippetWidth/2 {
			from = min(idx-snippetWidth/2, len(line)-snippetWidth)
		}
		if from > 0 {
			prefix = "…"
		}
		if from+snippetWidth < len(line) {
			suffix = "…"
		}
		line = line[from : from+snippetWidth]
		idx -= from
	}
	gutter := fmt.Sprint(r.Start.Line)
	fmt.Fprintf(b, "  %s | %s%s%s\n", gutter, prefix, string(line), suffix)
	if r.Start.Column < 1 || idx > len(line) {
		return
	}
	// The marker may stand just past the end (where a file ends too soon).
	width = max(1, min(width, len(line)-idx))
	pad := idx + utf8.RuneCountInString(prefix)
	fmt.Fprintf(b, "  %s | %s%s\n", strings.Repeat(" ", len(gutter)), strings.Repeat(" ", pad), strings.Repeat("^", width))
}

// WriteJSON prints diagnostics as one JSON document for tools:
// {"diagnostics": […], "errors": N, "warnings": N}.
func WriteJSON(w io.Writer, diags Diagnostics) error {
	out := struct {
		Diagnostics Diagnostics `json:"diagnostics"`
		Errors      int         `json:"errors"`
		Warnings    int         `json:"warnings"`
	}{Diagnostics: diags}
	if out.Diagnostics == nil {
		out.Diagnostics = Diagnostics{}
	}
	for _, d := range diags {
		if d.Severity == Error {
			out.Errors++
		} else {
			out.Warnings++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteGitHub prints diagnostics as GitHub Actions workflow commands, so a
// rule pack's CI annotates the lines at fault.
func WriteGitHub(w io.Writer, diags Diagnostics) error {
	var b bytes.Buffer
	for _, d := range diags {
		level := "error"
		if d.Severity == Warning {
			level = "warning"
		}
		var props []string
		if r := d.Subject; r != nil {
			props = append(props, "file="+ghProperty(r.Filename))
			if r.Start.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", r.Start.Line))
				if r.Start.Column > 0 {
					props = append(props, fmt.Sprintf("col=%d", r.Start.Column))
				}
				if r.End.Line >= r.Start.Line && r.End.Column > 0 {
					props = append(props, fmt.Sprintf("endLine=%d", r.End.Line), fmt.Sprintf("endColumn=%d", r.End.Column))
				}
			}
		}
		props = append(props, "title="+ghProperty("munda "+d.Code))
		msg := d.Summary
		if d.Rule != "" {
			msg = "in " + d.Rule + ": " + msg
		}
		if d.Path != "" {
			msg = d.Path + ": " + msg
		}
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg))
	}
	_, err := w.Write(b.Bytes())
	return err
}

var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func ghData(s string) string     { return ghDataEscaper.Replace(s) }
func ghProperty(s string) string { return ghPropertyEscaper.Replace(s) }
