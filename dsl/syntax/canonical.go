package syntax

import (
	"reflect"
	"strings"
)

// Canonical prints a declaration, a declaration's item or a statement the
// way munda fmt would, but without comments and blank lines and wherever
// it was written: two nodes with the same Canonical text mean the same
// rules, however their files were laid out. It returns "" for a node the
// formatter cannot print.
func Canonical(n any) (out string) {
	if n == nil || (reflect.ValueOf(n).Kind() == reflect.Pointer && reflect.ValueOf(n).IsNil()) {
		return ""
	}
	bare, ok := withoutPositions(reflect.ValueOf(n)).Interface().(Decl)
	if !ok {
		return ""
	}
	p := newPrinter(&File{})
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(unknownNode); !ok {
				panic(r)
			}
			out = ""
		}
	}()
	p.noBlank = true
	p.decl(bare)
	p.linebreak()
	return strings.TrimSuffix(p.out.String(), "\n")
}

// CanonicalExpr is an expression on one line, with blanks outside literals
// collapsed: "gang.eligible_models".
func CanonicalExpr(e *Expr) string {
	if e == nil {
		return ""
	}
	return layoutExpr(e.Text, true)
}

// withoutPositions deep-copies a syntax tree with every position zeroed,
// so the printer, which keeps blank lines and comments by position, prints
// it in the one canonical layout. What the checker added (compiled
// programs, types) is left out.
func withoutPositions(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Elem().Type())
		out.Elem().Set(withoutPositions(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(withoutPositions(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		if v.Type() == positionType {
			return out
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || (v.Type() == exprNodeType && f.Name != "Text") {
				continue
			}
			out.Field(i).Set(withoutPositions(v.Field(i)))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(withoutPositions(v.Index(i)))
		}
		return out
	}
	return v
}
