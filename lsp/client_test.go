package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/tliron/commonlog"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/repo"
)

// testClient drives a Server in process over pipes, as an editor would: it
// records every notification and answers the server's requests with answer.
type testClient struct {
	t      *testing.T
	conn   *Conn
	server *Server
	served chan error
	// stopped is closed once Serve has returned
	stopped chan struct{}

	mu     sync.Mutex
	notes  []note
	signal chan struct{}
	answer func(method string, params json.RawMessage) (any, error)
	asked  []note // server→client requests, in order
}

type note struct {
	method string
	params json.RawMessage
}

// clientHandler is the client side of the pipe.
type clientHandler struct{ c *testClient }

func (h clientHandler) Inline(string) bool { return false }

func (h clientHandler) Notification(_ context.Context, method string, params json.RawMessage) error {
	h.c.mu.Lock()
	h.c.notes = append(h.c.notes, note{method, params})
	h.c.mu.Unlock()
	select {
	case h.c.signal <- struct{}{}:
	default:
	}
	return nil
}

func (h clientHandler) Request(_ context.Context, method string, params json.RawMessage) (any, error) {
	h.c.mu.Lock()
	h.c.asked = append(h.c.asked, note{method, params})
	answer := h.c.answer
	h.c.mu.Unlock()
	if answer != nil {
		return answer(method, params)
	}
	return nil, nil
}

func newTestClient(t *testing.T, opt Options) *testClient {
	t.Helper()
	if opt.Debounce == 0 {
		opt.Debounce = -1 // publish on every change: tests count publishes
	}
	if opt.OpenRepo == nil {
		opt.OpenRepo = repo.Open // as cmd/memory-lsp wires it
	}
	c2sR, c2sW := io.Pipe() // client → server
	s2cR, s2cW := io.Pipe() // server → client
	log := commonlog.GetLogger("test")
	c := &testClient{t: t, served: make(chan error, 1), stopped: make(chan struct{}), signal: make(chan struct{}, 1)}
	c.server = NewServer(opt, log)
	srvConn := NewConn(c2sR, s2cW, c.server, log)
	c.conn = NewConn(s2cR, c2sW, clientHandler{c}, log)
	go func() {
		_, err := c.server.Serve(context.Background(), srvConn)
		s2cW.Close()
		c.served <- err
		close(c.stopped)
	}()
	go c.conn.Run(context.Background())
	t.Cleanup(func() {
		c2sW.Close()
		s2cR.Close()
		// The server may still write to the folder as it stops (a check's
		// history): the test's temporary directory is removed after this,
		// and a write into it then fails the test (seen in CI).
		select {
		case <-c.stopped:
		case <-time.After(10 * time.Second):
			t.Logf("the server had not stopped 10 s after its connection closed")
		}
	})
	return c
}

func (c *testClient) request(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *testClient) notify(method string, params any) { c.conn.Notify(method, params) }

// initialize runs the handshake with the given root and options.
func (c *testClient) initialize(root string, initOptions any, caps map[string]any) protocol.InitializeResult {
	c.t.Helper()
	params := map[string]any{"processId": nil, "rootUri": uriOf(root), "capabilities": caps}
	if initOptions != nil {
		params["initializationOptions"] = initOptions
	}
	var res protocol.InitializeResult
	if err := c.request("initialize", params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify("initialized", map[string]any{})
	return res
}

// waitFor returns the first recorded notification (from index from on)
// matching pred, waiting up to 5 s, and the index after it.
func (c *testClient) waitFor(from int, pred func(note) bool) (note, int) {
	c.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		c.mu.Lock()
		for i := from; i < len(c.notes); i++ {
			if pred(c.notes[i]) {
				n := c.notes[i]
				c.mu.Unlock()
				return n, i + 1
			}
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("timed out waiting for a notification")
		}
	}
}

// published is publishDiagnostics as the test decodes it: glsp's
// IntegerOrString cannot be decoded (its UnmarshalJSON has a value receiver),
// so codes are read as plain strings here.
type published struct {
	URI         protocol.DocumentUri `json:"uri"`
	Version     *int                 `json:"version"`
	Diagnostics []struct {
		Range              protocol.Range                          `json:"range"`
		Severity           int                                     `json:"severity"`
		Code               string                                  `json:"code"`
		Source             string                                  `json:"source"`
		Message            string                                  `json:"message"`
		RelatedInformation []protocol.DiagnosticRelatedInformation `json:"relatedInformation"`
	} `json:"diagnostics"`
}

// diagnostics waits for a publishDiagnostics for uri (and version, when >= 0).
func (c *testClient) diagnostics(from int, uri protocol.DocumentUri, version int) (published, int) {
	c.t.Helper()
	var got published
	_, next := c.waitFor(from, func(n note) bool {
		if n.method != "textDocument/publishDiagnostics" {
			return false
		}
		var p published
		if json.Unmarshal(n.params, &p) != nil || p.URI != uri {
			return false
		}
		if version >= 0 && (p.Version == nil || int(*p.Version) != version) {
			return false
		}
		got = p
		return true
	})
	return got, next
}

func (c *testClient) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// shutdown ends the session and checks the server stopped cleanly.
func (c *testClient) shutdown() {
	c.t.Helper()
	if err := c.request("shutdown", nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		if err != nil && !errors.Is(err, io.EOF) {
			c.t.Fatalf("server ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		c.t.Fatal("server did not stop after exit")
	}
	if !c.server.shutdown {
		c.t.Error("server does not know shutdown came before exit")
	}
}

func codes(p published) []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, d.Code)
	}
	return out
}
