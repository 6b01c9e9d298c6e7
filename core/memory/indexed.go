package memory

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/search"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// maxQueryIndexes is how many query indexes (one per memory folder) the
// cache folder keeps: the least recently written beyond it are removed.
const maxQueryIndexes = 32

// indexedQuery is scanQuery for a process that keeps an index of each
// memory file between runs, in the file s.QueryIndex (search.SearchParts):
// it reads the dictionary and postings of the query's terms, and of the
// memory files only the lines of the entries it ranks by their text (a
// phrase) or returns. A file whose stamp no longer vouches for its part
// (store.Stamp: size, change times, inode, device, and not changed
// racily close to when the part was built) is read and indexed again, the
// others keep their parts. ok false means the index could not answer (a
// snapshot error, a damaged index, an entry that is not what its part
// says): the caller scans instead, which gives the answer, or the error,
// the files give. The answer is exactly scanQuery's
// (TestIndexedQueryMatchesScan).
func (s *Service) indexedQuery(req QueryRequest) (res QueryResult, ok bool) {
	q, opt, err := req.options()
	if err != nil {
		return QueryResult{}, false
	}
	// The moment the files are read is taken before any of them is
	// opened: a change after it that leaves a stamp as it was must fall
	// within the racy window of the parts built now.
	clock := time.Now
	if s.now != nil {
		clock = s.now
	}
	built := clock().UnixNano()
	snap, opened, err := s.WS.OpenSnapshot()
	if err != nil {
		return QueryResult{}, false
	}
	defer store.CloseAll(opened)
	for _, o := range opened {
		if o.Stamp.Size < 0 {
			return QueryResult{}, false // no stat data here to vouch for a part: every query would rebuild them all
		}
	}

	cached := map[string]search.IndexedFile{}
	indexValid := false
	if data, release, err := store.MapCacheFile(s.QueryIndex); err == nil {
		defer release()
		// A fault on the mapped bytes (a file truncated under us) is a
		// panic to recover from, not a crash: the query scans instead.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				if _, fault := r.(interface{ Addr() uintptr }); !fault {
					panic(r)
				}
				res, ok = QueryResult{}, false
			}
		}()
		if files, err := search.DecodeIndexFile(data); err == nil {
			indexValid = true
			for _, f := range files {
				cached[f.Name] = f
			}
		}
	}

	ix, err := s.indexFiles(snap, opened, cached, built)
	if err != nil {
		return QueryResult{}, false
	}
	hits, err := search.SearchParts(q, opt, ix.parts, ix.content)
	if err != nil {
		return QueryResult{}, false
	}
	found := make(map[int]CatalogEntry, len(hits))
	for _, h := range hits {
		e, err := ix.entry(h.ID)
		if err != nil {
			return QueryResult{}, false
		}
		found[h.ID] = e
	}
	if s.used != nil {
		s.used.queries++
		for _, r := range ix.rebuilt {
			if r {
				s.used.rebuilt++
			} else {
				s.used.reused++
			}
		}
	}
	if ix.changed(cached, indexValid) {
		_ = store.WriteCacheFile(s.QueryIndex, search.EncodeIndexFile(ix.indexed), maxQueryIndexes)
	}
	content := make(map[rules.EntryAt]string, len(found))
	upto := map[int]int{} // per file, the last entry a hit is
	for _, e := range found {
		content[e.at] = e.Content
		upto[e.at.File] = max(upto[e.at.File], e.at.Entry)
	}
	// The stale notes are judged on an excerpt of each file a citing hit
	// is in (excerpt), which must hold the hits where the index put them,
	// or the answer is the scan's to give.
	doubt := false
	files := func(citing []rules.EntryAt) []rules.File {
		out := make([]rules.File, len(ix.kept))
		for fi, f := range ix.kept {
			out[fi] = rules.File{Path: f.Path, Name: f.Name}
		}
		byFile := map[int]map[int]bool{}
		for _, at := range citing {
			if byFile[at.File] == nil {
				byFile[at.File] = map[int]bool{}
			}
			byFile[at.File][at.Entry] = true
		}
		for fi, entries := range byFile {
			doc, err := ix.excerpt(fi, entries, upto[fi])
			if err != nil {
				doubt = true
				continue
			}
			out[fi] = rules.NewFileParsing(ix.kept[fi].Path, doc.Src, func([]byte) *memfile.Document { return doc })
		}
		for _, at := range citing {
			if d := out[at.File].Doc; d != nil && (at.Entry >= len(d.Entries) || d.Entries[at.Entry].Content != content[at]) {
				doubt = true
				out[at.File].Doc = nil // judged by no one: the answer is thrown away
			}
		}
		return out
	}
	repo := func() rules.Repo { return s.ReferenceRepo(context.Background()) }
	res = answer(req, hits, func(id int) CatalogEntry { return found[id] }, func(hits []QueryHit) {
		markStale(hits, s.Cfg, repo, files)
	})
	return res, !doubt
}

