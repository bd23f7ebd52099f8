package syntax

import (
	"reflect"
	"sync"
)

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
		for _, i := range childFields(s.Type()) {
			inspect(s.Field(i), fn)
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

// childFields lists the fields of a node type that may hold nodes: the
// exported pointers, interfaces and slices, in order. Found once per type
// (reading every field's description on each visit was most of a walk).
func childFields(t reflect.Type) []int {
	if fields, ok := childFieldsOf.Load(t); ok {
		return fields.([]int)
	}
	var fields []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice:
			fields = append(fields, i)
		}
	}
	childFieldsOf.Store(t, fields)
	return fields
}

// childFieldsOf holds childFields by node type (the grammar's types: few).
var childFieldsOf sync.Map
