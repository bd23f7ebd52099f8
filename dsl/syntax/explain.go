package syntax

// This file turns participle's parse errors into sentences a modder
// understands. participle says what the grammar expected, in EBNF:
//
//	unexpected token "\"P\"" (expected "(" (Param ("," Param)*)? ")" Str ("when" Expr)? Block)
//
// explain reads that (the token and the start of the expected text), the
// tokens before the error (which declaration or statement is being
// written, which braces are open) and says what is wrong, with the line
// written the right way where it can:
//
//	a procedure needs a parameter list, even an empty one: procedure p() "P" {
//
// Where participle gives up at the start of a statement (it reports
// `expected "}"` when a statement does not parse), the statement is parsed
// again on its own to find the real mistake. What no rule recognises reads
// "unexpected X; expected Y", Y in plain words.

import (
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/munda-rules/munda/dsl/diag"
)

// parseError explains a parse error (see above).
func parseError(name string, src []byte, tokens []lexer.Token, err error) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeParseError, Summary: err.Error()}
	perr, ok := err.(participle.Error)
	if !ok {
		return d
	}
	pos := perr.Position()
	if pos.Filename == "" {
		pos.Filename = name
	}
	d.Subject = diag.RangeOf(pos, pos)
	d.Summary = perr.Message()
	x := newExplainer(src, tokens)
	if x == nil {
		return d
	}
	// Explaining is best effort: a bug here must cost the better message,
	// never the parse.
	defer func() {
		if recover() != nil {
			d.Summary, d.Detail, d.Subject = perr.Message(), "", diag.RangeOf(pos, pos)
		}
	}()
	e := x.explain(err, 0)
	if e.summary == "" {
		return d
	}
	d.Summary, d.Detail = e.summary, e.detail
	if e.at >= 0 {
		t := x.sig[e.at]
		end := t.Pos
		end.Advance(t.Value)
		d.Subject = diag.RangeOf(t.Pos, end)
	}
	return d
}

// explanation is what explain found: a summary, a detail, and the
// significant token at fault (-1 to keep participle's position).
type explanation struct {
	summary, detail string
	at              int
}

// explainer holds a file's tokens for explain.
type explainer struct {
	src    []byte
	all    []lexer.Token // every token, whitespace and comments too
	sig    []lexer.Token // the tokens the grammar sees, EOF last
	allIdx []int         // sig[i] is all[allIdx[i]]
}

func newExplainer(src []byte, tokens []lexer.Token) *explainer {
	x := &explainer{src: src, all: tokens}
	for i, t := range tokens {
		if t.Type == tokWhitespace || t.Type == tokComment {
			continue
		}
		x.sig = append(x.sig, t)
		x.allIdx = append(x.allIdx, i)
	}
	if len(x.sig) == 0 {
		return nil
	}
	return x
}

// indexAt is the significant token at (or first after) a byte offset.
func (x *explainer) indexAt(offset int) int {
	for i, t := range x.sig {
		if t.Pos.Offset >= offset {
			return i
		}
	}
	return len(x.sig) - 1
}

// The keywords that start an item of each kind of block, and at the top
// level. (TestParseErrorKeywords checks them against the grammar.)
var itemKeywords = map[string][]string{
	blockTop: {"ruleset", "include", "dice", "characteristic", "table", "procedure", "function", "event",
		"skill", "trait", "power", "action", "condition", "rule", "house", "replace", "test"},
	blockStmts: {"let", "set", "if", "emit", "roll", "add", "call", "apply", "for", "while", "test", "improve", "worsen",
		"choose", "remove", "stop", "text", "source", "step", "require", "signal", "title", "perform"},
	blockFeature: {"text", "source", "title", "set", "number", "discipline", "type", "modify", "before", "after",
		"instead_of", "on", "reroll", "extra_dice", "override", "continuous", "replace", "grant", "prevent", "available", "body", "holder", "text_only"},
	blockTable:   {"text", "source", "title", "roll", "by", "require"},
	blockDice:    {"source", "text", "title", "faces", "face", "sum", "digits"},
	blockChar:    {"source", "text", "title", "check", "natural", "target", "field", "limits"},
	blockHouse:   {"source", "text", "title", "rule"},
	blockRuleset: {"source", "text", "title", "extends"},
	blockTest:    {"rules", "house", "state", "dice", "seed", "choose", "run", "expect"},
}

// Kinds of block.
const (
	blockTop     = "top"
	blockStmts   = "statements"
	blockFeature = "feature"
	blockTable   = "table"
	blockDice    = "dice"
	blockChar    = "characteristic"
	blockHouse   = "house"
	blockRuleset = "ruleset"
	blockTest    = "test"
	blockExpr    = "expression" // a { of a map in an expression
	blockBody    = "block"      // a { … } of statements, for probe
)

// blockOfDecl is the kind of block a declaration's { opens.
var blockOfDecl = map[string]string{
	"procedure": blockStmts, "skill": blockFeature, "trait": blockFeature, "power": blockFeature,
	"action": blockFeature, "condition": blockFeature, "rule": blockFeature, "table": blockTable,
	"dice": blockDice, "characteristic": blockChar, "house": blockHouse, "ruleset": blockRuleset, "test": blockTest,
}

// block is an open { and what it belongs to.
type block struct {
	kind  string // blockStmts, …
	open  int    // the { (sig index)
	owner int    // the token that starts what the { belongs to
}

