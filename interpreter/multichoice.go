package interpreter

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// Choices about several items at once: `choose x "…" split N among LIST`
// (the answer maps each item, by id, to how many it gets; the counts add
// up to N) and `choose x "…" pick K of LIST` (the answer is a list of K
// distinct items of LIST).

// Kinds of multi-choice (ChoiceRequest.Multi).
const (
	MultiSplit = "split"
	MultiPick  = "pick"
)

// itemID names an item of a multi-choice in answers: a model's, gang's
// or weapon's id, a string as itself, anything else as it prints.
func itemID(v any) string {
	if id := identify(v); id != "" {
		return id
	}
	if s, ok := v.(string); ok {
		return s
	}
	return display(v)
}

// option finds the option an answer names: the option itself, or its id.
func (req *ChoiceRequest) option(v any) (any, bool) {
	for _, o := range req.Options {
		if reflect.DeepEqual(o, v) {
			return o, true
		}
	}
	id := ""
	switch x := v.(type) {
	case string:
		id = x
	default:
		id = identify(v)
		if id == "" {
			id = display(v)
		}
	}
	for _, o := range req.Options {
		if itemID(o) == id {
			return o, true
		}
	}
	return nil, false
}

// itemList lists the options' ids, for error messages.
func (req *ChoiceRequest) itemList() string {
	ids := make([]string, len(req.Options))
	for i, o := range req.Options {
		ids[i] = itemID(o)
	}
	return strings.Join(ids, ", ")
}

// multiAnswer checks an answer to a multi-choice given as a value (a test
// block's, the state's record, the rules' default) and puts it in its
// canonical form: for a split, a map from every item's id to its count
// (0 for the items not named); for a pick, the items picked, in the order
// given.
func multiAnswer(req *ChoiceRequest, v any) (any, error) {
	if req.Multi == MultiSplit {
		counts := map[string]int{}
		rv := reflect.ValueOf(v)
		if v == nil || rv.Kind() != reflect.Map {
			return nil, fmt.Errorf("want how many each item gets, as {a: 2, b: 1}, got %s", display(v))
		}
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		for _, k := range keys {
			o, ok := req.option(k.Interface())
			if !ok {
				return nil, fmt.Errorf("%s is not one of the items: %s", display(k.Interface()), req.itemList())
			}
			n, err := toInt(rv.MapIndex(k).Interface())
			if err != nil {
				return nil, fmt.Errorf("%s: %v", itemID(o), err)
			}
			if n < 0 {
				return nil, fmt.Errorf("%s: a count cannot be negative (%d)", itemID(o), n)
			}
			counts[itemID(o)] += n
		}
		return req.split(counts)
	}
	list, err := toList(v)
	if err != nil || v == nil && req.Count > 0 {
		return nil, fmt.Errorf("want a list of %d items, as [a, b], got %s", req.Count, display(v))
	}
	var picked []any
	seen := map[string]bool{}
	for _, x := range list {
		o, ok := req.option(x)
		if !ok {
			return nil, fmt.Errorf("%s is not one of the items: %s", display(x), req.itemList())
		}
		if seen[itemID(o)] {
			return nil, fmt.Errorf("%s is picked twice", itemID(o))
		}
		seen[itemID(o)] = true
		picked = append(picked, o)
	}
	if req.UpTo && len(picked) > req.Count {
		return nil, fmt.Errorf("pick at most %d of the items (%s), not %d", req.Count, req.itemList(), len(picked))
	}
	if !req.UpTo && len(picked) != req.Count {
		return nil, fmt.Errorf("pick %d of the items (%s), not %d", req.Count, req.itemList(), len(picked))
	}
	if picked == nil {
		picked = []any{}
	}
	return picked, nil
}

// split makes the canonical answer to a split from counts by item id.
func (req *ChoiceRequest) split(counts map[string]int) (any, error) {
	total := 0
	out := make(map[string]any, len(req.Options))
	for _, o := range req.Options {
		out[itemID(o)] = counts[itemID(o)]
		total += counts[itemID(o)]
	}
	if total != req.Count {
		return nil, fmt.Errorf("the counts add up to %d, not %d", total, req.Count)
	}
	return out, nil
}

