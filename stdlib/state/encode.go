package state

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// FormatOf is the state-file format for a path: "json" for .json, else
// "yaml".
func FormatOf(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return "json"
	}
	return "yaml"
}

// Encode writes a state as "yaml" or "json". The output is deterministic
// (the same state gives the same bytes): fields in struct order, zero
// values left out where the json tag says omitempty, target numbers as
// "7+", a weapon's user Strength as "S+1" and no Damage as "-", and a
// model's characteristics, each weapon, armour and marker on one line. Decode reads it back to an equal state.
func Encode(st *State, format string) ([]byte, error) {
	if st == nil {
		return nil, fmt.Errorf("encode: no state")
	}
	e := &encoder{}
	root := e.structNode(reflect.ValueOf(st).Elem(), stateSchema)
	if e.err != nil {
		return nil, e.err
	}
	var buf bytes.Buffer
	switch format {
	case "yaml", "yml", "":
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(root); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		if err := enc.Close(); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
	case "json":
		writeJSON(&buf, root, 0)
		buf.WriteByte('\n')
	default:
		return nil, fmt.Errorf("encode: unknown format %q (want yaml or json)", format)
	}
	return buf.Bytes(), nil
}

type encoder struct {
	path []string
	err  error
}

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		var b strings.Builder
		for _, s := range e.path {
			writeSeg(&b, s)
		}
		e.err = fmt.Errorf("encode: %s: %s", b.String(), fmt.Sprintf(format, args...))
	}
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// quoted is a string written in double quotes: "4+", "S+1", "-".
func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

func intNode(x int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
}

func (e *encoder) structNode(v reflect.Value, si *structInfo) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	switch si {
	case statsSchema, weaponSchema, armourSchema, markerSchema, durationSchema:
		n.Style = yaml.FlowStyle // one line each, as on a Fighter card
	}
	for i := range si.fields {
		f := &si.fields[i]
		fv := v.Field(f.index)
		if f.folded && carried(v, si, i) {
			continue
		}
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		e.path = append(e.path, f.name)
		val := e.value(fv, v, si, f)
		e.path = e.path[:len(e.path)-1]
		if e.err != nil {
			return n
		}
		n.Content = append(n.Content, strNode(f.name), val)
	}
	return n
}

// carried reports whether the flag at position i is written by the field
// that sets it ("S+1" says user_strength; "-" says no_damage when d is 0).
func carried(v reflect.Value, si *structInfo, i int) bool {
	for j := range si.fields {
		c := &si.fields[j]
		if c.flag != i {
			continue
		}
		switch c.format {
		case formatStrength:
			return true
		case formatDamage:
			return !v.Field(si.fields[i].index).Bool() || v.Field(c.index).Int() == 0
		}
	}
	return false
}

func isEmpty(v reflect.Value) bool {
	if v.Kind() == reflect.Slice {
		return v.Len() == 0
	}
	return v.IsZero()
}

func (e *encoder) value(v, parent reflect.Value, si *structInfo, f *fieldInfo) *yaml.Node {
	switch f.kind {
	case kindString:
		return e.str(v.String())
	case kindBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool())}
	case kindInt:
		x := v.Int()
		flag := f.flag >= 0 && parent.Field(si.fields[f.flag].index).Bool()
		switch {
		case f.format == formatTarget && x > 0:
			return quoted(strconv.FormatInt(x, 10) + "+")
		case f.format == formatStrength && flag:
			switch {
			case x > 0:
				return quoted("S+" + strconv.FormatInt(x, 10))
			case x < 0:
				return quoted("S" + strconv.FormatInt(x, 10))
			}
			return quoted("S")
		case f.format == formatDamage && flag && x == 0:
			return quoted("-")
		}
		return intNode(x)
	case kindFloat:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			e.fail("want a finite number, got %v", x)
			return nil
		}
		tag := "!!float"
		s := formatFloat(x)
		if !strings.ContainsAny(s, ".eE") {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	case kindStrings:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for i := 0; i < v.Len(); i++ {
			n.Content = append(n.Content, e.str(v.Index(i).String()))
		}
		return n
	case kindStructs:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if v.Len() == 0 {
			n.Style = yaml.FlowStyle // []
		}
		for i := 0; i < v.Len() && e.err == nil; i++ {
			e.path = append(e.path, "["+strconv.Itoa(i)+"]")
			if p := v.Index(i); p.IsNil() {
				e.fail("null entry")
			} else {
				n.Content = append(n.Content, e.structNode(p.Elem(), f.elem))
			}
			e.path = e.path[:len(e.path)-1]
		}
		return n
	case kindStruct:
		return e.structNode(v, f.elem)
	case kindValues:
		return e.values(v.Interface().(map[string]any))
	case kindOptFloat:
		return e.plain(v.Elem().Float(), 0)
	}
	e.fail("this field cannot be written to a state file")
	return nil
}

