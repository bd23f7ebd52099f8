package syntax

import "reflect"

// Inspect calls fn for node and every node below it, depth first, in
// source order. If fn returns false, Inspect skips that node's children.
// It is generic (it follows struct fields), so new node types need no
// change here.
func Inspect(node any, fn func(any) bool) {
	inspect(reflect.ValueOf(node), fn)
}

var exprStructType = reflect.TypeOf(Expr{})

func inspect(v reflect.Value, fn func(any) bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			inspect(v.Elem(), fn)
		}
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return
		}
		if !fn(v.Interface()) {
			return
		}
		if v.Elem().Type() == exprStructType {
			return
		}
		s := v.Elem()
		for i := 0; i < s.NumField(); i++ {
			f := s.Field(i)
			if !s.Type().Field(i).IsExported() {
				continue
			}
			switch f.Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Slice:
				inspect(f, fn)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			inspect(v.Index(i), fn)
		}
	}
}
