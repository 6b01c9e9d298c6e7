package lsptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Message is one JSON-RPC message as it was read.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
	// Raw is the whole body as framed.
	Raw json.RawMessage `json:"-"`
	// Arrived is when the client had read the whole frame, before parsing
	// it: the server's latency, which the client's own JSON decoding of a
	// large message (20 ms for 3 MB of diagnostics) does not belong to.
	Arrived time.Time `json:"-"`
}

// IsRequest, IsNotification and IsResponse classify a message.
func (m *Message) IsRequest() bool      { return m.Method != "" && len(m.ID) > 0 }
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }
func (m *Message) IsResponse() bool     { return m.Method == "" && len(m.ID) > 0 }

// Error is a JSON-RPC error response.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// Error codes from JSON-RPC and LSP.
const (
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInvalidRequest       = -32600
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
)

// readFrame reads one frame strictly: header lines end in CRLF, only
// Content-Length and Content-Type are known, Content-Length is required and
// the body is exactly that long. io.EOF means the stream ended cleanly
// between frames.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	first := true
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && first && line == "" {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("header cut short (%q): %w", line, err)
		}
		first = false
		if !strings.HasSuffix(line, "\r\n") {
			return nil, fmt.Errorf("header line %q does not end in CRLF", line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("%q is not a header line", line)
		}
		switch {
		case strings.EqualFold(name, "Content-Length"):
			if length >= 0 {
				return nil, errors.New("two Content-Length headers")
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("Content-Length %q is not a length", value)
			}
			length = n
		case strings.EqualFold(name, "Content-Type"):
		default:
			return nil, fmt.Errorf("unknown header %q", line)
		}
	}
	if length < 0 {
		return nil, errors.New("frame without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("body shorter than its Content-Length %d: %w", length, err)
	}
	return body, nil
}

// parseMessage checks that body is one JSON-RPC 2.0 message and decodes it.
// One decoding pass: the client's time is part of what benchmarks measure.
func parseMessage(body []byte) (Message, error) {
	var w struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"` // "null" when the result is null
		Error   *Error          `json:"error"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return Message{}, fmt.Errorf("body is not one JSON-RPC message: %v", err)
	}
	if w.JSONRPC == nil || *w.JSONRPC != "2.0" {
		return Message{}, errors.New(`"jsonrpc" is not "2.0"`)
	}
	m := Message{ID: w.ID, Method: w.Method, Params: w.Params, Result: w.Result, Error: w.Error, Raw: body}
	if string(m.ID) == "null" {
		m.ID = nil
	}
	hasResult, hasError := len(w.Result) > 0, w.Error != nil
	switch {
	case m.Method != "":
		if hasResult || hasError {
			return Message{}, errors.New("a request or notification carries result or error")
		}
	case len(w.ID) > 0:
		if hasResult == hasError {
			return Message{}, errors.New("a response must carry exactly one of result and error")
		}
	default:
		return Message{}, errors.New("message has neither a method nor an id")
	}
	return m, nil
}

// frame encodes v as one framed message.
func frame(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+32)
	out = append(out, "Content-Length: "...)
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, "\r\n\r\n"...)
	return append(out, body...), nil
}
