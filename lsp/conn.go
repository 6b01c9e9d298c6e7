package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tliron/commonlog"
)

// Handler is what the connection dispatches to.
type Handler interface {
	// Request answers one request. It runs on its own goroutine unless
	// Inline says the method must keep its place in the message order.
	Request(ctx context.Context, method string, params json.RawMessage) (any, error)
	// Notification handles one notification on the read loop, in order.
	// Returning errExit ends the connection.
	Notification(ctx context.Context, method string, params json.RawMessage) error
	// Inline lists requests that run on the read loop (initialize, shutdown).
	Inline(method string) bool
}

// errExit is returned by a Handler's Notification for "exit".
var errExit = errors.New("exit")

// Conn is one JSON-RPC connection to a client.
type Conn struct {
	r   *bufio.Reader
	w   io.Writer
	wmu sync.Mutex
	// ended is set (under wmu) when Run returns, after the answers of the
	// requests in flight: the process is about to exit, and a frame from a
	// goroutine of the server (a configuration pull, a timer's publish)
	// must not be cut off between its header and body, so a write in
	// progress is finished first and later ones are dropped.
	ended bool
	h     Handler
	log   commonlog.Logger

	mu       sync.Mutex
	nextID   int64
	calls    map[int64]chan *incoming
	inflight map[string]context.CancelFunc
	closed   chan struct{}
	requests sync.WaitGroup
}

// NewConn wraps a byte stream (stdin/stdout, or a pipe in tests).
func NewConn(r io.Reader, w io.Writer, h Handler, log commonlog.Logger) *Conn {
	return &Conn{r: bufio.NewReaderSize(r, 64<<10), w: w, h: h, log: log,
		calls: map[int64]chan *incoming{}, inflight: map[string]context.CancelFunc{}, closed: make(chan struct{})}
}

// Run reads and dispatches messages until the stream ends or the client
// sends exit. It returns nil after exit, io.EOF when the client went away,
// and a framing error when the stream can no longer be trusted.
func (c *Conn) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		close(c.closed)
		c.requests.Wait() // their answers are still written
		c.wmu.Lock()
		c.ended = true
		c.wmu.Unlock()
	}()
	for {
		body, err := readFrame(c.r)
		if err != nil {
			return err
		}
		var m incoming
		if err := json.Unmarshal(body, &m); err != nil {
			// Valid JSON that is no object (an array, a number) is a bad
			// request, not a parse error: the specification tells the two
			// apart so that a client knows whether its encoder or its
			// message is wrong.
			e := errorf(codeParseError, "message is not valid JSON: %v", err)
			switch {
			case !json.Valid(body):
			case bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")):
				e = errorf(codeInvalidRequest, "not a JSON-RPC message: %v", err)
			default:
				e = errorf(codeInvalidRequest, "a message must be a JSON object")
			}
			c.log.Warningf("unreadable message: %s", e.Message)
			c.write(errorOut{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: e})
			continue
		}
		if problem := badID(m.ID); problem != "" {
			// Not run, whatever its method: a shutdown with "id":true must
			// not stop the server, and its answer could not be matched to
			// it anyway. The id is not echoed, as the specification asks
			// when the id cannot be read.
			c.log.Warningf("refused %q: %s", m.Method, problem)
			c.write(errorOut{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: errorf(codeInvalidRequest, "%s", problem)})
			continue
		}
		switch {
		case m.isResponse():
			c.deliver(&m)
		case m.Method == "$/cancelRequest":
			c.cancel(json.RawMessage(m.Params))
		case m.isNotification():
			if err := c.notification(ctx, &m); errors.Is(err, errExit) {
				return nil
			}
		case m.isRequest():
			if c.h.Inline(m.Method) {
				c.request(ctx, &m)
				continue
			}
			rctx, rcancel := context.WithCancel(ctx)
			key := string(m.ID)
			c.mu.Lock()
			c.inflight[key] = rcancel
			c.mu.Unlock()
			c.requests.Add(1)
			go func() {
				defer c.requests.Done()
				c.request(rctx, &m)
				c.mu.Lock()
				delete(c.inflight, key)
				c.mu.Unlock()
				rcancel()
			}()
		default:
			c.write(errorOut{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: errorf(codeInvalidRequest, "message has neither a method nor an id")})
		}
	}
}

