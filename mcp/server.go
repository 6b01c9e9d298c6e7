//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 but stay in the SDK for the deprecation window, and clients of earlier versions send them: we serve both.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
)

// Name is the implementation name the server reports to clients.
const Name = "memory-lsp"

// Options configure a Server.
type Options struct {
	// Root is the workspace given on the command line (--root). When set,
	// the client's roots are not consulted.
	Root string
	// Fallback is the workspace used when there is no Root and the client
	// gives no usable root: the CLI's choice, the nearest folder above the
	// current one that holds .memory.
	Fallback string
	// Config holds limits and thresholds, as for every other command.
	Config config.Config
	// Lock tunes the workspace lock (zero: HackLM's 20 tries over about
	// 10 s). Tests shorten it to see a timeout.
	Lock memory.LockOptions
	// Version is reported to clients.
	Version string
	// Logger receives diagnostics; nil discards them. In stdio mode stdout
	// belongs to the protocol, so it must write elsewhere (stderr).
	Logger *slog.Logger
}

// Server offers the memory operations of core/memory as MCP tools. All state
// lives in the value: several servers may run in one process.
type Server struct {
	opts Options
	sdk  *sdk.Server

	mu       sync.Mutex
	sessions map[*sdk.ServerSession]*sessionRoots
	// warm keeps each .memory folder's files and search index between
	// calls (memory.Warm), by the folder's path; recent lists those paths,
	// most recently used last, so that no more than maxWarm are kept.
	warm   map[string]*memory.Warm
	recent []string
}

// maxWarm bounds the folders whose index a server keeps: a long-lived
// server that was asked about many roots holds only the latest few.
const maxWarm = 8

// instructions is sent at initialization; clients show it to the model as
// the server's standing advice.
const instructions = "This server is the project's long-term memory: the files .memory/*.md (instructions, quirks, preferences, decisions, security rules), shared with teammates and other agents. " +
	"Call queryMemory before starting a task and whenever you are unsure about a project convention, a past decision or a known quirk. " +
	"Call storeMemory when you learn a durable fact (a decision, a quirk, a preference): one concise sentence per call; never secrets, never transient state."

// New builds a server with its tools registered.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	s := &Server{opts: opts, sessions: map[*sdk.ServerSession]*sessionRoots{}, warm: map[string]*memory.Warm{}}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: Name, Title: "Project memory (.memory/*.md)", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:            instructions,
		Logger:                  opts.Logger,
		InitializedHandler:      s.initialized,
		RootsListChangedHandler: s.rootsChanged,
		// Only tools: no logging capability (logs go to stderr), no
		// prompts or resources.
		Capabilities: &sdk.ServerCapabilities{},
	})
	for _, t := range s.tools() {
		s.sdk.AddTool(t.tool, s.guard(t.tool.Name, t.handle))
	}
	return s
}

// Connect serves one session over t and returns at once; the session's
// remembered roots are dropped when it ends.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	ss, err := s.sdk.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	s.track(ss)
	go func() {
		_ = ss.Wait()
		s.forget(ss)
	}()
	return ss, nil
}

// Serve runs one session over t until the client closes it (nil) or ctx
// ends (ctx's error). It returns only when no tool call is running any more
// (the SDK's session ends once its calls have returned; a call still running
// when stdin closes sees its context cancelled, and a store then either
// completes or writes nothing, and releases the lock either way).
func (s *Server) Serve(ctx context.Context, t sdk.Transport) error {
	ss, err := s.sdk.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	s.track(ss)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		<-done
		err = ctx.Err()
	}
	s.forget(ss)
	if errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) {
		// The client closing our input is how stdio sessions end.
		return nil
	}
	return err
}

// service opens the workspace at root. Every call opens it afresh: the
// folder may have been created, moved or replaced since the last call. What
// was read and indexed from the folder is kept between calls: each call
// reads the files, and reuses the parse and index of those whose bytes
// are the same (memory.Warm).
func (s *Server) service(root string) (*memory.Service, error) {
	svc, err := memory.OpenService(root, s.opts.Config, memory.Writer{By: memory.ByMCP})
	if err != nil {
		return nil, err
	}
	svc.WS.Lock = s.opts.Lock
	dir := svc.WS.Dir
	s.mu.Lock()
	w := s.warm[dir]
	if w == nil {
		w = &memory.Warm{}
		s.warm[dir] = w
	}
	s.recent = append(slices.DeleteFunc(s.recent, func(d string) bool { return d == dir }), dir)
	if len(s.recent) > maxWarm {
		delete(s.warm, s.recent[0])
		s.recent = s.recent[1:]
	}
	s.mu.Unlock()
	svc.Keep(w)
	return svc, nil
}

// guard turns a panic in a tool into a tool error naming it, so one bad
// call cannot end the session (the SDK runs handlers unprotected).
func (s *Server) guard(name string, h sdk.ToolHandler) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.opts.Logger.Error("tool panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res, err = failure(name+" failed", fmt.Errorf("internal error: %v", p)), nil
			}
		}()
		return h(ctx, req)
	}
}
