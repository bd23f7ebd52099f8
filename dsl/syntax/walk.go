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

// InspectParsed is Inspect over what the grammar filled in: only fields
// with a parser tag, so not what the checker sets after parsing
// (Expr's program, a message's template parts) nor the file's comments.
// It may run while a checker writes those fields.
func InspectParsed(node any, fn func(any) bool) {
	inspectFields(reflect.ValueOf(node), fn, parsedFields)
}

func inspect(v reflect.Value, fn func(any) bool) { inspectFields(v, fn, childFields) }

func inspectFields(v reflect.Value, fn func(any) bool, fields func(reflect.Type) []int) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			inspectFields(v.Elem(), fn, fields)
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
		for _, i := range fields(s.Type()) {
			inspectFields(s.Field(i), fn, fields)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			inspectFields(v.Index(i), fn, fields)
		}
	}
}

// childFields lists the fields of a node type that may hold nodes: the
// exported pointers, interfaces and slices, in order. Found once per type
// (reading every field's description on each visit was most of a walk).
func childFields(t reflect.Type) []int { return fieldsOf(t, &childFieldsOf, false) }

// parsedFields is childFields less the fields without a parser tag.
func parsedFields(t reflect.Type) []int { return fieldsOf(t, &parsedFieldsOf, true) }

func fieldsOf(t reflect.Type, cache *sync.Map, parsedOnly bool) []int {
	if fields, ok := cache.Load(t); ok {
		return fields.([]int)
	}
	var fields []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if _, tagged := f.Tag.Lookup("parser"); parsedOnly && !tagged {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice:
			fields = append(fields, i)
		}
	}
	cache.Store(t, fields)
	return fields
}

// childFieldsOf and parsedFieldsOf hold childFields and parsedFields by
// node type (the grammar's types: few).
var childFieldsOf, parsedFieldsOf sync.Map
