package syntax

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// EqualAST reports whether two files hold the same rules: the same tree,
// ignoring where things are (Pos, EndPos), the file's name, path, bytes and
// comments, and what the checker adds (Expr.Program and Type, Emit.Parts).
// Expressions are compared by their text with blanks outside literals
// collapsed, so layout alone never makes two files differ.
func EqualAST(a, b *File) bool {
	path, _ := firstDiff(a, b)
	return path == ""
}

// ASTDiff describes the first difference EqualAST finds, as a path from
// the file with both values, e.g.
// `Decls[3].(*Procedure).Body.Stmts[0].(*Let).Value: "a + b" vs "a - b"`;
// it returns "" when the files are equal.
func ASTDiff(a, b *File) string {
	path, _ := firstDiff(a, b)
	return path
}

var (
	positionType = reflect.TypeOf(lexer.Position{})
	exprNodeType = reflect.TypeOf(Expr{})
	fileType     = reflect.TypeOf(File{})
	emitType     = reflect.TypeOf(Emit{})
)

// firstDiff returns the path of the first difference and the position of
// the nearest node of a around it.
func firstDiff(a, b *File) (string, lexer.Position) {
	d := differ{}
	if d.value(reflect.ValueOf(a), reflect.ValueOf(b), "File") {
		return "", lexer.Position{}
	}
	return d.path, d.at
}

type differ struct {
	path string
	at   lexer.Position
}

// value compares a and b; on a difference it records it and returns false.
func (d *differ) value(a, b reflect.Value, path string) bool {
	fail := func(what string) bool {
		d.path = path + ": " + what
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() == b.IsNil() {
				return true
			}
			return fail(fmt.Sprintf("%s vs %s", nilOr(a), nilOr(b)))
		}
		if a.Elem().Type() == exprNodeType {
			ta := layoutExpr(a.Interface().(*Expr).Text, true)
			tb := layoutExpr(b.Interface().(*Expr).Text, true)
			if ta != tb {
				d.at = a.Interface().(*Expr).Pos
				return fail(strconv.Quote(ta) + " vs " + strconv.Quote(tb))
			}
			return true
		}
		return d.value(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() || a.Elem().Type() != b.Elem().Type() {
			if a.IsNil() && b.IsNil() {
				return true
			}
			return fail(fmt.Sprintf("%s vs %s", nilOr(a), nilOr(b)))
		}
		return d.value(a.Elem(), b.Elem(), path+".("+a.Elem().Type().String()+")")
	case reflect.Struct:
		t := a.Type()
		if f := a.FieldByName("Pos"); f.IsValid() && f.Type() == positionType {
			d.at = f.Interface().(lexer.Position)
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Type == positionType || ignored(t, f.Name) {
				continue
			}
			if !d.value(a.Field(i), b.Field(i), path+"."+f.Name) {
				return false
			}
		}
		return true
	case reflect.Slice:
		n := min(a.Len(), b.Len())
		for i := 0; i < n; i++ {
			if !d.value(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)) {
				return false
			}
		}
		if a.Len() != b.Len() {
			return fail(fmt.Sprintf("%d vs %d elements", a.Len(), b.Len()))
		}
		return true
	case reflect.String:
		if a.String() != b.String() {
			return fail(strconv.Quote(a.String()) + " vs " + strconv.Quote(b.String()))
		}
		return true
	default:
		if !a.Equal(b) {
			return fail(fmt.Sprintf("%v vs %v", a, b))
		}
		return true
	}
}

// ignored tells the fields that are not the rules' meaning, besides
// positions: all of a File but its declarations (name, path, bytes,
// comments) and what the checker adds.
func ignored(t reflect.Type, field string) bool {
	switch t {
	case fileType:
		return field != "Decls"
	case emitType:
		return field == "Parts"
	}
	return false
}

func nilOr(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	if v.Kind() == reflect.Interface {
		return v.Elem().Type().String()
	}
	return v.Type().String()
}
