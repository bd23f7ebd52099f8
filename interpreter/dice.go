package interpreter

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl"
	"github.com/munda-rules/munda/dsl/diag"
)

// DieRequest asks for one die. Composite dice (2D6, D66) are rolled die by
// die, so every die a player would roll is one request, and naturals such
// as a double 1 can be seen.
type DieRequest struct {
	Roll  string        // the roll's name in the rules: check, injury, lasting_injury
	Rule  string        // who rolls: "procedure bottle_check", "table lasting_injury"
	For   string        // what it is for, for people: "Bottle check (Goliaths)"
	Dice  *dsl.DiceInfo // the kind of die: numeric or symbolic faces
	Index int           // which die of the roll (1-based)
	Of    int           // how many dice the roll has
}

// Die is the face a die landed on.
type Die struct {
	Value int    // the number (for a symbolic face, its value)
	Face  string // the symbol, for symbolic dice
}

// DiceSource gives the interpreter its dice. Seeded, scripted and prompted
// sources roll for real; an odds engine can implement it to drive the
// same run over every possible result, as interpreter/odds.Exact does.
type DiceSource interface {
	// Roll may read req until it returns, not after: the interpreter
	// reuses one request for every die of a run.
	Roll(req *DieRequest) (Die, error)
}

// TestDecider may decide a characteristic test outright instead of having
// its dice rolled: an odds engine does this to branch on pass and fail
// with their exact probabilities instead of on every face. Sources that
// roll for real do not implement it.
type TestDecider interface {
	// DecideTest returns decided=false to have the dice rolled as usual.
	DecideTest(req *TestRequest) (pass bool, decided bool, err error)
}

// RowDecider may decide which row of a table a roll lands on instead of
// having its dice rolled: an odds engine branches on the rows with their
// exact chances, rather than on every face (a D66 is 36 faces but 16 rows
// of Lasting Injuries). Rows the application would roll again (`apply …
// reroll`) are left out, so their chances are those of the rows that
// stand and a re-roll loop is one decision. The interpreter asks only
// when nothing else depends on the faces: no effect re-rolls or adds dice
// to the table's roll, and no row reads the roll's value.
type RowDecider interface {
	// DecideRow returns the index in req.Rows of the row taken, or
	// decided=false to have the dice rolled as usual. The request is
	// valid only during the call (the run reuses it).
	DecideRow(req *RowRequest) (index int, decided bool, err error)
}

// RowRequest describes a table roll about to be made.
type RowRequest struct {
	Table string
	Rows  []RowChance // the rows that can stand, in table order
	Total int         // the sum of their Ways
}

// RowChance is a row and the number of the dice's equally likely
// outcomes that land on it.
type RowChance struct {
	Row  string
	Ways int
}

// TestRequest describes a characteristic test about to be rolled.
type TestRequest struct {
	Name, Rule string
	Char       *dsl.CharInfo
	Target     int // the characteristic's value
	Modifier   int
	// PassChance is the exact probability of passing, as a fraction of
	// the dice's equally likely outcomes: Pass out of Total.
	Pass, Total int
}

// faceOf maps a uniform index in [0, Sides) to a face, counting faces that
// appear on several sides.
func faceOf(d *dsl.DiceInfo, i int) Die {
	for _, f := range d.Faces {
		if i < f.Count {
			return Die{Value: f.Value, Face: f.ID}
		}
		i -= f.Count
	}
	return Die{}
}

// Seeded rolls dice from a PCG-DXSM generator (math/rand/v2's PCG, seeded
// with (seed, seed)). Each die is a uniform choice among its sides, drawn
// with Lemire's method and rejection so no side is favoured; the same seed
// gives the same rolls on every platform.
type Seeded struct {
	pcg *rand.PCG
}

// NewSeeded makes a seeded source.
func NewSeeded(seed uint64) *Seeded {
	return &Seeded{pcg: rand.NewPCG(seed, seed)}
}

// Roll implements DiceSource.
func (s *Seeded) Roll(req *DieRequest) (Die, error) {
	n := uint64(req.Dice.Sides)
	if n == 0 {
		return Die{}, fmt.Errorf("dice %s has no sides", req.Dice.ID)
	}
	return faceOf(req.Dice, int(s.uniform(n))), nil
}

// uniform returns a uniform integer in [0, n) (Lemire, with rejection).
func (s *Seeded) uniform(n uint64) uint64 {
	for {
		x := s.pcg.Uint64()
		hi, lo := bits.Mul64(x, n)
		if lo < n {
			threshold := -n % n
			if lo < threshold {
				continue
			}
		}
		return hi
	}
}

// Scripted rolls the dice it is given, in order: numbers for numeric dice,
// face ids (or their numbers) for symbolic dice. Running out is an error
// naming the roll that needed a die.
type Scripted struct {
	values []string
	next   int
}

