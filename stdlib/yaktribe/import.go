// Package yaktribe imports a gang exported from Yaktribe's gang manager
// (its JSON: yaktribe.games/underhive/json/gang/ID.json) as a gang of a
// munda state. Yaktribe's rosters carry names, not profiles: weapon
// profiles and armour saves come from an equipment catalogue
// (stdlib/catalogue), and the words of the game — statuses, categories,
// where skills and Lasting Injuries live in the rules — from a ruleset's
// import mapping (Mapping). Import is the whole of it:
//
//	gang, diags := yaktribe.Import("gang.json", data, yaktribe.Config{Catalogue: cat, Mapping: m, Skills: skills, Injuries: injuries})
//
// Errors in the export are diagnostics naming the field (gang.gangers[2].ws)
// and its place in the file; names the catalogue or rules do not know are
// warnings, and the gang still imports.
package yaktribe

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/stdlib/catalogue"
	"github.com/munda-rules/munda/stdlib/state"
)

// Limits on an export, which may come from anyone.
const (
	MaxBytes    = 8 << 20   // bytes in an export
	MaxNodes    = 1_000_000 // JSON values in an export
	MaxDepth    = 32        // nesting of JSON objects and lists
	MaxGangers  = 1000      // gangers in a gang
	MaxItems    = 200       // equipment, skills or injuries of one ganger; items of the stash
	MaxQuantity = 20        // of one item
	MaxWarnings = 200       // warnings reported before the rest are counted
	maxCount    = 1_000_000 // XP, kills, credits: room for any campaign, as the state allows
	maxIDLength = 100
)

// Config is what an import needs besides the export.
type Config struct {
	Catalogue *catalogue.Catalogue // weapon profiles, armour and wargear
	Mapping   *Mapping             // the ruleset's words
	// Skills and Injuries are the rules' (RuleNames gives them), for
	// mapping roster names to ids and for did-you-means.
	Skills, Injuries []Name
}

// Import reads a Yaktribe gang export. name is the file as diagnostics
// show it. The diagnostics hold errors (then the gang is nil) or only
// warnings: equipment the catalogue does not know (the model imports, the
// item as a weapon marked no_profile), skills and injuries the rules do
// not know (kept, with a did-you-mean). No input makes Import panic.
func Import(name string, data []byte, cfg Config) (gang *state.Gang, diags diag.Diagnostics) {
	im := &importer{name: name, data: data, cfg: cfg}
	defer func() {
		if r := recover(); r != nil {
			gang, diags = nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeImportSyntax, Subject: &diag.Range{Filename: name},
				Summary: fmt.Sprintf("internal error importing the gang: %v", r)}}
		}
	}()
	if cfg.Mapping == nil {
		return nil, diag.Diagnostics{{Severity: diag.Error, Code: diag.CodeImportMapping, Subject: &diag.Range{Filename: name},
			Summary: "no import mapping: give the ruleset's (Config.Mapping)"}}
	}
	gang = im.run()
	// In the order of the file; problems at one place (the fields missing
	// from an object) in the order found.
	sort.SliceStable(im.diags, func(i, j int) bool { return im.diags[i].Subject.Start.Offset < im.diags[j].Subject.Start.Offset })
	if im.errors >= state.MaxProblems {
		im.diags = append(im.diags, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeImportLimit, Subject: &diag.Range{Filename: name},
			Summary: "too many problems; stopping here"})
	}
	if im.errors > 0 {
		return nil, im.errorsOnly()
	}
	if im.dropped > 0 {
		im.diags = append(im.diags, &diag.Diagnostic{Severity: diag.Warning, Code: diag.CodeImportUnknownName, Subject: &diag.Range{Filename: name},
			Summary: fmt.Sprintf("%d more warnings not shown", im.dropped)})
	}
	return gang, im.diags
}

type importer struct {
	name     string
	data     []byte
	cfg      Config
	diags    diag.Diagnostics
	errors   int
	dropped  int // warnings past MaxWarnings
	lines    []int
	itemKeys []string                     // the catalogue's names as keys, for did-you-means
	index    map[string]map[string]string // skills, injuries: nameIndex
}

