package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tliron/commonlog"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// Name is the server's name in serverInfo and the source of its diagnostics.
const Name = "memory-lsp"

// MemoryLimit is the soft heap limit `memory-lsp serve` sets (unless
// GOMEMLIMIT is set): an editor keeps the server running all day beside
// everything else, so the collector is asked to keep the heap near 44 MiB.
// It is soft, and a guard rather than a target: under a larger live heap
// the binary raises it to half again that heap (cmd/memory-lsp's
// idlememory.go), as the collector would otherwise run without pause. The
// latency benchmarks run the binary as users do.
const MemoryLimit = 44 << 20

// Options tune a Server; the zero value is what the binary uses.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Debounce delays diagnostics after a change (default 100 ms; negative
	// means none, for benchmarks and tests that count every publish).
	Debounce time.Duration
	// ClientTimeout bounds every request to the client (default 10 s).
	ClientTimeout time.Duration
	// OpenRepo opens the repository beside a served .memory folder, which
	// the reference rules, links, definitions and hovers read (repo.go):
	// core/repo.Open, as cmd/memory-lsp wires it; tests give a fake. Nil:
	// no repository, and those features stay silent.
	OpenRepo func(ctx context.Context, root string, cfg config.Config) (rules.Repo, error)
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// Server is the memory language server's state. Its handlers run on the
// connection's goroutines; mu guards everything below it.
type Server struct {
	opt  Options
	log  commonlog.Logger
	conn *Conn

	mu       sync.Mutex
	state    lifecycle
	roots    []string           // workspace folder paths
	folders  map[string]*folder // served .memory folders by canonical path (folder.go)
	caps     clientCaps
	client   string          // the client's name and version, from initialize
	base     config.Settings // from initializationOptions, if valid
	pulled   config.Settings // last good workspace/configuration or didChangeConfiguration
	cfg      config.Config
	shutdown bool // shutdown was requested before exit
	watch    *watcher
	startup  []pendingNote   // settings problems found in initialize, sent after initialized
	kept     map[string]bool // pairs the user chose to keep both of (keepboth.go)

	// refsByClient: the client sends the changes to the code
	// (watch_refs.go), so the server does not watch cited folders itself.
	refsByClient bool
	// linkWatch is what the client was last asked to watch of the files
	// the agents' instruction files link to (watch_refs.go), every folder's.
	linkWatch map[string]bool
	// linkReg serialises those registrations; linkRegistered (under it)
	// says one is in place, to be unregistered before the next.
	linkReg        sync.Mutex
	linkRegistered bool

	// cfgMu serialises configuration refreshes, so that a slow pull cannot
	// overwrite a newer one. It is taken before mu, never while holding it.
	cfgMu sync.Mutex
	// watchHook, when set (tests), sees every file event after the watcher
	// handled it, with the folder it scheduled or "".
	watchHook func(name, scheduled string)

	// life bounds the server's own work that outlives a request (opening
	// a repository); stop ends it.
	life    context.Context
	endLife context.CancelFunc
	// after counts the work that outlives the request or event that began
	// it and may write into a workspace (reconciles, captures, the wait
	// for an editor's echo that holds a folder's queue); Serve waits for
	// it, so that nothing of ours takes the lock or writes after the
	// server has exited. Checks only read, and are not waited for.
	after afterWork
}

// afterWork is a count of running background work that refuses new work
// once closed. A sync.WaitGroup would not do: its Add may not race its Wait.
type afterWork struct {
	mu     sync.Mutex
	n      int
	closed bool
	idle   chan struct{} // closed when n falls to 0 after close
}

// begin reports whether new work may start, and counts it if so; each
// true is matched by one end.
func (a *afterWork) begin() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.n++
	return true
}

func (a *afterWork) end() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n--
	if a.n == 0 && a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
}

// close refuses new work and waits for the running work to end.
func (a *afterWork) close() {
	a.mu.Lock()
	a.closed = true
	if a.n == 0 {
		a.mu.Unlock()
		return
	}
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	idle := a.idle
	a.mu.Unlock()
	<-idle
}