// blocksAt lists the blocks open just before token i, outermost first.
func (x *explainer) blocksAt(i int) []block {
	var stack []block
	parens := 0
	lastDecl := -1 // the declaration keyword at the top level
	for j := 0; j < i && j < len(x.sig); j++ {
		t := x.sig[j]
		if len(stack) == 0 && parens == 0 && t.Type == tokIdent && isItemKeyword(blockTop, t.Value) &&
			(j == 0 || x.sig[j-1].Value == "}" || x.sig[j-1].Pos.Line != t.Pos.Line) {
			lastDecl = j
		}
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(", "[":
			parens++
		case ")", "]":
			if parens > 0 {
				parens--
			}
		case "{":
			b := block{kind: blockExpr, open: j, owner: j}
			prev := ""
			if j > 0 {
				prev = x.sig[j-1].Value
			}
			switch {
			case parens > 0 || prev == "=" || prev == "," || prev == ":" || prev == "(" || prev == "[" || prev == "{" && len(stack) > 0 && stack[len(stack)-1].kind == blockExpr:
			case len(stack) == 0:
				b.owner = max(lastDecl, 0)
				b.kind = blockOfDecl[x.replaced(b.owner)]
				if b.kind == "" {
					b.kind = blockStmts
				}
			default:
				b.owner = x.lineHead(j)
				b.kind = blockStmts
				if k := blockOfDecl[x.replaced(b.owner)]; k != "" && k != blockTest {
					b.kind = k // a house's rule, a replacement
				}
			}
			stack = append(stack, b)
		case "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return stack
}

// replaced is the keyword of what starts at token j, looking through
// `replace` to what it replaces.
func (x *explainer) replaced(j int) string {
	if x.sig[j].Value == "replace" && j+1 < len(x.sig) {
		return x.sig[j+1].Value
	}
	return x.sig[j].Value
}

// lineHead is the first token on token j's line.
func (x *explainer) lineHead(j int) int {
	for j > 0 && x.sig[j-1].Pos.Line == x.sig[j].Pos.Line {
		j--
	}
	return j
}

func isItemKeyword(kind, word string) bool {
	for _, k := range itemKeywords[kind] {
		if k == word {
			return true
		}
	}
	return false
}

// innermost is the block token i is in (the top level when none).
func innermost(blocks []block) block {
	if len(blocks) == 0 {
		return block{kind: blockTop, open: -1, owner: -1}
	}
	return blocks[len(blocks)-1]
}

// explain explains err; depth counts the statements parsed again on their
// own, so it cannot go on for ever.
func (x *explainer) explain(err error, depth int) explanation {
	u, ok := err.(*participle.UnexpectedTokenError)
	if !ok {
		return explanation{at: -1}
	}
	i := x.indexAt(u.Unexpected.Pos.Offset)
	want := firstOf(expectedText(u))
	blocks := x.blocksAt(i)
	in := innermost(blocks)
	t := x.sig[i]
	if e, ok := x.unpaired(i, want); ok && t.EOF() {
		return e
	}
	if t.EOF() {
		if head := x.headOf(i, in); (want.has("Block") || want.has(`"{"`)) && head >= 0 && x.conditionMissing(head, i) {
			w := x.conditionWord(head, i)
			return explanation{at: -1, summary: fmt.Sprintf("%s needs a condition before its {: %s", w, conditionExample[w])}
		}
		// Parse says which brace is left open.
		return explanation{at: -1, summary: "unexpected end of file"}
	}
	// Brackets that do not pair up.
	if e, ok := x.unpaired(i, want); ok {
		return e
	}
	// A single = where a condition goes.
	if t.Value == "=" && t.Type == tokPunct && !want.has(`"="`) {
		if head := x.headOf(i, in); head >= 0 && x.inCondition(head, i) {
			ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset+1, "==")
			return explanation{at: i, summary: "a condition compares with ==; a single = gives a value: " + ex}
		}
	}
	if want.itemEnd() || (in.kind == blockTop && want.empty()) {
		return x.itemError(i, blocks, depth)
	}
	return x.expected(i, in, want)
}

// unpaired explains a ) that closes nothing, and a ( left open where a
// declaration starts or a block ends.
func (x *explainer) unpaired(i int, want expectSet) (explanation, bool) {
	t := x.sig[i]
	if t.Type == tokPunct && (t.Value == ")" || t.Value == "]") {
		open := map[string]string{")": "(", "]": "["}[t.Value]
		depth := 0
		for j := x.lineHead(i); j < i; j++ {
			switch x.sig[j].Value {
			case open:
				depth++
			case t.Value:
				depth--
			}
		}
		if depth <= 0 {
			return explanation{at: i, summary: fmt.Sprintf("this %s closes nothing: a %s is missing before it, or it is one too many", t.Value, open)}, true
		}
	}
	startsSomething := t.Value == "}" || t.EOF() || (t.Type == tokIdent && isItemKeyword(blockTop, t.Value) && x.lineHead(i) == i)
	if !startsSomething {
		return explanation{}, false
	}
	// The innermost ( or [ still open, since the last { or }.
	var open []int
	for j := 0; j < i; j++ {
		switch x.sig[j].Value {
		case "(", "[":
			open = append(open, j)
		case ")", "]":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return explanation{}, false
	}
	o := x.sig[open[len(open)-1]]
	closer := map[string]string{"(": ")", "[": "]"}[o.Value]
	return explanation{at: i, summary: fmt.Sprintf("a %s is missing: the %s at line %d, column %d is never closed", closer, o.Value, o.Pos.Line, o.Pos.Column)}, true
}

// inCondition reports whether token i is in a condition: after if, when,
// require, expect (and before any = of the construct's own).
func (x *explainer) inCondition(head, i int) bool {
	switch x.sig[head].Value {
	case "if", "require", "expect":
		return true
	case "else":
		return head+1 < i && x.sig[head+1].Value == "if"
	}
	for j := head + 1; j < i; j++ {
		if x.sig[j].Value == "when" && x.sig[j].Type == tokIdent {
			return true
		}
		if x.sig[j].Value == "=" && x.sig[j].Type == tokPunct {
			return false
		}
	}
	return false
}

// headOf is the token that starts the item token i is in: the keyword of
// the statement, or of the declaration at the top level.
func (x *explainer) headOf(i int, in block) int {
	depth := 0
	for j := i - 1; j > in.open; j-- {
		t := x.sig[j]
		if t.Type == tokPunct {
			switch t.Value {
			case ")", "]", "}":
				depth++
				continue
			case "(", "[", "{":
				if depth > 0 {
					depth--
					continue
				}
				if t.Value == "{" {
					return j + 1
				}
				continue
			}
		}
		if depth > 0 {
			continue
		}
		if j == in.open+1 {
			return j
		}
		if t.Type == tokIdent && isItemKeyword(in.kind, t.Value) && x.lineHead(j) == j {
			return j
		}
		if in.kind == blockTable && x.lineHead(j) == j && (t.Type == tokInt || t.Type == tokIdent || t.Type == tokDice) {
			return j // a row
		}
	}
	if in.open+1 < i {
		return in.open + 1
	}
	return -1
}

// itemError explains a token where a declaration, statement or other item
// of a block should start, but none does.
func (x *explainer) itemError(i int, blocks []block, depth int) explanation {
	in := innermost(blocks)
	t := x.sig[i]
	word := t.Value
	isWord := t.Type == tokIdent || t.Type == tokDice
	// A declaration inside a block: a } is missing above it.
	if in.kind != blockTop && t.Type == tokIdent && isItemKeyword(blockTop, word) && !isItemKeyword(in.kind, word) &&
		(i == 0 || x.sig[i-1].Pos.Line != t.Pos.Line) && x.followsAsDeclaration(i) {
		outer := blocks[0]
		return explanation{at: i, summary: fmt.Sprintf("a } is missing before this %s: the { of %s at line %d is never closed",
			word, x.describeOwner(outer), x.sig[outer.open].Pos.Line)}
	}
	// A row of a table inside the row above: that row's } is missing.
	if in.kind == blockStmts && (t.Type == tokInt) && x.lineHead(i) == i && len(blocks) >= 2 && blocks[len(blocks)-2].kind == blockTable {
		row := "the row"
		for j := in.owner + 1; j < in.open; j++ { // the id is the name before the title
			if isString(x.sig[j]) && x.sig[j-1].Type == tokIdent {
				row = "row " + x.sig[j-1].Value
				break
			}
		}
		return explanation{at: i, summary: fmt.Sprintf("a } is missing before this row: the { of %s at line %d is never closed",
			row, x.sig[in.open].Pos.Line)}
	}
	if in.kind == blockExpr {
		return x.generic(i, firstOf(""))
	}
	if in.kind == blockStmts && word == "each" && t.Type == tokIdent {
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "for ")
		return explanation{at: i, summary: "a loop is written for each: " + ex}
	}
	if in.kind != blockStmts && in.kind != blockTop && t.Type == tokIdent && isItemKeyword(blockStmts, word) && !isItemKeyword(in.kind, word) && x.lineHead(i) == i {
		return explanation{at: i, summary: fmt.Sprintf("%s is a statement, and statements cannot stand in %s: they go inside a { } block, a row's or an effect's (is a { missing above?)", word, article(x.replaced(in.owner)))}
	}
	if in.kind == blockStmts && word == "else" && t.Type == tokIdent {
		if i > 0 && x.sig[i-1].Value == "}" {
			return explanation{at: i, summary: "else takes a block, or another if: } else { … }, } else if condition { … }"}
		}
		return explanation{at: i, summary: "else follows the } that ends an if's block: } else { … }"}
	}
	// A value given without set or let.
	if in.kind == blockStmts && isWord && !isItemKeyword(blockStmts, word) && x.lineHead(i) == i && i+1 < len(x.sig) {
		switch x.sig[i+1].Value {
		case ".":
			ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "set ")
			return explanation{at: i, summary: "to change the state, write set: " + ex}
		case "=":
			ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "let ")
			return explanation{at: i, summary: "to name a value, write let (or set, to change one): " + ex}
		}
	}
	// A procedure run without call.
	if in.kind == blockStmts && isWord && !isItemKeyword(blockStmts, word) && x.lineHead(i) == i && x.callEndsLine(i) {
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "call ")
		return explanation{at: i, summary: "to run a procedure, write call: " + ex}
	}
	// A table keyword misspelt reads as a row's key: suggest the keyword
	// unless the words after it look like a row (an id, a title).
	if in.kind == blockTable && isWord && !isItemKeyword(blockTable, word) && diag.Suggestion(word, itemKeywords[blockTable]) != "" &&
		!(i+1 < len(x.sig) && isString(x.sig[i+1]) || i+2 < len(x.sig) && isString(x.sig[i+2])) {
		return explanation{at: i, summary: diag.Suggest(fmt.Sprintf("unknown keyword %q in a table", word), word, itemKeywords[blockTable])}
	}
	// A statement where declarations go.
	if in.kind == blockTop && isWord && isItemKeyword(blockStmts, word) && !isItemKeyword(blockTop, word) {
		return explanation{at: i, summary: fmt.Sprintf("%s is a statement, and statements go inside a block: a procedure's { }, a table row's or an effect's", word)}
	}
	if t.Value == "}" && in.kind == blockTop {
		return explanation{at: i, summary: "this } closes nothing: there is no { open here"}
	}
	// A keyword of the block (or a table's row): parse the item on its own
	// to find the mistake in it.
	rowStart := in.kind == blockTable && (isWord || t.Type == tokInt) && !isItemKeyword(blockTable, word)
	if (isWord && isItemKeyword(in.kind, word)) || rowStart {
		if depth < 8 {
			if perr := x.probe(in.kind, i); perr != nil {
				if u, ok := perr.(*participle.UnexpectedTokenError); ok && u.Unexpected.Pos.Offset > t.Pos.Offset {
					if e := x.explain(perr, depth+1); e.summary != "" {
						return e
					}
					return x.generic(x.indexAt(u.Unexpected.Pos.Offset), firstOf(expectedText(u)))
				}
			}
		}
		return x.generic(i, firstOf(""))
	}
	// A block that did not parse, left behind by what it belongs to (a
	// row's block is optional): parse it on its own.
	if t.Value == "{" && t.Type == tokPunct && depth < 8 {
		if perr := x.probe(blockBody, i); perr != nil {
			if u, ok := perr.(*participle.UnexpectedTokenError); ok && u.Unexpected.Pos.Offset > t.Pos.Offset {
				if e := x.explain(perr, depth+1); e.summary != "" {
					return e
				}
			}
		}
	}
	// Items of a list written without commas: faces 1 2 3.
	if i > 0 && x.sig[i-1].Pos.Line == t.Pos.Line && isValue(t) && isValue(x.sig[i-1]) {
		head := x.lineHead(i)
		if list := x.sig[head].Value; list == "faces" || list == "digits" || list == "dice" || list == "house" || list == "reroll" || list == "apply" {
			ex := x.lineEdit(i, x.end(i-1), x.end(i-1), ",")
			return explanation{at: i, summary: "separate the items of a list with commas: " + ex}
		}
	}
	noun, where, kws := x.itemNoun(in)
	detail := fmt.Sprintf("A %s starts with one of: %s.", noun, strings.Join(kws, ", "))
	if noun == "keyword" {
		detail = fmt.Sprintf("A line%s starts with one of: %s.", where, strings.Join(kws, ", "))
	}
	// Something after a complete statement, on its line.
	if i > 0 && x.sig[i-1].Pos.Line == t.Pos.Line && x.sig[i-1].Value != "{" && x.sig[i-1].Value != "}" {
		if isWord {
			return explanation{at: i, summary: diag.Suggest(fmt.Sprintf("unknown word %q", word), word, grammarWords())}
		}
		if t.Type == tokPunct && strings.Contains("+-*/%", t.Value) {
			return explanation{at: i, summary: fmt.Sprintf("an expression is missing after %s", quoteToken(t))}
		}
		if noun == "keyword" {
			noun = "line"
		}
		return explanation{at: i, summary: fmt.Sprintf("unexpected %s after the end of the %s", describeToken(t), noun)}
	}
	switch {
	case isWord:
		// The keywords are listed when none is close enough to suggest.
		summary := diag.Suggest(fmt.Sprintf("unknown %s %q%s", noun, word, where), word, kws)
		if diag.Suggestion(word, kws) != "" {
			detail = ""
		}
		return explanation{at: i, summary: summary, detail: detail}
	case isString(t) && in.kind == blockStmts:
		return explanation{at: i, summary: fmt.Sprintf("a string cannot start a statement; to show it, write emit %s", t.Value)}
	case t.Value == "{" && in.kind == blockStmts:
		return explanation{at: i, summary: "a block { … } goes after a statement that takes one: if, else, for each or step"}
	}
	if noun == "keyword" {
		noun = "line"
	}
	return explanation{at: i, summary: fmt.Sprintf("%s cannot start a %s%s", describeToken(t), noun, where), detail: detail}
}

