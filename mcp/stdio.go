package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one incoming line of the stdio transport, its line ending
// not counted. Far above what an agent sends (a store is one sentence),
// and what a line costs to check and decode stays a few times this.
const MaxLine = 4 << 20

// maxDepth bounds how deeply a message may nest objects and arrays: well
// below the SDK's own bound, which ends the session when passed, and far
// above what any MCP message needs.
const maxDepth = 256

// Stdio is the transport of `memory-lsp mcp`: JSON-RPC messages one a line
// on a pair of streams, as the SDK's IOTransport reads and writes them,
// with every line checked before the SDK reads it. The SDK ends the
// session at the first line it cannot read (invalid JSON, an id of the
// wrong type, a "jsonrpc" other than "2.0", a batch its protocol version
// forbids), so one broken line from a client would lose everything after
// it; here such a line is answered with the error JSON-RPC 2.0 gives
// (-32700 for what is not JSON, -32600 for JSON that is no valid message)
// and the session goes on.
//
// Decided where the specifications leave room:
//   - A message is one line, as MCP's stdio transport says: a line that is
//     not a whole JSON value is a parse error.
//   - A request's id is a string or an integer of at most 2^53 in
//     magnitude written as one: MCP forbids null, and the SDK would answer
//     a fraction or a larger number with an id other than the one sent.
//   - An answer names the id of a request it could read; else, and for
//     anything that is not a request (a broken response, a notification),
//     the id is null, so that it can never be taken for the answer to one
//     of the client's own requests.
//   - Batches are refused once an initialize asks for a protocol version
//     from 2025-06-18 on, which removed them. Before, as in 2025-03-26,
//     a batch's invalid members are answered in one array and the rest go
//     on, its requests as a batch and its notifications and responses one
//     by one (the SDK would wait for an answer to a notification in a
//     batch, and never send the batch's answers).
//   - A line longer than MaxLine is read past without being kept and
//     answered -32600.
type Stdio struct {
	In  io.ReadCloser
	Out io.Writer
	// Logger notes each refused line; nil discards.
	Logger *slog.Logger
	// MaxLine overrides the package's MaxLine when positive (tests).
	MaxLine int
}

// Connect implements sdk.Transport: the SDK reads what the gate passes on
// through a pipe and writes to Out through the same lock as the gate's
// answers, so that no two lines interleave.
func (t *Stdio) Connect(ctx context.Context) (sdk.Connection, error) {
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &gate{max: t.MaxLine, log: log, pending: map[string]bool{}}
	if g.max <= 0 {
		g.max = MaxLine
	}
	g.out = &stdout{w: t.Out, g: g}
	pr, pw := io.Pipe()
	go g.run(t.In, pw)
	// The gate bounds every line it passes on: the SDK's own bound could
	// only end the session.
	return (&sdk.IOTransport{Reader: &sdkIn{pr, t.In}, Writer: g.out, MaxLineLength: -1}).Connect(ctx)
}

// sdkIn is what the SDK reads; closing it (the session ends) closes the
// client's stream too, so that the gate's read of it returns.
type sdkIn struct {
	*io.PipeReader
	client io.Closer
}

func (r *sdkIn) Close() error {
	return errors.Join(r.PipeReader.Close(), r.client.Close())
}

// stdout is the client's stream, shared by the SDK and the gate.
type stdout struct {
	mu sync.Mutex
	w  io.Writer
	g  *gate
}

