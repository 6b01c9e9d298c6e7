package lsp

import (
	"bytes"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// A file is most often opened as it is on disk, after the folder's view has
// parsed it from disk (the check before the open, a query). A parse of the
// same bytes is the same parse, so the buffer takes that one: otherwise the
// buffer's parse and the disk's are both alive while the open is checked,
// and the checker, which keeps the strings of the parse it first analysed,
// holds the disk parse's entry contents beside the buffer's for as long as
// the file is open (a megabyte at 10,000 entries, and three while the first
// check of the buffer runs).

// diskParse is the parse the disk cache of the folder keyed key made of
// the file at path, when disk, its bytes read now, and opened, the buffer
// opened, are both what the cache holds; else false. The parse may be made
// now, if no view has asked for it yet: not under s.mu.
func (s *Server) diskParse(key, path string, disk, opened []byte) (rules.File, bool) {
	if disk == nil || !bytes.Equal(disk, opened) {
		return rules.File{}, false
	}
	s.mu.Lock()
	var c *memory.Disk
	if f := s.folderLocked(key); f != nil {
		c = f.disk
	}
	s.mu.Unlock()
	if c == nil {
		return rules.File{}, false
	}
	return c.ParseOf(path, disk)
}

// parsedDocument is a document of file's bytes with file as its parse.
func parsedDocument(uri protocol.DocumentUri, version int32, file rules.File) *document {
	b := file.Doc.Src
	return &document{uri: uri, path: file.Path, version: version, text: b, ix: text.NewIndex(b),
		file: func() rules.File { return file }}
}
