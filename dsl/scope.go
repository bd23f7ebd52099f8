package dsl

import (
	"maps"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/expr-lang/expr/checker/nature"
	"github.com/expr-lang/expr/types"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// The types rules can name (parameters, function results). Expressions
// see the state model's Go types; people see these names.
var (
	typeGang   = reflect.TypeOf((*state.Gang)(nil))
	typeModel  = reflect.TypeOf((*state.Model)(nil))
	typeWeapon = reflect.TypeOf((*state.Weapon)(nil))
	typeState  = reflect.TypeOf((*state.State)(nil))
	typeBattle = reflect.TypeOf((*state.Battle)(nil))
	typeInt    = reflect.TypeOf(0)
	typeFloat  = reflect.TypeOf(0.0)
	typeBool   = reflect.TypeOf(false)
	typeString = reflect.TypeOf("")
	typeAny    = reflect.TypeOf((*any)(nil)).Elem()
)

// ParamTypes maps the type names that parameters may declare to Go types.
var ParamTypes = map[string]reflect.Type{
	"gang":   typeGang,
	"model":  typeModel,
	"weapon": typeWeapon,
	"int":    typeInt,
	"float":  typeFloat,
	"bool":   typeBool,
	"string": typeString,
	"any":    typeAny,
}

// TypeName is how a Go type is shown to people writing rules.
func TypeName(t reflect.Type) string {
	if t == nil {
		return "any"
	}
	for name, pt := range ParamTypes {
		if pt == t {
			return name
		}
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "list of " + TypeName(t.Elem())
	case reflect.Map:
		return "map of " + TypeName(t.Elem())
	case reflect.Pointer:
		return TypeName(t.Elem())
	case reflect.Interface:
		return "any"
	}
	if t == reflect.TypeOf(FeatureData{}) {
		return "feature"
	}
	return strings.ToLower(strings.TrimPrefix(t.String(), "state."))
}

// humanizeTypes rewrites Go type names in expr's messages.
var humanizeTypes = strings.NewReplacer(
	"[]*state.Model", "list of model", "[]*state.Gang", "list of gang", "[]*state.Weapon", "list of weapon",
	"*state.Model", "model", "*state.Gang", "gang", "*state.Weapon", "weapon", "*state.State", "state",
	"*state.Battle", "battle", "*state.Marker", "marker", "*state.Armour", "armour",
	"state.Model", "model", "state.Gang", "gang", "state.Weapon", "weapon", "state.State", "state",
	"state.Battle", "battle", "state.Stats", "stats", "state.Marker", "marker", "state.Armour", "armour",
	"[]string", "list of string", "[]int", "list of int", "[]interface {}", "list", "interface {}", "any",
	"map[string]int", "map of int", "map[string][]int", "map of list of int",
	"[]*dsl.FeatureData", "list of feature", "*dsl.FeatureData", "feature", "dsl.FeatureData", "feature",
)

// assignable reports whether a value of type from may go where to is wanted.
// Unknown types (nil, any) are accepted: expr could not tell, so neither can we.
func assignable(from, to reflect.Type) bool {
	if from == nil || to == nil || from.Kind() == reflect.Interface || to.Kind() == reflect.Interface {
		return true
	}
	if from == to || from.AssignableTo(to) {
		return true
	}
	if to == typeFloat && from.Kind() == reflect.Int {
		return true
	}
	if (from.Kind() == reflect.Slice || from.Kind() == reflect.Array) && to.Kind() == reflect.Slice {
		return assignable(from.Elem(), to.Elem())
	}
	// A marker a rule places is written as a map of its fields (the
	// interpreter checks the keys and the markers left).
	if to == typeMarker && from.Kind() == reflect.Map && from.Key().Kind() == reflect.String {
		return true
	}
	return false
}

var typeMarker = reflect.TypeOf(&state.Marker{})

// isNumber reports whether t is (or may be) a number.
func isNumber(t reflect.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32, reflect.Interface:
		return true
	}
	return false
}

// symbolKind says what introduced a name into a scope.
type symbolKind string

