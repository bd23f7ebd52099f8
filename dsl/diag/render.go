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

// WriteText prints diagnostics for people:
//
//	path:line:col: error: summary
//	  12 |   31-35 convalescence "Convalescence" {
//	     |   ^
//	  detail
func WriteText(w io.Writer, diags Diagnostics, src Sources) error {
	var b bytes.Buffer
	for _, d := range diags {
		if d.Subject != nil {
			fmt.Fprintf(&b, "%s: %s: %s\n", Printable(d.Subject.String()), d.Severity, Printable(d.Summary))
			writeSnippet(&b, d.Subject, src[d.Subject.Filename])
		} else {
			fmt.Fprintf(&b, "%s: %s\n", d.Severity, Printable(d.Summary))
		}
		if d.Detail != "" {
			for _, line := range strings.Split(d.Detail, "\n") {
				fmt.Fprintf(&b, "  %s\n", Printable(line))
			}
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// A snippet shows a line whole when it has at most snippetWidth
// characters; a longer one (a 10 MB line) as a window of that many around
// the mistake, starting snippetBefore characters before it.
const (
	snippetWidth  = 160
	snippetBefore = 60
)

func writeSnippet(b *bytes.Buffer, r *Range, src []byte) {
	if src == nil || r.Start.Line < 1 {
		return
	}
	line, ok := lineOf(src, r.Start.Line)
	if !ok {
		return
	}
	col := max(r.Start.Column-1, 0) // in characters
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	}
	from, to := 0, snippetWidth
	if col >= snippetWidth-snippetBefore && utf8.RuneCountInString(line) > snippetWidth {
		from = col - snippetBefore
		to = from + snippetWidth
	}
	var shown strings.Builder
	pad, marks := 0, 0
	if from > 0 {
		shown.WriteString("…")
		pad++
	}
	i := 0
	for _, c := range line {
		if i >= to {
			shown.WriteString("…")
			break
		}
		if i >= from {
			text := " "
			if c != '\t' {
				text = Printable(string(c))
			}
			shown.WriteString(text)
			n := utf8.RuneCountInString(text)
			switch {
			case i < col:
				pad += n
			case i < col+width:
				marks += n
			}
		}
		i++
	}
	gutter := fmt.Sprint(r.Start.Line)
	fmt.Fprintf(b, "  %s | %s\n", gutter, shown.String())
	fmt.Fprintf(b, "  %s | %s%s\n", strings.Repeat(" ", len(gutter)), strings.Repeat(" ", pad), strings.Repeat("^", max(marks, 1)))
}

// lineOf returns line n (1-based) of src, without its line break.
func lineOf(src []byte, n int) (string, bool) {
	for ; n > 1; n-- {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return "", false
		}
		src = src[i+1:]
	}
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return strings.TrimRight(string(src), "\r"), true
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
			props = append(props, "file="+ghProperty(r.Filename), fmt.Sprintf("line=%d", r.Start.Line), fmt.Sprintf("col=%d", r.Start.Column))
			if r.End.Line >= r.Start.Line && r.End.Line > 0 {
				props = append(props, fmt.Sprintf("endLine=%d", r.End.Line), fmt.Sprintf("endColumn=%d", r.End.Column))
			}
		}
		props = append(props, "title="+ghProperty("munda "+d.Code))
		msg := d.Summary
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