func (c *Conn) notification(ctx context.Context, m *incoming) (err error) {
	// The handler owns the params from here: m (which the read loop's
	// goroutine closure makes a heap object) would keep them alive for as
	// long as the handler runs, and a didOpen's are the whole file, held
	// while it waits for a check in progress (a large file's peak, issue
	// 26).
	method, params := m.Method, json.RawMessage(m.Params)
	m.Params = nil
	defer func() {
		if p := recover(); p != nil {
			c.log.Errorf("panic in %s: %v\n%s", method, p, debug.Stack())
			err = nil
		}
	}()
	if c.debug() {
		start, n := time.Now(), len(params)
		defer func() { c.log.Debugf("<- %s (%d bytes): handled in %s", method, n, since(start)) }()
	}
	err = c.h.Notification(ctx, method, params)
	if err != nil && !errors.Is(err, errExit) {
		c.log.Warningf("%s: %v", method, err)
	}
	return err
}

// debug: the session is logged message by message (--log-level debug),
// for an editor that shows nothing or the wrong thing.
func (c *Conn) debug() bool { return c.log.AllowLevel(commonlog.Debug) }

// since is a duration rounded for a log line.
func since(t time.Time) time.Duration {
	d := time.Since(t)
	if d > time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// request runs one request under recover and writes its response.
func (c *Conn) request(ctx context.Context, m *incoming) {
	start := time.Now()
	var (
		result any
		err    error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				c.log.Errorf("panic in %s: %v\n%s", m.Method, p, debug.Stack())
				err = errorf(codeInternalError, "internal error in %s: %v", m.Method, p)
			}
		}()
		result, err = c.h.Request(ctx, m.Method, json.RawMessage(m.Params))
	}()
	if c.debug() {
		outcome := "answered"
		if err != nil {
			outcome = "failed: " + err.Error()
		}
		c.log.Debugf("<- %s #%s (%d bytes): %s in %s", m.Method, m.ID, len(m.Params), outcome, since(start))
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		var e *Error
		switch {
		case errors.As(err, &e):
		case errors.Is(err, context.Canceled):
			e = errorf(codeRequestCancelled, "%s was cancelled", m.Method)
		default:
			e = errorf(codeRequestFailed, "%s", err.Error())
		}
		c.write(errorOut{JSONRPC: "2.0", ID: m.ID, Error: e})
		return
	}
	c.write(resultOut{JSONRPC: "2.0", ID: m.ID, Result: result})
}

// cancel cancels the context of a running request ($/cancelRequest).
func (c *Conn) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.inflight[string(p.ID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *Conn) deliver(m *incoming) {
	var id int64
	if json.Unmarshal(m.ID, &id) != nil {
		c.log.Warningf("response with an id we never sent: %s", m.ID)
		return
	}
	c.mu.Lock()
	ch := c.calls[id]
	delete(c.calls, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// write sends v and says how many bytes its body took, 0 when nothing
// went out.
func (c *Conn) write(v any) int {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.ended {
		return 0
	}
	n, err := writeFrame(c.w, v)
	if err != nil {
		c.log.Errorf("writing to the client: %v", err)
	}
	return n
}

// Notify sends a notification to the client.
func (c *Conn) Notify(method string, params any) {
	n := c.write(notificationOut{JSONRPC: "2.0", Method: method, Params: params})
	if c.debug() {
		c.log.Debugf("-> %s (%d bytes)", method, n)
	}
}

// Call sends a request to the client and waits for its answer, for ctx's
// deadline at most. It may be called from any handler: the read loop keeps
// running while a request waits.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	ch := make(chan *incoming, 1)
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.calls[id] = ch
	c.mu.Unlock()
	c.write(requestOut{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	start := time.Now()
	if c.debug() {
		c.log.Debugf("-> %s #%d", method, id)
	}
	select {
	case m := <-ch:
		if c.debug() {
			c.log.Debugf("<- answer to %s #%d after %s", method, id, since(start))
		}
		if m.Error != nil {
			return fmt.Errorf("%s: the client answered an error: %w", method, m.Error)
		}
		if result != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("%s: unexpected answer: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
		return fmt.Errorf("%s: no answer from the client: %w", method, ctx.Err())
	case <-c.closed:
		return fmt.Errorf("%s: connection closed", method)
	}
}
