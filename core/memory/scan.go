package memory

import (
	"context"
	"slices"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/search"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// scanQuery is Query for a process that answers one query and exits (the
// CLI): a catalog would parse every file into a Document and index every
// entry to rank a few. Here each entry is read from the bytes as Parse
// reads it and scored as it is read (search.Scan); only the files whose
// hits cite something are parsed, when the stale marking needs them. The
// result is exactly the catalog's (TestWarmServiceMatchesCold, whose
// "scanning" service answers by it).
func (s *Service) scanQuery(req QueryRequest) (QueryResult, error) {
	q, opt, err := req.options()
	if err != nil {
		return QueryResult{}, err
	}
	snap, err := s.WS.Snapshot()
	if err != nil {
		return QueryResult{}, err
	}
	// kept are the files as Files(snap) lists them (fi numbers both the
	// same way), entries the entries of the category files among them
	// that may be hits, in order, and ids their numbers among all.
	type scanned struct {
		at rules.EntryAt
		e  memfile.Entry
	}
	var (
		kept    []*store.File
		entries []scanned
	)
	// Each category file is scanned on its own (in parallel), then the
	// scans are merged in file order.
	type part struct {
		scan    *search.Scan
		entries []scanned
	}
	var (
		parts []*part
		wg    sync.WaitGroup
	)
	for i := range snap.Files {
		sf := &snap.Files[i]
		if !sf.TooLarge() && (!sf.Exists || sf.Data == nil) {
			continue
		}
		fi := len(kept)
		kept = append(kept, sf)
		cat, known := category.FromFile(sf.Name)
		if !known || sf.Data == nil || !memfile.Fits(sf.Data) {
			continue // no entries (rules.NewFile parses no file past the limits)
		}
		p := &part{scan: search.NewScan(q)}
		parts = append(parts, p)
		wg.Go(func() {
			ei := 0
			memfile.Entries(sf.Data, func(e memfile.Entry) {
				// Only the entries that may be hits are kept.
				if p.scan.Add(search.Doc{Category: cat, Slug: e.Slug, Content: e.Content}) {
					p.entries = append(p.entries, scanned{rules.EntryAt{File: fi, Entry: ei}, e})
				}
				ei++
			})
		})
	}
	wg.Wait()
	scan := search.NewScan(q)
	for _, p := range parts {
		scan.Merge(p.scan)
		entries = append(entries, p.entries...)
	}
	ids := scan.Candidates() // the merged numbering, as entries are laid
	entry := func(id int) CatalogEntry {
		k, _ := slices.BinarySearch(ids, id)
		se := entries[k]
		f := kept[se.at.File]
		cat, _ := category.FromFile(f.Name)
		return catalogEntry(cat, f.Name, f.Path, se.e, se.at)
	}
	// The stale marking reads the files of the hits that cite something;
	// the others are never read, and stay unparsed.
	files := func(citing []rules.EntryAt) ([]rules.File, []rules.EntryAt) {
		out := make([]rules.File, len(kept))
		for fi, f := range kept {
			out[fi] = rules.File{Path: f.Path, Name: f.Name}
		}
		for _, at := range citing {
			if fi := at.File; out[fi].Doc == nil {
				out[fi] = rules.NewFile(kept[fi].Path, kept[fi].Data)
			}
		}
		return out, citing
	}
	repo := func() rules.Repo { return s.ReferenceRepo(context.Background()) }
	return answer(req, scan.Search(q, opt), entry, func(hits []QueryHit) {
		markStale(hits, s.Cfg, repo, files)
	}), nil
}
