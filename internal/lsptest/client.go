package lsptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Timeout bounds every wait of a Client whose caller gives none: a request's
// answer, the server's exit. It is generous because CI machines are slow; a
// passing test never waits for it.
var Timeout = 10 * time.Second

// Client is one editor session with a server.
type Client struct {
	t    testing.TB
	in   io.WriteCloser
	wmu  sync.Mutex
	read chan struct{} // closed when the server's output has ended

	exited   chan struct{} // closed when the server has ended
	exitCode int
	stderr   *logWriter // the process's standard error; nil in process

	// dmu guards docs and orders what is sent about them (didChange
	// versions); it is never held by the read loop.
	dmu  sync.Mutex
	docs map[string]*doc

	mu   sync.Mutex
	grew chan struct{} // closed and replaced when msgs grows
	msgs []Message
	bad  []string // framing violations
	// cut is a message the output ended inside of: a violation unless the
	// test killed the server, which may stop it in the middle of a write
	cut      string
	nextID   int64
	pending  map[string]chan Message
	settings map[string]any
	handlers map[string]func(params json.RawMessage) (any, error)
}

type doc struct {
	text    string
	version int
}

func newClient(t testing.TB, in io.WriteCloser) *Client {
	c := &Client{t: t, in: in, read: make(chan struct{}), exited: make(chan struct{}),
		grew: make(chan struct{}), pending: map[string]chan Message{}, docs: map[string]*doc{},
		handlers: map[string]func(json.RawMessage) (any, error){}}
	return c
}

// Start runs cmd (its Stdin, Stdout and Stderr must be unset) and connects
// a client to its stdio. The server's stderr goes to the test log. When the
// test ends, stdin is closed and the process is given Timeout to exit before
// it is killed.
func Start(t testing.TB, cmd *exec.Cmd) *Client {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	stderr := &logWriter{t: t, prefix: "server stderr: ", grew: make(chan struct{})}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	inR.Close()
	outW.Close()
	c := newClient(t, inW)
	c.stderr = stderr
	go c.readLoop(outR)
	go func() {
		err := cmd.Wait()
		c.exitCode = 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			c.exitCode = ee.ExitCode()
		} else if err != nil {
			c.exitCode = -1
		}
		stderr.flush()
		close(c.exited)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.exited:
		case <-time.After(Timeout):
			t.Errorf("the server did not exit within %v of its input closing; killing it", Timeout)
			cmd.Process.Kill()
			<-c.exited
		}
		<-c.read
		c.report()
	})
	return c
}

// Pipe connects a client to a server run in process: serve reads the
// client's messages from in, writes its own to out, and returns the exit
// code a process would (0 after shutdown and exit, 1 otherwise). out is
// closed when serve returns.
func Pipe(t testing.TB, serve func(in io.Reader, out io.Writer) int) *Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := newClient(t, inW)
	go c.readLoop(outR)
	go func() {
		code := serve(inR, outW)
		outW.Close()
		inR.CloseWithError(errors.New("the server has returned"))
		c.exitCode = code
		close(c.exited)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.exited:
		case <-time.After(Timeout):
			t.Errorf("the in-process server did not return within %v of its input closing", Timeout)
			outR.Close()
		}
		<-c.read
		c.report()
	})
	return c
}

// report fails the test for every framing violation seen, and for output
// that ended inside a message unless the server was killed (exit code -1:
// a signal), as a test that ends on a busy server does.
func (c *Client) report() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut != "" && c.exitCode != -1 {
		c.bad = append(c.bad, c.cut)
	}
	c.cut = ""
	for _, v := range c.bad {
		c.t.Errorf("server output: %s", v)
	}
	c.bad = nil
}

func (c *Client) violation(format string, args ...any) {
	c.mu.Lock()
	c.bad = append(c.bad, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

// Violations are the framing problems seen so far (also reported as test
// errors when the client is cleaned up).
func (c *Client) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bad...)
}

