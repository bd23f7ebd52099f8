// Package interpreter runs checked rules against a battle state: it rolls
// dice (seeded, scripted or typed in), asks for choices, applies the
// effects of skills, traits, conditions and house rules, and logs every
// roll, test, choice and change of state with the rule that caused it.
//
// Load and check the rules once (rulesets.Load or dsl.Check), Compile
// once, then Run as often as needed: each run is independent.
package interpreter

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
	"github.com/munda-rules/munda/stdlib/state"
)

// Program is a ruleset ready to run.
type Program struct {
	Rules *dsl.Rules
	idx   *dsl.Index
	// rollReads is which rolls' natural.X and rolled.X the rules may read
	// (rollreads.go).
	rollReads rollReads

	// Effects in force, by what they act on ("bottle_check.check", "cl",
	// "lasting_damage", "bottle_check", "wrecked"), in declaration order.
	modify   map[string][]*effect
	reroll   map[string][]*effect
	extra    map[string][]*effect
	override map[string][]*effect
	before   map[string][]*effect
	after    map[string][]*effect
	instead  map[string][]*effect
	on       map[string][]*effect
	// grants by what they grant (skill nerves_of_steel); prevents by the
	// condition they keep away.
	grants   map[string]map[string][]*effect // by kind, then id: kinds are few, so only the id is hashed
	prevents map[string][]*effect
	// values is whether any effect changes a model's or weapon's value
	// (modify or override model.FIELD / weapon.FIELD).
	values bool

	// procRules and tableRules are "procedure x" and "table y", built
	// once: every call names its rule in events and errors; rowRules are
	// "table y row z", which a row's body runs under.
	procRules, tableRules map[string]string
	rowRules              map[*dsl.RowInfo]string
	// procs are what a call of each procedure looks up, found once here
	// rather than by its name at every call (procPlanOf).
	procs map[*dsl.ProcInfo]*procPlan
	// stmtSites are effectsAt's answers by statement (the rolls, tests,
	// lets and steps of procedures), each with the procedure it is in:
	// one lookup by pointer where effectsAt hashes two names.
	stmtSites map[unsafe.Pointer]stmtSite // by stmtKey
	// anyRerolls are the re-rolls of any roll, asked at every roll.
	anyRerolls []*effect
	// anyScoped are the `as any` effects of a feature a model holds by
	// listing it (nothing grants it), each with its anyBit: at most 64.
	// anyFixed is, by a run's root (its *dsl.ProcInfo, ActionInfo or
	// TableInfo), the bits of those whose holders no statement of such a
	// run can change (anyheld.go), found on first use.
	anyScoped []*effect
	anyFixed  sync.Map
	anyRuns   atomic.Int64 // runs that asked anyFixed before it was found

	// targets maps a procedure and a name in it to "proc.name", for the
	// names some effect targets. Every let, roll, test and step looks its
	// effects up by that key, and most are targeted by nothing: they get
	// "" and no key is built.
	targets map[string]map[string]string

	// readsRoll holds the tables a row of which reads the table's roll
	// (its value, natural or rolled dice): their rolls cannot be decided
	// by row (RowDecider), since the faces matter.
	readsRoll map[string]bool
	// tableRows are the rows a table's roll lands on, by its modifier
	// (rowsOf), found once each
	tableRowsMu sync.RWMutex
	tableRows   map[tableRowsKey]tableRowsOf

	// eventParams are each event's parameters, as calls bind them.
	eventParams map[string][]dsl.ParamInfo

	// setters are the typed stores of set, add and remove (setters.go).
	setters setters

	// live is what the rest of a run may read at a checkpoint
	// (liveness.go), found on first use.
	liveOnce sync.Once
	live     *liveness
	// what the rules may write, made on first use (writes.go)
	writesOnce sync.Once
	wr         *writes

	// valueTargets are the fields of models and weapons some effect
	// overrides or modifies, by role and field (holds.go: stat).
	valueTargets map[string]map[string]valueTarget

	// fx is the effects above by target, every kind in one entry: a roll,
	// test, let or step finds all that act on it with one lookup, and one
	// no effect targets ("") with none (effects.go).
	fx           map[string]*targetEffects
	fxUntargeted *targetEffects             // those on "", if any (none in the shipped rules)
	sites        map[effectSite]siteEffects // targets and fx by site (effectsAt)

	// blocks are every block of the rules with its compilations, by
	// procedure (compiled.go); the map is made at Compile.
	blocks map[*syntax.Block]*compiledVersions
}