// callEndsLine reports whether token i is a name, then brackets that
// close at the end of its line: f(x, y).
func (x *explainer) callEndsLine(i int) bool {
	if i+1 >= len(x.sig) || x.sig[i+1].Value != "(" {
		return false
	}
	depth := 0
	for j := i + 1; j < len(x.sig); j++ {
		switch x.sig[j].Value {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j+1 >= len(x.sig) || x.sig[j+1].Pos.Line != x.sig[j].Pos.Line
			}
		}
	}
	return false
}

// isString reports whether a token is a string literal.
func isString(t lexer.Token) bool {
	return t.Type == tokString || t.Type == tokRawString || t.Type == tokChar
}

var (
	grammarWordsOnce sync.Once
	grammarWordList  []string
)

// grammarWords are every word the grammar spells out: keywords and the
// words inside statements (using, when, default, …).
func grammarWords() []string {
	grammarWordsOnce.Do(func() {
		seen := map[string]bool{}
		for _, tok := range ebnfTokens(strings.ReplaceAll(Grammar(), "\n", " ")) {
			if w := strings.Trim(tok, `"`); len(tok) > 2 && tok[0] == '"' && isWordText(w) && !seen[w] {
				seen[w] = true
				grammarWordList = append(grammarWordList, w)
			}
		}
	})
	return grammarWordList
}

