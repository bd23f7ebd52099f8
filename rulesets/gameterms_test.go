package rulesets_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/rulesets"
	"github.com/munda-rules/munda/stdlib/state"
)

// The game's rules live in rule files, never in Go (DESIGN.md §1): no
// string literal in the Go code outside cmd/ and tests names a game term.
// The terms are what the shipped rules declare (kinds of model, statuses,
// secondary statuses, enum members, skills, traits, powers, actions,
// conditions, house rules and standing rules), and the few below that no
// declaration names yet. The state's field names are its schema and live
// in struct tags, which are not looked at; neither are comments.

// undeclaredTerms are game words the rules use but do not (yet) declare:
// fighter categories, scenario rules and special rules read from states.
var undeclaredTerms = []string{
	"leader", "champion", "ganger", "juve", "prospect", "specialist", "brute", "crew",
	"reinforcements", "flooded_passage", "badzone",
	"gang_hierarchy_leader", "gang_hierarchy_champion",
}

// languagePhrases are phrases of the rule language (or of the state's
// schema) whose words are also game terms: the trait Force, the Special
// action type, the Standing status. They are removed from a literal before
// its words are looked at.
// The paths of the web playground's directories (web/wasm, web/dist) name
// the trait Web by chance.
var languagePhrases = regexp.MustCompile(`(?i)\bin force\b|\bspecial rules?\b|\bstanding rules?\b|\bweb/(wasm|dist)\b`)

func TestNoGameTermsInGo(t *testing.T) {
	terms := gameTerms(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	found, files := termsInGo(t, root, terms)
	if files < 20 {
		t.Fatalf("found only %d Go files under %s", files, root)
	}
	for _, f := range found {
		t.Errorf("%s: %s names the game term %q; declare it in the rules and read it from there", f.at, f.literal, f.term)
	}
}

// gameTerms collects the terms the shipped rules declare, under every
// base ruleset with every house group switched on. A word mapped to false
// is not a term, even when it is a term's plural ("flesh_wounds", a field
// of the state).
func gameTerms(t *testing.T) map[string]bool {
	t.Helper()
	terms := map[string]bool{}
	for _, w := range undeclaredTerms {
		terms[w] = true
	}
	var houses []string
	for _, d := range rulesets.HouseDirs() {
		houses = append(houses, strings.TrimPrefix(d, "house/"))
	}
	for _, base := range rulesets.Bases() {
		rules, diags := rulesets.Load(rulesets.Selection{Base: base, Houses: houses})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", base, diags.Err())
		}
		idx := rules.Index
		if len(idx.Kinds) == 0 {
			t.Fatalf("%s declares no kind of model", base)
		}
		for id, k := range idx.Kinds {
			terms[id] = true
			for _, s := range k.Statuses {
				terms[s.ID.Name] = true
				for _, m := range s.Secondaries {
					terms[m.ID.Name] = true
				}
			}
		}
		for _, e := range idx.Enums {
			for _, m := range e.Members {
				terms[m] = true
			}
		}
		for _, byID := range idx.Features {
			for id := range byID {
				terms[id] = true
			}
		}
		for id := range idx.HouseRules {
			_, rule, _ := strings.Cut(id, ".")
			terms[rule] = true
		}
		for id := range rules.StandingRules() {
			terms[id] = true
		}
	}
	// The language's keywords ("power", "skill", "set" …) are its own
	// words, and the state's field names ("flesh_wounds") its schema.
	for _, kw := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(syntax.Grammar(), -1) {
		delete(terms, kw[1])
	}
	for _, name := range schemaFields(reflect.TypeOf(state.State{}), map[reflect.Type]bool{}) {
		terms[name] = false
	}
	return terms
}

// schemaFields lists the field names (json tags) of a state struct and
// the structs below it.
func schemaFields(t reflect.Type, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, name)
		out = append(out, schemaFields(f.Type, seen)...)
	}
	return out
}

// termFound is a string literal that names a game term.
type termFound struct {
	at, literal, term string
}

var wordRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]*`)

// termsInGo parses every non-test .go file under root, outside cmd/ and
// testdata/, and returns the string literals (struct tags and import
// paths aside) with a word that is a term, or a term's plural, in the
// order of files and then of the source; and how many files it read.
func termsInGo(t *testing.T, root string, terms map[string]bool) ([]termFound, int) {
	t.Helper()
	var out []termFound
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata" || rel == "cmd") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		skip := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				if n.Tag != nil {
					skip[n.Tag] = true
				}
			case *ast.ImportSpec:
				skip[n.Path] = true
			case *ast.BasicLit:
				if n.Kind != token.STRING || skip[n] {
					return true
				}
				text, err := strconv.Unquote(n.Value)
				if err != nil {
					text = n.Value
				}
				text = languagePhrases.ReplaceAllString(text, " ")
				for _, w := range wordRE.FindAllString(text, -1) {
					w = strings.ToLower(w)
					term := ""
					isTerm, known := terms[w]
					switch {
					case known && !isTerm:
					case isTerm:
						term = w
					case strings.HasSuffix(w, "s") && terms[strings.TrimSuffix(w, "s")]:
						term = strings.TrimSuffix(w, "s")
					}
					if term != "" {
						out = append(out, termFound{at: fset.Position(n.Pos()).String(), literal: n.Value, term: term})
						break
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, files
}

// The check itself finds what it is for: game words in the state
// validation as it was written before the rules declared them.
func TestTermsInGoFindsGameWords(t *testing.T) {
	dir := t.TempDir()
	src := `package state

type Tagged struct {
	Kind string ` + "`json:\"kind\" expr:\"vehicle\"`" + `
}

var statusPairs = map[string]map[string][]string{
	"fighter": {"standing": {"active", "engaged"}},
}

const hint = "standing, prone or out_of_action for fighters"
const fine = "a model cannot be aboard itself"
`
	if err := os.WriteFile(filepath.Join(dir, "validate.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	terms := map[string]bool{"fighter": true, "vehicle": true, "standing": true, "active": true, "engaged": true, "prone": true}
	var got []string
	found, _ := termsInGo(t, dir, terms)
	for _, f := range found {
		got = append(got, f.term)
	}
	want := "fighter standing active engaged standing"
	if strings.Join(got, " ") != want {
		t.Errorf("found %q, want %q", strings.Join(got, " "), want)
	}
}
