package lsp

import (
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// document is an open editor buffer of a memory file.
type document struct {
	uri     protocol.DocumentUri
	path    string
	version int32
	text    []byte
	ix      *text.Index
}

func newDocument(uri protocol.DocumentUri, path string, version int32, content string) *document {
	b := []byte(content)
	return &document{uri: uri, path: path, version: version, text: b, ix: text.NewIndex(b)}
}

// apply returns the document after a didChange's content changes, each
// relative to the state the previous one left. A change whose range does not
// exist in the document is an error and nothing is applied: splicing it
// elsewhere would silently corrupt the buffer's mirror.
func (d *document) apply(version int32, changes []any) (*document, error) {
	if version <= d.version {
		return nil, fmt.Errorf("version %d is not newer than %d", version, d.version)
	}
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
	return &document{uri: d.uri, path: d.path, version: version, text: cur, ix: ix}, nil
}
