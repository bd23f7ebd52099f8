package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// A file is parsed a run of declarations at a time: participle copies
// every token it is given into one slice, grown a quarter at a time, so a
// long file's token slice cost about five times its size in allocations,
// and kept the whole stream alive until the end of the parse.
//
// A run ends at a closing brace at depth 0 followed by a word that starts
// a declaration. Such a brace always ends the declaration it is in (every
// declaration's braces come last, and an expression ends before a word
// that follows a complete operand), and nothing the grammar tries there
// reads differently at the end of a run than before that word; so each
// run parses as it would inside the whole file. Any error, in any run,
// and the file is parsed whole again by parseWhole, which alone reports
// errors: they are the same as ever.

// minRun is the fewest tokens in a run Parse makes (more keep its per-run
// costs small next to its parse; fewer keep participle's slice small).
const minRun = 256

// declarationWords are the words that start a declaration.
var declarationWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range itemKeywords[blockTop] {
		m[w] = true
	}
	return m
}()

// parseByDeclarations parses a file a run of at least min tokens at a
// time, or returns nil if anything (lexing, nesting, parsing) fails.
func parseByDeclarations(name string, src []byte, min int) *File {
	start := lexer.Position{Filename: name, Line: 1, Column: 1}
	file := &File{Name: name, Source: src, Pos: start}
	runs := &declarationRuns{min: min, significantTokens: significantTokens{scanner: scanner{src: string(src), pos: start}, file: file}}
	for {
		runs.n, runs.ended = 0, false
		peek, err := lexer.Upgrade(runs)
		if err != nil || runs.tooDeep != nil || runs.n == 0 {
			return nil
		}
		tokens := peek.Range(0, lexer.RawCursor(runs.n+1))
		parsed, err := parseRun(peek, &tokens[0], src)
		if err != nil {
			return nil
		}
		restoreEndPositions(parsed, tokens, start)
		file.Decls = append(file.Decls, parsed.Decls...)
		file.EndPos = parsed.EndPos
		if !runs.ended {
			return file
		}
		start = tokens[runs.n-1].Pos
		start.Advance(tokens[runs.n-1].Value)
	}
}

// parseRun parses one run; first is its first token, through which its
// expressions find the source (see sourceOf).
func parseRun(peek *lexer.PeekingLexer, first *lexer.Token, src []byte) (*File, error) {
	parsing.Store(first, src)
	defer parsing.Delete(first)
	return parser.ParseFromLexer(peek)
}

// declarationRuns hands on the significant tokens a run at a time: after
// a run's last token, an EOF where the next run starts.
type declarationRuns struct {
	significantTokens
	min     int          // the fewest tokens in a run
	n       int          // tokens in this run
	ended   bool         // this run ended before the end of the file
	held    *lexer.Token // the next run's first token, read ahead
	heldErr error        // the error reading it gave
}

func (r *declarationRuns) Next() (lexer.Token, error) {
	if r.ended {
		// The run is over: EOF where the next one starts, as participle
		// would see that token's position after the run in the whole file.
		return lexer.EOFToken(r.held.Pos), nil
	}
	var t lexer.Token
	switch {
	case r.heldErr != nil:
		return lexer.Token{}, r.heldErr
	case r.held != nil:
		t, r.held = *r.held, nil
	default:
		var err error
		if t, err = r.significantTokens.Next(); err != nil {
			return t, err
		}
	}
	if t.EOF() {
		return t, nil
	}
	r.n++
	if r.n >= r.min && t.Type == tokPunct && t.Value == "}" && len(r.open) == 0 {
		next, err := r.significantTokens.Next()
		if err != nil {
			r.heldErr = err
			return t, nil
		}
		r.held = &next
		r.ended = next.Type == tokIdent && declarationWords[next.Value]
	}
	return t, nil
}
