package odds

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/munda-rules/munda/stdlib/state"
)

// Summary says what a run changed, field by field, in a stable order:
// "goliaths.bottled: true; vorst.status: out_of_action;
// vorst.lasting_injuries: +spinal_injury". Outcomes are merged by it.
// Details are left out (fields tagged odds:"detail": a rule's bookkeeping
// marks, experience), so runs that differ only in them are one outcome;
// with focus, only the changes of those models count ("what happens to the
// target"), so an attacker's gains do not split what befalls it.
func Summary(before, after *state.State, focus ...string) string {
	return summaryIn(nil, before, after, focus)
}

// summaryIn is Summary, its text interned in keys (nil: none).
func summaryIn(keys *keyTable, before, after *state.State, focus []string) string {
	w := summaryWriters.Get().(*summaryWriter)
	w.b = w.b[:0]
	if len(focus) == 0 {
		w.diffStruct("battle", battleFields(), unsafe.Pointer(&before.Battle), unsafe.Pointer(&after.Battle))
	}
	for _, ga := range after.Gangs {
		gb := before.Gang(ga.ID)
		if gb == nil {
			w.part(ga.ID, "")
			w.b = append(w.b, "new"...)
			continue
		}
		if len(focus) == 0 {
			w.diffStruct(ga.ID, gangFields(), unsafe.Pointer(gb), unsafe.Pointer(ga))
		}
		for _, ma := range ga.Models {
			if len(focus) > 0 && !slices.Contains(focus, ma.ID) {
				continue
			}
			mb := before.Model(ma.ID)
			if mb == nil {
				w.part(ma.ID, "")
				w.b = append(w.b, "new"...)
				continue
			}
			w.diffStruct(ma.ID, modelFields(), unsafe.Pointer(mb), unsafe.Pointer(ma))
		}
	}
	out := "no change"
	if len(w.b) > 0 {
		out = keys.of(w.b)
	}
	summaryWriters.Put(w)
	return out
}

// keyTable interns the texts of outcomes: exact odds make a summary at
// each of thousands of ends, most of them the same few texts, and a text
// already seen is then no allocation. It keeps no more than the
// accumulator does (a text per outcome), and is safe for concurrent use.
type keyTable struct {
	mu    sync.Mutex
	texts map[string]string
}

func newKeyTable() *keyTable { return &keyTable{texts: map[string]string{}} }