// indexUse counts, for tests, the queries indexedQuery answered and the
// parts it reused and built.
type indexUse struct{ queries, reused, rebuilt int }

// queryIndex is what indexedQuery knows of the files of one snapshot.
type queryIndex struct {
	// kept are the files as Files(snap) lists them; parts the parts of
	// the category files among them with entries, in order, partFile
	// each part's index in kept, and opened, read the kept files opened
	// and read (by index in kept).
	kept     []*store.File
	parts    []search.FilePart
	partFile []int
	base     []int
	opened   map[int]*store.Opened
	read     map[int][]byte
	indexed  []search.IndexedFile // the parts as the index file holds them
	rebuilt  []bool
}

// indexFiles gives each category file of snap its part: the cached one
// when its stamp vouches for the file, else one built from the file read.
func (s *Service) indexFiles(snap *store.Snapshot, opened []*store.Opened, cached map[string]search.IndexedFile, built int64) (*queryIndex, error) {
	ix := &queryIndex{opened: map[int]*store.Opened{}, read: map[int][]byte{}}
	byIndex := map[int]*store.Opened{}
	for _, o := range opened {
		byIndex[o.Index] = o
	}
	var wg sync.WaitGroup
	errs := make([]error, len(snap.Files))
	read := make([][]byte, len(snap.Files)) // by index in kept, the files read
	for i := range snap.Files {
		sf := &snap.Files[i]
		o := byIndex[i]
		if o == nil && !sf.TooLarge() && (!sf.Exists || sf.Data == nil) {
			continue
		}
		fi := len(ix.kept)
		ix.kept = append(ix.kept, sf)
		cat, known := category.FromFile(sf.Name)
		if !known || o == nil {
			continue // no entries: an unknown file, or one too large to read
		}
		ix.opened[fi] = o
		k := len(ix.parts)
		ix.parts = append(ix.parts, search.FilePart{Category: cat})
		ix.partFile = append(ix.partFile, fi)
		ix.indexed = append(ix.indexed, search.IndexedFile{})
		ix.rebuilt = append(ix.rebuilt, false)
		stamp := search.Stamp(o.Stamp)
		if c, ok := cached[sf.Name]; ok && c.Stamp.Vouches(stamp, c.Built) {
			if p, err := search.ReadPart(c.Part); err == nil {
				ix.parts[k].Part, ix.indexed[k] = p, c
				continue
			}
		}
		ix.rebuilt[k] = true
		wg.Go(func() {
			data, err := o.ReadAll()
			if err != nil {
				errs[i] = err
				return
			}
			read[fi] = data
			b, err := encodeFile(data, cat)
			if err == nil {
				ix.parts[k].Part, err = search.ReadPart(b)
			}
			ix.indexed[k] = search.IndexedFile{Name: sf.Name, Stamp: stamp, Built: built, Part: b}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	n := 0
	for _, p := range ix.parts {
		ix.base = append(ix.base, n)
		n += p.Part.Len()
	}
	for fi, b := range read {
		if b != nil {
			ix.read[fi] = b
		}
	}
	return ix, nil
}

// encodeFile is the part of a category file of category cat holding data.
func encodeFile(data []byte, cat category.Category) ([]byte, error) {
	var (
		docs []search.Doc
		locs []search.Loc
	)
	memfile.Entries(data, func(e memfile.Entry) {
		d := search.Doc{Category: cat, Content: e.Content}
		if e.HasSlug {
			d.Slug = e.Slug
		}
		docs = append(docs, d)
		locs = append(locs, search.Loc{Start: uint32(e.LineSpan.Start), End: uint32(e.LineSpan.End), Line: uint32(e.Line)})
	})
	return search.EncodePart(search.NewSegment(docs), locs)
}

// excerpt is what the reference rules are given of kept file fi to judge
// its entries numbered cite, numbered as the file's up to entry last (the
// last a hit in it is: markStale looks each hit up in its file): an
// excerpt (memfile.Excerpt) of the cited lines, read from the file, without
// reading or parsing the rest of it (a 2 MB file takes 10 ms to parse).
// Those rules judge an entry by its own text, its file's path and its line
// number (when the line was written, by blame), all of which the excerpt
// keeps. TestIndexedQueryMatchesScan and TestIndexedQueryMatchesScanInGit
// hold the stale notes to the scan's, which judges the parsed file.
func (ix *queryIndex) excerpt(fi int, cite map[int]bool, last int) (*memfile.Document, error) {
	k := slices.Index(ix.partFile, fi)
	if k < 0 {
		return nil, search.ErrStale
	}
	p := ix.parts[k].Part
	if last < 0 || last >= p.Len() {
		return nil, search.ErrStale
	}
	var given []memfile.Excerpted
	for d := range cite {
		raw, err := ix.rawLine(k, d)
		if err != nil {
			return nil, err
		}
		loc := p.Loc(d)
		given = append(given, memfile.Excerpted{Entry: d, Start: int(loc.Start), Line: int(loc.Line), Bytes: raw})
	}
	lines := p.Loc(last).Line
	if int64(lines) > ix.opened[fi].Stamp.Size+1 {
		return nil, search.ErrStale // more lines than bytes: not this file's part
	}
	doc, ok := memfile.Excerpt(given, last+1, int(lines))
	if !ok {
		return nil, search.ErrStale
	}
	return doc, nil
}

// rawLine is the line of doc d of part k, without its LF.
func (ix *queryIndex) rawLine(k, d int) ([]byte, error) {
	loc := ix.parts[k].Part.Loc(d)
	fi := ix.partFile[k]
	o := ix.opened[fi]
	if loc.End < loc.Start || int64(loc.End) > o.Stamp.Size {
		return nil, search.ErrStale
	}
	if b := ix.read[fi]; b != nil {
		if int(loc.End) > len(b) {
			return nil, search.ErrStale
		}
		return b[loc.Start:loc.End], nil
	}
	line := make([]byte, loc.End-loc.Start)
	if err := o.ReadAt(line, int64(loc.Start)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", ix.kept[fi].Path, err)
	}
	return line, nil
}

// line reads doc d of part k: its memfile entry, read from its line alone.
func (ix *queryIndex) line(k, d int) (memfile.Entry, error) {
	raw, err := ix.rawLine(k, d)
	if err != nil {
		return memfile.Entry{}, err
	}
	loc := ix.parts[k].Part.Loc(d)
	e, ok := memfile.EntryOfLine(raw, int(loc.Start), int(loc.Line))
	if !ok {
		return memfile.Entry{}, search.ErrStale
	}
	return e, nil
}

// content is doc d of part k's content, for SearchParts.
func (ix *queryIndex) content(k, d int) (string, error) {
	e, err := ix.line(k, d)
	return e.Content, err
}

// entry is the catalog entry of doc id, numbered across all parts, checked
// against its part: the same length in terms.
func (ix *queryIndex) entry(id int) (CatalogEntry, error) {
	// The last part starting at or before id: parts without entries share
	// the next one's base, and the last of those holds id.
	k := sort.Search(len(ix.base), func(k int) bool { return ix.base[k] > id }) - 1
	d := id - ix.base[k]
	e, err := ix.line(k, d)
	if err != nil {
		return CatalogEntry{}, err
	}
	if !ix.parts[k].Part.Holds(d, e.Content) {
		return CatalogEntry{}, search.ErrStale
	}
	f := ix.kept[ix.partFile[k]]
	return catalogEntry(ix.parts[k].Category, f.Name, f.Path, e, rules.EntryAt{File: ix.partFile[k], Entry: d}), nil
}

// changed reports whether the index file should be written again: a part
// was built that will vouch for its file next time, or the index holds
// files that are gone.
func (ix *queryIndex) changed(cached map[string]search.IndexedFile, valid bool) bool {
	if !valid || len(cached) != len(ix.indexed) {
		return true
	}
	for k, f := range ix.indexed {
		if ix.rebuilt[k] && f.Stamp.Vouches(f.Stamp, f.Built) {
			return true
		}
	}
	return false
}
