package syntax

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

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
// time, or returns nil if anything (lexing, nesting, parsing) fails. The
// runs are parsed as they are lexed, on every core (participle's parsers
// may be used concurrently): lexing, a sixth of the work, no longer comes
// first on its own. The tree is put together in order, so it is the same
// whatever the scheduling.
func parseByDeclarations(name string, src []byte, min int) *File {
	start := lexer.Position{Filename: name, Line: 1, Column: 1}
	file := &File{Name: name, Source: src, Pos: start}
	lex := &declarationRuns{min: min, significantTokens: significantTokens{scanner: scanner{src: string(src), pos: start}, file: file}}
	// Every run but the last has min tokens or more, each a byte or more.
	parsers := startRunParsers(src, len(src)/min+2)
	var runs []*declarationRun
	for {
		lex.n, lex.ended = 0, false
		peek, err := lexer.Upgrade(lex)
		if err != nil || lex.tooDeep != nil || lex.n == 0 {
			parsers.failed.Store(true)
			parsers.finish()
			return nil
		}
		r := &declarationRun{peek: peek, tokens: peek.Range(0, lexer.RawCursor(lex.n+1)), start: start}
		runs = append(runs, r)
		parsers.add(r)
		if !lex.ended || parsers.failed.Load() {
			break
		}
		last := r.tokens[lex.n-1]
		start = last.Pos
		start.Advance(last.Value)
	}
	parsers.finish()
	for _, r := range runs {
		if r.err != nil {
			return nil
		}
		file.Decls = append(file.Decls, r.parsed.Decls...)
		file.EndPos = r.parsed.EndPos
	}
	return file
}

// declarationRun is one run: its tokens (EOF last), where participle's
// stream of it starts, and what parsing it gave.
type declarationRun struct {
	peek   *lexer.PeekingLexer
	tokens []lexer.Token
	start  lexer.Position
	parsed *File
	err    error
}

// runParsers parse the runs handed to them: GOMAXPROCS-1 goroutines while
// the file is lexed, and the lexing goroutine too once it is. After a
// failure the runs not yet started are left unparsed.
type runParsers struct {
	src    []byte
	work   chan *declarationRun // buffered for every run: add never waits
	failed atomic.Bool
	done   sync.WaitGroup
}

func startRunParsers(src []byte, most int) *runParsers {
	p := &runParsers{src: src, work: make(chan *declarationRun, most)}
	for range runtime.GOMAXPROCS(0) - 1 {
		p.done.Add(1)
		go func() {
			defer p.done.Done()
			p.drain()
		}()
	}
	return p
}

// add hands on a run to parse.
func (p *runParsers) add(r *declarationRun) { p.work <- r }

// drain parses runs until there are no more.
func (p *runParsers) drain() {
	for r := range p.work {
		if p.failed.Load() {
			r.err = errNotParsed
			continue
		}
		if r.parse(p.src); r.err != nil {
			p.failed.Store(true)
		}
	}
}

// finish says there are no more runs, parses those left, and waits until
// all are parsed.
func (p *runParsers) finish() {
	close(p.work)
	p.drain()
	p.done.Wait()
}

var errNotParsed = errors.New("not parsed")

// parse parses the run and restores its end positions. A panic is an
// error here (parseWhole, in the caller's goroutine, then meets it
// again), so that it never takes down the process from a goroutine.
func (r *declarationRun) parse(src []byte) {
	defer func() {
		if p := recover(); p != nil {
			r.parsed, r.err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	// Expressions find the source through their first token (see
	// sourceOf).
	parsing.Store(&r.tokens[0], src)
	defer parsing.Delete(&r.tokens[0])
	r.parsed, r.err = parser.ParseFromLexer(r.peek)
	if r.err == nil {
		restoreEndPositions(r.parsed, r.tokens, r.start)
	}
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
