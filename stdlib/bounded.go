package stdlib

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
)

// Bounds on the values an expression may build. expr budgets the lists
// and maps it makes itself, but not strings, nor lists its built-ins
// concatenate: `s + s` forty times, or replace() nested nine times,
// would otherwise grow until memory runs out.
const (
	MaxStringBytes = 1 << 20 // one string
	MaxListItems   = 100_000 // one list built by concat
)

// concatOp is the function string + string compiles to.
const concatOp = ConcatFunction

// ConcatFunction is the name of the function string + string compiles
// to, which fails on a text longer than MaxStringBytes.
const ConcatFunction = "_concat"

// Internal tells whether name is a function munda compiles operators to
// (string +): rules may not declare one of that name, which would change
// the operator, or make expr refuse its signature.
func Internal(name string) bool { return name == concatOp }

// boundedOptions replace expr's string and list builders that can grow a
// value many times over with versions that stop at the bounds, and make
// string + string one of them.
func boundedOptions() []expr.Option {
	return []expr.Option{
		intOption(),
		expr.Function(concatOp, func(args ...any) (any, error) {
			a, b := stringArg(args[0]), stringArg(args[1])
			if err := checkString(len(a) + len(b)); err != nil {
				return nil, err
			}
			return a + b, nil
		}, new(func(string, string) string)),
		expr.Operator("+", concatOp),
		expr.Function("repeat", func(args ...any) (any, error) {
			s, n := stringArg(args[0]), intArg(args[1])
			if n < 0 {
				return nil, fmt.Errorf("repeat: a negative count (%d)", n)
			}
			if len(s) > 0 && n > MaxStringBytes/len(s) {
				return nil, checkString(MaxStringBytes + 1)
			}
			return strings.Repeat(s, n), nil
		}, new(func(string, int) string)),
		expr.Function("replace", func(args ...any) (any, error) {
			s, old, repl := stringArg(args[0]), stringArg(args[1]), stringArg(args[2])
			if n := strings.Count(s, old); len(repl) > len(old) && n > 0 {
				if err := checkString(len(s) + n*(len(repl)-len(old))); err != nil {
					return nil, err
				}
			}
			return strings.ReplaceAll(s, old, repl), nil
		}, new(func(string, string, string) string)),
		expr.Function("join", func(args ...any) (any, error) {
			list, _ := args[0].([]any)
			sep := ""
			if len(args) > 1 {
				sep = stringArg(args[1])
			}
			parts := make([]string, len(list))
			size := 0
			for i, x := range list {
				parts[i] = fmt.Sprint(x)
				size += len(parts[i]) + len(sep)
				if err := checkString(size); err != nil {
					return nil, err
				}
			}
			return strings.Join(parts, sep), nil
		}, new(func([]any) string), new(func([]any, string) string)),
		expr.Function(ListConcatFunction, ConcatLists, new(func(...any) []any)),
	}
}

// ListConcatFunction is the name of ConcatLists in the rules: concat(a, b, …).
const ListConcatFunction = "concat"

// ConcatLists is the rules' concat(a, b, …) of lists: their items in one
// []any, nil for none at all, an error for an argument that is not a list
// or past MaxListItems items.
func ConcatLists(args ...any) (any, error) {
	// The lists are measured first, and the result made once at
	// its length; a []any is copied without reflection.
	total := 0
	for _, a := range args {
		list := reflect.ValueOf(a)
		if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
			return nil, fmt.Errorf("concat takes lists, not %T", a)
		}
		if total+list.Len() > MaxListItems {
			return nil, fmt.Errorf("the list would hold more than %d items (the limit)", MaxListItems)
		}
		total += list.Len()
	}
	if total == 0 {
		return []any(nil), nil
	}
	out := make([]any, 0, total)
	for _, a := range args {
		if items, ok := a.([]any); ok {
			out = append(out, items...)
			continue
		}
		list := reflect.ValueOf(a)
		for i := 0; i < list.Len(); i++ {
			out = append(out, list.Index(i).Interface())
		}
	}
	return out, nil
}

func checkString(n int) error {
	if n > MaxStringBytes {
		return fmt.Errorf("the text would be longer than %d bytes (the limit)", MaxStringBytes)
	}
	return nil
}

func intArg(v any) int {
	n, _ := v.(int)
	return n
}

// intOption replaces expr's int(), which turns a number past int's range
// (int(1e300), from a measure a player answered) into whatever the
// machine makes of it (-9223372036854775808), with one that says so. It
// takes the same arguments, checked by the built-in's own rule.
func intOption() expr.Option {
	validate := builtin.Builtins[builtin.Index["int"]].Validate
	return func(c *conf.Config) {
		c.Functions["int"] = &builtin.Function{Name: "int", Validate: validate, Func: func(args ...any) (any, error) {
			switch x := args[0].(type) {
			case float64:
				return floatToInt(x)
			case float32:
				return floatToInt(float64(x))
			case string:
				n, err := strconv.Atoi(x)
				if err != nil {
					return nil, fmt.Errorf("int(%q): not a whole number", x)
				}
				return n, nil
			}
			return builtin.Int(args[0]), nil
		}}
	}
}

// floatToInt truncates x as int() does, or says it cannot.
func floatToInt(x float64) (int, error) {
	if math.IsNaN(x) || x >= math.MaxInt64 || x < math.MinInt64 {
		return 0, fmt.Errorf("int(%v): not a whole number munda can count with", x)
	}
	return int(x), nil
}