func isWordText(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return s != ""
}

// followsAsDeclaration reports whether the tokens after a declaration
// keyword look like a declaration (an id), not a statement's words.
func (x *explainer) followsAsDeclaration(i int) bool {
	return i+1 < len(x.sig) && (x.sig[i+1].Type == tokIdent || x.sig[i+1].Type == tokDice || x.sig[i+1].Type == tokString)
}

// itemNoun names what starts an item of a block ("statement"), where
// (" in a skill") and the keywords that may.
func (x *explainer) itemNoun(in block) (noun, where string, keywords []string) {
	switch in.kind {
	case blockTop:
		return "declaration", "", itemKeywords[in.kind]
	case blockStmts:
		return "statement", "", itemKeywords[in.kind]
	}
	return "keyword", " in " + article(x.replaced(in.owner)), itemKeywords[in.kind]
}

// article puts "a" or "an" before a word.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

// describeOwner names what a block belongs to: "procedure bottle_checks".
func (x *explainer) describeOwner(b block) string {
	kw := x.replaced(b.owner)
	id := b.owner + 1
	if x.sig[b.owner].Value == "replace" {
		id++
	}
	if id < len(x.sig) && (x.sig[id].Type == tokIdent || x.sig[id].Type == tokDice) && id < b.open {
		return kw + " " + x.sig[id].Value
	}
	return kw
}