// parseMulti reads a typed answer to a multi-choice: `a:2,b:1` for a
// split (an item named without a count counts once: `a,a,b` is a:2,b:1),
// `a,b` for a pick. An item is named by its id, or by its number in the
// list of options.
func parseMulti(req *ChoiceRequest, s string) (any, error) {
	var parts []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	name := func(text string) (any, error) {
		if o, ok := req.option(text); ok {
			return o, nil
		}
		for _, o := range req.Options {
			if display(o) == text {
				return o, nil
			}
		}
		if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(req.Options) {
			return req.Options[n-1], nil
		}
		return nil, fmt.Errorf("%q is not one of the items: %s", text, req.itemList())
	}
	if req.Multi == MultiSplit {
		counts := map[string]int{}
		for _, p := range parts {
			item, count, hasCount := strings.Cut(p, ":")
			o, err := name(strings.TrimSpace(item))
			if err != nil {
				return nil, err
			}
			n := 1
			if hasCount {
				if n, err = strconv.Atoi(strings.TrimSpace(count)); err != nil || n < 0 {
					return nil, fmt.Errorf("%q: want item:count, the count a whole number", p)
				}
			}
			counts[itemID(o)] += n
		}
		return req.split(counts)
	}
	list := make([]any, 0, len(parts))
	for _, p := range parts {
		o, err := name(p)
		if err != nil {
			return nil, err
		}
		list = append(list, o)
	}
	return multiAnswer(req, list)
}

// multiHint says how to answer a multi-choice, for the prompt.
func multiHint(req *ChoiceRequest) string {
	if req.Multi == MultiSplit {
		return fmt.Sprintf("share %d among these, as item:count,… (e.g. %s:%d)", req.Count, itemID(req.Options[0]), req.Count)
	}
	if req.UpTo {
		return fmt.Sprintf("pick at most %d of these, as item,item,… (or none)", req.Count)
	}
	return fmt.Sprintf("pick %d of these, as item,item,…", req.Count)
}

// showAnswer prints an answer for the log and the prompt: a split as
// a:2, b:1 (items with none left out), anything else as display does.
func showAnswer(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return display(v)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		if n, ok := m[k].(int); ok && n == 0 {
			continue
		}
		parts = append(parts, k+":"+display(m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// multiRequest fills in a multi-choice's request: its items, how many,
// and its default in canonical form.
func (r *runner) multiRequest(f *frame, s *syntax.Choose, req *ChoiceRequest) error {
	m := s.Multi
	n, err := r.evalInt(f, m.Count())
	if err != nil {
		return err
	}
	lv, err := r.eval(f, m.List)
	if err != nil {
		return err
	}
	items, err := toList(lv)
	if err != nil {
		return r.errorAt(f, diag.CodeRunExpr, spanOf(m.List), fmt.Errorf("choose %s %s: %v", s.Name.Name, m.Word(), err))
	}
	seen := map[string]bool{}
	for _, it := range items {
		if seen[itemID(it)] {
			return r.errorAt(f, diag.CodeRunChoice, spanOf(m.List), fmt.Errorf("choice %s: item %s is in the list twice", s.Name.Name, itemID(it)))
		}
		seen[itemID(it)] = true
	}
	if m.UpTo && n > len(items) {
		n = len(items) // up to more than there are: any of them
	}
	switch {
	case n < 0:
		return r.errorAt(f, diag.CodeRunChoice, spanOf(m.Count()), fmt.Errorf("choice %s: cannot %s %d items", s.Name.Name, m.Word(), n))
	case len(items) == 0 && n > 0:
		return r.errorAt(f, diag.CodeRunChoice, spanOf(s), fmt.Errorf("choice %s has no items to %s %d among", s.Name.Name, m.Word(), n))
	case m.Pick != nil && n > len(items):
		return r.errorAt(f, diag.CodeRunChoice, spanOf(m.Count()), fmt.Errorf("choice %s: cannot pick %d of %d items", s.Name.Name, n, len(items)))
	}
	req.Options, req.Count, req.UpTo = items, n, m.UpTo
	req.Multi = MultiPick
	if m.Split != nil {
		req.Multi = MultiSplit
	}
	def, err := multiAnswer(req, req.Default)
	if err != nil {
		return r.errorAt(f, diag.CodeRunChoice, spanOf(s.Default), fmt.Errorf("the default of choice %s: %v", s.Name.Name, err))
	}
	req.Default = def
	return nil
}
