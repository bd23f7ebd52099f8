package state

import (
	"fmt"
	"reflect"

	"gopkg.in/yaml.v3"

	"github.com/munda-rules/munda/dsl/diag"
)

// DecodeCard reads one weapon profile (v a *Weapon) or one armour item (v
// an *Armour) from a mapping node of a YAML file, in the card notation of
// state files ("4+", '8"', "S+1", "-"), and checks its bounds as Validate
// does. name is the file as diagnostics show it and data its bytes (for
// offsets); path prefixes the problems' field paths ("weapons[3]"). The
// problems carry the state's codes (diag.CodeState…).
//
// It is how a catalogue of equipment (stdlib/catalogue) writes profiles
// exactly as a state file does. No input makes it panic.
func DecodeCard(name string, data []byte, n *yaml.Node, path string, v any) (problems diag.Diagnostics) {
	d := &decoder{name: name, data: data}
	if path != "" {
		d.path = []string{path}
	}
	defer func() {
		if r := recover(); r != nil {
			problems = diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeStateInternal, Subject: &diag.Range{Filename: name},
				Summary: fmt.Sprintf("internal error reading a profile: %v", r)}}
		}
	}()
	if n == nil {
		d.add(nil, diag.CodeStateType, "", "want a mapping of fields, got nothing")
		return d.problems
	}
	val := &validator{}
	switch v := v.(type) {
	case *Weapon:
		d.decodeStruct(n, reflect.ValueOf(v).Elem(), weaponSchema)
		if len(d.problems) == 0 {
			val.weapon(where{g: -1, m: -1}, v)
		}
	case *Armour:
		d.decodeStruct(n, reflect.ValueOf(v).Elem(), armourSchema)
		if len(d.problems) == 0 && (v.Save < 0 || v.Save > maxTarget) {
			val.target(where{g: -1, m: -1}, "save", v.Save)
		}
	default:
		d.add(n, diag.CodeStateInternal, "", fmt.Sprintf("DecodeCard reads a *Weapon or an *Armour, not %T", v))
		return d.problems
	}
	for _, p := range val.problems {
		// The validator's paths are the card's own fields: place them
		// under path, at the field in the file.
		full := p.Path
		if path != "" {
			full = path + "." + p.Path
		}
		line, col := locate(n, p.Path)
		d.problem(p.Code, line, col, full, p.Summary)
	}
	return d.problems
}