// Write takes one message of the SDK's.
func (o *stdout) Write(p []byte) (int, error) {
	if len(p) > 0 && p[0] == '[' {
		o.g.answered(p)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w.Write(p)
}

// Close leaves the stream open: the process's stdout outlives the session.
func (o *stdout) Close() error { return nil }

// gate checks each line from the client and passes on what the SDK can read.
type gate struct {
	max int
	log *slog.Logger
	out *stdout

	mu sync.Mutex
	// noBatch is set by the first initialize that asks for a protocol
	// version under which the SDK refuses batches, which it names (""
	// when the client named none), and never unset: the gate must refuse
	// a batch whenever the SDK would.
	noBatch bool
	version string
	// pending holds the ids (idKey) of the requests of batches passed on
	// whose answer has not been written: the SDK ends the session on a
	// batch that reuses one.
	pending map[string]bool
}

func (g *gate) run(in io.Reader, toSDK *io.PipeWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for {
		line, long, err := readLine(r, g.max, buf[:0])
		switch {
		case long:
			g.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("a message longer than %d bytes is not read", g.max))
		case err == nil || err == io.EOF:
			pass, answer := g.check(line)
			if answer != nil {
				g.write(answer)
			}
			for _, p := range pass {
				if _, werr := toSDK.Write(p); werr != nil {
					return // the session has ended
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				toSDK.Close()
			} else {
				toSDK.CloseWithError(err)
			}
			return
		}
		buf = line
		if cap(buf) > 1<<20 {
			buf = nil // a rare long line's buffer is not kept
		}
	}
}

// readLine reads one line into buf, without its line ending. A line longer
// than max is read to its end without being kept: long reports it.
func readLine(r *bufio.Reader, max int, buf []byte) (line []byte, long bool, err error) {
	for {
		var chunk []byte
		chunk, err = r.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > max+2 {
				long, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		buf = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		return buf, long || len(buf) > max, err
	}
}

// check reads one line: the lines to pass on to the SDK, each ending in a
// newline, and the answer to write, if any.
func (g *gate) check(line []byte) (pass [][]byte, answer []byte) {
	line = bytes.Trim(line, " \t\r\n")
	switch {
	case len(line) == 0:
		return nil, nil // a blank line between messages
	case !json.Valid(line):
		var v json.RawMessage
		err := json.Unmarshal(line, &v)
		return nil, g.answer(nil, jsonrpc.CodeParseError, "not valid JSON: "+errorText(err))
	case depth(line) > maxDepth:
		return nil, g.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("nested more than %d levels deep", maxDepth))
	case line[0] == '[':
		return g.batch(line)
	case line[0] != '{':
		return nil, g.answer(nil, jsonrpc.CodeInvalidRequest, "a message must be a JSON object, not "+kind(line))
	}
	v := inspect(line)
	if v.problem != "" {
		return nil, g.answer(v.id, jsonrpc.CodeInvalidRequest, v.problem)
	}
	g.note(v)
	return [][]byte{withNewline(line)}, nil
}

// batch checks a JSON array of messages.
func (g *gate) batch(line []byte) (pass [][]byte, answer []byte) {
	var members []json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return nil, g.answer(nil, jsonrpc.CodeParseError, "not valid JSON: "+errorText(err))
	}
	if len(members) == 0 {
		return nil, g.answer(nil, jsonrpc.CodeInvalidRequest, "an empty batch")
	}
	g.mu.Lock()
	noBatch, version := g.noBatch, g.version
	g.mu.Unlock()
	if noBatch {
		if version == "" {
			version = "this session speaks"
		}
		return nil, g.answer(nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("a batch, which the MCP version %s does not have (2025-06-18 removed them): send one message a line", version))
	}
	var (
		refused  []refusal
		requests [][]byte
		keys     = map[string]bool{}
	)
	flush := func() {
		if len(requests) > 0 {
			pass = append(pass, withNewline(append(append([]byte("["), bytes.Join(requests, []byte(","))...), ']')))
			requests = nil
		}
	}
	for _, m := range members {
		m = bytes.Trim(m, " \t\r\n")
		if len(m) == 0 || m[0] != '{' {
			refused = append(refused, g.refusal(nil, jsonrpc.CodeInvalidRequest, "a message must be a JSON object, not "+kind(m)))
			continue
		}
		v := inspect(m)
		if v.problem == "" && v.request {
			g.mu.Lock()
			switch {
			case keys[v.key]:
				v.problem, v.id = fmt.Sprintf("the id %s is used twice in this batch", v.id), nil
			case g.pending[v.key]:
				v.problem, v.id = fmt.Sprintf("the id %s is that of a request of an earlier batch, not yet answered", v.id), nil
			default:
				keys[v.key], g.pending[v.key] = true, true
			}
			g.mu.Unlock()
		}
		switch {
		case v.problem != "":
			refused = append(refused, g.refusal(v.id, jsonrpc.CodeInvalidRequest, v.problem))
		case v.request:
			g.note(v)
			requests = append(requests, m)
		default:
			flush()
			pass = append(pass, withNewline(m))
		}
	}
	flush()
	if len(refused) > 0 {
		answer, _ = json.Marshal(refused)
		answer = withNewline(answer)
	}
	return pass, answer
}