// at is the range of byte offset off.
func (im *importer) at(off int) *diag.Range {
	if off < 0 {
		return &diag.Range{Filename: im.name}
	}
	off = min(off, len(im.data))
	if im.lines == nil {
		im.lines = []int{0}
		for i, c := range im.data {
			if c == '\n' {
				im.lines = append(im.lines, i+1)
			}
		}
	}
	line := sort.Search(len(im.lines), func(i int) bool { return im.lines[i] > off }) // 1-based: lines starting at or before off
	start := im.lines[line-1]
	p := diag.Pos{Line: line, Column: 1 + utf8.RuneCount(im.data[start:off]), Offset: off}
	return &diag.Range{Filename: im.name, Start: p, End: p}
}

func (im *importer) fail(off int, code, path, format string, args ...any) {
	if im.errors >= state.MaxProblems {
		return
	}
	im.errors++
	im.diags = append(im.diags, &diag.Diagnostic{Severity: diag.Error, Code: code, Subject: im.at(off), Path: path, Summary: fmt.Sprintf(format, args...)})
}

// errorsOnly drops the warnings: an import that fails reports why.
func (im *importer) errorsOnly() diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range im.diags {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// full reports whether warnings are no longer shown, only counted.
func (im *importer) full() bool { return len(im.diags) >= MaxWarnings }

func (im *importer) warn(off int, code, path, msg string) {
	if im.full() {
		im.dropped++
		return
	}
	im.diags = append(im.diags, &diag.Diagnostic{Severity: diag.Warning, Code: code, Subject: im.at(off), Path: path, Summary: msg})
}

func (im *importer) run() *state.Gang {
	if len(im.data) > MaxBytes {
		im.fail(-1, diag.CodeImportLimit, "", "the file is too large: %d bytes, the limit is %d", len(im.data), MaxBytes)
		return nil
	}
	root, serr, lerr := parseJSON(im.data)
	switch {
	case lerr != nil:
		im.fail(lerr.off, diag.CodeImportLimit, lerr.path, "%s", lerr.msg)
		return nil
	case serr != nil:
		im.fail(serr.off, diag.CodeImportSyntax, serr.path, "%s", serr.msg)
		return nil
	}
	g, path := im.gangObject(root)
	if g == nil {
		return nil
	}
	return im.gang(g, path)
}

// gangObject finds the gang in an export: {"gang": {…}}, as Yaktribe
// writes it, or the gang object itself.
func (im *importer) gangObject(root *value) (*value, string) {
	if root.kind != jsonObject {
		im.fail(root.off, diag.CodeImportShape, "", "want a Yaktribe gang export, an object holding \"gang\", got %s", root.describe())
		return nil, ""
	}
	if g, ok := root.get(yak.Gang); ok {
		if g.kind != jsonObject {
			im.fail(g.off, diag.CodeImportShape, yak.Gang, "want the gang, an object, got %s", g.describe())
			return nil, ""
		}
		return g, yak.Gang
	}
	switch {
	case root.has(yak.GangID) || root.has(yak.Gangers):
		return root, ""
	case root.has(yak.Campaign):
		im.fail(root.off, diag.CodeImportShape, yak.Campaign, "this is a Yaktribe campaign file, not a gang export: export each gang on its own (yaktribe.games/underhive/json/gang/ID.json)")
	default:
		keys := root.keys
		if len(keys) > 8 {
			keys = append(keys[:8:8], "…")
		}
		im.fail(root.off, diag.CodeImportShape, yak.Gang, "required field is missing: want a Yaktribe gang export, an object holding \"gang\" (this one holds %s)", orNothing(keys))
	}
	return nil, ""
}

func orNothing(keys []string) string {
	if len(keys) == 0 {
		return "nothing"
	}
	return strings.Join(keys, ", ")
}

// join adds a field to a path.
func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// field returns an object's field (null counts as left out), reporting a
// key given twice.
func (im *importer) field(obj *value, path, key string) (*value, bool) {
	first := -1
	for i, k := range obj.keys {
		if k != key {
			continue
		}
		if first >= 0 {
			im.fail(obj.keyAt[i], diag.CodeImportDuplicate, join(path, seg(key)), "given twice in one object (first at %s)", im.at(obj.keyAt[first]))
			break
		}
		first = i
	}
	if first < 0 || obj.items[first].kind == jsonNull {
		return nil, false
	}
	return obj.items[first], true
}

// required returns a field that must be there; what says what it is.
func (im *importer) required(obj *value, path, key, what string) (*value, bool) {
	v, ok := im.field(obj, path, key)
	switch {
	case ok:
	case obj.has(key):
		im.fail(obj.off, diag.CodeImportMissingField, join(path, key), "required field is null (%s)", what)
	default:
		im.fail(obj.off, diag.CodeImportMissingField, join(path, key), "required field is missing (%s)", what)
	}
	return v, ok
}

// text reads a string field.
func (im *importer) text(v *value, path string) (string, bool) {
	if v.kind != jsonString {
		im.fail(v.off, diag.CodeImportType, path, "want text in quotes, got %s", v.describe())
		return "", false
	}
	return v.text, true
}

// id reads an id: text or a whole number, as Yaktribe writes ids.
func (im *importer) id(v *value, path string) (string, bool) {
	var s string
	switch v.kind {
	case jsonString:
		s = strings.TrimSpace(v.text)
	case jsonNumber:
		if strings.Trim(v.text, "0123456789") != "" { // digits only: ids are not numbers to round
			im.fail(v.off, diag.CodeImportType, path, "want an id (text or a whole number), got %s", v.text)
			return "", false
		}
		s = v.text
	default:
		im.fail(v.off, diag.CodeImportType, path, "want an id (text or a whole number), got %s", v.describe())
		return "", false
	}
	switch {
	case s == "":
		im.fail(v.off, diag.CodeImportValue, path, "the id is empty")
		return "", false
	case utf8.RuneCountInString(s) > maxIDLength:
		im.fail(v.off, diag.CodeImportValue, path, "the id is longer than %d characters", maxIDLength)
		return "", false
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		im.fail(v.off, diag.CodeImportValue, path, "the id holds a control character")
		return "", false
	}
	return s, true
}

// wholeNumber reads a JSON number that is a whole number within int range.
func wholeNumber(text string) (int, bool) {
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return int(max(min(n, math.MaxInt32), math.MinInt32)), true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return int(max(min(f, math.MaxInt32), math.MinInt32)), true
}

// characteristic reads a characteristic: a JSON whole number, as Yaktribe
// writes them, from lo to hi.
func (im *importer) characteristic(v *value, path string, lo, hi int) (int, bool) {
	if v.kind != jsonNumber {
		msg := "want a whole number (Yaktribe writes characteristics as numbers), got " + v.describe()
		im.fail(v.off, diag.CodeImportType, path, "%s", msg)
		return 0, false
	}
	n, ok := wholeNumber(v.text)
	if !ok {
		im.fail(v.off, diag.CodeImportType, path, "want a whole number, got %s", v.text)
		return 0, false
	}
	if n < lo || n > hi {
		im.fail(v.off, diag.CodeImportValue, path, "want %d to %d, got %d", lo, hi, n)
		return 0, false
	}
	return n, true
}

// count reads a count Yaktribe writes as text ("12") or as a number, from
// lo to hi.
func (im *importer) count(v *value, path string, lo, hi int) (int, bool) {
	var text string
	switch v.kind {
	case jsonString:
		text = strings.TrimSpace(v.text)
	case jsonNumber:
		text = v.text
	default:
		im.fail(v.off, diag.CodeImportType, path, "want a whole number (as text, \"12\", or a number), got %s", v.describe())
		return 0, false
	}
	n, ok := wholeNumber(text)
	if !ok {
		im.fail(v.off, diag.CodeImportType, path, "want a whole number, got %s", v.describe())
		return 0, false
	}
	if n < lo || n > hi {
		what := fmt.Sprintf("want %d to %d", lo, hi)
		if lo == 0 {
			what = fmt.Sprintf("want a whole number, 0 or more (at most %d)", hi)
		}
		im.fail(v.off, diag.CodeImportValue, path, "%s, got %s", what, v.describe())
		return 0, false
	}
	return n, true
}

// list reads a list of at most limit items.
func (im *importer) list(v *value, path, what string, limit int) ([]*value, bool) {
	if v.kind != jsonArray {
		im.fail(v.off, diag.CodeImportType, path, "want a list of %s, got %s", what, v.describe())
		return nil, false
	}
	if len(v.items) > limit {
		im.fail(v.off, diag.CodeImportLimit, path, "%d %s: a gang export may hold at most %d", len(v.items), what, limit)
		return nil, false
	}
	return v.items, true
}

func (im *importer) gang(g *value, path string) *state.Gang {
	out := &state.Gang{}
	if v, ok := im.required(g, path, yak.GangID, "the gang's id"); ok {
		out.ID, _ = im.id(v, join(path, yak.GangID))
	}
	if v, ok := im.required(g, path, yak.GangName, "the gang's name"); ok {
		out.Name, _ = im.text(v, join(path, yak.GangName))
	}
	if v, ok := im.field(g, path, yak.GangType); ok {
		if t, ok := im.text(v, join(path, yak.GangType)); ok {
			out.House = catalogue.Slug(t)
		}
	}
	if v, ok := im.field(g, path, yak.Credits); ok {
		out.Credits, _ = im.count(v, join(path, yak.Credits), -maxCount, maxCount)
	}
	if v, ok := im.field(g, path, yak.Reputation); ok {
		out.Reputation, _ = im.count(v, join(path, yak.Reputation), -maxCount, maxCount)
	}
	if v, ok := im.field(g, path, yak.Stash); ok {
		sp := join(path, yak.Stash)
		if items, ok := im.list(v, sp, "items", MaxItems); ok {
			for i, it := range items {
				name, qty, ok := im.item(it, index(sp, i))
				if !ok {
					continue
				}
				id := catalogue.Slug(name)
				if f, known := im.cfg.Catalogue.Lookup(name); known && len(f.Items) == 1 {
					id = f.Items[0].ID
				} else if !known {
					im.unknownItem(it, index(sp, i), "the stash", name, "kept as "+id)
				}
				for range qty {
					out.Stash = append(out.Stash, id)
				}
			}
		}
	}
	gangers, ok := im.required(g, path, yak.Gangers, "the gang's members")
	if !ok {
		return nil
	}
	gp := join(path, yak.Gangers)
	items, ok := im.list(gangers, gp, yak.Gangers, MaxGangers)
	if !ok {
		return nil
	}
	seen := map[string]string{} // ganger id → path of the first with it
	for i, v := range items {
		if im.errors >= state.MaxProblems {
			break
		}
		m := im.ganger(v, index(gp, i))
		if m == nil {
			continue
		}
		if first, dup := seen[m.ID]; dup {
			gid, _ := v.get(yak.GangerID)
			im.fail(gid.off, diag.CodeImportDuplicate, join(index(gp, i), yak.GangerID), "%s %q is also %s's: each needs its own", yak.GangerID, m.ID, first)
			continue
		}
		seen[m.ID] = index(gp, i)
		m.Gang = out
		out.Models = append(out.Models, m)
	}
	if im.errors > 0 {
		return nil
	}
	// A roster, not yet a battle: every model counts until munda battle new
	// lines the gang up and leaves out who sits the battle out.
	out.StartingCrew = len(out.Models)
	out.EligibleModels = out.StartingCrew
	return out
}

// characteristics are a ganger's, by Yaktribe's field names, and their
// bounds: target numbers (2+ is 2) from 0 to 12, the others 0 to 20.
var characteristics = []struct {
	field  string
	target bool
	set    func(*state.Stats, int)
}{
	{"m", false, func(s *state.Stats, n int) { s.M = n }},
	{"ws", true, func(s *state.Stats, n int) { s.WS = n }},
	{"bs", true, func(s *state.Stats, n int) { s.BS = n }},
	{"s", false, func(s *state.Stats, n int) { s.S = n }},
	{"t", false, func(s *state.Stats, n int) { s.T = n }},
	{"w", false, func(s *state.Stats, n int) { s.W = n }},
	{"i", true, func(s *state.Stats, n int) { s.I = n }},
	{"a", false, func(s *state.Stats, n int) { s.A = n }},
	{"ld", true, func(s *state.Stats, n int) { s.Ld = n }},
	{"cl", true, func(s *state.Stats, n int) { s.Cl = n }},
	{"wil", true, func(s *state.Stats, n int) { s.Wil = n }},
	{"int", true, func(s *state.Stats, n int) { s.Int = n }},
}

func (im *importer) ganger(v *value, path string) *state.Model {
	if v.kind != jsonObject {
		im.fail(v.off, diag.CodeImportType, path, "want one of the gang's members, an object, got %s", v.describe())
		return nil
	}
	before := im.errors
	m := &state.Model{Kind: im.cfg.Mapping.Kind, Base: im.cfg.Mapping.Base}
	if f, ok := im.required(v, path, yak.GangerID, "an id, unique in the gang"); ok {
		m.ID, _ = im.id(f, join(path, yak.GangerID))
	}
	if f, ok := im.required(v, path, yak.Name, "a name"); ok {
		m.Name, _ = im.text(f, join(path, yak.Name))
	}
	who := m.Name
	if who == "" {
		who = yak.GangerID + " " + m.ID
	}
	if f, ok := im.field(v, path, yak.Type); ok {
		if t, ok := im.text(f, join(path, yak.Type)); ok {
			m.Type = t
			if c := im.cfg.Mapping.category(t); c != nil {
				m.Category = c.Category
				m.Rules = append(m.Rules, c.Rules...)
			}
		}
	}
	if f, ok := im.field(v, path, yak.Cost); ok {
		m.Cost, _ = im.count(f, join(path, yak.Cost), 0, maxCount)
	}
	for _, c := range characteristics {
		f, ok := im.required(v, path, c.field, "a characteristic")
		if !ok {
			continue
		}
		hi := 20
		if c.target {
			hi = 12
		}
		if n, ok := im.characteristic(f, join(path, c.field), 0, hi); ok {
			c.set(&m.Stats, n)
		}
	}
	for _, c := range []struct {
		field string
		set   *int
	}{{yak.XP, &m.XP}, {yak.Kills, &m.Kills}, {yak.AdvanceCount, &m.Advancements}} {
		if f, ok := im.field(v, path, c.field); ok {
			*c.set, _ = im.count(f, join(path, c.field), 0, maxCount)
		}
	}
	if f, ok := im.required(v, path, yak.Status, orList(im.cfg.Mapping.statusWords())); ok {
		if word, ok := im.text(f, join(path, yak.Status)); ok {
			if s := im.cfg.Mapping.status(word); s != nil {
				m.Status, m.Secondary = s.Status, s.Secondary
				m.InRecovery, m.Dead, m.Captured, m.Convalescence = s.InRecovery, s.Dead, s.Captured, s.Convalescence
			} else {
				words := im.cfg.Mapping.statusWords()
				im.fail(f.off, diag.CodeImportValue, join(path, yak.Status), "%s", diag.Suggest(fmt.Sprintf("want %s (the statuses the import mapping knows), got %q", orList(words), word), word, words))
			}
		}
	}
	if f, ok := im.field(v, path, yak.Skills); ok {
		m.Skills = im.names(f, join(path, yak.Skills), who, "skill", im.cfg.Skills, im.cfg.Mapping.Skills.Aliases)
	}
	if f, ok := im.field(v, path, yak.Injuries); ok {
		m.LastingInjuries = im.names(f, join(path, yak.Injuries), who, "Lasting Injury", im.cfg.Injuries, im.cfg.Mapping.Injuries.Aliases)
	}
	if f, ok := im.field(v, path, yak.Equipment); ok {
		im.equipment(m, f, join(path, yak.Equipment), who)
	}
	if im.errors > before {
		return nil
	}
	return m
}

// item reads an item of equipment or of the stash: {name, qty}.
func (im *importer) item(v *value, path string) (string, int, bool) {
	if v.kind != jsonObject {
		im.fail(v.off, diag.CodeImportType, path, "want an item, {\"name\": …, \"qty\": …}, got %s", v.describe())
		return "", 0, false
	}
	f, ok := im.required(v, path, yak.Name, "the item's name")
	if !ok {
		return "", 0, false
	}
	name, ok := im.text(f, join(path, yak.Name))
	if !ok {
		return "", 0, false
	}
	if strings.TrimSpace(name) == "" {
		im.fail(f.off, diag.CodeImportValue, join(path, yak.Name), "the name is empty")
		return "", 0, false
	}
	qty := 1
	if q, ok := im.field(v, path, yak.Qty); ok {
		if qty, ok = im.count(q, join(path, yak.Qty), 1, MaxQuantity); !ok {
			return "", 0, false
		}
	}
	return name, qty, true
}

// equipment gives a model what its roster lists: weapon profiles, armour
// and wargear from the catalogue; anything else as a weapon without a
// profile, with a warning.
func (im *importer) equipment(m *state.Model, v *value, path, who string) {
	items, ok := im.list(v, path, "items", MaxItems)
	if !ok {
		return
	}
	ids := map[string]int{} // weapon id → copies so far
	addWeapon := func(w *state.Weapon) {
		ids[w.ID]++
		if n := ids[w.ID]; n > 1 {
			w.ID = fmt.Sprintf("%s_%d", w.ID, n)
		}
		m.Weapons = append(m.Weapons, w)
	}
	for i, it := range items {
		ip := index(path, i)
		name, qty, ok := im.item(it, ip)
		if !ok {
			continue
		}
		found, known := im.cfg.Catalogue.Lookup(name)
		if !known {
			id := catalogue.Slug(name)
			if id == "" {
				id = "item"
			}
			im.unknownItem(it, ip, who, name, "imported as weapon "+id+" without a profile")
			for range qty {
				addWeapon(&state.Weapon{ID: id, Name: name, NoProfile: true})
			}
			continue
		}
		for range qty { // several of a weapon are several weapons; of armour or wargear, one
			for _, w := range found.Weapons {
				c := *w
				c.Traits = append([]string(nil), w.Traits...)
				addWeapon(&c)
			}
		}
		for _, a := range found.Armour {
			if !hasArmour(m, a.ID) {
				m.Armour = append(m.Armour, a)
			}
		}
		for _, g := range found.Wargear {
			if !contains(m.Wargear, g) {
				m.Wargear = append(m.Wargear, g)
			}
		}
	}
}

func (im *importer) unknownItem(v *value, path, who, name, what string) {
	f, _ := v.get(yak.Name)
	if im.full() {
		im.dropped++
		return
	}
	if im.itemKeys == nil {
		for _, n := range im.cfg.Catalogue.Names() {
			im.itemKeys = append(im.itemKeys, im.cfg.Catalogue.Key(n))
		}
	}
	msg := diag.Suggest(fmt.Sprintf("%s: %q is not in the catalogue: %s", who, name, what), im.cfg.Catalogue.Key(name), im.itemKeys)
	im.warn(f.off, diag.CodeImportUnknownItem, join(path, yak.Name), msg)
}

// names maps a roster's skills or injuries onto the rules' ids: by an
// alias of the mapping, the rule's title, or its id. A name the rules do
// not have is kept as an id made of it, with a warning and a did-you-mean.
func (im *importer) names(v *value, path, who, what string, known []Name, aliases map[string]string) []string {
	items, ok := im.list(v, path, what+" names", MaxItems)
	if !ok {
		return nil
	}
	var out []string
	ids := make([]string, len(known))
	for i, n := range known {
		ids[i] = n.ID
	}
	if im.index == nil {
		im.index = map[string]map[string]string{}
	}
	byName := im.index[what]
	if byName == nil {
		byName = nameIndex(known, aliases)
		im.index[what] = byName
	}
	for i, it := range items {
		ip := index(path, i)
		name, ok := im.text(it, ip)
		if !ok {
			continue
		}
		id := catalogue.Slug(name)
		if known, ok := byName[id]; ok {
			id = known
		} else {
			if id == "" {
				im.fail(it.off, diag.CodeImportValue, ip, "the name is empty")
				continue
			}
			if im.full() {
				im.dropped++
			} else {
				im.warn(it.off, diag.CodeImportUnknownName, ip, diag.Suggest(fmt.Sprintf("%s: the rules have no %s %q: kept as %s", who, what, name, id), id, ids))
			}
		}
		if !contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// nameIndex maps what a roster may write for a rule's name (its id, or
// its title made an id) and the mapping's aliases onto rule ids.
func nameIndex(known []Name, aliases map[string]string) map[string]string {
	idx := make(map[string]string, 2*len(known)+len(aliases))
	for _, n := range known {
		if t := catalogue.Slug(n.Title); t != "" {
			idx[t] = n.ID
		}
	}
	for _, n := range known {
		idx[n.ID] = n.ID
	}
	for a, id := range aliases {
		idx[a] = id
	}
	return idx
}

func hasArmour(m *state.Model, id string) bool {
	for _, a := range m.Armour {
		if a.ID == id {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// orList writes a, b or c.
func orList(items []string) string {
	switch len(items) {
	case 0:
		return "nothing"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// asDiagnostics is errors.As for a list of diagnostics.
func asDiagnostics(err error, ds *diag.Diagnostics) bool { return errors.As(err, ds) }
