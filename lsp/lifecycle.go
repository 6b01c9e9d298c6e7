package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
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
}

// initializeParams is the part of InitializeParams we read. glsp's type nests
// every capability behind optional pointers; decoding just these fields keeps
// the checks readable and tolerates clients that send odd shapes elsewhere.
type initializeParams struct {
	RootPath              *string                    `json:"rootPath"`
	RootURI               *protocol.DocumentUri      `json:"rootUri"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          struct {
		Workspace struct {
			Configuration bool `json:"configuration"`
			WorkspaceEdit struct {
				DocumentChanges bool `json:"documentChanges"`
			} `json:"workspaceEdit"`
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
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
	settings, err := parseSettings(p.InitializationOptions)
	if err != nil {
		return nil, errorf(codeInvalidParams, "initializationOptions: %v", err)
	}
	cfg, err := config.Default().Merge(settings)
	if err != nil {
		return nil, errorf(codeInvalidParams, "initializationOptions: %v", err)
	}
	c := p.Capabilities.Workspace
	s.mu.Lock()
	s.roots, s.base, s.cfg, s.state = roots, settings, cfg, stateRunning
	s.caps = clientCaps{documentChanges: c.WorkspaceEdit.DocumentChanges, configuration: c.Configuration,
		watchedFiles: c.DidChangeWatchedFiles.DynamicRegistration}
	s.mu.Unlock()
	return protocol.InitializeResult{Capabilities: capabilities(), ServerInfo: &protocol.InitializeResultServerInfo{Name: Name, Version: &s.opt.Version}}, nil
}

// initialized starts what must not happen inside initialize: watching the
// memory folders and pulling configuration.
func (s *Server) initialized(ctx context.Context, _ *json.RawMessage) error {
	s.startWatching()
	go s.refreshConfiguration(context.WithoutCancel(ctx))
	s.mu.Lock()
	roots := append([]string(nil), s.roots...)
	s.mu.Unlock()
	for _, r := range roots {
		s.schedule(memoryDir(r), 0)
	}
	return nil
}

// stop ends timers and watching; it is safe to call twice.
func (s *Server) stop() {
	s.mu.Lock()
	for k, t := range s.timers {
		t.Stop()
		delete(s.timers, k)
	}
	w := s.watch
	s.watch = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// parseSettings accepts initializationOptions either flat or nested under
// "memory", the section name clients use for workspace/configuration.
func parseSettings(raw json.RawMessage) (config.Settings, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return config.Settings{}, nil
	}
	var nested struct {
		Memory json.RawMessage `json:"memory"`
	}
	if json.Unmarshal(raw, &nested) == nil && len(nested.Memory) > 0 {
		raw = nested.Memory
	}
	s, err := config.ParseSettings(raw)
	if err != nil {
		return config.Settings{}, fmt.Errorf("%w", err)
	}
	return s, nil
}
