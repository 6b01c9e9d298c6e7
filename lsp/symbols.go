package lsp

import (
	"context"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

func init() {
	onRequest("textDocument/documentSymbol", (*Server).documentSymbol)
	onRequest("workspace/symbol", (*Server).workspaceSymbol)
}

// maxSymbols bounds an empty workspace-symbol query (every entry).
const maxSymbols = 100

// symbolKind is how a picker marks an entry, keyed by a slug or not.
func symbolKind(keyed bool) protocol.SymbolKind {
	if keyed {
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
		sym := memory.EntrySymbol(d, i)
		r, err := toRange(ix, sym.Line)
		if err != nil {
			s.log.Errorf("documentSymbol for %s: %v", path, err)
			continue
		}
		sr, err := toRange(ix, sym.Selection)
		if err != nil {
			s.log.Errorf("documentSymbol for %s: %v", path, err)
			continue
		}
		out = append(out, protocol.DocumentSymbol{Name: sym.Name, Detail: &sym.Detail, Kind: symbolKind(sym.Keyed), Range: r, SelectionRange: sr})
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
			container := ce.Category
			hits = append(hits, hit{protocol.SymbolInformation{Name: ce.SymbolName(), Kind: symbolKind(ce.Slug != ""), Location: loc, ContainerName: &container}, rel[k]})
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
	i := memory.EntryOnLine(d, ce.Line)
	if i < 0 {
		return protocol.Location{}, false
	}
	r, err := toRange(v.ix(fi), memory.EntrySpan(d, i))
	if err != nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: s.uriFor(ce.Path), Range: r}, true
}
