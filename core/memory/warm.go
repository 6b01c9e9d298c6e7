package memory

import (
	"bytes"
	"sync"
	"time"

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

	// latest is the last parse Parse made of each file, so that the next
	// reader of the same bytes (a store's plan, a check) takes it instead
	// of making its own.
	latest map[string]*memfile.Document
	// repo is the repository the last query's hits were judged against
	// (Repo, warm_repo.go).
	repo *warmRepo

	// Now, when set, is the clock that the repository's reuse is kept by:
	// a test's, which steps past the reuse window instead of waiting.
	Now func() time.Time
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
	for path, d := range w.latest {
		// Kept only while it may be the base of the next parse of a file
		// the catalog holds.
		if p := w.parts[path]; p == nil || p.doc == d || bytes.Equal(p.doc.Src, d.Src) {
			delete(w.latest, path)
		}
	}
	w.last = &Catalog{parts: c.parts, index: c.index}
	return c
}

// Parse is memfile.Parse(data) for the file at path, read from the last
// parse of that file w holds (memfile.Reparse): after a store of this
// process, of the bytes before it, so that only the appended entry is read.
// A file w knows nothing of is parsed, and that parse not kept (the
// caller keeps it as long as it needs it; the catalog keeps its own).
func (w *Warm) Parse(path string, data []byte) *memfile.Document {
	d, base := w.parse(path, data)
	if base != nil && d != base {
		w.mu.Lock()
		w.rememberLocked(path, d)
		w.mu.Unlock()
	}
	return d
}

// parse is memfile.Parse(data) for the file at path, read from base, the
// latest parse w holds of it (nil: none).
func (w *Warm) parse(path string, data []byte) (d, base *memfile.Document) {
	w.mu.Lock()
	base = w.known(path)
	w.mu.Unlock()
	if base == nil {
		return memfile.Parse(data), nil
	}
	return memfile.Reparse(base, data), base
}

// rememberLocked makes d the latest parse of the file at path; w.mu is held.
func (w *Warm) rememberLocked(path string, d *memfile.Document) {
	if w.latest == nil {
		w.latest = map[string]*memfile.Document{}
	}
	w.latest[path] = d
}

// Overlay is the package's Overlay with the files of snap parsed by Parse:
// for a writer of a long-lived process, which reads the folder again inside
// the lock, most often to find the bytes it last wrote or indexed.
func (w *Warm) Overlay(snap *store.Snapshot, bufs map[string][]byte) []rules.File {
	var parsed []func() rules.File
	if snap != nil {
		parsed = make([]func() rules.File, len(snap.Files))
		for i, sf := range snap.Files {
			parsed[i] = func() rules.File { return w.File(sf.Path, sf.Data) }
		}
	}
	return OverlayParsed(snap, parsed, buffers(bufs))
}

// File is rules.NewFile with the parse made by Parse.
func (w *Warm) File(path string, data []byte) rules.File {
	return rules.NewFileParsing(path, data, func(b []byte) *memfile.Document { return w.Parse(path, b) })
}

// Bytes is what w last knew the file at path to hold (nil: nothing): the
// bytes this process last wrote there, else those of the latest parse w
// holds of it. For store.Workspace.Known: a read that finds them in the
// file takes them instead of a copy.
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
	if d := w.latest[path]; parsed(d) {
		return d
	}
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

// reparsing is memfile.Parse, read from base when there is one.
func reparsing(base *memfile.Document) func([]byte) *memfile.Document {
	if base == nil {
		return memfile.Parse
	}
	return func(b []byte) *memfile.Document { return memfile.Reparse(base, b) }
}

// Load is Service.Load for a long-lived process: a new snapshot, in which
// a file with the bytes it had at the last read keeps its parse, and one
// another writer appended to is parsed from the earlier parse. Keeping the
// files while a stat of the folder vouched for them saved under a
// millisecond a call at 10,000 entries (issue 29's measurements), and was
// one more "is the disk still what I read" rule: retired.
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
		p, ok := prev[sf.Path]
		switch {
		case !ok || sf.Data == nil || p.TooLarge():
		case bytes.Equal(p.Doc.Src, sf.Data):
			parsed[i] = func() rules.File { return p }
		default:
			// Most often another writer appended an entry.
			parsed[i] = func() rules.File { return rules.NewFileParsing(sf.Path, sf.Data, reparsing(p.Doc)) }
		}
	}
	files := OverlayParsed(snap, parsed, nil)
	w.mu.Lock()
	w.files = files
	w.mu.Unlock()
	return files, nil
}