// expected explains a token where the grammar wanted something else
// inside a declaration or statement.
func (x *explainer) expected(i int, in block, want expectSet) explanation {
	head := x.headOf(i, in)
	if in.kind == blockTop {
		head = x.declHead(i)
	}
	if head < 0 || i == 0 {
		return x.generic(i, want)
	}
	t, prev := x.sig[i], x.sig[i-1]
	kw := x.replaced(head)
	isDecl := in.kind == blockTop || (blockOfDecl[kw] != "" && kw != "test" && x.lineHead(head) == head && in.kind != blockStmts)
	if x.sig[head].Value == "replace" && blockOfDecl[kw] != "" {
		isDecl = true
	}
	// A table row keyed by something that is no number, range or face.
	if in.kind == blockTable && !isItemKeyword(blockTable, x.sig[head].Value) && (t.Value == "-" || t.Value == "+" || prev.Value == "-") && i-head <= 2 {
		key := x.joined(head)
		return explanation{at: i, summary: fmt.Sprintf("a row is keyed by a number (4), a range (3-5, or 10+ for 10 and more) or a face of the dice (hit), not %s: 3-5 hurt \"Hurt\" {", key)}
	}
	rowHead := in.kind == blockTable && !isItemKeyword(blockTable, x.sig[head].Value) && x.onlyKey(head, i)
	switch {
	case want.has("Str") && rowHead && (prev.Type == tokIdent || prev.Type == tokDice || prev.Type == tokInt || prev.Value == "+"):
		ex := x.lineEdit(i-1, x.end(i-1), x.end(i-1), fmt.Sprintf(" %q", titleOf(prev.Value)))
		if prev.Type != tokIdent && prev.Type != tokDice {
			ex = x.lineEdit(i-1, x.end(i-1), x.end(i-1), ` name "Title"`)
		}
		return explanation{at: i, summary: "a row needs a title in quotes after its id: " + ex}
	case want.has(`"("`) && isDecl && (kw == "procedure" || kw == "function" || kw == "event") && prev.Type == tokIdent:
		ex := x.lineEdit(i-1, x.end(i-1), x.end(i-1), "()")
		return explanation{at: i, summary: fmt.Sprintf("%s needs a parameter list, even an empty one: %s", article(kw), ex)}
	case want.has(`"("`) && (kw == "call" || kw == "signal" || kw == "run"):
		ex := x.lineEdit(i-1, x.end(i-1), x.end(i-1), "()")
		return explanation{at: i, summary: fmt.Sprintf("%s needs an argument list, even an empty one: %s", kw, ex)}
	case want.has(`"("`) && kw == "test" && in.kind == blockStmts && isValue(t):
		ex := x.lineEdit(i, x.end(i-1), x.end(i), "("+t.Value+")")
		return explanation{at: i, summary: "a test names the model in brackets: " + ex}
	case want.hasName() && kw == "face" && in.kind == blockDice && t.Type == tokInt:
		return explanation{at: i, summary: `face declares a symbol, with an id and a title: face hit "Hit"; numbers are written faces 1, 2, 3`}
	case want.has("Str") && (kw == "emit" || kw == "text" || kw == "source" || kw == "include") && prev.Value == x.sig[head].Value:
		what := map[string]string{"emit": "a message", "text": "its text", "source": "its citation", "include": "a file name"}[kw]
		ex := x.lineEdit(i, t.Pos.Offset, x.lineEnd(i), fmt.Sprintf("%q", strings.Trim(x.restOfLine(i), `"`)))
		return explanation{at: i, summary: fmt.Sprintf("%s takes %s in quotes: %s", kw, what, ex)}
	case want.has("Str") && isDecl && (prev.Type == tokIdent || prev.Type == tokDice || prev.Value == ")"):
		after := "its id"
		if prev.Value == ")" {
			after = "its parameters"
		}
		id := prev.Value
		if prev.Value == ")" && head+1 < len(x.sig) {
			id = x.sig[head+1].Value
		}
		ex := x.lineEdit(i-1, x.end(i-1), x.end(i-1), fmt.Sprintf(" %q", titleOf(id)))
		return explanation{at: i, summary: fmt.Sprintf("%s needs a title in quotes after %s: %s", article(kw), after, ex)}
	case want.has("Str") && kw == "choose" && in.kind == blockStmts:
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, `"Which one?" `)
		return explanation{at: i, summary: "a choice needs a question in quotes after its name: " + ex}
	case want.has(`"else"`) && kw == "require":
		ex := x.lineEdit(i-1, x.end(i-1), x.lineEnd(i-1), ` else "why the run cannot go on"`)
		return explanation{at: i, summary: "require needs else and a message for when the condition fails: " + ex}
	case want.has(`"="`) && t.Value == "==":
		ex := x.lineEdit(i, t.Pos.Offset, x.end(i), "=")
		return explanation{at: i, summary: fmt.Sprintf("%s gives a value with a single =: %s", kw, ex)}
	case want.has(`"="`) && t.Value == "." && prev.Type == tokIdent:
		return explanation{at: i, summary: fmt.Sprintf("a field name is missing after %s.: %s.bottled", prev.Value, prev.Value)}
	case want.has(`"="`) && !(t.Type == tokPunct && t.Value != "(" && t.Value != "[" && t.Value != "{" && t.Value != "-") && (kw == "let" || kw == "set" || kw == "override" || kw == "roll" || kw == "function" || kw == "test" && in.kind == blockStmts):
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "= ")
		return explanation{at: i, summary: fmt.Sprintf("%s needs = before its value: %s", kw, ex)}
	case want.has(`"in"`) && kw == "for":
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "in ")
		return explanation{at: i, summary: "for each needs in before its list: " + ex}
	case t.Value == ":" && t.Type == tokPunct && x.inParens(i) && (prev.Value == "(" || prev.Value == ","):
		return explanation{at: i, summary: `a name is missing before ":": (name: type) or (name: value)`}
	case t.Value == ":" && t.Type == tokPunct && x.inParens(i) && prev.Type == tokIdent && i+1 < len(x.sig) && x.sig[i+1].Type != tokIdent:
		return explanation{at: i, summary: fmt.Sprintf("a type is missing after %s: (%s: model)", prev.Value, prev.Value)}
	case want.has(`"each"`) && kw == "for":
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "each ")
		return explanation{at: i, summary: "a loop is written for each: " + ex}
	case (want.has("Block") || want.has(`"{"`)) && x.conditionMissing(head, i):
		return explanation{at: i, summary: fmt.Sprintf("%s needs a condition before its {: %s", x.conditionWord(head, i), conditionExample[x.conditionWord(head, i)])}
	case (want.has("Block") || want.has(`"{"`)) && (prev.Pos.Line != t.Pos.Line || isDecl):
		ex := "{"
		if prev.Pos.Line == x.sig[head].Pos.Line {
			ex = x.lineEdit(i-1, x.end(i-1), x.end(i-1), " {")
		}
		if isDecl {
			return explanation{at: i, summary: fmt.Sprintf("the body of %s starts with {, after its title: %s", x.describeDecl(head), ex)}
		}
		return explanation{at: i, summary: fmt.Sprintf("%s needs { to open its block, on the same line: %s", kw, ex)}
	case want.has("Expr") && want.only("Expr"):
		return x.exprMissing(i, head, kw)
	case want.hasName() && kw == "roll" && prev.Value == "=":
		return explanation{at: i, summary: "roll needs dice after =: roll check = d6 + 1"}
	case want.hasName() && isDecl && i == head+1+btoi(x.sig[head].Value == "replace"):
		return explanation{at: i, summary: fmt.Sprintf("%s needs an id after %q, a name such as bottle_check", article(kw), kw)}
	case want.hasName() && t.Type == tokPunct && (t.Value == "." || t.Value == "," || t.Value == ")" || t.Value == "=" || t.Value == ":") && i > head+1:
		return explanation{at: i, summary: fmt.Sprintf("a name is missing before %s", quoteToken(t))}
	case want.hasName() && i == head+1 && !isDecl:
		ex := x.lineEdit(i, t.Pos.Offset, t.Pos.Offset, "name ")
		return explanation{at: i, summary: fmt.Sprintf("%s needs a name after %q: %s", kw, kw, ex)}
	case (want.has(`","`) || want.has(`")"`)) && isValue(t) && isValue(prev):
		ex := x.lineEdit(i, x.end(i-1), x.end(i-1), ",")
		what := "items of a list"
		if x.inParens(i) {
			what = "arguments"
			if isDecl {
				what = "parameters"
			}
		}
		return explanation{at: i, summary: fmt.Sprintf("separate the %s with commas: %s", what, ex)}
	}
	return x.generic(i, want)
}

