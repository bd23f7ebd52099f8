package interpreter

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/munda-rules/munda/stdlib/state"
)

// stateFields are the fields of the state's structs a rule can name: by
// Go name, with their names in the rules.
func stateFields() map[string][]string {
	out := map[string][]string{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() != reflect.TypeOf(state.State{}).PkgPath() {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Tag.Get("expr")
			if name == "" || name == "-" {
				name = strings.ToLower(f.Name)
			}
			if !slices.Contains(out[f.Name], name) {
				out[f.Name] = append(out[f.Name], name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(state.State{}))
	return out
}

// goWriteFiles are the Go files allowed to write fields of the state
// without listing them in goWrittenFields: the state's loading, saving,
// copying and checking, the checkpoints' snapshots (copies), and the
// checker's compiling of test blocks (whose Rules is a test's ruleset,
// not the battle's: a field of that name written there kept the
// battle's rules from ever being taken as unwritten).
var goWriteFiles = map[string]bool{
	"interpreter/checkpoint.go": true, "interpreter/resume.go": true,
	"stdlib/state/decode.go": true, "stdlib/state/encode.go": true, "stdlib/state/validate.go": true,
	"stdlib/state/buffer.go": true, "dsl/testblock.go": true,
}

// goWrite is a line of Go code that writes a field of the state.
type goWrite struct{ at, field string }

// reflectWrite finds writes by reflection or through unsafe pointers.
var reflectWrite = regexp.MustCompile(`\.(Set|SetInt|SetString|SetBool|SetFloat|SetLen|SetMapIndex)\(|reflect\.Append|\*\(\*[\w\[\].]+\)\([^)]*\)\s*=[^=]`)

// reflectWriteFiles write fields by reflection where a rule's statement
// names them (writes.go sees those): set, add, remove (exec.go,
// setters.go), markers placed by a set (markers.go), improve and worsen
// (characteristic.go), a period's end removing what its durations name
// (durations.go, Checkpoint.Decided reads the durations); or new values
// no state holds yet (weapon_of.go, a weapon's profile; convertTo in
// exec.go); or garbage into a slab's rewound arrays, for tests, never a
// state (slab/poison.go).
var reflectWriteFiles = map[string]bool{
	"interpreter/exec.go": true, "interpreter/setters.go": true, "interpreter/markers.go": true,
	"interpreter/durations.go": true, "dsl/characteristic.go": true, "stdlib/weapon_of.go": true,
	"stdlib/state/decode.go": true, "stdlib/slab/poison.go": true,
}

// goWritesFound lists each line of Go code that runs rules and writes
// (assigns, increments, edits, appends to, takes the address of, or sets
// by reflection outside the files that do so for the rules' statements)
// a field of the state, by its Go name: any struct's field of that name,
// to be safe.
func goWritesFound(t *testing.T) []goWrite {
	fields := stateFields()
	var names []string
	for n := range fields {
		names = append(names, n)
	}
	slices.Sort(names)
	alt := strings.Join(names, "|")
	// An assignment, an increment, an edit of an element, an append to,
	// a copy or sort into, and an address taken (to write through).
	write := regexp.MustCompile(`\.(?P<f>` + alt + `)(\[[^\]]*\])*\s*(=[^=]|\+=|-=|\*=|/=|\|=|&=|\+\+|--)`)
	appendTo := regexp.MustCompile(`(append|copy|clear|slices\.\w+|sort\.\w+)\(\s*[\w.\[\]()]*\.(?P<f>` + alt + `)\b`)
	addr := regexp.MustCompile(`&[\w.\[\]()]*\.(?P<f>` + alt + `)\b`)
	var out []goWrite
	// Importing a roster, the editor's help, rules' documents, reading the
	// weapons' catalogue, the rules' syntax: none runs while rules run.
	skip := []string{"stdlib/yaktribe", "dsl/lsp", "dsl/ruledoc", "stdlib/catalogue", "dsl/syntax"}
	eachGoLine(t, skip, goWriteFiles, func(rel string, n int, line string) {
		for _, re := range []*regexp.Regexp{write, appendTo, addr} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				out = append(out, goWrite{rel + ":" + strconv.Itoa(n), m[re.SubexpIndex("f")]})
			}
		}
		if reflectWrite.MatchString(line) && !reflectWriteFiles[rel] {
			out = append(out, goWrite{rel + ":" + strconv.Itoa(n), "(by reflection)"})
		}
	})
	return out
}

// A field that Go code running rules writes (outside the state's
// loading, saving, copying and checking, and the snapshots of
// checkpoints) is listed in goWrittenFields: Checkpoint.Decided then
// takes it as written anywhere. A new write by Go code fails here.
func TestGoWritesAreListed(t *testing.T) {
	found := goWritesFound(t)
	if len(found) == 0 {
		t.Fatal("no Go write found: the search is broken")
	}
	for _, w := range found {
		if w.field == "(by reflection)" {
			t.Errorf("%s writes by reflection: if it writes the state by a name the rules did not write (writes.go), list its fields in goWrittenFields; then add the file to reflectWriteFiles", w.at)
			continue
		}
		if !slices.Contains(goWrittenFields, w.field) {
			t.Errorf("%s writes state field %s: add it to goWrittenFields (writes.go)", w.at, w.field)
		}
	}
}