// ParseScript parses a dice script: values separated by commas or spaces,
// e.g. "6,3,1" or "6 out_of_action 2".
func ParseScript(s string) (*Scripted, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("the dice script is empty")
	}
	for i, f := range fields {
		if len(f) > 64 {
			return nil, fmt.Errorf("die %d of the script is too long", i+1)
		}
	}
	return &Scripted{values: fields}, nil
}

// Remaining is how many scripted dice were not used.
func (s *Scripted) Remaining() int { return len(s.values) - s.next }

// Roll implements DiceSource.
func (s *Scripted) Roll(req *DieRequest) (Die, error) {
	if s.next >= len(s.values) {
		return Die{}, &ScriptError{Msg: fmt.Sprintf("the dice script ran out after %s: %s needed %s for %s",
			pluralDice(len(s.values)), describeRoll(req), article(req.Dice.Title), req.For)}
	}
	v := s.values[s.next]
	s.next++
	d, err := parseDie(req.Dice, v)
	if err != nil {
		return Die{}, &ScriptError{Msg: fmt.Sprintf("die %d of the script: %v (%s needed %s for %s)", s.next, err, describeRoll(req), article(req.Dice.Title), req.For)}
	}
	return d, nil
}

// ScriptError is a problem with scripted or typed dice.
type ScriptError struct{ Msg string }

func (e *ScriptError) Error() string { return e.Msg }

func describeRoll(req *DieRequest) string {
	s := "roll " + req.Roll
	if req.Of > 1 {
		s += fmt.Sprintf(" (die %d of %d)", req.Index, req.Of)
	}
	if req.Rule != "" {
		s += " in " + req.Rule
	}
	return s
}

// parseDie reads one die's value as written by a person or a script.
func parseDie(d *dsl.DiceInfo, v string) (Die, error) {
	v = strings.TrimSpace(v)
	if d.Symbolic() {
		for _, f := range d.Faces {
			if f.ID == v || strings.EqualFold(f.Title, v) {
				return Die{Value: f.Value, Face: f.ID}, nil
			}
		}
		if n, err := strconv.Atoi(v); err == nil {
			for _, f := range d.Faces {
				if f.Value == n {
					return Die{Value: f.Value, Face: f.ID}, nil
				}
			}
		}
		return Die{}, fmt.Errorf("%q is not a face of the %s (faces: %s)", v, d.Title, faceList(d))
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return Die{}, fmt.Errorf("%q is not a number", v)
	}
	for _, f := range d.Faces {
		if f.Value == n {
			return Die{Value: n}, nil
		}
	}
	return Die{}, fmt.Errorf("a %s cannot show %d (faces: %s)", d.Title, n, faceList(d))
}

func faceList(d *dsl.DiceInfo) string {
	var out []string
	for _, f := range d.Faces {
		if f.ID != "" {
			out = append(out, f.ID)
		} else {
			out = append(out, strconv.Itoa(f.Value))
		}
	}
	return strings.Join(out, ", ")
}

// Prompt asks a person to roll real dice and type the result, re-asking
// on anything that is not a face of the die.
type Prompt struct {
	in  *bufio.Reader
	out io.Writer
}

// NewPrompt reads answers from in and asks on out.
func NewPrompt(in io.Reader, out io.Writer) *Prompt {
	return &Prompt{in: bufio.NewReader(in), out: out}
}

// Roll implements DiceSource.
func (p *Prompt) Roll(req *DieRequest) (Die, error) {
	for attempt := 0; ; attempt++ {
		which := ""
		if req.Of > 1 {
			which = fmt.Sprintf(" (die %d of %d)", req.Index, req.Of)
		}
		fmt.Fprint(p.out, diag.Printable(fmt.Sprintf("Roll %s%s for %s [%s]: ", article(req.Dice.Title), which, req.For, req.Roll)))
		line, err := p.readLine()
		if err != nil {
			return Die{}, &ScriptError{Msg: fmt.Sprintf("no answer for %s: %v", describeRoll(req), err)}
		}
		d, perr := parseDie(req.Dice, line)
		if perr == nil {
			return d, nil
		}
		fmt.Fprintf(p.out, "  %s\n", diag.Printable(perr.Error()))
		if attempt >= 20 {
			return Die{}, &ScriptError{Msg: "too many invalid answers for " + describeRoll(req)}
		}
	}
}

func (p *Prompt) readLine() (string, error) {
	line, err := p.in.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		if err == io.EOF {
			return "", fmt.Errorf("input closed")
		}
		return "", err
	}
	if len(line) > 256 {
		line = line[:256]
	}
	return strings.TrimSpace(line), nil
}

// article puts "a" or "an" before a dice's title: "a D6", "an Injury dice".
func article(title string) string {
	if title != "" && strings.ContainsRune("AEIOUaeiou", rune(title[0])) {
		return "an " + title
	}
	return "a " + title
}

func pluralDice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}
