package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/refs"
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
	cs := f.citations(file)
	if len(cs) == 0 {
		return out, nil
	}
	repo := s.repoOf(f, cfg).repo
	ix := v.ix(fi)
	for _, c := range cs {
		d, ok := destinationOf(repo, c.ref)
		if !ok {
			continue
		}
		r, err := toRange(ix, c.span)
		if err != nil {
			continue
		}
		target := linkURI(d)
		tip := linkTooltip(c.ref, d)
		out = append(out, protocol.DocumentLink{Range: r, Target: &target, Tooltip: &tip})
	}
	return out, nil
}

// linkURI is the file URI of d, with a "#L<line>" fragment when d has a line.
func linkURI(d destination) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(d.path)}
	if d.line > 0 {
		u.Fragment = fmt.Sprintf("L%d", d.line)
	}
	return protocol.DocumentUri(u.String())
}

// linkTooltip says where a link leads.
func linkTooltip(ref refs.Ref, d destination) string {
	name := filepath.Base(d.path)
	switch {
	case ref.Kind == refs.Command && d.line > 0:
		return fmt.Sprintf("Open %s at %s %s", name, ref.Tool.NameKind(), ref.Target)
	case d.line > 0:
		return fmt.Sprintf("Open %s at line %d", name, d.line)
	}
	return "Open " + name
}
