package lsp

import (
	"context"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func init() {
	onRequest("textDocument/definition", (*Server).definition)
}

// definition leads from a cited path to its file (at the cited line) and
// from a command to its manifest (at the target's line); anywhere else it
// returns null.
func (s *Server) definition(_ context.Context, p *protocol.DefinitionParams) (any, error) {
	f, v, fi, cfg := s.documentViewIn(p.TextDocument.URI)
	if fi < 0 || !v.files[fi].IsCategory {
		return nil, nil
	}
	file := &v.files[fi]
	off, err := fromPosition(v.ix(fi), p.Position)
	if err != nil {
		return nil, nil
	}
	c := f.citationAt(file, off)
	if c == nil {
		return nil, nil
	}
	d, ok := destinationOf(s.repoOf(f, cfg).repo, c.ref)
	if !ok {
		return nil, nil
	}
	at := lineStart(d.line)
	return protocol.Location{URI: uriOf(d.path), Range: protocol.Range{Start: at, End: at}}, nil
}
