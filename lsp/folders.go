package lsp

import (
	"context"
	"path/filepath"
	"slices"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
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

// didChangeWorkspaceFolders adds and removes roots: the watcher follows, a
// new folder is checked at once and a removed folder's diagnostics are
// cleared (unless an open file keeps its .memory served).
func (s *Server) didChangeWorkspaceFolders(_ context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	removed, added := folderPaths(p.Event.Removed), folderPaths(p.Event.Added)
	s.mu.Lock()
	roots := slices.DeleteFunc(slices.Clone(s.roots), func(r string) bool { return slices.Contains(removed, r) })
	s.roots = dedupe(append(roots, added...))
	dropped := s.refoldLocked()
	s.mu.Unlock()
	s.rewatch()
	for _, f := range dropped {
		s.retire(f)
	}
	for _, r := range added {
		if f := s.folderAt(memory.Dir(r)); f != nil {
			s.schedule(f, 0)
		}
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
