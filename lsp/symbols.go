package lsp

import (
	"context"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/text"
)

func init() {
	onRequest("textDocument/documentSymbol", (*Server).documentSymbol)
	onRequest("workspace/symbol", (*Server).workspaceSymbol)
}

// maxSymbols bounds an empty workspace-symbol query (every entry).
const maxSymbols = 100

// lineBody is an entry's line without its line ending: a CRLF line's span
// ends between CR and LF, which is no position at all.
func lineBody(d *memfile.Document, e *memfile.Entry) text.Span {
	return text.Span{Start: e.LineSpan.Start, End: d.BodyEnd(e.LineIndex)}
}

// symbolName is what a picker shows for an entry: its slug, or the start of
// its content. LSP clients reject empty names.
func symbolName(e *memfile.Entry) string {
	switch {
	case e.HasSlug && e.Slug != "":
		return e.Slug
	case e.Content != "":
		return shorten(e.Content, 40)
	}
	return "(empty entry)"
}

func symbolKind(e *memfile.Entry) protocol.SymbolKind {
	if e.HasSlug {
		return protocol.SymbolKindKey
	}
	return protocol.SymbolKindString
}

// documentSymbol lists a memory file's entries, one symbol each.
func (s *Server) documentSymbol(_ context.Context, p *protocol.DocumentSymbolParams) (any, error) {
	out := []protocol.DocumentSymbol{}
	v, fi, _ := s.documentView(p.TextDocument.URI)
	if fi < 0 {
		return out, nil
	}
	path := v.files[fi].Path
	ix := v.ix(fi)
	d := v.files[fi].Doc
	for i := range d.Entries {
		e := &d.Entries[i]
		r, err := toRange(ix, lineBody(d, e))
		if err != nil {
			s.log.Errorf("documentSymbol for %s: %v", path, err)
			continue
		}
		sel := e.ContentSpan
		if e.HasSlug {
			sel = e.SlugSpan
		}
		sr, err := toRange(ix, sel)
		if err != nil {
			s.log.Errorf("documentSymbol for %s: %v", path, err)
			continue
		}
		detail := e.Content
		out = append(out, protocol.DocumentSymbol{Name: symbolName(e), Detail: &detail, Kind: symbolKind(e), Range: r, SelectionRange: sr})
	}
	return out, nil
}

// workspaceSymbol is a memory search over every workspace folder: editors
// without argument prompts (Helix's symbol picker) query memory this way.
// An empty query lists entries in HackLM's read order.
func (s *Server) workspaceSymbol(ctx context.Context, p *protocol.WorkspaceSymbolParams) (any, error) {
	out := []protocol.SymbolInformation{}
	s.mu.Lock()
	roots := append([]string(nil), s.roots...)
	s.mu.Unlock()
	q := strings.TrimSpace(p.Query)
	type hit struct {
		sym       protocol.SymbolInformation
		relevance float64
	}
	var hits []hit
	for _, root := range roots {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		f := s.folderFor(memory.Dir(root))
		v, _ := s.snapshot(f)
		cat := f.catalog.Catalog(v.files)
		var found []memory.CatalogEntry
		var rel []float64
		if q == "" {
			// Listed in read order, so only the first maxSymbols of all
			// roots are shown.
			found = cat.Entries(maxSymbols - len(hits))
			rel = make([]float64, len(found))
		} else {
			limit := memory.MaxQueryLimit
			res, err := cat.Query(memory.QueryRequest{Query: q, Limit: &limit})
			if err != nil {
				continue
			}
			for _, h := range res.Results {
				found = append(found, h.CatalogEntry)
				rel = append(rel, h.Relevance)
			}
		}
		for k, ce := range found {
			loc, ok := s.entryLocation(v, ce)
			if !ok {
				continue
			}
			name := ce.Content
			if ce.Slug != "" {
				name = "[" + ce.Slug + "] " + ce.Content
			}
			if name == "" {
				name = "(empty entry)"
			}
			container := ce.Category
			kind := protocol.SymbolKindString
			if ce.Slug != "" {
				kind = protocol.SymbolKindKey
			}
			hits = append(hits, hit{protocol.SymbolInformation{Name: name, Kind: kind, Location: loc, ContainerName: &container}, rel[k]})
		}
	}
	if q != "" {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].relevance > hits[j].relevance })
	}
	for _, h := range hits {
		if len(out) == maxSymbols {
			break
		}
		out = append(out, h.sym)
	}
	return out, nil
}

// entryLocation finds a catalog entry's line in the view.
func (s *Server) entryLocation(v *view, ce memory.CatalogEntry) (protocol.Location, bool) {
	fi := v.find(ce.Path)
	if fi < 0 {
		return protocol.Location{}, false
	}
	d := v.files[fi].Doc
	// Entries are in line order.
	i := sort.Search(len(d.Entries), func(i int) bool { return d.Entries[i].Line >= ce.Line })
	if i == len(d.Entries) || d.Entries[i].Line != ce.Line {
		return protocol.Location{}, false
	}
	r, err := toRange(v.ix(fi), lineBody(d, &d.Entries[i]))
	if err != nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: s.uriFor(ce.Path), Range: r}, true
}
