package memory

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/search"
	"github.com/memory-lsp/memory-lsp/core/store"
)

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
	// lines are the lines read from the files at their parts' places, by
	// part and doc: a hit is read for its text, its phrase and its stale
	// notes, and each would otherwise be a read of its own.
	lines   map[[2]int][]byte
	indexed []search.IndexedFile // the parts as the index file holds them
	rebuilt []bool
}

// indexFiles gives each category file of snap its part: the cached one
// when its stamp vouches for the file, else one built from the file read.
func (s *Service) indexFiles(snap *store.Snapshot, opened []*store.Opened, cached map[string]search.IndexedFile, built int64) (*queryIndex, error) {
	ix := &queryIndex{opened: map[int]*store.Opened{}, read: map[int][]byte{}, lines: map[[2]int][]byte{}}
	byIndex := map[int]*store.Opened{}
	for _, o := range opened {
		byIndex[o.Index] = o
	}
	var wg sync.WaitGroup
	errs := make([]error, len(snap.Files))
	read := make([][]byte, len(snap.Files)) // by index in kept, the files read
	var rebuild []func()
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
		stamp := o.Stamp
		if c, ok := cached[sf.Name]; ok && c.Stamp.Vouches(stamp, c.Built) {
			if p, err := c.ReadPart(); err == nil {
				ix.parts[k].Part, ix.indexed[k] = p, c
				continue
			}
		}
		ix.rebuilt[k] = true
		rebuild = append(rebuild, func() {
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
	// The files to read are indexed in parallel once every slice they
	// write into has its final length.
	for _, job := range rebuild {
		wg.Go(job)
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
	if !memfile.Fits(data) {
		data = nil // past the limits no reader parses it: no entries, as rules.NewFile
	}
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
// its entries numbered cite (ascending): an excerpt (memfile.Excerpt) of
// their lines, read from the file, without reading or parsing the rest of
// it, its entry i being cite[i]. Those rules judge an entry by its own
// text, its file's path and its line number (when the line was written, by
// blame), all of which the excerpt keeps. TestIndexedQueryMatchesScan and
// TestIndexedQueryMatchesScanInGit hold the stale notes to the scan's,
// which judges the parsed file.
func (ix *queryIndex) excerpt(fi int, cite []int) (*memfile.Document, error) {
	k := slices.Index(ix.partFile, fi)
	if k < 0 {
		return nil, search.ErrStale
	}
	p := ix.parts[k].Part
	var given []memfile.Excerpted
	for _, d := range cite {
		if d < 0 || d >= p.Len() {
			return nil, search.ErrStale
		}
		raw, err := ix.rawLine(k, d)
		if err != nil {
			return nil, err
		}
		loc := p.Loc(d)
		given = append(given, memfile.Excerpted{Entry: d, Start: int(loc.Start), Line: int(loc.Line), Bytes: raw})
	}
	lines := p.Loc(p.Len() - 1).Line
	if int64(lines) > ix.opened[fi].Stamp.Size+1 {
		return nil, search.ErrStale // more lines than bytes: not this file's part
	}
	doc, ok := memfile.Excerpt(given, p.Len(), int(lines))
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
	if line, ok := ix.lines[[2]int{k, d}]; ok {
		return line, nil
	}
	line := make([]byte, loc.End-loc.Start)
	if err := o.ReadAt(line, int64(loc.Start)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", ix.kept[fi].Path, err)
	}
	ix.lines[[2]int{k, d}] = line
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

// citedFiles are the files the stale notes of the hits found (by doc id)
// are judged on, given the places of those that cite something, and
// those places in them: an excerpt of each file a citing hit is in
// (excerpt), whose entries are the hits cited there. Each must hold the
// hits where the index put them; false when one does not, and the answer
// is then the scan's to give.
func (ix *queryIndex) citedFiles(found map[int]CatalogEntry, citing []rules.EntryAt) ([]rules.File, []rules.EntryAt, bool) {
	content := make(map[rules.EntryAt]string, len(found))
	for _, e := range found {
		content[e.at] = e.Content
	}
	out := make([]rules.File, len(ix.kept))
	for fi, f := range ix.kept {
		out[fi] = rules.File{Path: f.Path, Name: f.Name}
	}
	byFile := map[int][]int{}
	for _, at := range citing {
		byFile[at.File] = append(byFile[at.File], at.Entry)
	}
	ok := true
	for fi, entries := range byFile {
		slices.Sort(entries)
		entries = slices.Compact(entries)
		byFile[fi] = entries
		doc, err := ix.excerpt(fi, entries)
		if err != nil {
			ok = false
			continue
		}
		out[fi] = rules.NewFileParsing(ix.kept[fi].Path, nil, func([]byte) *memfile.Document { return doc })
	}
	in := make([]rules.EntryAt, len(citing))
	for i, at := range citing {
		n, _ := slices.BinarySearch(byFile[at.File], at.Entry)
		in[i] = rules.EntryAt{File: at.File, Entry: n}
		if d := out[at.File].Doc; d != nil && (n >= len(d.Entries) || d.Entries[n].Content != content[at]) {
			ok = false
			out[at.File].Doc = nil // judged by no one: the answer is thrown away
		}
	}
	return out, in, ok
}
