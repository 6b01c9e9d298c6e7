package lsp

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
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
	if err != nil || !memory.IsMemoryFile(p) {
		return ""
	}
	return p
}

// lookupDoc finds the open buffer of a document URI (any spelling of its
// path that leads to the same file), or nil.
func (s *Server) lookupDoc(uri protocol.DocumentUri) *openDoc {
	path := memoryPath(uri)
	if path == "" {
		return nil
	}
	key := canonicalDir(filepath.Dir(path))
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.folderLocked(key); f != nil {
		return f.docLocked(filepath.Base(path))
	}
	return nil
}

// docLocked is the open buffer of file name, letter case aside where the
// file system ignores it; s.mu is held.
func (f *folder) docLocked(name string) *openDoc {
	if od := f.docs[name]; od != nil {
		return od
	}
	for n, od := range f.docs {
		if sameFolder(filepath.Join(f.key, n), filepath.Join(f.key, name)) {
			return od
		}
	}
	return nil
}

func (s *Server) didOpen(_ context.Context, p *openParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		if path, dir, ok := agentFile(p.TextDocument.URI); ok {
			s.didOpenAgent(p, path, dir)
		}
		return nil
	}
	dir, name := filepath.Dir(path), filepath.Base(path)
	key := canonicalDir(dir)
	// The disk text the buffer starts from is its base: what it was loaded
	// from, as far as the server can know. A check of the folder may be
	// reading the same file now: its bytes are compared, not copied (one
	// copy of a large file fewer at the peak, issue 26).
	var known []byte
	s.mu.Lock()
	served := s.folderLocked(key)
	s.mu.Unlock()
	if served != nil {
		known = served.catalog.Bytes(path)
	}
	disk, err := memory.ReadFile(path, known)
	if err != nil && !errors.Is(err, memory.ErrTooLarge) {
		s.log.Warningf("didOpen %s: %v", path, err)
	}
	parsed, ok := s.diskParse(key, path, disk, p.TextDocument.Text)
	s.mu.Lock()
	f := s.folderLocked(key)
	if f == nil {
		f = newFolder(dir, key)
		s.folders[key] = f
	}
	if od := f.docLocked(name); od != nil {
		name = od.name // opened again, under another spelling
	}
	var doc *document
	if ok && parsed.Path == f.path(name) {
		doc = parsedDocument(p.TextDocument.URI, p.TextDocument.Version, parsed)
	} else {
		text := []byte(p.TextDocument.Text)
		if text == nil { // "text": null, read as the empty text it was before
			text = []byte{}
		}
		doc = makeDocument(p.TextDocument.URI, f.path(name), p.TextDocument.Version, text, nil)
	}
	if disk != nil && bytes.Equal(disk, doc.text) {
		// Nothing writes into either slice: one copy of a file that is
		// usually opened as it is on disk is enough.
		disk = doc.text
	}
	od := &openDoc{f: f, name: name, base: disk, last: disk, doc: doc, changed: make(chan struct{}), seen: ackSeen{held: map[*ack]bool{}}}
	f.docs[name] = od
	od.changedText(doc.text, !s.caps.didSave)
	s.openedStale(od, disk)
	s.mu.Unlock()
	s.rewatch()
	// Published at once, even when empty: clients and tests wait for it.
	s.publish(f)
	return nil
}

func (s *Server) didChange(_ context.Context, p *protocol.DidChangeTextDocumentParams) error {
	od := s.lookupDoc(p.TextDocument.URI)
	if od == nil {
		if path := memoryPath(p.TextDocument.URI); path != "" {
			s.log.Warningf("ignoring didChange for %s: it is not open (didOpen must come first)", path)
		} else {
			s.didChangeAgent(p)
		}
		return nil
	}
	s.mu.Lock()
	d := od.doc
	s.mu.Unlock()
	if p.TextDocument.Version <= d.version {
		s.log.Infof("didChange for %s: version %d after %d; applied all the same", d.path, p.TextDocument.Version, d.version)
	}
	next, err := d.apply(p.TextDocument.Version, p.ContentChanges)
	if err != nil {
		// Keep the last good state: applying part of a change, or at the
		// wrong place, would make every later position wrong.
		s.log.Errorf("rejected didChange for %s: %v", d.path, err)
		return nil
	}
	s.mu.Lock()
	if od.doc == d {
		od.doc = next
		od.seen.gaveWay(d.text, time.Now())
		od.changedText(next.text, !s.caps.didSave)
		close(od.changed)
		od.changed = make(chan struct{})
	}
	s.mu.Unlock()
	s.schedule(od.f, s.opt.Debounce)
	return nil
}

// didSave checks the folder at once, and reconciles: the save may have
// overwritten entries another writer put on disk before the buffer took
// them in, which are then restored.
func (s *Server) didSave(_ context.Context, p *protocol.DidSaveTextDocumentParams) error {
	path := memoryPath(p.TextDocument.URI)
	if path == "" {
		s.didSaveAgent(p.TextDocument.URI)
		return nil
	}
	od := s.lookupDoc(p.TextDocument.URI)
	if od == nil {
		// Harmless (the folder is checked from disk as usual), but a client
		// that saves what it never opened has lost track of its documents.
		s.log.Warningf("didSave for %s, which is not open; checking its folder from disk", path)
		if f := s.folderAt(filepath.Dir(path)); f != nil {
			s.schedule(f, 0)
		}
		return nil
	}
	// The file as this save left it: a disk with another stat was written
	// after the save (acks.go).
	st := memory.StampOf(path)
	s.mu.Lock()
	od.seen.saved = st
	s.mu.Unlock()
	s.scheduleSync(od.f, 0)
	s.schedule(od.f, 0)
	return nil
}

// didClose drops the buffer; the file on disk is the truth again, and its
// diagnostics stay, because agents change memory files without an editor
// (in a workspace folder's .memory, which is watched).
func (s *Server) didClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	od := s.lookupDoc(p.TextDocument.URI)
	if od == nil {
		if path := memoryPath(p.TextDocument.URI); path != "" {
			s.log.Warningf("ignoring didClose for %s: it is not open", path)
		} else {
			s.didCloseAgent(p.TextDocument.URI)
		}
		return nil
	}
	f := od.f
	s.mu.Lock()
	if f.docs[od.name] == od {
		delete(f.docs, od.name)
		close(od.changed) // wakes a writer waiting for an echo that will not come
		od.changed = make(chan struct{})
	}
	s.mu.Unlock()
	s.closedIn(f)
	return nil
}

// closedIn follows the close of a buffer of f: a folder outside every
// workspace folder was served (and watched) only while a file in it was
// open, and then its diagnostics are cleared; else f is checked again.
func (s *Server) closedIn(f *folder) {
	s.mu.Lock()
	dropped := s.refoldLocked()
	s.mu.Unlock()
	s.rewatch()
	for _, g := range dropped {
		s.retire(g)
	}
	if s.isServed(f) {
		s.schedule(f, 0)
	}
}