// conditionExample shows each word that takes a condition with one.
var conditionExample = map[string]string{
	"if":   "if gang.bottled {",
	"when": "when gang.bottled {",
}

// conditionWord is the word whose condition is missing before token i:
// if, or the last when.
func (x *explainer) conditionWord(head, i int) string {
	for j := i - 1; j > head; j-- {
		if x.sig[j].Value == "when" && x.sig[j].Type == tokIdent {
			return "when"
		}
	}
	return "if"
}

// conditionMissing reports whether an if or when stands right before a
// { (taken for an expression, a map), leaving no condition.
func (x *explainer) conditionMissing(head, i int) bool {
	for j := head; j < i-1; j++ {
		w := x.sig[j]
		if (w.Value == "if" || w.Value == "when") && w.Type == tokIdent && x.sig[j+1].Value == "{" {
			return true
		}
	}
	return false
}

// inParens reports whether token i is inside brackets ( ).
func (x *explainer) inParens(i int) bool {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch x.sig[j].Value {
		case ")":
			depth++
		case "(":
			if depth == 0 {
				return true
			}
			depth--
		case "{", "}":
			return false
		}
	}
	return false
}

// onlyKey reports whether the tokens from head to i are a row's key and
// id alone: 3-5 hurt, 10+, out_of_action.
func (x *explainer) onlyKey(head, i int) bool {
	if i-head > 4 {
		return false
	}
	for j := head; j < i; j++ {
		t := x.sig[j]
		if !(t.Type == tokInt || t.Type == tokDice || t.Type == tokIdent && t.Value != "when" || t.Value == "-" || t.Value == "+") {
			return false
		}
	}
	return true
}