func (e *encoder) str(s string) *yaml.Node {
	if !utf8.ValidString(s) {
		e.fail("invalid UTF-8 in %q", s)
	}
	n := strNode(s)
	if s == "<<" { // the YAML writer leaves it plain, where it reads as a merge key
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			// Line breaks and control characters go in double quotes, as
			// escapes: the YAML writer's block styles lose leading line
			// breaks and break on tabs.
			n.Style = yaml.DoubleQuotedStyle
			break
		}
	}
	return n
}

// formatFloat writes the shortest decimal that reads back as x.
func formatFloat(x float64) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// writeJSON writes a node tree as JSON, indented by two spaces; flow-style
// collections stay on one line.
func writeJSON(b *bytes.Buffer, n *yaml.Node, indent int) {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		open, close := byte('['), byte(']')
		if n.Kind == yaml.MappingNode {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		if len(n.Content) == 0 {
			b.WriteByte(close)
			return
		}
		flow := n.Style&yaml.FlowStyle != 0
		step := 1
		if n.Kind == yaml.MappingNode {
			step = 2
		}
		for i := 0; i < len(n.Content); i += step {
			if i > 0 {
				b.WriteByte(',')
				if flow {
					b.WriteByte(' ')
				}
			}
			if !flow {
				b.WriteByte('\n')
				b.WriteString(strings.Repeat("  ", indent+1))
			}
			if step == 2 {
				writeJSONString(b, n.Content[i].Value)
				b.WriteString(": ")
			}
			writeJSON(b, n.Content[i+step-1], indent+1)
		}
		if !flow {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", indent))
		}
		b.WriteByte(close)
	default:
		if n.Tag == "!!str" {
			writeJSONString(b, n.Value)
		} else {
			b.WriteString(n.Value)
		}
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff:
			// \u-escape what YAML parsers refuse raw
			b.WriteString(`\u`)
			b.WriteByte(hex[r>>12&0xf])
			b.WriteByte(hex[r>>8&0xf])
			b.WriteByte(hex[r>>4&0xf])
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// Clone is a deep copy of the state with its back-pointers set. It makes a
// dozen allocations whatever the size of the state: every gang, model,
// weapon, armour, marker and duration, and every list of strings, is carved
// from one block per type. Appending to a list of the copy reallocates it
// (each carved list is full), so no copy shares memory with another or with
// the original. (A Buffer makes such copies again and again in the same
// blocks: see CopyInto.)
func (s *State) Clone() *State {
	if s == nil {
		return nil
	}
	p := s.sizes().alloc()
	out := &State{}
	s.copyWith(out, p, cloneValues(s.Battle.Recorded))
	return out
}

// sizes counts what a copy of the state needs of each block.
func (s *State) sizes() poolSizes {
	n := poolSizes{gangs: len(s.Gangs), markers: len(s.Battle.Markers), durations: len(s.Battle.Durations), strings: len(s.Battle.Rules)}
	for _, g := range s.Gangs {
		if g == nil {
			continue
		}
		n.strings += len(g.Stash) + len(g.Territories)
		n.models += len(g.Models)
		for _, m := range g.Models {
			if m == nil {
				continue
			}
			n.weapons += len(m.Weapons)
			n.armour += len(m.Armour)
			n.strings += len(m.Conditions) + len(m.Skills) + len(m.Powers) + len(m.Rules) +
				len(m.Wargear) + len(m.Terrain) + len(m.Marks) + len(m.LastingInjuries) +
				len(m.Enmities) + len(m.LastingDamage) + len(m.Improvements) + len(m.PrimarySets) + len(m.SecondarySets)
			for _, w := range m.Weapons {
				if w != nil {
					n.strings += len(w.Traits)
				}
			}
		}
	}
	return n
}

// poolSizes is how many of each a copy of a state takes.
type poolSizes struct {
	gangs, models, weapons, armour, markers, durations, strings int
}

func (n poolSizes) alloc() clonePools {
	return clonePools{
		gangs:        make([]Gang, n.gangs),
		gangPtrs:     make([]*Gang, n.gangs),
		models:       make([]Model, n.models),
		modelPtrs:    make([]*Model, n.models),
		weapons:      make([]Weapon, n.weapons),
		weaponPtrs:   make([]*Weapon, n.weapons),
		armour:       make([]Armour, n.armour),
		armourPtrs:   make([]*Armour, n.armour),
		markers:      make([]Marker, n.markers),
		markerPtrs:   make([]*Marker, n.markers),
		durations:    make([]Duration, n.durations),
		durationPtrs: make([]*Duration, n.durations),
		strings:      make([]string, n.strings),
	}
}

// fits reports whether every block of p is at least as large as n asks.
func (p *clonePools) fits(n poolSizes) bool {
	return len(p.gangs) >= n.gangs && len(p.models) >= n.models && len(p.weapons) >= n.weapons &&
		len(p.armour) >= n.armour && len(p.markers) >= n.markers && len(p.durations) >= n.durations &&
		len(p.strings) >= n.strings
}

// copyWith makes out a deep copy of s carved from the blocks of p (which
// must fit s's sizes), with recorded as its battle's recorded answers.
// Everything out held before is dropped.
func (s *State) copyWith(out *State, p clonePools, recorded map[string]any) {
	*out = State{Battle: s.Battle}
	out.Battle.Rules = p.strs(s.Battle.Rules)
	out.Battle.Recorded = recorded
	if s.Battle.Durations != nil {
		out.Battle.Durations = carve(&p.durationPtrs, len(s.Battle.Durations))
		for i, du := range s.Battle.Durations {
			out.Battle.Durations[i] = nil
			if du != nil {
				c := &p.durations[i]
				*c = *du
				out.Battle.Durations[i] = c
			}
		}
	}
	if s.Battle.Markers != nil {
		out.Battle.Markers = carve(&p.markerPtrs, len(s.Battle.Markers))
		for i, mk := range s.Battle.Markers {
			out.Battle.Markers[i] = nil
			if mk != nil {
				c := &p.markers[i]
				*c = *mk
				out.Battle.Markers[i] = c
			}
		}
	}
	if s.Gangs != nil {
		out.Gangs = carve(&p.gangPtrs, len(s.Gangs))
	}
	for i, g := range s.Gangs {
		if g == nil {
			out.Gangs[i] = nil
			continue
		}
		ng := &p.gangs[i]
		*ng = *g
		ng.State = out
		ng.Stash = p.strs(g.Stash)
		ng.Territories = p.strs(g.Territories)
		if g.Models != nil {
			ng.Models = carve(&p.modelPtrs, len(g.Models))
		}
		for j, m := range g.Models {
			if m == nil {
				ng.Models[j] = nil
				continue
			}
			nm := &p.models[0]
			p.models = p.models[1:]
			*nm = *m
			nm.Gang = ng
			nm.friends = nil
			if m.Facing != nil {
				facing := *m.Facing
				nm.Facing = &facing
			}
			nm.Conditions = p.strs(m.Conditions)
			nm.Skills = p.strs(m.Skills)
			nm.Powers = p.strs(m.Powers)
			nm.Rules = p.strs(m.Rules)
			nm.Wargear = p.strs(m.Wargear)
			nm.Terrain = p.strs(m.Terrain)
			nm.Marks = p.strs(m.Marks)
			nm.LastingInjuries = p.strs(m.LastingInjuries)
			nm.Enmities = p.strs(m.Enmities)
			nm.LastingDamage = p.strs(m.LastingDamage)
			nm.Improvements = p.strs(m.Improvements)
			nm.PrimarySets = p.strs(m.PrimarySets)
			nm.SecondarySets = p.strs(m.SecondarySets)
			if m.Weapons != nil {
				nm.Weapons = carve(&p.weaponPtrs, len(m.Weapons))
				for k, w := range m.Weapons {
					nm.Weapons[k] = nil
					if w != nil {
						nw := &p.weapons[0]
						p.weapons = p.weapons[1:]
						*nw = *w
						nw.Traits = p.strs(w.Traits)
						nm.Weapons[k] = nw
					}
				}
			}
			if m.Armour != nil {
				nm.Armour = carve(&p.armourPtrs, len(m.Armour))
				for k, a := range m.Armour {
					nm.Armour[k] = nil
					if a != nil {
						na := &p.armour[0]
						p.armour = p.armour[1:]
						*na = *a
						nm.Armour[k] = na
					}
				}
			}
			ng.Models[j] = nm
		}
		out.Gangs[i] = ng
	}
}

type clonePools struct {
	gangs        []Gang
	gangPtrs     []*Gang
	models       []Model
	modelPtrs    []*Model
	weapons      []Weapon
	weaponPtrs   []*Weapon
	armour       []Armour
	armourPtrs   []*Armour
	markers      []Marker
	markerPtrs   []*Marker
	durations    []Duration
	durationPtrs []*Duration
	strings      []string
}

// strs copies a list of strings into the pool (nil stays nil).
func (p *clonePools) strs(src []string) []string {
	if src == nil {
		return nil
	}
	dst := carve(&p.strings, len(src))
	copy(dst, src)
	return dst
}

// carve takes the next n elements of a pool as a full slice (appending to
// it reallocates instead of overwriting the pool's next entries).
func carve[T any](pool *[]T, n int) []T {
	s := (*pool)[:n:n]
	*pool = (*pool)[n:]
	return s
}