// readLoop records every message the server writes.
func (c *Client) readLoop(r io.Reader) {
	defer func() {
		c.mu.Lock()
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
		close(c.read)
	}()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		body, err := readFrame(br)
		arrived := time.Now()
		if err == io.EOF {
			return
		}
		if err != nil {
			switch {
			case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
				c.mu.Lock()
				c.cut = err.Error()
				c.mu.Unlock()
			case !errors.Is(err, io.ErrClosedPipe):
				c.violation("%v", err)
			}
			io.Copy(io.Discard, br)
			return
		}
		m, err := parseMessage(body)
		if err != nil {
			c.violation("%v: %.200s", err, body)
			continue
		}
		m.Arrived = arrived
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		close(c.grew)
		c.grew = make(chan struct{})
		var ch chan Message
		if m.IsResponse() {
			ch = c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
		}
		c.mu.Unlock()
		switch {
		case m.IsResponse() && ch != nil:
			ch <- m
		case m.IsResponse():
			c.violation("response to id %s, which was never sent or already answered", m.ID)
		case m.IsRequest():
			// Answered off the read loop: answering may write to a server
			// that is itself blocked writing to us.
			go c.answer(m)
		}
	}
}

func (c *Client) write(v any) error {
	b, err := frame(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.in.Write(b)
	return err
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Call is a request in flight.
type Call struct {
	ID     int64
	Method string
	done   chan Message
}

// Go sends a request without waiting for its answer.
func (c *Client) Go(method string, params any) (*Call, error) {
	c.mu.Lock()
	c.nextID++
	call := &Call{ID: c.nextID, Method: method, done: make(chan Message, 1)}
	c.pending[strconv.FormatInt(call.ID, 10)] = call.done
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": call.ID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.write(msg); err != nil {
		c.mu.Lock()
		delete(c.pending, strconv.FormatInt(call.ID, 10))
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return call, nil
}

// Wait waits up to timeout for the answer: the result, or an *Error for an
// error response, or an error saying why no answer came.
func (call *Call) Wait(timeout time.Duration) (json.RawMessage, error) {
	select {
	case m, ok := <-call.done:
		if !ok {
			return nil, fmt.Errorf("%s: the server's output ended before it answered", call.Method)
		}
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s: no answer within %v", call.Method, timeout)
	}
}

// Request sends a request and waits (up to Timeout) for its answer. An
// error response comes back as an *Error, whose Code tests can check.
func (c *Client) Request(method string, params any) (json.RawMessage, error) {
	call, err := c.Go(method, params)
	if err != nil {
		return nil, err
	}
	return call.Wait(Timeout)
}

// Cancel sends $/cancelRequest for a request in flight.
func (c *Client) Cancel(call *Call) error {
	return c.Notify("$/cancelRequest", map[string]any{"id": call.ID})
}

// RequestInto is Request that decodes the result into v, failing the test
// on any error.
func (c *Client) RequestInto(method string, params, v any) {
	c.t.Helper()
	res, err := c.Request(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	if v != nil {
		if err := json.Unmarshal(res, v); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, res, err)
		}
	}
}

// Messages is a copy of everything received so far, in order.
func (c *Client) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.msgs...)
}

// Forget drops the messages received so far, for long benchmarks that
// would otherwise keep every publish. Marks taken before are void.
func (c *Client) Forget() {
	c.mu.Lock()
	c.msgs = nil
	c.mu.Unlock()
}

// Mark is the number of messages received so far: pass it to Await to look
// only at what arrives after this point.
func (c *Client) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// Await returns the first message at index from or later that match
// accepts, waiting up to timeout, and the index after it. It fails the test
// when none arrives in time, naming what.
func (c *Client) Await(from int, timeout time.Duration, what string, match func(*Message) bool) (*Message, int) {
	c.t.Helper()
	m, next, ok := c.await(from, timeout, match)
	if !ok {
		c.t.Fatalf("no %s within %v", what, timeout)
	}
	return m, next
}

func (c *Client) await(from int, timeout time.Duration, match func(*Message) bool) (*Message, int, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		msgs, grew := c.msgs, c.grew
		c.mu.Unlock()
		for i := from; i < len(msgs); i++ {
			if match(&msgs[i]) {
				m := msgs[i]
				return &m, i + 1, true
			}
		}
		from = len(msgs)
		select {
		case <-grew:
		case <-c.read:
			c.mu.Lock()
			n := len(c.msgs)
			c.mu.Unlock()
			if n == from {
				return nil, from, false
			}
		case <-deadline.C:
			return nil, from, false
		}
	}
}