// note learns from a message passed on: the protocol version an
// initialize asks for, which the SDK will speak (it answers a version it
// does not know with its own newest).
func (g *gate) note(v verdict) {
	if v.method != "initialize" {
		return
	}
	if v.version != "2024-11-05" && v.version != "2025-03-26" {
		g.mu.Lock()
		if !g.noBatch {
			g.noBatch, g.version = true, v.version
		}
		g.mu.Unlock()
	}
}

// answered forgets the ids of a batch's requests once the SDK writes their
// answers, all at once.
func (g *gate) answered(p []byte) {
	var answers []struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(p, &answers) != nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, a := range answers {
		if key, problem := idKey(a.ID); problem == "" {
			delete(g.pending, key)
		}
	}
}

// verdict is what inspect read of one message.
type verdict struct {
	// problem is why the SDK must not read it, or "".
	problem string
	// id is the message's id when it is a request whose id the client can
	// match an answer to, else nil (an answer's id is then null).
	id json.RawMessage
	// request: a message with a method and an id; key is its id as the SDK
	// tells ids apart.
	request bool
	key     string
	method  string
	// version is the protocolVersion an initialize asks for.
	version string
}

// inspect reads one JSON object as JSON-RPC 2.0 and MCP define a message,
// and then as the SDK reads it.
func inspect(raw []byte) (v verdict) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		v.problem = "not a JSON object: " + errorText(err)
		return v
	}
	id, hasID := f["id"]
	rawMethod, hasMethod := f["method"]
	key, idProblem := idKey(id)
	if hasMethod && hasID && idProblem == "" {
		v.id = id
	}
	switch {
	case !hasMethod && !hasID:
		v.problem = "a message must have a method (a request or notification) or an id (a response)"
	case f["jsonrpc"] == nil:
		v.problem = `"jsonrpc" is missing; it must be "2.0"`
	case string(f["jsonrpc"]) != `"2.0"`:
		var s string
		if json.Unmarshal(f["jsonrpc"], &s) != nil || s != "2.0" {
			v.problem = fmt.Sprintf(`"jsonrpc" is %s; it must be "2.0"`, excerpt(f["jsonrpc"]))
		}
	}
	if v.problem != "" {
		return v
	}
	if hasMethod {
		if len(rawMethod) == 0 || rawMethod[0] != '"' || json.Unmarshal(rawMethod, &v.method) != nil {
			v.problem = fmt.Sprintf(`"method" is %s; it must be a string`, kind(rawMethod))
			return v
		}
		if p, ok := f["params"]; ok && len(p) > 0 && p[0] != '{' && p[0] != '[' && p[0] != 'n' {
			v.problem = fmt.Sprintf(`"params" is %s; it must be an object`, kind(p))
			return v
		}
		if hasID {
			if idProblem != "" {
				v.problem = idProblem
				return v
			}
			v.request, v.key = true, key
		}
		if v.method == "initialize" {
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(f["params"], &p)
			v.version = p.ProtocolVersion
		}
	} else {
		v.problem = response(f, idProblem)
		if v.problem != "" {
			return v
		}
	}
	// The SDK's reading is the last word: what it cannot decode would end
	// the session.
	if _, err := jsonrpc.DecodeMessage(raw); err != nil {
		v.problem = errorText(err)
	}
	return v
}