// effectKey is the key of effects on name in procedure proc, or "" when
// no effect targets it.
func (p *Program) effectKey(proc, name string) string {
	return p.targets[proc][name]
}

// effectSite is a name in a procedure that effects may target.
type effectSite struct{ proc, name string }

// siteEffects are a site's effect key and the effects on it.
type siteEffects struct {
	target string
	fx     *targetEffects
}

// effectsAt is effectKey and effectsOn of its key in one lookup: every
// roll, test, let and step asks.
func (p *Program) effectsAt(proc, name string) (target string, fx *targetEffects) {
	if s, ok := p.sites[effectSite{proc, name}]; ok {
		return s.target, s.fx
	}
	return "", p.effectsOn("")
}

// stmtSite is a statement's siteEffects in the procedure it is in.
type stmtSite struct {
	stmt syntax.Stmt
	proc string
	siteEffects
}

// stmtKey is where a statement is: a map by it hashes one word, where a
// map by the interface hashes through its type.
func stmtKey(st syntax.Stmt) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&st))[1]
}

// siteEffectsOf is effectsAt(proc, name) for the statement st named name,
// found by the statement where it is known in that procedure: what a
// statement's plan keeps.
func (p *Program) siteEffectsOf(st syntax.Stmt, proc, name string) (target string, fx *targetEffects) {
	if s, ok := p.stmtSites[stmtKey(st)]; ok && s.stmt == st && s.proc == proc {
		return s.target, s.fx
	}
	return p.effectsAt(proc, name)
}

// effect is one effect in force, with who it belongs to.
type effect struct {
	info   *dsl.EffectInfo
	owner  string // "skill Iron Will", "house rule aa.reinforcements_count"
	source string
	// grants are the grants of the feature the effect belongs to (its
	// info.Feature), found once at Compile: asked of every holder tried.
	grants []*effect
	// roleSlot is the slot of info.Role in roleSlots (the program's
	// numbering, a procedure's frame's), for a role other than "as any".
	roleSlot  int
	roleSlots *dsl.Slots
	// anyBit is the effect's bit in a run's anyHeld, for an `as any`
	// effect whose holders are those listing its feature (anyheld.go);
	// 0 for the others.
	anyBit uint64
	// body is the effect's body (a hook's, an on's) compiled, in ""
	// (compiledBody).
	body atomic.Pointer[compiledBlock]
}

