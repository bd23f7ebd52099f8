package dsl

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// TableKind says how a table's row is chosen.
type TableKind int

const (
	DiceTable      TableKind = iota // `roll DICE`: a dice result picks the row
	BandTable                       // `by EXPR`: a value's band picks the row
	ConditionTable                  // rows with `when`: the first that holds
	ChoiceTable                     // `choose "…"`: a player picks one of the rows offered
)

// TableInfo is a checked table.
type TableInfo struct {
	Decl   *syntax.Table
	ID     string
	Title  string
	Meta   syntax.Meta
	Kind   TableKind
	Params []ParamInfo
	Dice   *DiceInfo // dice tables
	Roll   *syntax.TableRoll
	By     *syntax.Expr        // band tables
	Choose *syntax.TableChoose // choice tables
	Rows   []*RowInfo
	// Requires are checked on entry, before the roll: a wrong kind of model
	// is refused before any die is spent.
	Requires []*syntax.Require
	// Lookup tables (band or condition tables whose rows give values) can
	// be called from expressions; ValueType is what they return.
	Lookup    bool
	ValueType reflect.Type
	// RollScope is what a row's statements (and a modifier of the table's
	// roll) see: the parameters and the roll, named after the table.
	RollScope *scope
}

// RowInfo is one row of a table, as in force.
type RowInfo struct {
	Row    *syntax.Row
	ID     string
	Title  string
	Meta   syntax.Meta
	From   int // range rows
	To     int // math.MaxInt for `N+`
	Face   string
	Ranged bool
	// ReplacedBy is who wrote the row, if it replaced the table's own:
	// "house rule aa.x", "pack mymod", "ruleset legacy_2017".
	ReplacedBy string
}

// Covers reports whether a numeric result falls in the row's range.
func (r *RowInfo) Covers(v int) bool { return r.Ranged && v >= r.From && v <= r.To }

// Key is the row's key as written: "15-26", "7+", "glancing".
func (r *RowInfo) Key() string {
	switch {
	case !r.Ranged:
		return r.Face
	case r.To == math.MaxInt:
		return fmt.Sprintf("%d+", r.From)
	case r.From == r.To:
		return fmt.Sprint(r.From)
	}
	return fmt.Sprintf("%d-%d", r.From, r.To)
}

