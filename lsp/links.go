package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

func init() {
	onRequest("textDocument/documentLink", (*Server).documentLink)
}

// documentLink links every cited path that exists to its file (at the cited
// line) and every command whose manifest exists to the manifest (at the
// target's line). A link's target is a URI, so the line travels as a
// "#L42" fragment, which VS Code opens at the line and other editors drop
// (they open the file); go-to-definition carries the line exactly.
func (s *Server) documentLink(_ context.Context, p *protocol.DocumentLinkParams) (any, error) {
	out := []protocol.DocumentLink{}
	f, v, fi, cfg := s.documentViewIn(p.TextDocument.URI)
	if fi < 0 {
		return out, nil
	}
	file := &v.files[fi]
	if !file.IsCategory {
		return out, nil
	}
	cs := f.cites.In(file)
	if len(cs) == 0 {
		return out, nil
	}
	repo := s.repoOf(f, cfg).repo
	ix := v.ix(fi)
	for _, c := range cs {
		t, ok := c.Target(repo)
		if !ok {
			continue
		}
		r, err := toRange(ix, c.Span)
		if err != nil {
			continue
		}
		target := linkURI(t)
		out = append(out, protocol.DocumentLink{Range: r, Target: &target, Tooltip: &t.Title})
	}
	return out, nil
}

// linkURI is the file URI of t, with a "#L<line>" fragment when t has a line.
func linkURI(t memory.Target) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(t.Path)}
	if t.Line > 0 {
		u.Fragment = fmt.Sprintf("L%d", t.Line)
	}
	return protocol.DocumentUri(u.String())
}
