package lsp

import (
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// The references entries cite (core/refs: paths, commands, versions), as
// the editor features read them: links, go-to-definition, hover
// (links.go, definition.go, hover_refs.go) and the folders the watcher
// follows (watch_refs.go). Where a reference leads is the repository's
// answer (repo.go); what is stale about it is refs.Judge's, as the rules
// judge it.

// citation is one reference an entry cites.
type citation struct {
	ref refs.Ref
	// entry indexes the file's entries.
	entry int
	// span is the reference as cited, in the file's bytes.
	span text.Span
}

// citeCache holds the references of a folder's entries, so that a request
// for one file, or the watch set of all of them, reads again only the
// entries that changed: extraction is most of a reference check's work
// (BenchmarkExtractGenerated, BenchmarkReferenceChangeToPublish).
type citeCache struct {
	mu     sync.Mutex
	byFile map[string]*fileCites // by file path
	// checker is the folder's checker, whose reference rules read the same
	// entries: what it read is taken, not read and kept a second time. Nil
	// before the first check and after the checker is dropped.
	checker atomic.Pointer[rules.Checker]
}

// fileCites is one file's references, for the parse they were last read
// from (views share a parse while the file is unchanged): those of the
// entries that cite something, in entry order. Two entries in three cite
// nothing, and a list by entry index was 24 bytes for each of them. Only
// that parse's are kept: a map of them by content, kept beside them, held
// as much again as the references (10 MB at 100,000 entries).
type fileCites struct {
	doc   *memfile.Document
	cited []entryCites
}

// entryCites are the references the entry at index entry cites, never none.
type entryCites struct {
	entry int
	refs  []refs.Ref
}

// fewChanged is how many entries of a file whose entries did not move are
// read afresh before the previous parse's references are indexed by
// content.
const fewChanged = 8

// of returns the references of the entries of file that cite something, in
// entry order; nil for a file that holds no entries to read. The result is
// shared: read only.
func (c *citeCache) of(file *rules.File) []entryCites {
	if !file.IsCategory || file.Doc == nil || file.TooLarge() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.byFile[file.Path]
	if fc != nil && fc.doc == file.Doc {
		return fc.cited
	}
	es := file.Doc.Entries
	var out []entryCites
	var read *rules.Readings
	if ck := c.checker.Load(); ck != nil {
		read = ck.References()
	}
	// The previous parse's references by content, made only once an entry
	// is not where it was (a line inserted or removed above it), or more
	// than a few changed: an edited entry (a keystroke) is read afresh, as
	// it would be anyway, rather than after indexing 10,000 others.
	var was map[string][]refs.Ref
	var prev []refs.Ref // the references of the previous parse's entry i
	moved := fc != nil && len(fc.doc.Entries) != len(es)
	changed, next := 0, 0 // next: the first of fc.cited not yet passed
	for i := range es {
		ct := es[i].Content
		var rs []refs.Ref
		if fc != nil && i < len(fc.doc.Entries) {
			prev = nil
			for next < len(fc.cited) && fc.cited[next].entry < i {
				next++
			}
			if next < len(fc.cited) && fc.cited[next].entry == i {
				prev = fc.cited[next].refs
			}
		}
		switch {
		case fc != nil && i < len(fc.doc.Entries) && fc.doc.Entries[i].Content == ct:
			rs = prev
		case !moved && changed < fewChanged:
			changed++
			rs = refs.Extract(ct)
		default:
			changed++
			if was == nil && fc != nil {
				was = make(map[string][]refs.Ref, len(fc.doc.Entries))
				k := 0
				for j := range fc.doc.Entries {
					var jrs []refs.Ref
					if k < len(fc.cited) && fc.cited[k].entry == j {
						jrs = fc.cited[k].refs
						k++
					}
					was[fc.doc.Entries[j].Content] = jrs
				}
			}
			var ok bool
			rs, ok = was[ct]
			if !ok {
				rs, ok = read.Of(ct)
			}
			if !ok {
				rs = refs.Extract(ct)
			}
		}
		if len(rs) > 0 {
			out = append(out, entryCites{entry: i, refs: rs})
		}
	}
	if c.byFile == nil {
		c.byFile = map[string]*fileCites{}
	}
	c.byFile[file.Path] = &fileCites{doc: file.Doc, cited: out}
	return out
}

// keepOnly forgets the files not in paths.
func (c *citeCache) keepOnly(paths map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.byFile {
		if !paths[p] {
			delete(c.byFile, p)
		}
	}
}

// citations is every reference file cites, in file order, with its span in
// the file's bytes: Extract's spans are offsets into an entry's content.
func (f *folder) citations(file *rules.File) []citation {
	var out []citation
	for _, ec := range f.cites.of(file) {
		base := file.Doc.Entries[ec.entry].ContentSpan.Start
		for _, r := range ec.refs {
			out = append(out, citation{ref: r, entry: ec.entry, span: text.Span{Start: base + r.Start, End: base + r.End}})
		}
	}
	return out
}

// citationAt is the citation of file under byte offset off, or nil.
func (f *folder) citationAt(file *rules.File, off int) *citation {
	cs := f.citations(file)
	k := slices.IndexFunc(cs, func(c citation) bool { return c.span.Start <= off && off < c.span.End })
	if k < 0 {
		return nil
	}
	return &cs[k]
}

// destination is where a reference leads in the editor: a file or folder,
// at a 1-based line (0: none).
type destination struct {
	path string
	line int
}

// destinationOf is where ref leads: a cited path that exists, at its cited
// line; a command's manifest, at the line of its target when the manifest
// lists it. A version leads nowhere (its pins are in the hover).
func destinationOf(repo rules.Repo, ref refs.Ref) (destination, bool) {
	if repo == nil {
		return destination{}, false
	}
	switch ref.Kind {
	case refs.Path:
		if abs, ok := repo.Locate(ref.Path); ok {
			return destination{path: abs, line: int(ref.Line)}, true
		}
	case refs.Command:
		m, ok := repo.Manifest(ref.Tool, ref.In)
		if !ok {
			break
		}
		abs, ok := repo.Locate(m.File)
		if !ok {
			break
		}
		return destination{path: abs, line: targetLine(m, ref.Target)}, true
	}
	return destination{}, false
}

// targetLine is the line manifest m defines name on, 0 when it does not
// list it or does not know.
func targetLine(m refs.Manifest, name string) int {
	if k := slices.Index(m.Names, name); k >= 0 && k < len(m.Lines) {
		return m.Lines[k]
	}
	return 0
}

// rootRelative is abs relative to the workspace root, slash-separated, as
// the repository names paths; ok is false for a path outside it.
func rootRelative(root, abs string) (string, bool) {
	rel, ok := store.RelativePath(root, abs)
	if !ok || rel == "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
