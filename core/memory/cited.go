package memory

import (
	"fmt"
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

// The references entries cite (core/refs: paths, commands, versions), as an
// editor shows them: where each leads (a link, go-to-definition), what it
// resolves to (a hover, cited_hover.go), and which changes to the code can
// move its verdict (cited_watch.go). Where a reference leads is the
// repository's answer; what is stale about it is refs.Judge's, as the rules
// judge it. Positions are byte offsets in the file; a front end converts.

// Citation is one reference an entry cites.
type Citation struct {
	Ref refs.Ref
	// Entry indexes the file's entries.
	Entry int
	// Cited is every reference the entry cites, Ref at Cited[Nth]: a
	// reference is judged with the others of its entry (releases written
	// as alternatives, refs.JudgeAll). Shared: read only.
	Cited []refs.Ref
	Nth   int
	// Span is the reference as cited, in the file's bytes.
	Span text.Span
}

// Citations holds the references of a folder's entries, so that a request
// for one file, or the watch set of all of them, reads again only the
// entries that changed: extraction is most of a reference check's work
// (BenchmarkExtractGenerated, BenchmarkReferenceChangeToPublish). Safe for
// concurrent use; the zero value is ready.
type Citations struct {
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
	cited []EntryCites
}

// EntryCites are the references the entry at index Entry cites, never none.
type EntryCites struct {
	Entry int
	Refs  []refs.Ref
}

// fewChanged is how many entries of a file whose entries did not move are
// read afresh before the previous parse's references are indexed by
// content.
const fewChanged = 8

// ReadFrom makes ck's readings (rules.Checker.References) the first place
// references are looked up; nil forgets the checker.
func (c *Citations) ReadFrom(ck *rules.Checker) { c.checker.Store(ck) }

// Of returns the references of the entries of file that cite something, in
// entry order; nil for a file that holds no entries to read. The result is
// shared: read only.
func (c *Citations) Of(file *rules.File) []EntryCites {
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
	var out []EntryCites
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
			for next < len(fc.cited) && fc.cited[next].Entry < i {
				next++
			}
			if next < len(fc.cited) && fc.cited[next].Entry == i {
				prev = fc.cited[next].Refs
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
					if k < len(fc.cited) && fc.cited[k].Entry == j {
						jrs = fc.cited[k].Refs
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
			out = append(out, EntryCites{Entry: i, Refs: rs})
		}
	}
	if c.byFile == nil {
		c.byFile = map[string]*fileCites{}
	}
	c.byFile[file.Path] = &fileCites{doc: file.Doc, cited: out}
	return out
}

// KeepOnly forgets the files not in paths.
func (c *Citations) KeepOnly(paths map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.byFile {
		if !paths[p] {
			delete(c.byFile, p)
		}
	}
}

// In is every reference file cites, in file order, with its span in the
// file's bytes: Extract's spans are offsets into an entry's content.
func (c *Citations) In(file *rules.File) []Citation {
	var out []Citation
	for _, ec := range c.Of(file) {
		base := file.Doc.Entries[ec.Entry].ContentSpan.Start
		for i, r := range ec.Refs {
			out = append(out, Citation{Ref: r, Entry: ec.Entry, Cited: ec.Refs, Nth: i, Span: text.Span{Start: base + r.Start, End: base + r.End}})
		}
	}
	return out
}

// At is the citation of file under byte offset off; ok is false where none
// is.
func (c *Citations) At(file *rules.File, off int) (_ Citation, ok bool) {
	cs := c.In(file)
	k := slices.IndexFunc(cs, func(c Citation) bool { return c.Span.Start <= off && off < c.Span.End })
	if k < 0 {
		return Citation{}, false
	}
	return cs[k], true
}

// Target is where a citation leads in an editor: a file or folder, at a
// 1-based line (0: none), and a title that says so.
type Target struct {
	Path  string
	Line  int
	Title string
}

// Target is where c leads: a cited path that exists, at its cited line; a
// command's manifest, at the line of its target when the manifest lists
// it. A version leads nowhere (its pins are in the hover), nor does
// anything without a repository.
func (c Citation) Target(repo rules.Repo) (Target, bool) {
	if repo == nil {
		return Target{}, false
	}
	ref := c.Ref
	var t Target
	switch ref.Kind {
	case refs.Path:
		abs, ok := repo.Locate(ref.Path)
		if !ok {
			return Target{}, false
		}
		t = Target{Path: abs, Line: int(ref.Line)}
	case refs.Command:
		m, ok := repo.Manifest(ref.Tool, ref.In)
		if !ok {
			return Target{}, false
		}
		abs, ok := repo.Locate(m.File)
		if !ok {
			return Target{}, false
		}
		t = Target{Path: abs, Line: targetLine(m, ref.Target)}
	default:
		return Target{}, false
	}
	name := filepath.Base(t.Path)
	switch {
	case ref.Kind == refs.Command && t.Line > 0:
		t.Title = fmt.Sprintf("Open %s at %s %s", name, ref.Tool.NameKind(), ref.Target)
	case t.Line > 0:
		t.Title = fmt.Sprintf("Open %s at line %d", name, t.Line)
	default:
		t.Title = "Open " + name
	}
	return t, true
}

// targetLine is the line manifest m defines name on, 0 when it does not
// list it or does not know.
func targetLine(m refs.Manifest, name string) int {
	if k := slices.Index(m.Names, name); k >= 0 && k < len(m.Lines) {
		return m.Lines[k]
	}
	return 0
}

// RootRelative is abs relative to the workspace root, slash-separated, as
// the repository names paths; ok is false for a path outside it.
func RootRelative(root, abs string) (string, bool) {
	rel, ok := store.RelativePath(root, abs)
	if !ok || rel == "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
