package interpreter

import (
	"errors"
	"reflect"
	"sort"

	"github.com/munda-rules/munda/dsl/syntax"
)

// sortEffects puts the effects of one target in an order that does not
// depend on the order of files or declarations: by layer (highest first
// when winning matters — overrides, instead_of, extra dice —, else the
// ruleset's first), then by priority (higher first), then by owner kind
// and id, then by place in the owner.
func sortEffects(list []*effect, highestLayerFirst bool) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].info, list[j].info
		if a.Layer != b.Layer {
			if highestLayerFirst {
				return a.Layer > b.Layer
			}
			return a.Layer < b.Layer
		}
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		if a.Owner != b.Owner {
			return a.Owner < b.Owner
		}
		pa, pb := itemPos(a.Item), itemPos(b.Item)
		if pa.Filename != pb.Filename {
			return pa.Filename < pb.Filename
		}
		return pa.Offset < pb.Offset
	})
}

// itemPos is where an effect is written.
func itemPos(it syntax.FeatureItem) lexerPos {
	v := reflect.ValueOf(it)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if f := v.Elem().FieldByName("Pos"); f.IsValid() {
			if p, ok := f.Interface().(lexerPos); ok {
				return p
			}
		}
	}
	return lexerPos{}
}

// preferred reports whether v is to be preferred over w under a let's
// `prefer highest|lowest` (both numbers).
func preferred(prefer string, v, w any) bool {
	a, errA := toFloat(v)
	b, errB := toFloat(w)
	if errA != nil || errB != nil {
		return false
	}
	switch prefer {
	case "highest":
		return a > b
	case "lowest":
		return a < b
	}
	return false
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, errNotNumber
}

var errNotNumber = errors.New("not a number")