// Compile prepares checked rules for running. The rules must have been
// checked without errors.
func Compile(rules *dsl.Rules) (*Program, error) {
	if rules == nil || rules.Index == nil {
		return nil, errors.New("the rules have not been checked")
	}
	p := &Program{Rules: rules, idx: rules.Index,
		modify: map[string][]*effect{}, reroll: map[string][]*effect{}, extra: map[string][]*effect{},
		override: map[string][]*effect{}, before: map[string][]*effect{}, after: map[string][]*effect{},
		instead: map[string][]*effect{}, on: map[string][]*effect{},
		grants: map[string]map[string][]*effect{}, prevents: map[string][]*effect{},
		procRules: map[string]string{}, tableRules: map[string]string{}}
	for id := range rules.Index.Procedures {
		p.procRules[id] = "procedure " + id
	}
	p.rowRules = map[*dsl.RowInfo]string{}
	for id, t := range rules.Index.Tables {
		p.tableRules[id] = "table " + id
		for _, row := range t.Rows {
			p.rowRules[row] = p.tableRules[id] + " row " + row.ID
		}
	}
	p.eventParams = map[string][]dsl.ParamInfo{}
	for id, ev := range rules.Index.Events {
		params := make([]dsl.ParamInfo, len(ev.Params))
		for i, prm := range ev.Params {
			params[i] = dsl.ParamInfo{Name: prm.Name.Name, Default: prm.Default}
		}
		p.eventParams[id] = params
	}
	p.targets = map[string]map[string]string{}
	all := make([]*effect, 0, len(rules.Index.Effects))
	for _, e := range rules.Index.Effects {
		if proc, name, ok := strings.Cut(e.Target, "."); ok {
			if p.targets[proc] == nil {
				p.targets[proc] = map[string]string{}
			}
			p.targets[proc][name] = e.Target
		}
		ef := &effect{info: e, owner: p.ownerTitle(e), source: p.ownerSource(e)}
		all = append(all, ef)
		p.values = p.values || e.TargetKind == "value"
		switch it := e.Item.(type) {
		case *syntax.Modify:
			p.modify[e.Target] = append(p.modify[e.Target], ef)
		case *syntax.Reroll:
			p.reroll[e.Target] = append(p.reroll[e.Target], ef)
		case *syntax.ExtraDice:
			p.extra[e.Target] = append(p.extra[e.Target], ef)
		case *syntax.Override:
			p.override[e.Target] = append(p.override[e.Target], ef)
		case *syntax.Hook:
			switch it.Timing {
			case "before":
				p.before[e.Target] = append(p.before[e.Target], ef)
			case "after":
				p.after[e.Target] = append(p.after[e.Target], ef)
			default:
				p.instead[e.Target] = append(p.instead[e.Target], ef)
			}
		case *syntax.On:
			p.on[e.Target] = append(p.on[e.Target], ef)
		case *syntax.Grant:
			kind, id, _ := strings.Cut(e.Target, " ") // "skill nerves_of_steel"
			if p.grants[kind] == nil {
				p.grants[kind] = map[string][]*effect{}
			}
			p.grants[kind][id] = append(p.grants[kind][id], ef)
		case *syntax.Prevent:
			p.prevents[it.ID.Name] = append(p.prevents[it.ID.Name], ef)
		}
	}
	p.valueTargets = valueTargetsOf(p.override, p.modify)
	p.rollReads = rollReadsOf(rules)
	p.readsRoll = map[string]bool{}
	for id, t := range rules.Index.Tables {
		p.readsRoll[id] = rowsReadRoll(t)
	}
	// Effects of one target apply in an order that does not depend on the
	// order of files (order.go). One override layer, one instead_of and
	// one extra_dice apply: the highest layer's first, so a house rule's
	// answer wins over the ruleset's and a mod's over both; then the
	// highest priority.
	for _, m := range []map[string][]*effect{p.override, p.instead, p.extra} {
		for _, list := range m {
			sortEffects(list, true)
		}
	}
	for _, m := range []map[string][]*effect{p.modify, p.reroll, p.before, p.after, p.on} {
		for _, list := range m {
			sortEffects(list, false)
		}
	}
	p.fx, p.fxUntargeted = effectsByTarget(p)
	p.sites = map[effectSite]siteEffects{}
	for proc, names := range p.targets {
		for name, target := range names {
			p.sites[effectSite{proc, name}] = siteEffects{target: target, fx: p.effectsOn(target)}
		}
	}
	p.procs = make(map[*dsl.ProcInfo]*procPlan, len(rules.Index.Procedures))
	for id, proc := range rules.Index.Procedures {
		plan := &procPlan{rule: p.procRules[id], fx: p.effectsOn(id), slots: rules.Index.Slots}
		for _, prm := range proc.Params {
			plan.params = append(plan.params, slotOf(rules.Index.Slots, prm.Name))
		}
		p.procs[proc] = plan
	}
	for _, ef := range all {
		if ft := ef.info.Feature; ft != nil {
			ef.grants = p.grants[ft.Kind][ft.ID.Name]
		}
		if role := ef.info.Role; role != "" && role != dsl.RoleAny {
			ef.roleSlot, ef.roleSlots = slotOf(rules.Index.Slots, role), rules.Index.Slots
		}
		p.noteAnyScoped(ef)
	}
	p.anyRerolls = p.reroll[dsl.AnyRoll]
	p.stmtSites = map[unsafe.Pointer]stmtSite{}
	for id, proc := range rules.Index.Procedures {
		for name, sites := range proc.Sites {
			target, fx := p.effectsAt(id, name)
			for _, site := range sites {
				p.stmtSites[stmtKey(site.Stmt)] = stmtSite{stmt: site.Stmt, proc: id, siteEffects: siteEffects{target: target, fx: fx}}
			}
		}
	}
	p.indexBlocks()
	return p, nil
}

// Index is the checked rules' index.
func (p *Program) Index() *dsl.Index { return p.idx }

func (p *Program) ownerTitle(e *dsl.EffectInfo) string {
	if e.Feature != nil {
		return e.Feature.Kind + " " + e.Feature.Title.Value()
	}
	if e.Rule != "" {
		if r := p.idx.HouseRules[e.Rule]; r != nil {
			return "house rule " + e.Rule + " (" + r.Title.Value() + ")"
		}
	}
	return e.Owner
}

func (p *Program) ownerSource(e *dsl.EffectInfo) string {
	if e.Feature != nil {
		return syntax.MetaOf(e.Feature.Items).Source
	}
	if e.Standing != nil {
		return syntax.MetaOf(e.Standing.Items).Source
	}
	if e.Rule != "" {
		if r := p.idx.HouseRules[e.Rule]; r != nil {
			if s := syntax.MetaOf(r.Items).Source; s != "" {
				return s
			}
			house, _, _ := strings.Cut(e.Rule, ".")
			if h := p.idx.Houses[house]; h != nil {
				return syntax.MetaOf(h.Items).Source
			}
		}
	}
	return ""
}

