package syntax

import (
	"fmt"
	"reflect"

	"github.com/alecthomas/participle/v2/lexer"
)

// KindOf names a declaration's kind for messages.
func KindOf(d Decl) string {
	switch d := d.(type) {
	case *Dice:
		return "dice"
	case *Characteristic:
		return "characteristic"
	case *Table:
		return "table"
	case *Procedure:
		return "procedure"
	case *Function:
		return "function"
	case *Event:
		return "event"
	case *ModelKind:
		return "kind"
	case *Enum:
		return "enum"
	case *Feature:
		return d.Kind
	case *House:
		return "house"
	case *HouseRule:
		return "rule"
	case *Replace:
		return "replace"
	case *Ruleset:
		return "ruleset"
	case *Include:
		return "include"
	case *TestDecl:
		return "test"
	}
	return fmt.Sprintf("%T", d)
}

// IDOf is a declaration's id, or nil for declarations that have none
// (includes, replacements, tests).
func IDOf(d Decl) *Ident {
	switch d := d.(type) {
	case *Dice:
		return d.ID
	case *Characteristic:
		return d.ID
	case *Table:
		return d.ID
	case *Procedure:
		return d.ID
	case *Function:
		return d.ID
	case *Event:
		return d.ID
	case *ModelKind:
		return d.ID
	case *Enum:
		return d.ID
	case *Feature:
		return d.ID
	case *House:
		return d.ID
	case *HouseRule:
		return d.ID
	case *Ruleset:
		return d.ID
	}
	return nil
}

// Span is where a node of the tree starts and ends: its Pos and EndPos,
// or zero positions for a value that has none.
func Span(n any) (start, end lexer.Position) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	v = v.Elem()
	if f := v.FieldByName("Pos"); f.IsValid() {
		start, _ = f.Interface().(lexer.Position)
	}
	if f := v.FieldByName("EndPos"); f.IsValid() {
		end, _ = f.Interface().(lexer.Position)
	}
	return start, end
}
