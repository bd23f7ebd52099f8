package interpreter

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/munda-rules/munda/dsl/diag"
	"github.com/munda-rules/munda/dsl/syntax"
)

// ChoiceRequest asks for a decision the rules leave to a player.
type ChoiceRequest struct {
	Name string // the choice's name in the rules: voluntary, which, …
	// Key tells apart the occurrences of a keyed choice (`choose retire
	// "…" for m`): the id of a model, gang or weapon, or the key as text.
	// Empty for a choice without `for`.
	Key     string
	Rule    string
	Prompt  string // the question, if known already (see Question)
	Options []any  // the allowed answers; nil means yes or no
	// Labels, when given, say what each option is (a table row's title),
	// for a person choosing; answers are still the options themselves.
	Labels  []string
	Default any // what the rules choose when nobody answers
	// Multi, when set (MultiSplit or MultiPick), asks about several of
	// the Options at once: split Count among them (the answer is a
	// map[string]any from each option's id to its count) or pick Count
	// distinct ones (the answer is a []any of options).
	Multi string
	Count int
	UpTo  bool // a pick of at most Count items

	// prompt is the question as the rules write it, its {…} filled in
	// from frame by run only when asked (no closure: every choice of
	// every run makes a request).
	prompt *syntax.Str
	run    *runner
	frame  *frame
	// parse, when set, reads a typed answer (the dice of a pool to
	// re-roll), so that a bad one is refused where it is typed.
	parse func(string) (any, error)
}

// Answers is how an answer to the request is named: NAME, or NAME.KEY
// for one occurrence of a keyed choice.
func (req *ChoiceRequest) Answers() string {
	if req.Key == "" {
		return req.Name
	}
	return req.Name + "." + req.Key
}

// Question is the question to put to a person, with its {…} filled in.
func (req *ChoiceRequest) Question() string {
	if req.Prompt == "" && req.prompt != nil {
		req.Prompt = req.run.renderPrompt(req.frame, req.prompt)
	}
	return req.Prompt
}

// ChoiceSource answers choices. ok=false means "no answer: use the default".
type ChoiceSource interface {
	Choose(req *ChoiceRequest) (value any, ok bool, err error)
}

// Choices answers from name=value pairs (the --choose flags); every
// occurrence of a choice with that name gets the same answer, except the
// occurrences of a keyed choice answered for their key (NAME.KEY=value).
// An answer that is not one of the options is an error: an impossible
// choice.
type Choices map[string]string

// ParseChoices reads name=value pairs.
func ParseChoices(pairs []string) (Choices, error) {
	c := Choices{}
	for _, p := range pairs {
		name, value, ok := strings.Cut(p, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" {
			return nil, fmt.Errorf("--choose %q: want name=value", p)
		}
		c[name] = value
	}
	return c, nil
}

// Choose implements ChoiceSource.
func (c Choices) Choose(req *ChoiceRequest) (any, bool, error) {
	name := req.Answers()
	v, ok := c[name]
	if !ok {
		name = req.Name
		if v, ok = c[name]; !ok {
			return nil, false, nil
		}
	}
	got, err := parseAnswer(req, v)
	if err != nil {
		return nil, false, fmt.Errorf("--choose %s=%s: %v", name, v, err)
	}
	return got, true, nil
}

// ChoiceName is the name of the choice an answer NAME or NAME.KEY is for.
func ChoiceName(answer string) string {
	name, _, _ := strings.Cut(answer, ".")
	return name
}

// parseAnswer turns typed text into one of the request's options.
func parseAnswer(req *ChoiceRequest, s string) (any, error) {
	if req.parse != nil {
		return req.parse(s)
	}
	if req.Multi != "" {
		return parseMulti(req, s)
	}
	if req.Options == nil {
		switch def := req.Default.(type) {
		case bool:
			switch strings.ToLower(s) {
			case "true", "yes", "y", "1":
				return true, nil
			case "false", "no", "n", "0":
				return false, nil
			}
			return nil, fmt.Errorf("answer yes or no")
		case int:
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("answer a whole number")
			}
			return n, nil
		case float64:
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("answer a number, such as 2 or 2.5")
			}
			return f, nil
		case string:
			return s, nil
		default:
			_ = def
			return s, nil
		}
	}
	for _, o := range req.Options {
		if display(o) == s || fmt.Sprint(o) == s {
			return o, nil
		}
	}
	for i, o := range req.Options {
		if n, err := strconv.Atoi(s); err == nil && n == i+1 {
			return o, nil
		}
	}
	var opts []string
	for i, o := range req.Options {
		opts = append(opts, fmt.Sprintf("%d) %s", i+1, display(o)))
	}
	return nil, fmt.Errorf("%q is not one of the options: %s", s, strings.Join(opts, ", "))
}

// Defaults answers nothing, so every choice takes the rules' default.
type Defaults struct{}

// Choose implements ChoiceSource.
func (Defaults) Choose(*ChoiceRequest) (any, bool, error) { return nil, false, nil }

// ChoicePrompt asks a person, re-asking on an impossible answer; an empty
// answer takes the default.
type ChoicePrompt struct {
	in  *bufio.Reader
	out io.Writer
}

// NewChoicePrompt reads answers from in and asks on out.
func NewChoicePrompt(in *bufio.Reader, out io.Writer) *ChoicePrompt {
	return &ChoicePrompt{in: in, out: out}
}

// Choose implements ChoiceSource.
func (p *ChoicePrompt) Choose(req *ChoiceRequest) (any, bool, error) {
	for attempt := 0; attempt < 20; attempt++ {
		fmt.Fprint(p.out, diag.PrintableLines(req.Question()))
		if req.Options != nil {
			for i, o := range req.Options {
				fmt.Fprintf(p.out, "\n  %d) %s", i+1, diag.Printable(display(o)))
				if i < len(req.Labels) && req.Labels[i] != display(o) {
					fmt.Fprintf(p.out, ": %s", diag.Printable(req.Labels[i]))
				}
			}
			fmt.Fprintln(p.out)
			if req.Multi != "" {
				fmt.Fprintf(p.out, "  (%s)\n", multiHint(req))
			}
		}
		fmt.Fprintf(p.out, " [default %s]: ", diag.Printable(showAnswer(req.Default)))
		line, err := p.in.ReadString('\n')
		if err != nil && line == "" {
			return nil, false, fmt.Errorf("no answer for choice %s: input closed", req.Name)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return nil, false, nil
		}
		v, perr := parseAnswer(req, line)
		if perr == nil {
			return v, true, nil
		}
		fmt.Fprintf(p.out, "  %s\n", diag.Printable(perr.Error()))
	}
	return nil, false, fmt.Errorf("too many invalid answers for choice %s", req.Name)
}

// ChoiceChain asks each source in turn until one answers.
type ChoiceChain []ChoiceSource

// Choose implements ChoiceSource.
func (c ChoiceChain) Choose(req *ChoiceRequest) (any, bool, error) {
	for _, s := range c {
		v, ok, err := s.Choose(req)
		if err != nil || ok {
			return v, ok, err
		}
	}
	return nil, false, nil
}