// Diagnostic is a published diagnostic. Code is decoded as a plain string:
// memory-lsp's codes are strings, and an integer here fails the decoding.
type Diagnostic struct {
	Range              Range           `json:"range"`
	Severity           int             `json:"severity"`
	Code               string          `json:"code"`
	Source             string          `json:"source"`
	Message            string          `json:"message"`
	Tags               []int           `json:"tags"`
	Data               json.RawMessage `json:"data,omitempty"`
	RelatedInformation []struct {
		Location struct {
			URI   string `json:"uri"`
			Range Range  `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

// Diagnostics is the params of textDocument/publishDiagnostics.
type Diagnostics struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Codes lists the diagnostics' codes in order.
func (d *Diagnostics) Codes() []string {
	out := make([]string, 0, len(d.Diagnostics))
	for _, x := range d.Diagnostics {
		out = append(out, x.Code)
	}
	return out
}

// Find is the first diagnostic with code, or nil.
func (d *Diagnostics) Find(code string) *Diagnostic {
	for i := range d.Diagnostics {
		if d.Diagnostics[i].Code == code {
			return &d.Diagnostics[i]
		}
	}
	return nil
}

// AnyVersion asks AwaitDiagnostics for a publish whatever its version.
const AnyVersion = -2

// NoVersion asks AwaitDiagnostics for a publish without a version (the file
// as it is on disk).
const NoVersion = -1

// decodeDiagnostics decodes a publishDiagnostics notification for uri and
// checks its shape (diagnostics must be an array, never null).
func (c *Client) decodeDiagnostics(m *Message, uri string) (*Diagnostics, bool) {
	if m.Method != "textDocument/publishDiagnostics" {
		return nil, false
	}
	var p Diagnostics
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.violation("publishDiagnostics does not decode: %v: %.300s", err, m.Params)
		return nil, false
	}
	if p.URI != uri {
		return nil, false
	}
	if p.Diagnostics == nil {
		c.violation("publishDiagnostics for %s has diagnostics null, not an array", uri)
	}
	return &p, true
}

// AwaitDiagnostics returns the diagnostics published for uri with the given
// version (or NoVersion, AnyVersion): the latest such publish already
// received, else the next one, waiting up to timeout.
func (c *Client) AwaitDiagnostics(uri string, version int, timeout time.Duration) *Diagnostics {
	c.t.Helper()
	match := func(m *Message) (*Diagnostics, bool) {
		p, ok := c.decodeDiagnostics(m, uri)
		if !ok {
			return nil, false
		}
		switch {
		case version == AnyVersion:
		case version == NoVersion:
			ok = p.Version == nil
		default:
			ok = p.Version != nil && *p.Version == version
		}
		return p, ok
	}
	msgs := c.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if p, ok := match(&msgs[i]); ok {
			return p
		}
	}
	var got *Diagnostics
	c.Await(len(msgs), timeout, fmt.Sprintf("publishDiagnostics for %s version %d", uri, version), func(m *Message) bool {
		p, ok := match(m)
		got = p
		return ok
	})
	return got
}

// AwaitDiagnosticsWhere waits for a publish for uri, received at index from
// or later, that satisfies ok: the eventual state after something the
// server learns of asynchronously (a file written on disk). On timeout it
// fails the test and shows the last publish seen.
func (c *Client) AwaitDiagnosticsWhere(from int, uri string, timeout time.Duration, ok func(*Diagnostics) bool) *Diagnostics {
	c.t.Helper()
	got, last, found := c.awaitDiagnosticsWhere(from, uri, timeout, ok)
	if !found {
		if last == nil {
			c.t.Fatalf("no publishDiagnostics for %s within %v", uri, timeout)
		}
		c.t.Fatalf("the diagnostics for %s did not reach the expected state within %v; last published: %v", uri, timeout, last.Codes())
	}
	return got
}

// TryAwaitDiagnosticsWhere is AwaitDiagnosticsWhere that reports a timeout
// instead of failing the test: for a wait repeated until a condition holds.
func (c *Client) TryAwaitDiagnosticsWhere(from int, uri string, timeout time.Duration, ok func(*Diagnostics) bool) (*Diagnostics, bool) {
	got, _, found := c.awaitDiagnosticsWhere(from, uri, timeout, ok)
	return got, found
}

// awaitDiagnosticsWhere waits as AwaitDiagnosticsWhere does, and returns
// the publish that satisfied ok, the last one for uri seen, and whether
// one satisfied it in time.
func (c *Client) awaitDiagnosticsWhere(from int, uri string, timeout time.Duration, ok func(*Diagnostics) bool) (got, last *Diagnostics, found bool) {
	_, _, found = c.await(from, timeout, func(m *Message) bool {
		p, isFor := c.decodeDiagnostics(m, uri)
		if !isFor {
			return false
		}
		last = p
		if ok(p) {
			got = p
			return true
		}
		return false
	})
	return got, last, found
}

// Shutdown sends shutdown (which must answer null) and exit.
func (c *Client) Shutdown() {
	c.t.Helper()
	res, err := c.Request("shutdown", nil)
	if err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	if string(res) != "null" {
		c.t.Errorf("shutdown answered %s, want null", res)
	}
	if err := c.Notify("exit", nil); err != nil {
		c.t.Fatalf("exit: %v", err)
	}
}

// ExitCode waits (up to Timeout) for the server to end and returns its exit
// code.
func (c *Client) ExitCode() int {
	c.t.Helper()
	select {
	case <-c.exited:
		return c.exitCode
	case <-time.After(Timeout):
		c.t.Fatalf("the server did not exit within %v", Timeout)
		return -1
	}
}

// Exited is closed when the server has ended.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// logWriter sends whole lines to the test log and keeps them for
// AwaitStderr.
type logWriter struct {
	t      testing.TB
	prefix string
	mu     sync.Mutex
	buf    bytes.Buffer
	lines  []string
	grew   chan struct{} // closed and replaced when lines grows
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		line = strings.TrimRight(line, "\n")
		w.t.Log(w.prefix + line)
		w.lines = append(w.lines, line)
		close(w.grew)
		w.grew = make(chan struct{})
	}
}

// Stderr is every whole line the server process has written to its
// standard error so far (nil for a server run in process).
func (c *Client) Stderr() []string {
	if c.stderr == nil {
		return nil
	}
	c.stderr.mu.Lock()
	defer c.stderr.mu.Unlock()
	return append([]string(nil), c.stderr.lines...)
}

// AwaitStderr returns the first line of the server's standard error, from
// line index from on (len(Stderr()) before sending what should cause it),
// that contains substr, and the index after it. It waits up to timeout:
// log lines may be written after the message that caused them has been
// answered. It fails the test when none comes.
func (c *Client) AwaitStderr(from int, substr string, timeout time.Duration) (string, int) {
	c.t.Helper()
	if c.stderr == nil {
		c.t.Fatalf("AwaitStderr(%q): the server runs in process and has no standard error of its own", substr)
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	ended := false
	for seen := from; ; {
		c.stderr.mu.Lock()
		lines, grew := c.stderr.lines, c.stderr.grew
		c.stderr.mu.Unlock()
		for i := seen; i < len(lines); i++ {
			if strings.Contains(lines[i], substr) {
				return lines[i], i + 1
			}
		}
		seen = max(seen, len(lines))
		select {
		case <-grew:
		case <-c.exited:
			if ended {
				c.t.Fatalf("the server ended without writing %q to its standard error", substr)
			}
			ended = true // its last lines are in: look once more
		case <-deadline.C:
			c.t.Fatalf("no line with %q on the server's standard error within %v", substr, timeout)
		}
	}
}

// WriteRaw writes bytes to the server as they are, for tests of malformed
// frames and JSON.
func (c *Client) WriteRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.in.Write(b)
	return err
}

func (w *logWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 0 {
		w.t.Log(w.prefix + w.buf.String())
		w.lines = append(w.lines, w.buf.String())
		w.buf.Reset()
	}
}