func (t *TableInfo) row(id string) *RowInfo {
	for _, r := range t.Rows {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Row finds a row by id.
func (t *TableInfo) Row(id string) *RowInfo { return t.row(id) }

func (t *TableInfo) rowIDs() []string {
	var out []string
	for _, r := range t.Rows {
		out = append(out, r.ID)
	}
	return out
}

// RowFor finds the row for a numeric result (dice or band tables).
func (t *TableInfo) RowFor(v int) *RowInfo {
	for _, r := range t.Rows {
		if r.Covers(v) {
			return r
		}
	}
	return nil
}

// RowForFace finds the row for a symbolic result.
func (t *TableInfo) RowForFace(face string) *RowInfo {
	for _, r := range t.Rows {
		if !r.Ranged && r.Face == face {
			return r
		}
	}
	return nil
}

// prepareTables works out each table's kind, parameters and rows, and
// checks that its rows cover its dice. Row statements are checked later,
// once every function is known.
func (c *checker) prepareTables() {
	for _, d := range c.all {
		t, ok := d.(*syntax.Table)
		if !ok {
			continue
		}
		// Replaced rows belong to the table in force, not to a table it
		// replaced.
		inForce := c.lookup(nsCore, t.ID.Name) == t
		var rows map[string]replacement
		if inForce {
			rows = c.rowReplaced[t.ID.Name]
		}
		info := c.buildTable(t, rows)
		c.tableInfo[t] = info
		if inForce {
			c.idx.Tables[t.ID.Name] = info
		}
		for _, r := range info.Rows {
			c.rowIDs[r.ID] = true
		}
	}
	// Every table must exist for its replaced rows to make sense.
	for _, table := range keys(c.rowReplaced) {
		if _, ok := c.lookup(nsCore, table).(*syntax.Table); ok {
			continue
		}
		for _, row := range keys(c.rowReplaced[table]) {
			c.unknown(identRange(c.rowReplaced[table][row].r.Table), "table", table, c.ofKind("table"))
		}
	}
}

// rowID is a row's id: its own, or the face it is keyed by.
func rowID(r *syntax.Row) string {
	if r.ID != nil {
		return r.ID.Name
	}
	if fk, ok := r.Key.(*syntax.FaceKey); ok {
		return fk.Face.Name
	}
	return ""
}

// buildTable checks a table's items and rows, with the replacements of its
// rows in force (by row id).
func (c *checker) buildTable(t *syntax.Table, replacements map[string]replacement) *TableInfo {
	info := &TableInfo{Decl: t, ID: t.ID.Name, Title: t.Title.Value(), Meta: syntax.MetaOf(t.Items), Kind: ConditionTable}
	info.RollScope = newScope(c.globals)
	info.Params = c.params(t.Params, info.RollScope)
	var roll *syntax.TableRoll
	for _, it := range t.Items {
		switch it := it.(type) {
		case *syntax.Require:
			info.Requires = append(info.Requires, it)
		case *syntax.TableRoll:
			if roll != nil || info.By != nil || info.Choose != nil {
				c.diags.errorf(diag.CodeTableDefinition, diag.RangeOf(it.Pos, it.EndPos), "a table has one roll, by or choose, not two")
				continue
			}
			roll = it
			info.Roll = it
			info.Kind = DiceTable
		case *syntax.TableBy:
			if roll != nil || info.By != nil || info.Choose != nil {
				c.diags.errorf(diag.CodeTableDefinition, diag.RangeOf(it.Pos, it.EndPos), "a table has one roll, by or choose, not two")
				continue
			}
			info.By = it.Key
			info.Kind = BandTable
		case *syntax.TableChoose:
			if roll != nil || info.By != nil || info.Choose != nil {
				c.diags.errorf(diag.CodeTableDefinition, diag.RangeOf(it.Pos, it.EndPos), "a table has one roll, by or choose, not two")
				continue
			}
			info.Choose = it
			info.Kind = ChoiceTable
			c.idx.Choices[t.ID.Name] = true
		}
	}
	if roll != nil {
		if decl, ok := c.lookup(nsCore, roll.Dice.Name).(*syntax.Dice); ok {
			info.Dice = c.diceInfo(decl, nil)
		} else {
			c.unknown(identRange(roll.Dice), "dice", roll.Dice.Name, c.ofKind("dice"))
		}
		// The roll is visible to the rows under the table's name.
		info.RollScope.define(&symbol{name: t.ID.Name, kind: symRoll, typ: rollType(info.Dice, false), used: true})
	}
	if info.Choose != nil {
		// So is the row chosen, by its id.
		info.RollScope.define(&symbol{name: t.ID.Name, kind: symChoose, typ: typeString, used: true})
	}

	seen := map[string]*syntax.Row{}
	used := map[string]bool{}
	values, bodies := 0, 0
	for _, it := range t.Items {
		row, ok := it.(*syntax.Row)
		if !ok {
			continue
		}
		ri := c.rowInfo(info, row)
		if ri == nil {
			continue
		}
		if prev, dup := seen[ri.ID]; dup {
			c.diags.errorf(diag.CodeDuplicateID, diag.RangeOf(row.Pos, row.Pos), "row %s appears twice in table %s (first at %s)",
				ri.ID, t.ID.Name, diag.RangeOf(prev.Pos, prev.Pos))
			continue
		}
		seen[ri.ID] = row
		if rp, ok := replacements[ri.ID]; ok {
			if replaced := c.rowInfo(info, rp.r.Row); replaced != nil {
				replaced.ReplacedBy = rp.owner
				ri = replaced
			}
			used[ri.ID] = true
		}
		if ri.Row.Value != nil {
			values++
		}
		if ri.Row.Body != nil {
			bodies++
		}
		info.Rows = append(info.Rows, ri)
	}
	for _, id := range keys(replacements) {
		if !used[id] {
			r := replacements[id].r
			c.unknown(diag.RangeOf(r.Row.Pos, r.Row.Pos), "row of table "+t.ID.Name+":", id, info.rowIDs())
		}
	}
	switch info.Kind {
	case DiceTable:
		if values > 0 {
			c.diags.errorf(diag.CodeTableDefinition, identRange(t.ID), "rows of a dice table run statements ({ … }); `= value` rows belong to lookup tables")
		}
		if info.Dice != nil {
			c.coverage(info)
		}
	case ChoiceTable:
		if values > 0 {
			c.diags.errorf(diag.CodeTableDefinition, identRange(t.ID), "rows of a table a player chooses from run statements ({ … }); `= value` rows belong to lookup tables")
		}
		if len(info.Rows) == 0 {
			c.diags.errorf(diag.CodeTableDefinition, identRange(t.ID), "table %s has nothing to choose from: give it rows", t.ID.Name)
		}
	case BandTable, ConditionTable:
		if values > 0 && bodies > 0 {
			c.diags.errorf(diag.CodeTableDefinition, identRange(t.ID), "table %s mixes rows that give values with rows that run statements", t.ID.Name)
		}
		info.Lookup = values > 0
		if info.Kind == ConditionTable && !info.Lookup {
			c.diags.errorf(diag.CodeTableDefinition, identRange(t.ID), "table %s has no roll, no by, and no values: give it `roll DICE`, `by EXPR`, or rows with `= value`", t.ID.Name)
		}
		if info.Kind == BandTable {
			c.overlaps(info)
		}
	}
	return info
}

// rowInfo checks one row's key against the table's kind.
func (c *checker) rowInfo(info *TableInfo, row *syntax.Row) *RowInfo {
	ri := &RowInfo{Row: row, Title: row.Title.Value(), ID: rowID(row)}
	if row.Body != nil {
		ri.Meta = syntax.MetaOf(row.Body.Stmts)
	}
	at := diag.RangeOf(row.Pos, row.Pos)
	switch key := row.Key.(type) {
	case *syntax.RangeKey:
		ri.Ranged = true
		ri.From, ri.To = key.From.Value(), key.From.Value()
		if key.To != nil {
			ri.To = key.To.Value()
		}
		if key.OrMore {
			ri.To = math.MaxInt
		}
		if ri.From > ri.To {
			c.diags.errorf(diag.CodeRowKey, at, "row range %d-%d is backwards", ri.From, ri.To)
		}
		if row.ID == nil {
			c.diags.errorf(diag.CodeRowDefinition, at, "row %s needs an id after its key, e.g. `%s out_cold \"Out Cold\"`", ri.Key(), ri.Key())
			return nil
		}
		if info.Kind == ConditionTable {
			c.diags.errorf(diag.CodeRowKey, at, "row %s is keyed by a number, but table %s has no roll or by", ri.Key(), info.ID)
		}
		if info.Kind == ChoiceTable {
			c.diags.errorf(diag.CodeRowKey, at, "row %s is keyed by a number, but a player chooses the rows of table %s: key them by name", ri.Key(), info.ID)
		}
		if info.Dice != nil && info.Dice.Symbolic() {
			c.diags.errorf(diag.CodeRowKey, at, "table %s rolls %s, whose faces are symbols: key its rows by face", info.ID, info.Dice.ID)
		}
	case *syntax.FaceKey:
		ri.Face = key.Face.Name
		switch {
		case info.Kind == ChoiceTable:
			if row.ID != nil {
				c.diags.errorf(diag.CodeRowDefinition, identRange(row.ID), "a row a player chooses is named by its first word; %s is one word too many", row.ID.Name)
			}
		case info.Kind == ConditionTable:
			if row.When == nil {
				c.diags.errorf(diag.CodeRowDefinition, at, "row %s of table %s needs a `when` condition", ri.ID, info.ID)
			}
			if row.ID != nil {
				c.diags.errorf(diag.CodeRowDefinition, identRange(row.ID), "a condition row is named by its first word; %s is one word too many", row.ID.Name)
			}
		case info.Dice != nil && !info.Dice.Symbolic():
			c.diags.errorf(diag.CodeRowKey, at, "row %s: table %s rolls %s, whose results are numbers", ri.Face, info.ID, info.Dice.ID)
		case info.Dice != nil:
			if _, ok := info.Dice.Face(ri.Face); !ok {
				var faces []string
				for _, f := range info.Dice.Faces {
					faces = append(faces, f.ID)
				}
				c.unknown(identRange(key.Face), "face of "+info.Dice.ID+":", ri.Face, faces)
			}
		case info.Kind == BandTable:
			c.diags.errorf(diag.CodeRowKey, at, "rows of a band table are keyed by ranges such as 3-5 or 10+")
		}
	}
	if row.When != nil && info.Kind != ConditionTable && info.Kind != ChoiceTable {
		c.diags.errorf(diag.CodeMisplaced, diag.RangeOf(row.When.Pos, row.When.EndPos), "only rows of a condition table (no roll, no by) or of a choice table (choose) have `when`")
	}
	if row.Value != nil && row.Body != nil {
		c.diags.errorf(diag.CodeRowDefinition, at, "a row gives a value or runs statements, not both")
	}
	return ri
}

// coverage checks that the rows of a dice table cover every result of its
// dice exactly once. Rows beyond the natural results are allowed: modified
// results can land there (`7+` on a D6).
func (c *checker) coverage(info *TableInfo) {
	d := info.Dice
	title := d.Title
	if d.Symbolic() {
		for _, f := range d.Faces {
			var rows []*RowInfo
			for _, r := range info.Rows {
				if !r.Ranged && r.Face == f.ID {
					rows = append(rows, r)
				}
			}
			switch {
			case len(rows) == 0:
				c.diags.errorf(diag.CodeTableCoverage, identRange(info.Decl.ID), "%s face %s is not covered by table %s", title, f.ID, info.ID)
			case len(rows) > 1:
				c.diags.errorf(diag.CodeTableCoverage, diag.RangeOf(rows[1].Row.Pos, rows[1].Row.Pos), "%s face %s is covered twice (also by row %s at line %d)",
					title, f.ID, rows[0].ID, rows[0].Row.Pos.Line)
			}
		}
		return
	}
	// Rows sorted by where they start, to find the row before a gap.
	sorted := append([]*RowInfo(nil), info.Rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].From < sorted[j].From })
	var gap []int // a run of uncovered results, reported together
	flush := func() {
		if len(gap) == 0 {
			return
		}
		// Point at the row just before the gap: that is usually the one
		// whose range is too short.
		at := identRange(info.Decl.ID)
		if len(sorted) > 0 {
			at = diag.RangeOf(sorted[0].Row.Pos, sorted[0].Row.Pos)
		}
		for _, r := range sorted {
			if r.Ranged && r.To < gap[0] {
				at = diag.RangeOf(r.Row.Pos, r.Row.Pos)
			}
		}
		var dg *diag.Diagnostic
		if len(gap) == 1 {
			dg = c.diags.errorf(diag.CodeTableCoverage, at, "%s result %d is not covered by table %s", title, gap[0], info.ID)
		} else {
			nums := make([]string, len(gap))
			for i, v := range gap {
				nums[i] = fmt.Sprint(v)
			}
			list := strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1]
			dg = c.diags.errorf(diag.CodeTableCoverage, at, "%s results %s are not covered by table %s", title, list, info.ID)
		}
		dg.Detail = fmt.Sprintf("Every result a %s can give needs exactly one row.", title)
		gap = nil
	}
	for _, o := range d.Outcomes {
		var rows []*RowInfo
		for _, r := range info.Rows {
			if r.Covers(o.Value) {
				rows = append(rows, r)
			}
		}
		if len(rows) == 0 {
			gap = append(gap, o.Value)
			continue
		}
		flush()
		if len(rows) > 1 {
			c.diags.errorf(diag.CodeTableCoverage, diag.RangeOf(rows[1].Row.Pos, rows[1].Row.Pos), "%s result %d is covered twice: by row %s (line %d) and row %s",
				title, o.Value, rows[0].ID, rows[0].Row.Pos.Line, rows[1].ID)
		}
	}
	flush()
	c.overlaps(info, d.HasValue)
}

