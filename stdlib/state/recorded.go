package state

import (
	"sort"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"gopkg.in/yaml.v3"
)

// battle.recorded: answers to choices made at the table, by key. A value
// is a string, a whole number, a number, true or false, or a list or map
// of them (a split is a map from item to count, a pick a list of items).

// maxValueDepth bounds how deeply lists and maps nest in a recorded value.
const maxValueDepth = 8

// values reads a map of plain values; nil after a problem.
func (d *decoder) values(n *yaml.Node) map[string]any {
	if n.Kind != yaml.MappingNode {
		d.add(n, diag.CodeStateType, "", "want a mapping of keys to values, got "+describe(n))
		return nil
	}
	v, ok := d.value(n, 0)
	if !ok {
		return nil
	}
	m := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	return m
}

// value reads one plain value.
func (d *decoder) value(n *yaml.Node, depth int) (any, bool) {
	if depth > maxValueDepth {
		d.add(n, diag.CodeStateLimit, "", "lists and maps nest too deeply here")
		return nil, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return n.Value, true
		case "!!bool":
			return strings.ToLower(n.Value) == "true", true
		case "!!int":
			if x, ok := parseInt(strings.ReplaceAll(n.Value, "_", "")); ok && x == int64(int(x)) {
				return int(x), true
			}
		case "!!float":
			if x, ok := parseFloat(n.Value); ok {
				return x, true
			}
		}
		d.add(n, diag.CodeStateType, "", "want a string, a number, true or false, or a list or map of them, got "+describe(n))
		return nil, false
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		ok := true
		for i, item := range n.Content {
			d.path = append(d.path, "["+strconv.Itoa(i)+"]")
			x, good := d.value(item, depth+1)
			d.path = d.path[:len(d.path)-1]
			ok = ok && good
			list = append(list, x)
		}
		return list, ok
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		ok := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, good := d.str(n.Content[i])
			if !good {
				ok = false
				continue
			}
			if _, dup := m[k]; dup {
				d.add(n.Content[i], diag.CodeStateType, safeSeg(k), "this key is given twice")
				ok = false
				continue
			}
			d.path = append(d.path, safeSeg(k))
			x, good := d.value(n.Content[i+1], depth+1)
			d.path = d.path[:len(d.path)-1]
			ok = ok && good
			m[k] = x
		}
		return m, ok
	}
	d.add(n, diag.CodeStateType, "", "want a string, a number, true or false, or a list or map of them, got "+describe(n))
	return nil, false
}

// values writes a map of plain values, keys sorted.
func (e *encoder) values(m map[string]any) *yaml.Node {
	return e.plain(m, 0)
}

func (e *encoder) plain(v any, depth int) *yaml.Node {
	if depth > maxValueDepth {
		e.fail("lists and maps nest too deeply")
		return nil
	}
	switch x := v.(type) {
	case string:
		return e.str(x)
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	case int:
		return intNode(int64(x))
	case float64:
		s := formatFloat(x)
		tag := "!!float"
		if !strings.ContainsAny(s, ".eE") {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, item := range x {
			n.Content = append(n.Content, e.plain(item, depth+1))
		}
		return n
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, item := range x {
			n.Content = append(n.Content, e.str(item))
		}
		return n
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if depth > 0 {
			n.Style = yaml.FlowStyle
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, e.str(k), e.plain(x[k], depth+1))
		}
		return n
	}
	e.fail("a recorded value must be a string, a number, true or false, or a list or map of them, not %T", v)
	return nil
}

// cloneValues is a deep copy of a map of plain values.
func cloneValues(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	case map[string]any:
		return cloneValues(x)
	}
	return v
}