// goAfter runs fn in a goroutine that stop waits for, unless the server is
// stopping (then fn does not run).
func (s *Server) goAfter(fn func()) {
	if !s.after.begin() {
		return
	}
	go func() {
		defer s.after.end()
		fn()
	}()
}

// NewServer creates a server; Serve connects it to a stream.
func NewServer(opt Options, log commonlog.Logger) *Server {
	if opt.Debounce == 0 {
		opt.Debounce = 100 * time.Millisecond
	}
	if opt.ClientTimeout == 0 {
		opt.ClientTimeout = 10 * time.Second
	}
	if opt.OpenRepo == nil {
		opt.OpenRepo = noRepo
	}
	life, end := context.WithCancel(context.Background())
	return &Server{opt: opt, log: log, folders: map[string]*folder{}, cfg: config.Default(), life: life, endLife: end}
}

// Serve runs the protocol on conn until exit or end of input. ok reports
// whether the client asked for shutdown before exit, which decides the
// process's exit code (0 or 1) as the specification requires.
func (s *Server) Serve(ctx context.Context, conn *Conn) (ok bool, err error) {
	s.conn = conn
	err = conn.Run(ctx)
	s.stop()
	// The connection is closed, so work waiting on the client fails at
	// once; what is left is disk work, which must not outlive the process.
	s.after.close()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown, err
}

// Inline: initialize and shutdown keep their place in the message order.
func (s *Server) Inline(method string) bool {
	return method == "initialize" || method == "shutdown"
}

// Request routes a request by lifecycle state and method.
func (s *Server) Request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case state == stateNew && method != "initialize":
		return nil, errorf(codeServerNotInitialized, "%s before initialize", method)
	case state == stateRunning && method == "initialize":
		return nil, errorf(codeInvalidRequest, "initialize was already received")
	case state == stateShutdown:
		return nil, errorf(codeInvalidRequest, "%s after shutdown", method)
	}
	h, ok := requestHandlers[method]
	if !ok {
		return nil, errorf(codeMethodNotFound, "method %q is not supported", method)
	}
	return h(s, ctx, params)
}

// Notification routes a notification; before initialize only exit counts.
func (s *Server) Notification(ctx context.Context, method string, params json.RawMessage) error {
	if method == "exit" {
		return errExit
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateRunning {
		return nil
	}
	h, ok := notificationHandlers[method]
	if !ok {
		// A notification gets no answer, so an unknown one is dropped. "$/"
		// ones are optional by the specification and dropped silently;
		// others are noted where a user debugging a client looks.
		if !strings.HasPrefix(method, "$/") {
			s.log.Infof("ignoring the unknown notification %q", method)
		}
		return nil
	}
	return h(s, ctx, params)
}

type (
	requestFunc      func(*Server, context.Context, json.RawMessage) (any, error)
	notificationFunc func(*Server, context.Context, json.RawMessage) error
)

// requestHandlers and notificationHandlers are the method tables; each entry
// decodes its params into glsp's protocol types.
var (
	requestHandlers      = map[string]requestFunc{}
	notificationHandlers = map[string]notificationFunc{}
)

// onRequest registers a typed request handler.
func onRequest[P any](method string, fn func(*Server, context.Context, *P) (any, error)) {
	requestHandlers[method] = func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return nil, errorf(codeInvalidParams, "%s: %v", method, err)
		}
		return fn(s, ctx, &p)
	}
}

// onNotification registers a typed notification handler.
func onNotification[P any](method string, fn func(*Server, context.Context, *P) error) {
	notificationHandlers[method] = func(s *Server, ctx context.Context, raw json.RawMessage) error {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		return fn(s, ctx, &p)
	}
}

func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid params: %v", err)
	}
	return nil
}

// call makes a request to the client, bounded by the client timeout.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, s.opt.ClientTimeout)
	defer cancel()
	return s.conn.Call(ctx, method, params, result)
}

// noRepo is Options.OpenRepo when none is given: no repository, which the
// reference rules read as "not checked" rather than as a failure.
func noRepo(context.Context, string, config.Config) (rules.Repo, error) { return nil, nil }
