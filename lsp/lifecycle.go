package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

func init() {
	onRequest("initialize", (*Server).initialize)
	onNotification("initialized", (*Server).initialized)
	onRequest("shutdown", func(s *Server, _ context.Context, _ *json.RawMessage) (any, error) {
		s.stop()
		s.mu.Lock()
		s.state, s.shutdown = stateShutdown, true
		s.mu.Unlock()
		return nil, nil
	})
}

// clientCaps are the client capabilities the server consults.
type clientCaps struct {
	documentChanges bool // versioned TextDocumentEdits in WorkspaceEdits
	configuration   bool // workspace/configuration pulls
	watchedFiles    bool // dynamic registration of didChangeWatchedFiles
	didSave         bool // didSave notifications after each save
}

// initializeParams is the part of InitializeParams we read. glsp's type nests
// every capability behind optional pointers; decoding just these fields keeps
// the checks readable and tolerates clients that send odd shapes elsewhere.
type initializeParams struct {
	RootPath              *string                    `json:"rootPath"`
	RootURI               *protocol.DocumentUri      `json:"rootUri"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	ClientInfo            *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
	Capabilities struct {
		Workspace struct {
			Configuration bool `json:"configuration"`
			WorkspaceEdit struct {
				DocumentChanges bool `json:"documentChanges"`
			} `json:"workspaceEdit"`
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
		TextDocument struct {
			Synchronization struct {
				DidSave bool `json:"didSave"`
			} `json:"synchronization"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

func (s *Server) initialize(_ context.Context, p *initializeParams) (any, error) {
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path, err := pathOf(protocol.DocumentUri(f.URI)); err == nil {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if path, err := pathOf(*p.RootURI); err == nil {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootPath != nil && *p.RootPath != "" {
		roots = append(roots, *p.RootPath)
	}
	base, cfg, notes := s.initSettings(p.InitializationOptions)
	c := p.Capabilities.Workspace
	s.mu.Lock()
	s.roots, s.base, s.cfg, s.startup, s.state = dedupe(roots), base, cfg, notes, stateRunning
	s.refoldLocked()
	if ci := p.ClientInfo; ci != nil {
		s.client = strings.TrimSpace(ci.Name + " " + ci.Version)
	}
	s.caps = clientCaps{documentChanges: c.WorkspaceEdit.DocumentChanges, configuration: c.Configuration,
		watchedFiles: c.DidChangeWatchedFiles.DynamicRegistration, didSave: p.Capabilities.TextDocument.Synchronization.DidSave}
	s.mu.Unlock()
	return protocol.InitializeResult{Capabilities: capabilities(), ServerInfo: &protocol.InitializeResultServerInfo{Name: Name, Version: &s.opt.Version}}, nil
}

// initialized starts what must not happen inside initialize: watching the
// memory folders, registering for the client's file events and pulling
// configuration. Calls to the client run in goroutines: the read loop must
// stay free to read their answers.
func (s *Server) initialized(ctx context.Context, _ *json.RawMessage) error {
	s.reportStartup()
	s.mu.Lock()
	caps := s.caps
	s.refsByClient = caps.watchedFiles
	s.mu.Unlock()
	s.startWatching()
	bg := context.WithoutCancel(ctx)
	if caps.watchedFiles {
		go s.registerWatchedFiles(bg)
		go s.registerReferenceWatch(bg)
	}
	if caps.configuration {
		go s.refreshConfiguration(bg)
	}
	// Each folder's repository starts building now, off the read loop; the
	// folder publishes once it is built (publish).
	for _, f := range s.served() {
		s.publish(f)
	}
	return nil
}

// stop ends watching and pending timers; it is safe to call twice. The
// watcher goes first: its events arm timers.
func (s *Server) stop() {
	s.endLife()
	s.mu.Lock()
	w := s.watch
	s.watch = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
	s.mu.Lock()
	for _, f := range s.folders {
		for _, t := range []*time.Timer{f.timer, f.sync} {
			if t != nil {
				t.Stop()
			}
		}
		f.timer, f.sync = nil, nil
	}
	s.mu.Unlock()
}

// writer is who the server's writes come from: a person in an editor, as
// the editor named itself in initialize (review: agents holds every write
// but these).
func (s *Server) writer() memory.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return memory.Writer{By: memory.ByLSP, Name: s.client, Person: true}
}
