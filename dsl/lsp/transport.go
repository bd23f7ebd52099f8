package lsp

// This file is the LSP base protocol: JSON-RPC messages framed by a
// Content-Length header. jsonrpc2's own framing hangs up on the first
// message that is not JSON; an editor that sends one broken message must
// not lose its language server, so this one answers it with an error and
// reads on.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// Bounds on what a client may send.
const (
	// MaxMessage is the largest message read. A rule file is at most 4
	// MiB (syntax.MaxFileSize), so a document over it gets a diagnostic
	// from the loader; a message over this is refused whole.
	MaxMessage = 64 << 20
	// maxHeaderLine is the longest header line kept; longer ones are junk.
	maxHeaderLine = 4096
)

// stream reads and writes framed messages. It implements
// jsonrpc2.ObjectStream.
type stream struct {
	r *bufio.Reader
	w io.Writer
	c io.Closer

	mu sync.Mutex // one message written at a time
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{r: bufio.NewReaderSize(rwc, maxHeaderLine), w: rwc, c: rwc}
}

// badMessage is a message that could not be read; it is answered, and
// the stream goes on.
type badMessage struct {
	code int64
	msg  string
	id   json.RawMessage // the request's id, when it could be read
}

func (b *badMessage) Error() string { return b.msg }

// ReadObject reads the next message into v (a jsonrpc2 message). A
// message that is not JSON gets a parse error response, one that is JSON
// but no request or response an invalid-request response (with its id
// when it has one), and a frame whose header makes no sense a parse
// error; then it reads the next. It fails only when the input ends or
// cannot be read.
func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readFrame()
		if err == nil {
			err = decodeMessage(body, v)
		}
		var bad *badMessage
		if errors.As(err, &bad) {
			if werr := s.writeError(bad); werr != nil {
				return werr
			}
			continue
		}
		return err
	}
}

// decodeMessage decodes a message's body, saying what is wrong with it
// as a badMessage.
func decodeMessage(body []byte, v any) error {
	if !json.Valid(body) {
		return &badMessage{code: jsonrpc2.CodeParseError, msg: "parse error: the message is not JSON"}
	}
	if err := json.Unmarshal(body, v); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &probe)
		id := probe.ID
		if !validID(id) {
			id = nil
		}
		return &badMessage{code: jsonrpc2.CodeInvalidRequest, msg: "invalid request: " + err.Error(), id: id}
	}
	return nil
}

// validID reports whether raw is a JSON-RPC id: a number or a string.
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	var s string
	var n json.Number
	return json.Unmarshal(raw, &s) == nil || json.Unmarshal(raw, &n) == nil
}

// readFrame reads one message's header and body. A header without a
// usable Content-Length, or a body over MaxMessage (which is skipped),
// is a badMessage.
func (s *stream) readFrame() ([]byte, error) {
	length := int64(-1)
	var junk, header []string
	for {
		line, err := s.readHeaderLine()
		if err != nil {
			return nil, err
		}
		if line == "" {
			if len(header) == 0 && len(junk) == 0 {
				continue // blank lines between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok {
			header = append(header, line)
		}
		if !ok {
			junk = append(junk, line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				junk = append(junk, line)
				continue
			}
			length = n
		}
	}
	if length < 0 {
		return nil, &badMessage{code: jsonrpc2.CodeParseError, msg: fmt.Sprintf("parse error: a message header without a Content-Length (%s)", quoteJunk(append(header, junk...)))}
	}
	if length > MaxMessage {
		if _, err := io.CopyN(io.Discard, s.r, length); err != nil {
			return nil, err
		}
		return nil, &badMessage{code: jsonrpc2.CodeInvalidRequest, msg: fmt.Sprintf("invalid request: a message of %d bytes is over the limit of %d", length, MaxMessage)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return nil, err
	}
	if len(junk) > 0 {
		// A frame after junk is read, and the junk is answered.
		return body, s.writeError(&badMessage{code: jsonrpc2.CodeParseError, msg: fmt.Sprintf("parse error: not a message header (%s)", quoteJunk(junk))})
	}
	return body, nil
}

// readHeaderLine reads a line without its line break. The rest of an
// overlong line is dropped.
func (s *stream) readHeaderLine() (string, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		kept := string(line[:min(len(line), 40)]) + "…"
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = s.r.ReadSlice('\n')
		}
		if err != nil {
			return "", err
		}
		return kept, nil
	}
	if err != nil {
		if err == io.EOF && len(line) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return "", err
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

func quoteJunk(lines []string) string {
	s := strings.Join(lines, " ")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strconv.Quote(s)
}

// WriteObject writes one message.
func (s *stream) WriteObject(obj any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "a > 0" reads as it is written
	if err := enc.Encode(obj); err != nil {
		return err
	}
	return s.write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// writeError answers a message that could not be read.
func (s *stream) writeError(bad *badMessage) error {
	id := bad.id
	if id == nil {
		id = json.RawMessage("null")
	}
	body, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": bad.code, "message": bad.msg},
	})
	if err != nil {
		return err
	}
	return s.write(body)
}

func (s *stream) write(body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := s.w.Write(body)
	return err
}

// Close closes the connection.
func (s *stream) Close() error { return s.c.Close() }
