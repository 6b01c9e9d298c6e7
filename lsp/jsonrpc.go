package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
	codeRequestCancelled     = -32800
)

// maxHeaderBytes and maxMessageBytes bound what one frame may claim, so a
// corrupt or hostile Content-Length cannot make the server allocate
// gigabytes. 64 MiB is far above any memory file an editor would send.
const (
	maxHeaderBytes  = 8 << 10
	maxMessageBytes = 64 << 20
)

// Error is a JSON-RPC error carried back to the client with its code.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// incoming is any message read from the client.
type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params framePart       `json:"params"`
	Result framePart       `json:"result"`
	Error  *Error          `json:"error"`
}

// framePart is a value of a message, as json.RawMessage, but a view of the
// frame's bytes instead of a copy: every frame is a slice of its own that
// nothing else writes (readFrame), so the view stays as it was read, and a
// didOpen of an 8 MiB file costs one copy of it fewer while it is decoded
// (issue 26).
type framePart []byte

func (p *framePart) UnmarshalJSON(b []byte) error {
	*p = b
	return nil
}

func (m *incoming) isRequest() bool      { return m.Method != "" && hasID(m.ID) }
func (m *incoming) isNotification() bool { return m.Method != "" && !hasID(m.ID) }
func (m *incoming) isResponse() bool     { return m.Method == "" && hasID(m.ID) }

func hasID(id json.RawMessage) bool { return len(id) > 0 && !bytes.Equal(id, []byte("null")) }

// badID says what is wrong with a message's id, or "" when it has none or
// one JSON-RPC 2.0 allows: a string or a number (echoed as sent, so a
// fraction is answered as well as an integer), or null. A method with a
// null id is read as a notification, JSON-RPC 1.0's form of one: nothing
// could be answered to it that a client could match.
func badID(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	switch id[0] {
	case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return ""
	case '{':
		return "the id is an object; it must be a string or a number"
	case '[':
		return "the id is an array; it must be a string or a number"
	case 't', 'f':
		return "the id is a boolean; it must be a string or a number"
	}
	return "the id must be a string or a number"
}

// outgoing messages; a successful response must carry "result" even when it
// is null, so result has no omitempty.
type (
	requestOut struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}
	notificationOut struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}
	resultOut struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}
	errorOut struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *Error          `json:"error"`
	}
)

// errFrame is a framing error after which the stream cannot be trusted.
var errFrame = errors.New("bad frame")

// readFrame reads one Content-Length framed message body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	headerBytes := 0
	for {
		line, err := r.ReadString('\n')
		headerBytes += len(line)
		if err != nil {
			if err == io.EOF && headerBytes == 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("%w: reading header: %v", errFrame, err)
		}
		if headerBytes > maxHeaderBytes {
			return nil, fmt.Errorf("%w: header longer than %d bytes", errFrame, maxHeaderBytes)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 && headerBytes <= 2 {
				continue // tolerate stray blank lines between frames
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q has no colon", errFrame, line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q is not a length", errFrame, value)
			}
			if n > maxMessageBytes {
				return nil, fmt.Errorf("%w: Content-Length %d is over the %d-byte limit", errFrame, n, maxMessageBytes)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length header", errFrame)
	}
	// Grow with the bytes that actually arrive, doubling but never past the
	// length: a Content-Length that lies must not make the server allocate
	// the whole claimed size up front, and a large message that is real
	// (a 50 MB file in a didOpen) ends in a buffer of exactly its size, where
	// a bytes.Buffer would round it up to about twice that.
	body := make([]byte, 0, min(length, 64<<10))
	for len(body) < length {
		if len(body) == cap(body) {
			grown := make([]byte, len(body), min(2*cap(body), length))
			copy(grown, body)
			body = grown
		}
		n, err := r.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if err != nil && len(body) < length {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("%w: body of %d bytes is shorter than Content-Length %d: %v", errFrame, len(body), length, err)
		}
	}
	return body, nil
}

// writeFrame frames and writes one message and says how long its body
// was. The caller serialises writers; header and body go out as two writes
// so that a large message (thousands of diagnostics) is not copied once
// more just to prepend its header.
func writeFrame(w io.Writer, v any) (int, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	header := make([]byte, 0, 32)
	header = append(header, "Content-Length: "...)
	header = strconv.AppendInt(header, int64(len(body)), 10)
	header = append(header, "\r\n\r\n"...)
	if _, err := w.Write(header); err != nil {
		return 0, err
	}
	_, err = w.Write(body)
	return len(body), err
}
