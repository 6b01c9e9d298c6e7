package lsp

import "path/filepath"

// openForTest registers an open buffer of path directly, as didOpen would
// (without reading the disk for its base), and returns its folder.
func (s *Server) openForTest(path string, version int32, text string) *folder {
	dir := filepath.Dir(path)
	key := canonicalDir(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.folderLocked(key)
	if f == nil {
		f = newFolder(dir, key)
		s.folders[key] = f
	}
	name := filepath.Base(path)
	f.docs[name] = &openDoc{f: f, name: name, changed: make(chan struct{}),
		doc: newDocument(uriOf(path), f.path(name), version, text)}
	return f
}

// docsIn is every open buffer of the folder at dir, by view path.
func (s *Server) docsIn(dir string) map[string]*document {
	f := s.folderAt(dir)
	if f == nil {
		return nil
	}
	return s.openDocs(f)
}

// docAt is the open buffer of path at its latest version, or nil.
func (s *Server) docAt(path string) *document {
	return s.docsIn(filepath.Dir(path))[path]
}
