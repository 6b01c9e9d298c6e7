package lsp

import (
	"fmt"
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// openDoc is an open buffer and what the server knows of its file on disk,
// which keeping the two in step needs (memory.Reconcile). Its fields are
// guarded by Server.mu.
type openDoc struct {
	f    *folder
	name string
	doc  *document // the buffer at its latest version
	// base is the disk text the buffer last matched: at didOpen, after a
	// save, or after a reconcile or write that the editor confirmed; nil
	// while the file does not exist.
	base []byte
	// last is the disk text the server last read or wrote for this file.
	last []byte
	// changed is closed (and replaced) at every didChange, for whoever
	// waits for the editor to echo an edit.
	changed chan struct{}
	// seen is what the buffer has shown of the acknowledged entries
	// (acks.go).
	seen ackSeen
	// pastLimit is the size of the file past the limits of a memory file
	// that another writer left under the buffer and the user was warned of
	// (warnPastLimit); 0 while the file is within them.
	pastLimit int64
	// bufferPastLimit is the size of the buffer past the limits the user
	// was last warned of (warnBufferPastLimit); 0 none.
	bufferPastLimit int64
}

// document is one version of an open editor buffer of a memory file.
type document struct {
	uri     protocol.DocumentUri
	path    string
	version int32
	text    []byte
	ix      *text.Index
	// file is the buffer parsed, once per version: every view of the folder
	// (each check, code action, hover) uses it, and a version never changes.
	file func() rules.File
}

func newDocument(uri protocol.DocumentUri, path string, version int32, content string) *document {
	return makeDocument(uri, path, version, []byte(content), nil)
}

// makeDocument is a document of b; ix, when non-nil, is b's index.
func makeDocument(uri protocol.DocumentUri, path string, version int32, b []byte, ix *text.Index) *document {
	if ix == nil {
		ix = text.NewIndex(b)
	}
	return &document{uri: uri, path: path, version: version, text: b, ix: ix,
		file: sync.OnceValue(func() rules.File { return rules.NewFile(path, b) })}
}

// apply returns the document after a didChange's content changes, each
// relative to the state the previous one left. A change whose range does not
// exist in the document is an error and nothing is applied: splicing it
// elsewhere would silently corrupt the buffer's mirror.
//
// The version is taken as sent, even when it does not increase: the
// client's text is the truth, and dropping its change would leave the
// server planning on text the editor no longer holds.
func (d *document) apply(version int32, changes []any) (*document, error) {
	cur, ix := d.text, d.ix
	for i, ch := range changes {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			cur = []byte(c.Text)
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				cur = []byte(c.Text)
				break
			}
			sp, err := fromRange(ix, *c.Range)
			if err != nil {
				return nil, fmt.Errorf("change %d: %w", i+1, err)
			}
			next, err := text.Apply(cur, []text.Edit{{Start: sp.Start, End: sp.End, New: c.Text}})
			if err != nil {
				return nil, fmt.Errorf("change %d: %w", i+1, err)
			}
			cur = next
		default:
			return nil, fmt.Errorf("change %d has an unknown shape %T", i+1, ch)
		}
		ix = text.NewIndex(cur)
	}
	return makeDocument(d.uri, d.path, version, cur, ix), nil
}