const (
	symParam  symbolKind = "parameter"
	symLet    symbolKind = "let"
	symRoll   symbolKind = "roll"
	symTest   symbolKind = "test"
	symChoose symbolKind = "choice"
	symLoop   symbolKind = "loop variable"
	symGlobal symbolKind = "global"
)

// symbol is a name visible to expressions.
type symbol struct {
	name string
	kind symbolKind
	typ  reflect.Type
	at   *syntax.Ident // where it was declared (nil for globals)
	used bool
}

// scope is a chain of blocks. Lookups walk outwards.
type scope struct {
	parent *scope
	syms   map[string]*symbol
	order  []*symbol
	env    types.Map      // cached expr environment; nil when stale
	nature *nature.Nature // expr's view of env, made with it
	slots  *Slots         // the check's numbering of frame slots; nil: number at run time
}

func newScope(parent *scope) *scope {
	s := &scope{parent: parent, syms: map[string]*symbol{}}
	if parent != nil {
		s.slots = parent.slots
	}
	return s
}

func (s *scope) lookup(name string) *symbol {
	for sc := s; sc != nil; sc = sc.parent {
		if sym, ok := sc.syms[name]; ok {
			return sym
		}
	}
	return nil
}

func (s *scope) define(sym *symbol) {
	// Every name a frame may hold gets its slot now, so that runs find
	// it in the published numbering (frameslots.go) without a lock.
	if s.slots != nil {
		s.slots.Of(sym.name)
	}
	s.syms[sym.name] = sym
	s.order = append(s.order, sym)
	s.env, s.nature = nil, nil
}

// rootScope is a scope of its own, numbering names in the check's slots.
func (c *checker) rootScope() *scope {
	s := newScope(nil)
	s.slots = c.exprc.slots
	return s
}

// names lists every visible name, for did-you-mean.
func (s *scope) names() []string {
	seen := map[string]bool{}
	var out []string
	for sc := s; sc != nil; sc = sc.parent {
		for name := range sc.syms {
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// exprEnv is the typed environment for expressions compiled in this scope.
func (s *scope) exprEnv() types.Map {
	if s.env != nil && (s.parent == nil || s.parent.env != nil) {
		return s.env
	}
	var env types.Map
	if s.parent != nil && len(s.syms) == 0 {
		// Nothing of its own: the parent's environment, which is never
		// changed once made (a define makes a new one).
		s.env = s.parent.exprEnv()
		s.nature = s.parent.nature // of that same map, if made
		return s.env
	}
	if s.parent != nil {
		env = maps.Clone(s.parent.exprEnv()) // a copy of its table, not each name hashed again
	} else {
		env = make(types.Map, len(s.syms))
	}
	for name, sym := range s.syms {
		env[name] = exprType(sym.typ)
	}
	s.env, s.nature = env, nil
	return env
}

// envNature is expr's view of exprEnv, made once per environment: it is
// nil or that of env.
func (s *scope) envNature() *nature.Nature {
	env := s.exprEnv()
	if s.nature == nil {
		s.nature = envNature(env)
	}
	return s.nature
}

func exprType(t reflect.Type) types.Type {
	if t == nil || t.Kind() == reflect.Interface {
		return types.Any
	}
	// Made once per type: each environment built (one per scope, again
	// after each name a scope defines) would otherwise box a zero value
	// and the type for every name in it.
	if et, ok := exprTypes.Load(t); ok {
		return et.(types.Type)
	}
	et := types.TypeOf(reflect.Zero(t).Interface())
	exprTypes.Store(t, et)
	return et
}

// exprTypes holds exprType by Go type (the state's types and the rules'
// values: few).
var exprTypes sync.Map

// fieldByTag finds a struct field by its expr tag. A field found is kept
// (only fields that exist, so misspelt names cannot grow it).
func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	key := taggedName{t, name}
	if f, ok := fieldsByTag.Load(key); ok {
		return f.(reflect.StructField), true
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && f.Tag.Get("expr") == name {
			fieldsByTag.Store(key, f)
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// taggedName is a field's expr name in a struct type.
type taggedName struct {
	t    reflect.Type
	name string
}

// fieldsByTag are the fields fieldByTag found, by taggedName.
var fieldsByTag sync.Map

// fieldNames lists the expr names of a struct's fields, for did-you-mean.
func fieldNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("expr"); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}