// of is b as a text: the one kept for it, else a new one, kept.
func (t *keyTable) of(b []byte) string {
	if t == nil {
		return string(b)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.texts[string(b)]; ok {
		return s
	}
	s := string(b)
	t.texts[s] = s
	return s
}

// summaryWriter is where a summary is written, part after part, into
// memory kept between summaries (one is made at every end of an exact
// enumeration): the summary's text is then its one allocation.
type summaryWriter struct{ b []byte }

var summaryWriters = sync.Pool{New: func() any { return new(summaryWriter) }}

// part starts a part of the summary: "prefix.name: " ("prefix: " without
// a name), after "; " unless it is the first.
func (w *summaryWriter) part(prefix, name string) {
	if len(w.b) > 0 {
		w.b = append(w.b, "; "...)
	}
	w.b = append(w.b, prefix...)
	if name != "" {
		w.b = append(w.b, '.')
		w.b = append(w.b, name...)
	}
	w.b = append(w.b, ": "...)
}

// diffStruct compares the fields the rules can see (those with an expr
// name) of two structs of the type fields describes, at a and b, except
// lists of gangs, models and weapons, which are compared by their own
// ids, and back-links. A summary is made for every end of an exact
// enumeration: the fields are found once per type (summaryFieldsOf) and
// read at their offsets, not through reflection at every call.
func (w *summaryWriter) diffStruct(prefix string, fields []summaryField, a, b unsafe.Pointer) {
	for i := range fields {
		f := &fields[i]
		fa, fb := unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)
		switch f.kind {
		case summaryStruct:
			w.diffStruct(prefix, f.fields, fa, fb) // its fields' names are "name.field"
		case summaryStrings:
			la, lb := *(*[]string)(fa), *(*[]string)(fb)
			if slices.Equal(la, lb) {
				continue
			}
			// A list that gained and lost nothing (only its order
			// changed) is no part.
			at := len(w.b)
			w.part(prefix, f.name)
			start := len(w.b)
			if w.b = appendListChange(w.b, la, lb); len(w.b) == start {
				w.b = w.b[:at]
			}
		case summaryWhole: // battle.recorded, markers, armour: only as a whole
			if !reflect.DeepEqual(reflect.NewAt(f.typ, fa).Elem().Interface(), reflect.NewAt(f.typ, fb).Elem().Interface()) {
				w.part(prefix, f.name)
				w.b = append(w.b, "changed"...)
			}
		case summaryWeapons:
			w.diffWeapons(prefix, *(*[]*state.Weapon)(fa), *(*[]*state.Weapon)(fb))
		case summaryArmour: // as a whole, as reflect.DeepEqual compares (a model's, at every end)
			if !sameArmour(*(*[]*state.Armour)(fa), *(*[]*state.Armour)(fb)) {
				w.part(prefix, f.name)
				w.b = append(w.b, "changed"...)
			}
		case summaryString:
			if *(*string)(fa) != *(*string)(fb) {
				w.part(prefix, f.name)
				w.b = appendShow(w.b, *(*string)(fb))
			}
		case summaryInt:
			if *(*int)(fa) != *(*int)(fb) {
				w.part(prefix, f.name)
				w.b = strconv.AppendInt(w.b, int64(*(*int)(fb)), 10)
			}
		case summaryBool:
			if *(*bool)(fa) != *(*bool)(fb) {
				w.part(prefix, f.name)
				w.b = strconv.AppendBool(w.b, *(*bool)(fb))
			}
		case summaryFloat:
			if *(*float64)(fa) != *(*float64)(fb) {
				w.part(prefix, f.name)
				w.b = fmt.Append(w.b, *(*float64)(fb))
			}
		case summaryScalar:
			va, vb := reflect.NewAt(f.typ, fa).Elem().Interface(), reflect.NewAt(f.typ, fb).Elem().Interface()
			if va != vb {
				w.part(prefix, f.name)
				w.b = fmt.Append(w.b, show(vb))
			}
		}
	}
}

// A summaryField is a field diffStruct compares, and how.
type summaryField struct {
	offset uintptr
	typ    reflect.Type
	name   string
	kind   summaryKind
	fields []summaryField // of a struct
}

type summaryKind int

const (
	summaryScalar  summaryKind = iota // compared by value, of another kind than below
	summaryString                     // a string, an int, a bool, a float64: compared as such
	summaryInt                        //
	summaryBool                       //
	summaryFloat                      //
	summaryStruct                     // compared field by field
	summaryStrings                    // a list of ids: what it gained and lost
	summaryWhole                      // changed or not, as a whole
	summaryWeapons                    // by weapon id: what was damaged
	summaryArmour                     // a model's armour: changed or not, as a whole
)

var (
	battleFields = sync.OnceValue(func() []summaryField { return summaryFieldsOf(reflect.TypeOf(state.Battle{})) })
	gangFields   = sync.OnceValue(func() []summaryField { return summaryFieldsOf(reflect.TypeOf(state.Gang{})) })
	modelFields  = sync.OnceValue(func() []summaryField { return summaryFieldsOf(reflect.TypeOf(state.Model{})) })
)

