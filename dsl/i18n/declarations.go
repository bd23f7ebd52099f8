package i18n

import (
	"reflect"
	"regexp"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/syntax"
)

// Declaration is what a translation can name in the rules: a declaration
// (or a table's row) by kind and id, its English title and the English
// messages said inside it.
type Declaration struct {
	Kind, ID string // "procedure", "bottle_check"; rows: "row", "table.row"
	Title    string
	Pos      lexer.Position
	Messages []Said
}

// Key names the declaration as an overlay entry does.
func (d *Declaration) Key() string { return d.Kind + " " + d.ID }

// Said is an English message: an emit, a choice's question or a step's
// title, with where it is.
type Said struct {
	Text string
	Pos  lexer.Position
}

// keywordOf reads a declaration's keyword from its grammar: the ID
// field's tag starts with it ('procedure' @@).
var keywordOf = regexp.MustCompile(`^'([a-z_]+)'`)

// Declarations lists what the files declare that has a title, in order.
// Test blocks are not translated: they are for the rules' authors.
func Declarations(files []*syntax.File) []*Declaration {
	var out []*Declaration
	for _, f := range files {
		for _, d := range f.Decls {
			if _, ok := d.(*syntax.TestDecl); ok {
				continue
			}
			decl := declarationOf(reflect.ValueOf(d))
			if decl == nil {
				continue
			}
			out = append(out, decl)
			switch d := d.(type) {
			case *syntax.Table:
				out = append(out, rowsOf(d)...)
			case *syntax.Dice:
				out = append(out, facesOf(d)...)
			}
		}
	}
	return out
}

// declarationOf reads kind, id and title from any declaration node that
// has them, and gathers the messages below it.
func declarationOf(v reflect.Value) *Declaration {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	s := v.Elem()
	idField, titleField := s.FieldByName("ID"), s.FieldByName("Title")
	if !idField.IsValid() || !titleField.IsValid() {
		return nil
	}
	id, _ := idField.Interface().(*syntax.Ident)
	if id == nil {
		return nil
	}
	title, _ := titleField.Interface().(*syntax.Str)
	if title == nil {
		return nil
	}
	kind := ""
	if k := s.FieldByName("Kind"); k.IsValid() && k.Kind() == reflect.String {
		kind = k.String() // skill, trait, power, action, condition
	} else if f, ok := s.Type().FieldByName("ID"); ok {
		if m := keywordOf.FindStringSubmatch(f.Tag.Get("parser")); m != nil {
			kind = m[1]
		}
	}
	if kind == "" {
		return nil
	}
	d := &Declaration{Kind: kind, ID: id.Name, Title: title.Value(), Pos: id.Pos}
	if _, isTable := v.Interface().(*syntax.Table); !isTable {
		collectSaid(v, &d.Messages)
	} else {
		for _, it := range v.Interface().(*syntax.Table).Items {
			if _, isRow := it.(*syntax.Row); !isRow {
				collectSaid(reflect.ValueOf(it), &d.Messages)
			}
		}
	}
	return d
}

// rowsOf lists a table's rows that have an id, each with its messages.
func rowsOf(t *syntax.Table) []*Declaration {
	var out []*Declaration
	for _, it := range t.Items {
		row, ok := it.(*syntax.Row)
		if !ok || row.Title == nil {
			continue
		}
		id := ""
		switch {
		case row.ID != nil:
			id = row.ID.Name
		default:
			if fk, ok := row.Key.(*syntax.FaceKey); ok && fk.Face != nil {
				id = fk.Face.Name
			}
		}
		if id == "" {
			continue
		}
		d := &Declaration{Kind: "row", ID: t.ID.Name + "." + id, Title: row.Title.Value(), Pos: row.Pos}
		collectSaid(reflect.ValueOf(row.Body), &d.Messages)
		out = append(out, d)
	}
	return out
}

var (
	emitType   = reflect.TypeOf(&syntax.Emit{})
	chooseType = reflect.TypeOf(&syntax.Choose{})
	stepType   = reflect.TypeOf(&syntax.Step{})
	exprType   = reflect.TypeOf(&syntax.Expr{})
)

// collectSaid walks a node and everything below it for the messages it
// says: emits, choices' questions and steps' titles.
func collectSaid(v reflect.Value, out *[]Said) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			collectSaid(v.Elem(), out)
		}
		return
	case reflect.Pointer:
		if v.IsNil() || v.Type() == exprType {
			return // an expression says nothing, and holds compiled code
		}
		switch v.Type() {
		case emitType:
			if m := v.Interface().(*syntax.Emit).Message; m != nil {
				*out = append(*out, Said{m.Value(), m.Pos})
			}
		case chooseType:
			if m := v.Interface().(*syntax.Choose).Prompt; m != nil {
				*out = append(*out, Said{m.Value(), m.Pos})
			}
		case stepType:
			if m := v.Interface().(*syntax.Step).Title; m != nil {
				*out = append(*out, Said{m.Value(), m.Pos})
			}
		}
		if v.Type().Elem().Kind() == reflect.Struct {
			collectSaid(v.Elem(), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectSaid(v.Field(i), out)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			collectSaid(v.Index(i), out)
		}
	}
}

// facesOf lists a symbolic dice's faces that have a title: "face
// injury.out_of_action".
func facesOf(d *syntax.Dice) []*Declaration {
	var out []*Declaration
	for _, it := range d.Items {
		if f, ok := it.(*syntax.Face); ok && f.ID != nil && f.Title != nil {
			out = append(out, &Declaration{Kind: "face", ID: d.ID.Name + "." + f.ID.Name, Title: f.Title.Value(), Pos: f.Pos})
		}
	}
	return out
}