// Procedure finds a procedure by id, accepting the command line's
// kebab-case ("end-phase" for end_phase), with a did-you-mean.
func (p *Program) Procedure(name string) (*dsl.ProcInfo, error) {
	return byID(p.idx.Procedures, "procedure", name)
}

// Table finds a table by id (kebab-case accepted).
func (p *Program) Table(name string) (*dsl.TableInfo, error) {
	return byID(p.idx.Tables, "table", name)
}

// byID finds a declaration by id as the command line names it
// (kebab-case accepted), or says it is unknown with a did-you-mean.
func byID[T any](known map[string]T, what, name string) (T, error) {
	id := dsl.NormalizeID(name)
	if v, ok := known[id]; ok {
		return v, nil
	}
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, kebab(n))
	}
	sort.Strings(names)
	var zero T
	return zero, errors.New(diag.Suggest(fmt.Sprintf("unknown %s %q", what, name), kebab(id), names))
}

// kebab writes an id as the command line does: end_phase as end-phase.
func kebab(id string) string { return strings.ReplaceAll(id, "_", "-") }

// BindTableArgs is BindArgs for rolling on a table by hand (munda roll,
// munda odds of a table): a parameter of a model type that is not given
// and has no default is bound to no model (an attacker, say) rather than
// asked for.
func BindTableArgs(st *state.State, t *dsl.TableInfo, given map[string]string) (map[string]any, error) {
	bound := map[string]any{}
	var rest []dsl.ParamInfo
	for _, prm := range t.Params {
		if _, named := given[prm.Name]; !named && dsl.TypeName(prm.Type) == "model" && prm.Default == nil {
			bound[prm.Name] = (*state.Model)(nil)
			continue
		}
		rest = append(rest, prm)
	}
	more, err := BindArgs(st, rest, "table "+t.ID, given)
	if err != nil {
		return nil, err
	}
	for k, v := range more {
		bound[k] = v
	}
	return bound, nil
}

// BindArgs turns name=value strings (the command line's --arg) into the
// values a procedure's or table's parameters take: gangs, models and
// weapons by id, numbers, flags and text. Every parameter must be given.
func BindArgs(st *state.State, params []dsl.ParamInfo, what string, given map[string]string) (map[string]any, error) {
	return bindArgsInto(map[string]any{}, st, params, what, "", given)
}

// BindArgs is BindArgs of the procedure or action named what+id (joined
// only for an error: a text made for every sample is garbage) into rm's
// map of arguments, emptied first: a Monte Carlo worker binds the same
// arguments for every sample. The map holds until the next BindArgs with
// rm (a run copies what it is given).
func (rm *Resumer) BindArgs(st *state.State, params []dsl.ParamInfo, what, id string, given map[string]string) (map[string]any, error) {
	if rm.args == nil {
		rm.args = map[string]any{}
	}
	clear(rm.args)
	return bindArgsInto(rm.args, st, params, what, id, given)
}

// bindArgsInto is BindArgs of what+id, filling out.
func bindArgsInto(out map[string]any, st *state.State, params []dsl.ParamInfo, what, id string, given map[string]string) (map[string]any, error) {
	for name := range given {
		if !slices.ContainsFunc(params, func(p dsl.ParamInfo) bool { return p.Name == name }) {
			names := make([]string, len(params))
			for i, prm := range params {
				names[i] = prm.Name
			}
			msg := fmt.Sprintf("%s%s has no parameter %q", what, id, name)
			if s := diag.Suggestion(name, names); s != "" {
				msg += "; " + s
			} else if len(names) > 0 {
				msg += " (it takes " + strings.Join(names, ", ") + ")"
			}
			return nil, errors.New(msg)
		}
	}
	// Models bound so far, in parameter order: a weapon is looked for on
	// them first (the attacker's, before the target's). (On the stack, for
	// a few: a Monte Carlo worker binds them every sample.)
	var few [4]*state.Model
	models := few[:0]
	for _, prm := range params {
		raw, ok := given[prm.Name]
		if !ok && prm.Default != nil {
			continue // the rules' default applies
		}
		if !ok {
			return nil, fmt.Errorf("%s%s needs --arg %s=… (%s)", what, id, prm.Name, dsl.TypeName(prm.Type))
		}
		v, err := bindArg(st, prm, raw, models)
		if err != nil {
			return nil, fmt.Errorf("--arg %s=%s: %v", prm.Name, raw, err)
		}
		out[prm.Name] = v
		if m, ok := v.(*state.Model); ok {
			models = append(models, m)
		}
	}
	return out, nil
}