// response says what is wrong with a message without a method, a response
// to one of the server's requests, or "".
func response(f map[string]json.RawMessage, idProblem string) string {
	if idProblem != "" {
		return "a response: " + idProblem
	}
	result, hasResult := f["result"]
	e, hasError := f["error"]
	switch {
	case hasResult && hasError:
		return "a response has a result or an error, not both"
	case !hasResult && !hasError:
		return "a response must have a result or an error"
	case hasResult && len(result) == 0:
		return "a response must have a result"
	case hasError:
		var we struct {
			Code    json.RawMessage `json:"code"`
			Message json.RawMessage `json:"message"`
		}
		if len(e) == 0 || e[0] != '{' || json.Unmarshal(e, &we) != nil {
			return fmt.Sprintf(`a response's "error" is %s; it must be an object`, kind(e))
		}
		if _, err := strconv.ParseInt(string(we.Code), 10, 64); err != nil {
			return `a response's "error" must have an integer "code"`
		}
		if len(we.Message) == 0 || we.Message[0] != '"' {
			return `a response's "error" must have a string "message"`
		}
	}
	return ""
}

// idKey is a request's id as the SDK tells ids apart, or why it may not be
// one.
func idKey(id json.RawMessage) (key, problem string) {
	if len(id) == 0 {
		return "", "the id is missing"
	}
	switch c := id[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return "", "the id is not a string"
		}
		return "s" + s, ""
	case c == '-' || c >= '0' && c <= '9':
		n, err := strconv.ParseInt(string(id), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return "", fmt.Sprintf("the id %s is not an integer from -2^53 to 2^53; it must be a string or such an integer", excerpt(id))
		}
		return "n" + strconv.FormatInt(n, 10), ""
	}
	return "", fmt.Sprintf("the id is %s; it must be a string or an integer", kind(id))
}

// kind names the JSON value raw begins.
func kind(raw []byte) string {
	if len(raw) == 0 {
		return "missing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// depth is how deeply the valid JSON raw nests objects and arrays.
func depth(raw []byte) int {
	d, deepest, in := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in && c == '\\':
			i++
		case in:
			in = c != '"'
		case c == '"':
			in = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// excerpt shows a JSON value in a message, cut if long.
func excerpt(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// errorText is a decoding error worded for the client, without the
// package prefixes of Go's errors.
func errorText(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "unmarshaling jsonrpc message: ")
	return strings.TrimPrefix(s, "json: ")
}

func withNewline(b []byte) []byte {
	out := make([]byte, len(b)+1)
	copy(out, b)
	out[len(b)] = '\n'
	return out
}

// refusal is the error answer to one message.
type refusal struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (g *gate) refusal(id json.RawMessage, code int, message string) refusal {
	g.log.Warn("refused a message from the client", "code", code, "problem", message)
	r := refusal{JSONRPC: "2.0", ID: id}
	if id == nil {
		r.ID = json.RawMessage("null")
	}
	r.Error.Code, r.Error.Message = code, message
	return r
}

// answer is the line that answers one message with an error.
func (g *gate) answer(id json.RawMessage, code int, message string) []byte {
	b, _ := json.Marshal(g.refusal(id, code, message))
	return withNewline(b)
}

func (g *gate) refuse(id json.RawMessage, code int, message string) {
	g.write(g.answer(id, code, message))
}

func (g *gate) write(line []byte) {
	g.out.mu.Lock()
	defer g.out.mu.Unlock()
	if _, err := g.out.w.Write(line); err != nil {
		g.log.Error("writing to the client", "error", err)
	}
}
