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
	c, ok := f.cites.At(file, off)
	if !ok {
		return nil, nil
	}
	t, ok := c.Target(s.repoOf(f, cfg).repo)
	if !ok {
		return nil, nil
	}
	at := lineStart(t.Line)
	return protocol.Location{URI: uriOf(t.Path), Range: protocol.Range{Start: at, End: at}}, nil
}
