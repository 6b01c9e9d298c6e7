package memory

import (
	"context"
	"errors"
	"runtime/debug"
	"time"

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
func (s *Service) indexedQuery(req QueryRequest) (QueryResult, bool) {
	res, ok, damaged := s.queryIndex(req, true)
	if damaged {
		// A damaged block was read: this answer is the one of an index
		// built again from the files, which replaces the damaged one.
		res, ok, _ = s.queryIndex(req, false)
	}
	return res, ok
}

// mapIndex maps the index file at path, unless use is false: the file was
// found damaged, and every part is built again and written over it.
func mapIndex(path string, use bool) ([]byte, func(), error) {
	if !use {
		return nil, nil, errIndexNotRead
	}
	return store.MapCacheFile(path)
}

var errIndexNotRead = errors.New("the query index is not to be read")

// queryIndex is indexedQuery, with the index file read when useFile.
// damaged reports that a block read of it did not match its sum: the
// answer is then to be thrown away.
func (s *Service) queryIndex(req QueryRequest, useFile bool) (res QueryResult, ok, damaged bool) {
	q, opt, err := req.options()
	if err != nil {
		return QueryResult{}, false, false
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
		return QueryResult{}, false, false
	}
	defer store.CloseAll(opened)
	for _, o := range opened {
		if o.Stamp.Size < 0 {
			return QueryResult{}, false, false // no stat data here to vouch for a part: every query would rebuild them all
		}
	}

	cached := map[string]search.IndexedFile{}
	var file *search.IndexFile
	data, release, err := mapIndex(s.QueryIndex, useFile)
	if err == nil {
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
		if f, err := search.DecodeIndexFile(data); err == nil {
			file = f
			for _, f := range f.Files {
				cached[f.Name] = f
			}
		}
	}
	defer func() {
		if file.Damaged() {
			res, ok, damaged = QueryResult{}, false, true
		}
	}()

	ix, err := s.indexFiles(snap, opened, cached, built)
	if err != nil {
		return QueryResult{}, false, false
	}
	hits, err := search.SearchParts(q, opt, ix.parts, ix.content)
	if err != nil {
		return QueryResult{}, false, false
	}
	found := make(map[int]CatalogEntry, len(hits))
	for _, h := range hits {
		e, err := ix.entry(h.ID)
		if err != nil {
			return QueryResult{}, false, false
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
	if file.Damaged() {
		return QueryResult{}, false, true // not to be written back
	}
	if ix.changed(cached, file != nil) {
		_ = store.WriteCacheFile(s.QueryIndex, search.EncodeIndexFile(ix.indexed), maxQueryIndexes)
	}
	doubt := false
	files := func(citing []rules.EntryAt) ([]rules.File, []rules.EntryAt) {
		out, in, ok := ix.citedFiles(found, citing)
		doubt = !ok
		return out, in
	}
	repo := func() rules.Repo { return s.ReferenceRepo(context.Background()) }
	res = answer(req, hits, func(id int) CatalogEntry { return found[id] }, func(hits []QueryHit) {
		markStale(hits, s.Cfg, repo, files)
	})
	// The hits' lines were read from the open files at the offsets their
	// parts gave: a file rewritten in place meanwhile may have put other
	// bytes there. Then the scan answers.
	for _, o := range opened {
		if !o.Unchanged() {
			return QueryResult{}, false, false
		}
	}
	return res, !doubt, false
}