// exprMissing explains an expression that is not there.
func (x *explainer) exprMissing(i, head int, kw string) explanation {
	prev := x.sig[i-1].Value
	switch {
	case prev == "=" && (kw == "let" || kw == "set" || kw == "override"):
		return explanation{at: i, summary: fmt.Sprintf("%s needs a value after =: %s x = 1", kw, kw)}
	case kw == "if" || (kw == "else" && prev == "if"):
		return explanation{at: i, summary: "if needs a condition: if gang.bottled {"}
	case kw == "require":
		return explanation{at: i, summary: `require needs a condition: require casualties(gang) > 0 else "no casualties"`}
	case prev == "when":
		return explanation{at: i, summary: "when needs a condition: when gang.bottled"}
	}
	return explanation{at: i, summary: fmt.Sprintf("an expression is missing after %s", quoteToken(x.sig[i-1])),
		detail: "An expression is a value or a calculation: 3, gang.starting_crew, casualties(gang) > 0."}
}

// declHead is the keyword of the declaration token i is in (at the top
// level).
func (x *explainer) declHead(i int) int {
	for j := i - 1; j >= 0; j-- {
		t := x.sig[j]
		if t.Type == tokIdent && isItemKeyword(blockTop, t.Value) && (j == 0 || x.sig[j-1].Value == "}" || x.sig[j-1].Pos.Line != t.Pos.Line) {
			return j
		}
	}
	return -1
}

// describeDecl names a declaration by its keyword and id.
func (x *explainer) describeDecl(head int) string {
	kw, id := x.replaced(head), head+1
	if x.sig[head].Value == "replace" {
		id++
	}
	if id < len(x.sig) && (x.sig[id].Type == tokIdent || x.sig[id].Type == tokDice) {
		return kw + " " + x.sig[id].Value
	}
	return kw
}

// generic is the fallback: unexpected X; expected Y, in plain words.
func (x *explainer) generic(i int, want expectSet) explanation {
	t := x.sig[i]
	if words := want.plain(); words != "" {
		return explanation{at: i, summary: fmt.Sprintf("unexpected %s; expected %s", describeToken(t), words)}
	}
	return explanation{at: i, summary: fmt.Sprintf("unexpected %s", describeToken(t))}
}

// ---------------------------------------------------------------------------
// Parsing single items again.

// probeOf parses one item of a kind of block, ignoring what follows.
type probeOf[T any] struct {
	Item T `parser:"@@"`
}

var (
	probesOnce sync.Once
	probes     map[string]func(*lexer.PeekingLexer) error
)

func probeParser[T any]() func(*lexer.PeekingLexer) error {
	p := participle.MustBuild[probeOf[T]](parserOptions...)
	return func(lex *lexer.PeekingLexer) error {
		_, err := p.ParseFromLexer(lex, participle.AllowTrailing(true))
		return err
	}
}

// probe parses the item of a block of kind kind that starts at token i
// on its own, and returns its error, if any.
func (x *explainer) probe(kind string, i int) error {
	probesOnce.Do(func() {
		probes = map[string]func(*lexer.PeekingLexer) error{
			blockTop:     probeParser[Decl](),
			blockStmts:   probeParser[Stmt](),
			blockFeature: probeParser[FeatureItem](),
			blockTable:   probeParser[TableItem](),
			blockDice:    probeParser[DiceItem](),
			blockChar:    probeParser[CharItem](),
			blockHouse:   probeParser[HouseItem](),
			blockRuleset: probeParser[RulesetItem](),
			blockTest:    probeParser[TestItem](),
			blockBody:    probeParser[Block](),
		}
	})
	parse := probes[kind]
	if parse == nil {
		return nil
	}
	peek, err := lexer.Upgrade(&sliceLexer{tokens: x.all[x.allIdx[i]:]}, tokWhitespace, tokComment)
	if err != nil {
		return nil
	}
	key := &peek.Range(0, 1)[0]
	parsing.Store(key, x.src)
	defer parsing.Delete(key)
	return parse(peek)
}

// ---------------------------------------------------------------------------
// What participle expected.

// expectedText is the EBNF participle says it expected ("" for none).
func expectedText(u *participle.UnexpectedTokenError) string {
	if u.Expect != "" {
		return u.Expect
	}
	msg := u.Message()
	const marker = " (expected "
	if k := strings.Index(msg, marker); k >= 0 && strings.HasSuffix(msg, ")") {
		return msg[k+len(marker) : len(msg)-1]
	}
	return ""
}

// expectSet is what may come next, by the start of the expected EBNF:
// literals quoted ("("), productions by name (Str, Expr, Block).
type expectSet []string

func (s expectSet) has(what string) bool {
	for _, w := range s {
		if w == what {
			return true
		}
	}
	return false
}

// hasName reports whether a name may come next (an Ident, or a Path or
// Ref, which start with one).
func (s expectSet) hasName() bool { return s.has("Ident") || s.has("Path") || s.has("Ref") }

func (s expectSet) only(what string) bool { return len(s) == 1 && s[0] == what }
func (s expectSet) empty() bool           { return len(s) == 0 }

// itemEnd reports whether the grammar wanted only the } that ends a block:
// what came was no item of it.
func (s expectSet) itemEnd() bool { return s.only(`"}"`) }

