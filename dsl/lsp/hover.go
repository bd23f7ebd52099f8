package lsp

// This file answers hover: what `munda rules show` says of the
// declaration under the cursor (its title, source, text, facts and
// effects, and the effects in force on it), as Markdown; for a table's
// row or a procedure's let, roll, test or step, what it is and where.

import (
	"fmt"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/munda-rules/munda/dsl/ruledoc"
	"github.com/munda-rules/munda/dsl/syntax"
)

func (s *Server) hover(_ *glsp.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	a, fi, under, err := s.cursor(params.TextDocumentPositionParams)
	if err != nil || len(under) == 0 {
		return nil, err
	}
	var parts []string
	seen := map[symbolKey]bool{}
	for _, u := range under {
		if seen[u.key] {
			continue
		}
		seen[u.key] = true
		if md := a.describe(u.key); md != "" {
			parts = append(parts, md)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	rng := fi.lines.span(under[0].start, under[0].end)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    &rng,
	}, nil
}

// describe says what a symbol is, in Markdown.
func (a *analysis) describe(key symbolKey) string {
	switch key.ns {
	case nsRow:
		return a.describeRow(key)
	case nsSite:
		return a.describeSite(key)
	}
	if a.checked {
		want := key.ns
		switch key.ns {
		case nsCore:
			want = a.refs.coreKinds[key.id]
		case nsRule:
			if strings.Contains(key.id, ".") {
				want = "house rule"
			}
		}
		for _, shown := range ruledoc.Show(a.rules, key.id) {
			if shown.Kind == want {
				return markdownShown(shown)
			}
		}
	}
	// Not checked (a file of the pack does not parse), or not in force:
	// what the declaration itself says.
	for _, o := range a.refs.byKey[key] {
		if o.decl {
			return markdownShown(declShown(o.node, key))
		}
	}
	return ""
}

// declShown is what a declaration says of itself: kind, title, source
// and text.
func declShown(node any, key symbolKey) ruledoc.Shown {
	s := ruledoc.Shown{ID: key.id, Kind: key.ns}
	var meta syntax.Meta
	switch d := node.(type) {
	case *syntax.Dice:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.Characteristic:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.Table:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.Procedure:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Body.Stmts)
		s.Facts = append(s.Facts, ruledoc.Fact{Name: "parameters", Value: ruledoc.ParamsText(d.Params)})
	case *syntax.Function:
		s.Title = d.Title.Value()
		s.Facts = append(s.Facts, ruledoc.Fact{Name: "parameters", Value: ruledoc.ParamsText(d.Params)},
			ruledoc.Fact{Name: "value", Value: syntax.CanonicalExpr(d.Body)})
	case *syntax.Event:
		s.Title = d.Title.Value()
		s.Facts = append(s.Facts, ruledoc.Fact{Name: "parameters", Value: ruledoc.ParamsText(d.Params)})
	case *syntax.Feature:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.ModelKind:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.Enum:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.House:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	case *syntax.HouseRule:
		s.Title, meta = d.Title.Value(), syntax.MetaOf(d.Items)
	}
	if k := coreKind(node); k != "" {
		s.Kind = k
	}
	s.Source, s.Text = meta.Source, meta.Text
	if start, _ := syntax.Span(node); start.Line > 0 {
		s.At = fmt.Sprintf("%s:%d", start.Filename, start.Line)
	}
	return s
}

// describeRow says what a table's row is.
func (a *analysis) describeRow(key symbolKey) string {
	table, row, _ := strings.Cut(key.id, ".")
	var b strings.Builder
	if a.checked {
		if t := a.rules.Index.Tables[table]; t != nil {
			if r := t.Row(row); r != nil {
				fmt.Fprintf(&b, "**%s** %s  \nrow `%s` of table `%s` (%s)", code(r.ID), escape(r.Title), r.Key(), table, escape(t.Title))
				if r.ReplacedBy != "" {
					fmt.Fprintf(&b, "  \nreplaced by %s", escape(r.ReplacedBy))
				}
				writeMeta(&b, r.Meta.Source, r.Meta.Text)
				return b.String()
			}
		}
	}
	for _, o := range a.refs.byKey[key] {
		r, ok := o.node.(*syntax.Row)
		if !o.decl || !ok {
			continue
		}
		fmt.Fprintf(&b, "**%s** %s  \nrow of table `%s`", code(row), escape(r.Title.Value()), table)
		if r.Body != nil {
			m := syntax.MetaOf(r.Body.Stmts)
			writeMeta(&b, m.Source, m.Text)
		}
		return b.String()
	}
	return ""
}

// describeSite says what a procedure's let, roll, test or step is.
func (a *analysis) describeSite(key symbolKey) string {
	proc, name, _ := strings.Cut(key.id, ".")
	var lines []string
	for _, o := range a.refs.byKey[key] {
		if !o.decl {
			continue
		}
		line := fmt.Sprintf("%s **%s** of procedure `%s`", siteKind(o.node), code(name), proc)
		if head := ruledoc.ItemHead(o.node); head != "" {
			line += "\n```munda\n" + head + "\n```"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n\n")
}

// siteKind names what a procedure's statement is to effects.
func siteKind(stmt any) string {
	switch stmt.(type) {
	case *syntax.Roll:
		return "roll"
	case *syntax.TestStmt:
		return "test"
	case *syntax.Step:
		return "step"
	}
	return "let"
}

// markdownShown writes what show says, as `munda rules show` prints it.
func markdownShown(s ruledoc.Shown) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** %s  \n*%s*", code(s.ID), escape(s.Title), s.Kind)
	if s.At != "" {
		fmt.Fprintf(&b, " at %s", code(s.At))
	}
	if s.ReplacedBy != "" {
		fmt.Fprintf(&b, ", replaced by %s", escape(s.ReplacedBy))
	}
	writeMeta(&b, s.Source, s.Text)
	for _, f := range s.Facts {
		if f.Value != "" {
			fmt.Fprintf(&b, "\n- %s: %s", f.Name, code(f.Value))
		}
	}
	for _, l := range s.Lists {
		if len(l.Items) > 0 {
			fmt.Fprintf(&b, "\n\n%s:\n```munda\n%s\n```", l.Name, strings.Join(l.Items, "\n"))
		}
	}
	if len(s.Effects) > 0 {
		b.WriteString("\n\neffects:")
		for _, e := range s.Effects {
			fmt.Fprintf(&b, "\n- %s: touches %s", code(e.Effect), escape(e.Touches))
		}
	}
	if len(s.EffectsOnIt) > 0 {
		b.WriteString("\n\neffects in force on it:")
		for _, e := range s.EffectsOnIt {
			fmt.Fprintf(&b, "\n- %s", escape(e.Text))
		}
	}
	for _, r := range s.Rules {
		b.WriteString("\n\n" + markdownShown(r))
	}
	return b.String()
}

func writeMeta(b *strings.Builder, source, text string) {
	if source != "" {
		fmt.Fprintf(b, "\n\nsource: %s", escape(source))
	}
	if text != "" {
		fmt.Fprintf(b, "\n\n%s", escape(text))
	}
}

// markdownSpecial are the characters that mean something in Markdown.
var markdownSpecial = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`,
)

// escape makes text show as written in Markdown.
func escape(s string) string { return markdownSpecial.Replace(s) }

// code writes s as inline code, with as many backquotes around it as it
// needs.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