func bindArg(st *state.State, prm dsl.ParamInfo, raw string, bound []*state.Model) (any, error) {
	switch dsl.TypeName(prm.Type) {
	case "gang":
		if g := st.Gang(raw); g != nil {
			return g, nil
		}
		return nil, fmt.Errorf("no gang has the id %q%s", raw, suggest(raw, gangIDs(st)))
	case "model":
		if m := st.Model(raw); m != nil {
			return m, nil
		}
		return nil, fmt.Errorf("no model has the id %q%s", raw, suggest(raw, modelIDs(st)))
	case "weapon":
		return findWeapon(st, raw, bound)
	case "int":
		n, err := strconv.Atoi(raw)
		if err != nil {
			return nil, fmt.Errorf("want a whole number")
		}
		return n, nil
	case "float":
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a number, such as 2 or 2.5")
		}
		return f, nil
	case "bool":
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, fmt.Errorf("want true or false")
		}
		return b, nil
	}
	return raw, nil
}

// findWeapon finds a weapon by id or name: first among the weapons of the
// models already bound (the attacker's), then anywhere; "model.weapon"
// names one exactly.
func findWeapon(st *state.State, raw string, models []*state.Model) (*state.Weapon, error) {
	if modelID, weaponID, ok := strings.Cut(raw, "."); ok {
		m := st.Model(modelID)
		if m == nil {
			return nil, fmt.Errorf("no model has the id %q", modelID)
		}
		for _, w := range m.Weapons {
			if w.ID == weaponID || w.Name == weaponID {
				return w, nil
			}
		}
		return nil, fmt.Errorf("%s carries no weapon %q", m.Name, weaponID)
	}
	for _, m := range models {
		for _, w := range m.Weapons {
			if w.ID == raw || strings.EqualFold(w.Name, raw) {
				return w, nil
			}
		}
	}
	var found []*state.Weapon
	var ids []string
	for _, g := range st.Gangs {
		for _, m := range g.Models {
			for _, w := range m.Weapons {
				ids = append(ids, w.ID)
				if w.ID == raw || strings.EqualFold(w.Name, raw) {
					found = append(found, w)
				}
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no model carries a weapon %q%s", raw, suggest(raw, ids))
	}
	return nil, fmt.Errorf("several models carry a weapon %q: name it as MODEL.WEAPON", raw)
}

// suggest is a did-you-mean to append to a message, or "".
func suggest(name string, known []string) string { return diag.Suggest("", name, known) }

func gangIDs(st *state.State) []string {
	var out []string
	for _, g := range st.Gangs {
		out = append(out, g.ID)
	}
	return out
}

func modelIDs(st *state.State) []string {
	var out []string
	for _, g := range st.Gangs {
		for _, m := range g.Models {
			out = append(out, m.ID)
		}
	}
	return out
}

// rowsReadRoll reports whether any row of a table reads the table's roll:
// the roll's name, or natural. and rolled., in any expression of a row.
func rowsReadRoll(t *dsl.TableInfo) bool {
	word := regexp.MustCompile(`\b(` + regexp.QuoteMeta(t.ID) + `|natural|rolled)\b`)
	reads := false
	for _, r := range t.Rows {
		if r.Row.Body == nil {
			continue
		}
		syntax.Inspect(r.Row.Body, func(n any) bool {
			if e, ok := n.(*syntax.Expr); ok && word.MatchString(e.Text) {
				reads = true
			}
			return !reads
		})
	}
	return reads
}

// procPlan is what running a procedure needs of the program: the rule
// its limits count against and the effects on it (before, instead_of,
// after hooks).
type procPlan struct {
	rule string
	fx   *targetEffects
	// params are the parameters' slots in the numbering slots (the
	// program's, which a procedure's frame has).
	params []int
	slots  *dsl.Slots
	// body is the procedure's body compiled (compiledBody).
	body atomic.Pointer[compiledBlock]
}

// procPlanOf is proc's plan; a procedure not in the program's index (none
// is, today) is looked up by its name.
func (p *Program) procPlanOf(proc *dsl.ProcInfo) *procPlan {
	if pl := p.procs[proc]; pl != nil {
		return pl
	}
	return &procPlan{rule: p.procRules[proc.ID], fx: p.effectsOn(proc.ID)}
}
