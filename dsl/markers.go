package dsl

import (
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// typeMarkers is the type of battle.markers, which rules set to place
// markers written as maps of their fields.
var typeMarkers = reflect.TypeOf([]*state.Marker{})

// markerLiterals checks the markers a `set battle.markers = …` writes as
// map literals in a list literal: each key must be a marker's field (the
// interpreter checks the rest, values and ids, when the markers are set).
func (c *checker) markerLiterals(e *syntax.Expr) {
	if e == nil {
		return
	}
	tree, err := plainParse(e.Text)
	if err != nil {
		return // compile has said why
	}
	fields := fieldNames(typeMarker)
	ast.Walk(&tree.Node, visitFunc(func(n *ast.Node) {
		list, ok := (*n).(*ast.ArrayNode)
		if !ok {
			return
		}
		for _, el := range list.Nodes {
			m, ok := el.(*ast.MapNode)
			if !ok {
				continue
			}
			for _, p := range m.Pairs {
				pair, ok := p.(*ast.PairNode)
				if !ok {
					continue
				}
				key, ok := pair.Key.(*ast.StringNode)
				if !ok || slices.Contains(fields, key.Value) {
					continue
				}
				at := diag.RangeOf(exprPosition(e, key.Location().From), exprPosition(e, key.Location().To))
				c.unknown(at, "marker field", key.Value, fields)
			}
		}
	}))
}