// overlaps reports rows whose ranges overlap outside the natural results
// (those inside are reported value by value).
func (c *checker) overlaps(info *TableInfo, natural ...func(int) bool) {
	for i, a := range info.Rows {
		for _, b := range info.Rows[i+1:] {
			if !a.Ranged || !b.Ranged {
				continue
			}
			lo, hi := max(a.From, b.From), min(a.To, b.To)
			if lo > hi {
				continue
			}
			if len(natural) > 0 {
				inside := false
				for v := lo; v <= hi && v-lo < 1000; v++ {
					if natural[0](v) {
						inside = true
						break
					}
				}
				if inside {
					continue
				}
			}
			c.diags.errorf(diag.CodeTableCoverage, diag.RangeOf(b.Row.Pos, b.Row.Pos), "rows %s and %s of table %s overlap from %d",
				a.ID, b.ID, info.ID, lo)
		}
	}
}

// checkTableBodies checks the statements of every table row.
func (c *checker) checkTableBodies() {
	for _, d := range c.all {
		t, ok := d.(*syntax.Table)
		if !ok {
			continue
		}
		info := c.tableInfo[t]
		if info == nil {
			continue
		}
		if info.Lookup {
			for _, req := range info.Requires {
				c.diags.errorf(diag.CodeMisplaced, diag.RangeOf(req.Pos, req.EndPos),
					"table %s gives a value, so it cannot require: it is evaluated inside expressions", info.ID)
			}
			continue
		}
		if len(info.Requires) > 0 {
			// Checked before the roll exists: they are checked before it.
			sc := newScope(c.globals)
			c.params(t.Params, sc)
			for _, req := range info.Requires {
				c.require(req, sc)
			}
		}
		if info.By != nil {
			c.compile(info.By, info.RollScope, typeInt, "the key of a band table")
		}
		if info.Roll != nil && info.Roll.Mod != nil {
			// Checked before the roll exists: it modifies the roll.
			sc := newScope(c.globals)
			c.params(t.Params, sc)
			c.compile(info.Roll.Mod, sc, typeInt, "the table roll's modifier")
		}
		if ch := info.Choose; ch != nil {
			// Decided before a row is: the parameters only.
			sc := newScope(c.globals)
			c.params(t.Params, sc)
			if ch.Key != nil {
				c.compile(ch.Key, sc, nil, "")
			}
			if ch.Default != nil {
				c.compile(ch.Default, sc, typeString, "the default row")
			}
			for _, r := range info.Rows {
				if r.Row.When != nil {
					c.compile(r.Row.When, sc, typeBool, "a row's when (whether it is offered)")
				}
			}
		}
		for _, r := range info.Rows {
			c.rowBody(info, r.Row)
		}
	}
}

func (c *checker) rowBody(info *TableInfo, row *syntax.Row) {
	if row.Body != nil {
		c.block(row.Body, newScope(info.RollScope), &bodyCtx{owner: "table " + info.ID})
	}
}

// ---------------------------------------------------------------------------
// Callables: function declarations and lookup tables, compiled in the
// order they depend on each other so each call is typed.
