package i18n

import (
	"fmt"
	"strconv"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/diag"
)

// Overlay is one translation file: a language and its entries.
//
//	language cs
//
//	procedure bottle_check "Kontrola morálky" {
//	  "{gang.name} holds" = "{gang.name} drží"
//	}
//	row lasting_injury.spinal_injury "Poranění páteře"
type Overlay struct {
	Pos     lexer.Position
	Lang    string   `parser:"'language' @Ident"`
	Entries []*Entry `parser:"@@*"`
}

// Entry translates one declaration: "procedure bottle_check", "row
// lasting_injury.spinal_injury", "skill iron_will".
type Entry struct {
	Pos      lexer.Position
	Kind     string     `parser:"@Ident"`
	ID       string     `parser:"@Ident"`
	Title    *Text      `parser:"( @@"`
	Counted  *Plural    `parser:"| @@ )?"` // a title by plural form: "2 kostky zranění"
	Messages []*Message `parser:"( '{' @@* '}' )?"`
	EndPos   lexer.Position
}

// Key is how the entry names its declaration: "procedure bottle_check".
func (e *Entry) Key() string { return e.Kind + " " + e.ID }

// Message maps an English message of the declaration to its translation,
// either one template or one per plural form of a number placeholder.
type Message struct {
	Pos     lexer.Position
	English *Text   `parser:"@@ '='"`
	Text    *Text   `parser:"( @@"`
	Plural  *Plural `parser:"| @@ )"`
	EndPos  lexer.Position
}

// Plural picks a template by the plural form (CLDR category) of the
// number a placeholder shows: `plural "wounds" { one "…" few "…" other "…" }`.
type Plural struct {
	Pos   lexer.Position
	On    *Text   `parser:"'plural' @@?"` // the placeholder counted (messages only)
	Forms []*Form `parser:"'{' @@* '}'"`
}

// Form is one plural form's template.
type Form struct {
	Pos      lexer.Position
	Category string `parser:"@Ident"`
	Text     *Text  `parser:"@@"`
}

// Text is a quoted string, kept with its position.
type Text struct {
	Pos   lexer.Position
	Raw   string `parser:"@String"`
	Value string
}

// unquote sets Value from Raw.
func (t *Text) unquote() *diag.Diagnostic {
	if t == nil {
		return nil
	}
	v, err := strconv.Unquote(t.Raw)
	if err != nil {
		return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation,
			Summary: fmt.Sprintf("bad string %s: %v", t.Raw, err), Subject: diag.RangeOf(t.Pos, t.Pos)}
	}
	t.Value = v
	return nil
}

// unquoteAll sets every Text's Value, or says which string is bad.
func (ov *Overlay) unquoteAll() *diag.Diagnostic {
	var texts []*Text
	plural := func(p *Plural) {
		if p == nil {
			return
		}
		texts = append(texts, p.On)
		for _, f := range p.Forms {
			texts = append(texts, f.Text)
		}
	}
	for _, e := range ov.Entries {
		texts = append(texts, e.Title)
		plural(e.Counted)
		for _, m := range e.Messages {
			texts = append(texts, m.English, m.Text)
			plural(m.Plural)
		}
	}
	for _, t := range texts {
		if d := t.unquote(); d != nil {
			return d
		}
	}
	return nil
}

var overlayLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Ident", Pattern: `[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*`},
	{Name: "Punct", Pattern: `[{}=]`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
})

var overlayParser = participle.MustBuild[Overlay](
	participle.Lexer(overlayLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.UseLookahead(2),
)

// MaxOverlayBytes bounds an overlay file: the whole Czech core is ~40 KB.
const MaxOverlayBytes = 4 << 20

// Parse reads an overlay file. Any input gives an Overlay or a positioned
// diagnostic, never a panic.
func Parse(filename string, src []byte) (*Overlay, *diag.Diagnostic) {
	if len(src) > MaxOverlayBytes {
		return nil, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation,
			Summary: fmt.Sprintf("%s: the file is larger than %d bytes", filename, MaxOverlayBytes)}
	}
	ov, err := overlayParser.ParseBytes(filename, src)
	if err != nil {
		d := &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeTranslation, Summary: err.Error()}
		if pe, ok := err.(participle.Error); ok {
			d.Summary = pe.Message()
			d.Subject = diag.RangeOf(pe.Position(), pe.Position())
		}
		return nil, d
	}
	if d := ov.unquoteAll(); d != nil {
		return nil, d
	}
	return ov, nil
}
