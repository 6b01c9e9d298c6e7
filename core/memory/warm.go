package memory

import (
	"bytes"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Warm keeps one workspace's catalog between the queries of a long-lived
// process (the language server, the MCP server), which would otherwise
// parse and index every entry on every call: the next catalog re-indexes
// only the category files whose bytes changed, and shares the search index
// itself while none did. Its results are exactly a new catalog's (the
// segments of unchanged files are what a rebuild would make of them, and
// search.Join scores as one index does). Safe for concurrent use; the zero
// value is ready.
//
// For a Service (the MCP server) it also keeps the files it last read, so
// that the next read parses only the files whose bytes changed (Load).
type Warm struct {
	mu    sync.Mutex
	parts map[string]*catalogPart // the last catalog's, by path
	last  *Catalog

	// files are the last read's (Load).
	files []rules.File

	// repo is the repository the last query's hits were judged against
	// (Repo, warm_repo.go).
	repo *warmRepo
}

// Catalog is NewCatalog(files), reusing the parts of the previous catalog
// whose files hold the same bytes.
func (w *Warm) Catalog(files []rules.File) *Catalog {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := joinCatalog(files, func(fi int) *catalogPart {
		if p := w.parts[files[fi].Path]; p != nil && p.holds(files[fi]) {
			return p
		}
		return newPart(files[fi])
	}, w.last)
	w.parts = make(map[string]*catalogPart, len(c.parts))
	for _, p := range c.parts {
		w.parts[p.path] = p
	}
	w.last = &Catalog{parts: c.parts, index: c.index}
	return c
}

// Bytes is what w last knew the file at path to hold (nil: nothing): the
// bytes of the catalog's or the last read's parse of it. For
// store.Workspace.Known: a read that finds them in the file takes them
// instead of a copy (a large file is then held once, issue 26).
func (w *Warm) Bytes(path string) []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if d := w.known(path); d != nil {
		return d.Src
	}
	return nil
}

// known is the latest parse w holds of the file at path, or nil. w.mu is
// held.
func (w *Warm) known(path string) *memfile.Document {
	// A parse has at least one line; the empty Document of a file too
	// large to parse is none to read from.
	parsed := func(d *memfile.Document) bool { return d != nil && d.Lines != nil }
	if p := w.parts[path]; p != nil && parsed(p.doc) {
		return p.doc
	}
	for _, f := range w.files {
		if f.Path == path && parsed(f.Doc) {
			return f.Doc
		}
	}
	return nil
}

// Load is Service.Load for a long-lived process: a new snapshot, in which
// a file with the bytes it had at the last read keeps its parse. The folder
// is read at every call: keeping the files while a stat vouched for them
// did not pay (BENCHMARKS.md, "Every remaining shortcut measured") and was
// one more "is the disk still what I read" rule.
func (w *Warm) Load(ws *store.Workspace) ([]rules.File, error) {
	w.mu.Lock()
	prev := make(map[string]rules.File, len(w.files))
	for _, f := range w.files {
		prev[f.Path] = f
	}
	w.mu.Unlock()

	snap, err := ws.Snapshot()
	if err != nil {
		return nil, err
	}
	parsed := make([]func() rules.File, len(snap.Files))
	for i, sf := range snap.Files {
		if p, ok := prev[sf.Path]; ok && sf.Data != nil && !p.TooLarge() && bytes.Equal(p.Doc.Src, sf.Data) {
			parsed[i] = func() rules.File { return p }
		}
	}
	files := OverlayParsed(snap, parsed, nil)
	w.mu.Lock()
	w.files = files
	w.mu.Unlock()
	return files, nil
}
