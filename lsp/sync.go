package lsp

import (
	"context"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/store"
)

func init() {
	onNotification("textDocument/didOpen", (*Server).didOpen)
	onNotification("textDocument/didChange", (*Server).didChange)
	onNotification("textDocument/didSave", (*Server).didSave)
	onNotification("textDocument/didClose", (*Server).didClose)
}

// memoryPath is the path of a document the server serves, or "" for any
// other document, which gets nothing at all.
func memoryPath(uri protocol.DocumentUri) string {
	p, err := pathOf(uri)
	if err != nil || !isMemoryFile(p) {
		return ""
	}
	return p
}

func memoryDir(root string) string { return filepath.Join(root, store.DirName) }

func (s *Server) didOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	s.mu.Lock()
	s.docs[path] = newDocument(p.TextDocument.URI, path, p.TextDocument.Version, p.TextDocument.Text)
	s.mu.Unlock()
	s.watchDir(filepath.Dir(path))
	// Published at once, even when empty: clients and tests wait for it.
	s.publishDir(filepath.Dir(path))
	return nil
}

func (s *Server) didChange(_ context.Context, p *protocol.DidChangeTextDocumentParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d == nil {
		s.log.Warningf("ignoring didChange for %s: it is not open (didOpen must come first)", path)
		return nil
	}
	next, err := d.apply(p.TextDocument.Version, p.ContentChanges)
	if err != nil {
		// Keep the last good state: applying part of a change, or at the
		// wrong place, would make every later position wrong.
		s.log.Errorf("rejected didChange for %s: %v", path, err)
		return nil
	}
	s.mu.Lock()
	if s.docs[path] == d {
		s.docs[path] = next
	}
	s.mu.Unlock()
	s.schedule(filepath.Dir(path), s.opt.Debounce)
	return nil
}

func (s *Server) didSave(_ context.Context, p *protocol.DidSaveTextDocumentParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	if s.currentVersion(path) < 0 {
		// Harmless (the folder is checked from disk as usual), but a client
		// that saves what it never opened has lost track of its documents.
		s.log.Warningf("didSave for %s, which is not open; checking its folder from disk", path)
	}
	s.schedule(filepath.Dir(path), 0)
	return nil
}

// didClose drops the buffer; the file on disk is the truth again, and its
// diagnostics stay, because agents change memory files without an editor
// (in a workspace folder's .memory, which is watched).
func (s *Server) didClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	s.mu.Lock()
	_, open := s.docs[path]
	delete(s.docs, path)
	s.mu.Unlock()
	if !open {
		s.log.Warningf("ignoring didClose for %s: it is not open", path)
		return nil
	}
	// A folder outside every workspace folder was served (and watched) only
	// while a file in it was open: then this clears its diagnostics.
	s.rewatch()
	s.schedule(filepath.Dir(path), 0)
	return nil
}
