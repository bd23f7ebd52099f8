package dsl

import (
	"reflect"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// typeSplit is the type of a `split N among LIST` choice: how many each
// item (by id) gets.
var typeSplit = reflect.TypeOf(map[string]int{})

// chooseMulti checks a choice about several items (`split N among LIST`,
// `pick K of LIST`) and gives the type of its answer.
func (c *checker) chooseMulti(s *syntax.Choose, sc *scope) reflect.Type {
	m := s.Multi
	c.compile(m.Count(), sc, typeInt, "the number to "+m.Word())
	lt := c.compile(m.List, sc, nil, "")
	var elem reflect.Type
	if lt != nil && lt.Kind() != reflect.Slice && lt.Kind() != reflect.Array {
		what := "among"
		if m.Pick != nil {
			what = "of"
		}
		c.diags.errorf(diag.CodeTypeError, diag.RangeOf(m.List.Pos, m.List.EndPos), "choose %s … %s needs a list, but this is %s", m.Word(), what, TypeName(lt))
	} else if lt != nil {
		elem = lt.Elem()
	}
	dt := c.compile(s.Default, sc, nil, "")
	if m.Split != nil {
		if dt != nil && dt.Kind() != reflect.Map {
			c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.Default.Pos, s.Default.EndPos), "the default of a split must be a map from item to count ({a: 2, b: 1}), but this is %s", TypeName(dt))
		}
		return typeSplit
	}
	if dt != nil && dt.Kind() != reflect.Slice && dt.Kind() != reflect.Array {
		c.diags.errorf(diag.CodeTypeError, diag.RangeOf(s.Default.Pos, s.Default.EndPos), "the default of a pick must be a list of items, but this is %s", TypeName(dt))
	}
	if elem == nil {
		return nil
	}
	return reflect.SliceOf(elem)
}
