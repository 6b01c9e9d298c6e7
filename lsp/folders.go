package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The server serves a set of .memory folders: the one of each workspace
// folder (`<root>/.memory`, whether or not it exists yet) and the one holding
// each open memory file, so that a file opened outside every workspace folder
// is checked against its own siblings ("single-file mode"). Exactly these
// folders are watched; diagnostics of a folder that stops being served are
// cleared.

func init() {
	onNotification("workspace/didChangeWorkspaceFolders", (*Server).didChangeWorkspaceFolders)
}

// servedLocked is the set of served .memory folders; s.mu is held.
func (s *Server) servedLocked() map[string]bool {
	set := make(map[string]bool, len(s.roots)+len(s.docs))
	for _, r := range s.roots {
		set[memoryDir(r)] = true
	}
	for p := range s.docs {
		set[filepath.Dir(p)] = true
	}
	return set
}

// serves reports whether dir is a served .memory folder.
func (s *Server) serves(dir string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.roots {
		if memoryDir(r) == dir {
			return true
		}
	}
	for p := range s.docs {
		if filepath.Dir(p) == dir {
			return true
		}
	}
	return false
}

// didChangeWorkspaceFolders adds and removes roots: the watcher follows, a
// new folder is checked at once and a removed folder's diagnostics are
// cleared (unless an open file keeps its .memory served).
func (s *Server) didChangeWorkspaceFolders(_ context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	removed, added := folderPaths(p.Event.Removed), folderPaths(p.Event.Added)
	s.mu.Lock()
	roots := slices.DeleteFunc(slices.Clone(s.roots), func(r string) bool { return slices.Contains(removed, r) })
	s.roots = dedupe(append(roots, added...))
	s.mu.Unlock()
	s.rewatch()
	for _, r := range removed {
		s.schedule(memoryDir(r), 0) // clears, as the folder is no longer served
	}
	for _, r := range added {
		s.schedule(memoryDir(r), 0)
	}
	return nil
}

func folderPaths(fs []protocol.WorkspaceFolder) []string {
	var out []string
	for _, f := range fs {
		if p, err := pathOf(protocol.DocumentUri(f.URI)); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// dedupe cleans paths and drops repeats, keeping the first of each.
func dedupe(paths []string) []string {
	var out []string
	for _, p := range paths {
		p = filepath.Clean(p)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// clearDir publishes empty lists for every file of dir that has
// diagnostics: the folder is no longer served. The caller holds dir's
// publish lock.
func (s *Server) clearDir(dir string) {
	s.mu.Lock()
	var gone []string
	for p := range s.shown {
		if filepath.Dir(p) == dir {
			gone = append(gone, p)
			delete(s.shown, p)
		}
	}
	s.mu.Unlock()
	slices.Sort(gone)
	for _, p := range gone {
		s.conn.Notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uriOf(p), Diagnostics: []protocol.Diagnostic{}})
	}
}

// lockDir serialises publishDir per folder, so that the last check to start
// is the last to publish and a stale result never overwrites a fresh one.
func (s *Server) lockDir(dir string) func() {
	s.mu.Lock()
	m := s.pubMu[dir]
	if m == nil {
		m = new(sync.Mutex)
		s.pubMu[dir] = m
	}
	s.mu.Unlock()
	m.Lock()
	return m.Unlock
}