// plainWords says what a production is, for people.
var plainWords = map[string]string{
	"Str": "a string in quotes", "Ident": "a name", "Expr": "an expression", "Block": "{",
	"Int": "a number", "Nat": "a number", "Param": "a parameter", "Arg": "an argument", "Path": "a name",
	"Ref": "a name", "RowKey": "a row key", "Stmt": "a statement", "Count": "a number of dice",
	"Toggle": "a house rule", "DieValue": "a die", "Decl": "a declaration", "Row": "a row",
}

// plain writes the set in plain words: "(" or a string in quotes.
func (s expectSet) plain() string {
	var words []string
	for _, w := range s {
		if len(words) == 4 {
			words = append(words, "…")
			break
		}
		switch {
		case strings.HasPrefix(w, `"`):
			words = append(words, strings.Trim(w, `"`))
		case plainWords[w] != "":
			words = append(words, plainWords[w])
		default:
			words = append(words, strings.ToLower(w))
		}
	}
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// firstOf reads the EBNF participle expected and returns what may come
// first: the first elements of the sequence, up to the first that must be
// there, through groups and alternatives.
func firstOf(ebnf string) expectSet {
	p := &ebnfReader{toks: ebnfTokens(ebnf)}
	set, _ := p.sequence()
	var out expectSet
	seen := map[string]bool{}
	for _, w := range set {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// ebnfTokens splits participle's EBNF: "lit", Name, ( ) | ? * +.
func ebnfTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j])
			i = j
		case strings.IndexByte("()|?*+", c) >= 0:
			out = append(out, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && strings.IndexByte(` "()|?*+`, s[j]) < 0 {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

type ebnfReader struct {
	toks []string
	pos  int
}

func (p *ebnfReader) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

// sequence reads alternatives of sequences up to a ) or the end, and
// returns what may come first and whether all of it may be left out.
func (p *ebnfReader) sequence() ([]string, bool) {
	var first []string
	nullable := false
	for {
		alt, altNullable := p.terms()
		first = append(first, alt...)
		nullable = nullable || altNullable
		if p.peek() != "|" {
			return first, nullable
		}
		p.pos++
	}
}

// terms reads one alternative: terms up to | or ) or the end.
func (p *ebnfReader) terms() ([]string, bool) {
	var first []string
	open := true // all terms so far may be left out
	for {
		switch p.peek() {
		case "", "|", ")":
			return first, open
		}
		var atom []string
		atomNullable := false
		if tok := p.peek(); tok == "(" {
			p.pos++
			atom, atomNullable = p.sequence()
			if p.peek() == ")" {
				p.pos++
			}
		} else {
			p.pos++
			atom = []string{tok}
		}
		switch p.peek() {
		case "?", "*":
			p.pos++
			atomNullable = true
		case "+":
			p.pos++
		}
		if open {
			first = append(first, atom...)
			open = atomNullable
		}
	}
}

// ---------------------------------------------------------------------------
// Tokens and lines.

// describeToken names a token for a message: string "…", number 3, "x".
func describeToken(t lexer.Token) string {
	switch t.Type {
	case tokString, tokRawString, tokChar:
		return "string " + shorten(t.Value)
	case tokInt, tokFloat:
		return "number " + t.Value
	}
	if t.EOF() {
		return "end of file"
	}
	return quoteToken(t)
}

// quoteToken writes a token as it is in the file, in quotes.
func quoteToken(t lexer.Token) string { return fmt.Sprintf("%q", shorten(t.Value)) }

func shorten(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// isValue reports whether a token is a value of a list: a name, a number,
// a string.
func isValue(t lexer.Token) bool {
	switch t.Type {
	case tokIdent, tokDice, tokInt, tokFloat, tokString, tokRawString, tokChar:
		return true
	}
	return false
}

// end is the byte offset just after token i.
func (x *explainer) end(i int) int { return x.sig[i].Pos.Offset + len(x.sig[i].Value) }

// lineEnd is the byte offset of the end of token i's line.
func (x *explainer) lineEnd(i int) int {
	off := x.sig[i].Pos.Offset
	for off < len(x.src) && x.src[off] != '\n' {
		off++
	}
	return off
}

// restOfLine is the text from token i to the end of its line.
func (x *explainer) restOfLine(i int) string {
	return strings.TrimSpace(string(x.src[x.sig[i].Pos.Offset:x.lineEnd(i)]))
}

// joined is token i and those that follow it with no space between:
// "a-b".
func (x *explainer) joined(i int) string {
	j := i
	for j+1 < len(x.sig) && x.sig[j+1].Pos.Offset == x.end(j) && !x.sig[j+1].EOF() {
		j++
	}
	return string(x.src[x.sig[i].Pos.Offset:x.end(j)])
}

// lineEdit is the line of token i with the bytes from..to replaced by
// text, as an example of the right form (trimmed, and cut if long).
func (x *explainer) lineEdit(i, from, to int, text string) string {
	start := x.sig[i].Pos.Offset
	for start > 0 && x.src[start-1] != '\n' {
		start--
	}
	end := max(x.lineEnd(i), to)
	if from < start || to > len(x.src) || from > to {
		return strings.TrimSpace(text)
	}
	line := string(x.src[start:from]) + text + string(x.src[to:end])
	line = strings.TrimSpace(strings.Join(strings.Fields(line), " "))
	if r := []rune(line); len(r) > 100 {
		line = string(r[:100]) + "…"
	}
	return line
}

// titleOf makes a title from an id, for examples: iron_will → "Iron will".
func titleOf(id string) string {
	s := strings.ReplaceAll(id, "_", " ")
	if s == "" {
		return "Title"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
