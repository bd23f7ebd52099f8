package syntax

import (
	"crypto/sha256"
	"reflect"
	"sync"

	"github.com/munda-rules/munda/dsl/diag"
)

// ParseCached is Parse, remembering what it parsed: the same name and
// text parse again to a copy of the same tree, without parsing. A
// process that loads the shipped rules under several selections (a test
// run, `munda test`, the language server) parses each file once; parsing
// is half of loading a ruleset. Each caller gets its own copy, since the
// checker writes into the tree (compiled programs, template parts). Files
// that do not parse are not kept.
//
// A tree is kept only from a file's second parse on: the first time only
// its key is noted. The kept copy is as large as the tree itself (5 MB
// for the default stack, a fifth of what the loaded rules keep, and
// dense with pointers the collector marks at each cycle), and a process
// that loads its rules once (`munda odds`, `munda run`) would never use
// it; one that loads them again pays one more parse of each file.
func ParseCached(name string, src []byte) (*File, diag.Diagnostics) {
	key := parseKey{name: name, sum: sha256.Sum256(src)}
	parsed.Lock()
	f, ok := parsed.files[key]
	_, seen := parsed.seen[key]
	if !ok && !seen {
		if len(parsed.seen) >= maxSeen {
			clear(parsed.seen) // a crude bound, as for the trees
		}
		parsed.seen[key] = struct{}{}
	}
	parsed.Unlock()
	if ok {
		return Clone(f), nil
	}
	f, diags := Parse(name, src)
	if f == nil || len(diags) > 0 || !seen {
		return f, diags
	}
	parsed.Lock()
	if len(parsed.files) >= maxParsed || parsed.bytes+len(src) > maxParsedBytes {
		parsed.files, parsed.bytes = map[parseKey]*File{}, 0 // a crude bound: start again
	}
	parsed.files[key] = Clone(f)
	parsed.bytes += len(src)
	parsed.Unlock()
	return f, nil
}

// maxParsed and maxParsedBytes bound what is kept: far more than the
// shipped rules hold, far less than memory (a language server sees every
// version of a file being edited).
const (
	maxParsed      = 1024
	maxParsedBytes = 16 << 20
	// maxSeen bounds the keys of files parsed once (a few dozen bytes each).
	maxSeen = 4 * maxParsed
)

type parseKey struct {
	name string
	sum  [sha256.Size]byte
}

var parsed = struct {
	sync.Mutex
	files map[parseKey]*File
	bytes int
	seen  map[parseKey]struct{} // files parsed once, whose trees are not kept
}{files: map[parseKey]*File{}, seen: map[parseKey]struct{}{}}

// Clone copies a syntax tree deeply: every node, list and string of it is
// the copy's own, but for the source text, which is never written.
func Clone(f *File) *File {
	if f == nil {
		return nil
	}
	out := clone(reflect.ValueOf(f))
	return out.Interface().(*File)
}

var bytesType = reflect.TypeOf([]byte(nil))

// deepFields are the fields of a struct type that hold something to copy
// deeply (a pointer, interface or slice, or a struct that does): the
// others, positions most of all, are copied with the struct. Cloning the
// shipped rules for every load spent most of its time walking positions.
func deepFields(t reflect.Type) []int {
	if f, ok := deepFieldsOf.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := 0; i < t.NumField(); i++ {
		if holdsReferences(t.Field(i).Type, map[reflect.Type]bool{}) {
			out = append(out, i)
		}
	}
	deepFieldsOf.Store(t, out)
	return out
}

var deepFieldsOf sync.Map // reflect.Type → []int

// holdsReferences reports whether a value of type t holds anything clone
// copies deeply. seen cuts recursive types short (they hold pointers).
func holdsReferences(t reflect.Type, seen map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		return true
	case reflect.Slice:
		return t != bytesType
	case reflect.Struct:
		if seen[t] {
			return false
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			if holdsReferences(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

func clone(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Struct, reflect.Slice:
		c := reflect.New(v.Type()).Elem()
		cloneInto(c, v)
		return c
	}
	return v
}

// cloneInto makes dst, a settable value of v's type holding its zero, a
// deep copy of v, in place: a node behind a pointer or in a list is
// allocated once, where it will live, not built apart and copied there.
func cloneInto(dst, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		c := reflect.New(v.Type().Elem())
		cloneInto(c.Elem(), v.Elem())
		dst.Set(c)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() == reflect.Pointer && !e.IsNil() { // a node: one allocation
			c := reflect.New(e.Type().Elem())
			cloneInto(c.Elem(), e.Elem())
			dst.Set(c)
			return
		}
		dst.Set(clone(e))
	case reflect.Struct:
		dst.Set(v) // plain fields (positions, strings, numbers) by value
		for _, i := range deepFields(v.Type()) {
			if f := dst.Field(i); f.CanSet() {
				f.SetZero()
				cloneInto(f, v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() || v.Type() == bytesType {
			dst.Set(v)
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			cloneInto(c.Index(i), v.Index(i))
		}
		dst.Set(c)
	default:
		dst.Set(v)
	}
}