// summaryFieldsOf is the fields of a struct type a summary compares,
// found by their tags.
func summaryFieldsOf(t reflect.Type) []summaryField {
	var out []summaryField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("expr")
		if name == "" || name == "-" || !f.IsExported() || f.Tag.Get("odds") == "detail" {
			continue
		}
		sf := summaryField{offset: f.Offset, typ: f.Type, name: name}
		switch k := f.Type.Kind(); {
		case k == reflect.Struct:
			sf.kind, sf.fields = summaryStruct, summaryFieldsOf(f.Type)
			nameWithin(sf.fields, name)
		case k == reflect.Pointer:
			continue // back-links (a model's gang) and the like: not part of the change
		case k == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			sf.kind = summaryStrings
		case k == reflect.Map:
			sf.kind = summaryWhole
		case k == reflect.Slice && name == "weapons":
			sf.kind = summaryWeapons
		case k == reflect.Slice && name == "models":
			continue // compared one by one, by Summary
		case f.Type == reflect.TypeOf([]*state.Armour(nil)):
			sf.kind = summaryArmour
		case k == reflect.Slice:
			sf.kind = summaryWhole
		case f.Type == reflect.TypeOf(""):
			sf.kind = summaryString
		case f.Type == reflect.TypeOf(0):
			sf.kind = summaryInt
		case f.Type == reflect.TypeOf(false):
			sf.kind = summaryBool
		case f.Type == reflect.TypeOf(0.0):
			sf.kind = summaryFloat
		}
		out = append(out, sf)
	}
	return out
}

// nameWithin names the fields of a struct, and theirs, as fields of the
// field outer: "stats.ws".
func nameWithin(fields []summaryField, outer string) {
	for j := range fields {
		fields[j].name = outer + "." + fields[j].name
		nameWithin(fields[j].fields, outer)
	}
}

// sameArmour is reflect.DeepEqual of two lists of armour: nil differs
// from empty, and each piece is compared by what it holds.
func sameArmour(a, b []*state.Armour) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && (a[i] == nil || b[i] == nil || *a[i] != *b[i]) {
			return false
		}
	}
	return true
}

func (w *summaryWriter) diffWeapons(prefix string, a, b []*state.Weapon) {
	for _, wb := range b {
		for _, wa := range a {
			if wa.ID == wb.ID && wa.Damaged != wb.Damaged {
				w.part(prefix, wb.ID+".damaged")
				w.b = strconv.AppendBool(w.b, wb.Damaged)
			}
		}
	}
}

// listChange is "+x -y" for what a list gained and lost, counting repeats,
// gains then losses, each in alphabetical order: a list's order is not
// part of an outcome (two Lasting Injuries rolled in either order are
// one outcome), and exact odds merge runs whose lists differ only in
// order when nothing reads it (see Reads.orderFree).
func listChange(a, b []string) string { return string(appendListChange(nil, a, b)) }

// appendListChange appends listChange(a, b) to out.
func appendListChange(out []byte, a, b []string) []byte {
	// Both sorted, on the stack when short; then a merge of the two
	// walks what only b has (gained) and what only a has (lost).
	var bufA, bufB [16]string
	sa, sb := append(bufA[:0], a...), append(bufB[:0], b...)
	slices.Sort(sa)
	slices.Sort(sb)
	start := len(out)
	write := func(sign byte, s string) {
		if len(out) > start {
			out = append(out, ' ')
		}
		out = append(out, sign)
		out = append(out, s...)
	}
	for _, gains := range []bool{true, false} {
		i, j := 0, 0
		for i < len(sa) || j < len(sb) {
			switch {
			case i < len(sa) && j < len(sb) && sa[i] == sb[j]:
				i, j = i+1, j+1
			case j == len(sb) || (i < len(sa) && sa[i] < sb[j]):
				if !gains {
					write('-', sa[i])
				}
				i++
			default:
				if gains {
					write('+', sb[j])
				}
				j++
			}
		}
	}
	return out
}

// appendShow appends a text field's value: "—" for an empty one.
func appendShow(b []byte, s string) []byte {
	if s == "" {
		return append(b, "—"...)
	}
	return append(b, s...)
}

func show(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return "—"
	}
	return fmt.Sprint(v)
}
