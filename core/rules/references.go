package rules

import (
	"iter"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// The reference rules (stale-path, stale-command, version-drift: Traits
// NeedsRepo) judge what entries cite against the repository. Reading an
// entry's references is most of their cost (refs.Extract reads every
// token), so a Checker runs them as one task that reads each entry once,
// and keeps what it read by content for its next call: an editor's re-check
// after one edit reads one entry.

// referencesTask names the task that reads the entries' references and
// runs the reference rules.
const referencesTask = " references"

// citing is an entry of a category file and the references it cites, in
// order.
type citing struct {
	file, entry int
	refs        []refs.Ref
}

// citations reads the references of every entry of the category files,
// reusing what the previous call read for the same content, and keeps this
// call's reading for the next. Only the references task calls it.
func (c *Checker) citations(files []File) []citing {
	old := c.References()
	// sized once: on a first call, by the entries (a map grown by doubling
	// keeps up to twice the room it needs, and drops as much on the way)
	n := old.Len()
	if n == 0 {
		for fi := range files {
			if f := &files[fi]; f.IsCategory && f.parsed() {
				n += len(f.Doc.Entries)
			}
		}
	}
	now := &Readings{at: make(map[string]int32, n)}
	if old != nil {
		now.cited = make([][]refs.Ref, 0, len(old.cited))
	}
	var out []citing
	for fi := range files {
		f := &files[fi]
		if !f.IsCategory || !f.parsed() {
			continue
		}
		for i := range f.Doc.Entries {
			ct := f.Doc.Entries[i].Content
			rs, ok := now.Of(ct)
			if !ok {
				if rs, ok = old.Of(ct); !ok {
					rs = refs.Extract(kept(ct, old != nil))
				}
				now.add(ct, rs)
			}
			if len(rs) > 0 {
				out = append(out, citing{file: fi, entry: i, refs: rs})
			}
		}
	}
	c.keepReadings(now)
	return out
}

// Readings are refs.Extract's results by content, as a call of a Checker
// read them. Most entries cite nothing: a content maps to its reading's
// place in a list of those that are not nil, or to -1, so that the map's
// slots are 24 bytes rather than the 40 of a map to the references (one
// for every content of the folder). Read only once made.
type Readings struct {
	at    map[string]int32
	cited [][]refs.Ref
}

// Of is the reading of content; ok is false when it was not read.
func (r *Readings) Of(content string) (rs []refs.Ref, ok bool) {
	if r == nil {
		return nil, false
	}
	k, ok := r.at[content]
	if !ok || k < 0 {
		return nil, ok
	}
	return r.cited[k], true
}

// Len is the number of contents read.
func (r *Readings) Len() int {
	if r == nil {
		return 0
	}
	return len(r.at)
}

// All yields every content read with its reading, in no order.
func (r *Readings) All() iter.Seq2[string, []refs.Ref] {
	return func(yield func(string, []refs.Ref) bool) {
		if r == nil {
			return
		}
		for ct, k := range r.at {
			var rs []refs.Ref
			if k >= 0 {
				rs = r.cited[k]
			}
			if !yield(ct, rs) {
				return
			}
		}
	}
}

// add notes the reading of content.
func (r *Readings) add(content string, rs []refs.Ref) {
	if rs == nil {
		r.at[content] = -1
		return
	}
	r.at[content] = int32(len(r.cited))
	r.cited = append(r.cited, rs)
}

// keepReadings makes r the readings the next call reuses and References
// hands out. r is not changed afterwards.
func (c *Checker) keepReadings(r *Readings) {
	c.read.Store(r)
}

// References is what the latest call read in each content it judged,
// refs.Extract's result by content; nil when it judged none. A reader of
// the same entries' references (the language server's links, hovers and
// watch set) takes them from here instead of extracting them a second
// time and keeping a second copy (9 MB at 100,000 entries). Safe to call
// during a call (it returns the previous call's); the readings are never
// changed after the call that made them: read only.
func (c *Checker) References() *Readings {
	return c.read.Load()
}

// judged calls fn for each reference of kind that an entry cites and that
// refs.Judge finds stale or drifting, in file and entry order.
func (w *workspace) judged(kind refs.Kind, fn func(fi int, e *memfile.Entry, ref refs.Ref, v refs.Verdict)) {
	for _, c := range w.cites {
		f := &w.files[c.file]
		e := &f.Doc.Entries[c.entry]
		cited := ofKind(c.refs, kind)
		if len(cited) == 0 {
			continue
		}
		for i, v := range refs.JudgeAll(cited, &entryRepo{Repo: w.repo, path: f.Path, line: e.Line}) {
			if v.Status == refs.Stale || v.Status == refs.Drift {
				fn(c.file, e, cited[i], v)
			}
		}
	}
}

// ofKind is the references of rs of kind, in order: what one entry cites
// of a kind is judged together (refs.JudgeAll).
func ofKind(rs []refs.Ref, kind refs.Kind) []refs.Ref {
	var out []refs.Ref
	for _, r := range rs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// JudgeEntry is the verdict on rs[nth], rs being every reference the entry
// on line (1-based, as HackLM counts lines) of the memory file at path
// cites, as the reference rules judge it, with the entry's other
// references of its kind: for a reader of one citation (a hover) who must
// see what a check says.
func JudgeEntry(repo Repo, path string, line int, rs []refs.Ref, nth int) refs.Verdict {
	if repo == nil || nth < 0 || nth >= len(rs) {
		return refs.Verdict{}
	}
	cited := ofKind(rs, rs[nth].Kind)
	at := 0
	for _, r := range rs[:nth] {
		if r.Kind == rs[nth].Kind {
			at++
		}
	}
	return refs.JudgeAll(cited, &entryRepo{Repo: repo, path: path, line: line})[at]
}

// entryRepo is the repository as one entry's judge sees it: a move carries
// whether it happened before the entry's line was last written.
type entryRepo struct {
	Repo
	// path and line (1-based, HackLM's numbering) locate the entry's line.
	path string
	line int
	// written is Repo.Written for the line, asked once and only when a
	// cited path has a history (blame is the dear part of a repository).
	written *time.Time
}

func (r *entryRepo) Moved(p string) (refs.Move, bool) {
	m, ok := r.Repo.Moved(p)
	if ok {
		m.Before = goneWhenWritten(m.When, r.writtenAt())
	}
	return m, ok
}

func (r *entryRepo) ManifestThen(tool refs.Tool, dir string) (refs.Manifest, bool) {
	at := r.writtenAt()
	if at.IsZero() {
		return refs.Manifest{}, false // being written now: the manifest now is the one
	}
	return r.Repo.ManifestAt(tool, dir, at)
}

func (r *entryRepo) RootHad(name string) (isDir, ok bool) {
	at := r.writtenAt()
	if at.IsZero() {
		return false, false // being written now: the root now is the one
	}
	return r.Repo.RootAt(name, at)
}

// writtenAt is Repo.Written for the entry's line, asked once.
func (r *entryRepo) writtenAt() time.Time {
	if r.written == nil {
		t := r.Repo.Written(r.path, r.line)
		r.written = &t
	}
	return *r.written
}

// goneWhenWritten reports whether a path moved or deleted at when was
// already gone when a line written at written was written: the line then
// speaks of the removal ("no more `index.html`", "`old.js` was replaced"),
// or was wrong from the start, and either way the history is no proof that
// it went stale. A move in the commit that wrote the line counts as before
// it (one change did both). A line that is not committed (written is zero:
// an unsaved or uncommitted edit) is being written now, after every commit
// of the history. A move of unknown time cannot be ordered before the line:
// the path is then judged as any missing path is.
func goneWhenWritten(when, written time.Time) bool {
	return written.IsZero() || !when.IsZero() && !when.After(written)
}

// refSpan is the span of s[start:end] of an entry's content, in its file.
func refSpan(e *memfile.Entry, start, end int) text.Span {
	return text.Span{Start: e.ContentSpan.Start + start, End: e.ContentSpan.Start + end}
}

// replaceIn is the edit writing s in place of content[start:end] of an
// entry.
func replaceIn(e *memfile.Entry, start, end int, s string) text.Edit {
	sp := refSpan(e, start, end)
	return text.Edit{Start: sp.Start, End: sp.End, New: s}
}

// shortCommit is a commit as a message names it: git's short form.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// EntryAt names one entry: its file's index among the files given to a
// check and its index among the file's entries.
type EntryAt struct{ File, Entry int }

// CheckReferences runs the reference rules on the given entries only, as a
// check reports them: for a reader who asks about a few entries (the hits
// of a query) rather than a check of everything, which would read every
// entry's references. None with a nil repository, one without code, or the
// rules off.
func CheckReferences(files []File, entries []EntryAt, cfg config.Config, repo Repo) []Finding {
	if repo == nil || !ReadsRepo(cfg) || !repo.HasCode() {
		return nil
	}
	w := &workspace{files: files, cfg: cfg, idx: newFileViews(len(files)), repo: repo}
	for _, at := range entries {
		if at.File < 0 || at.File >= len(files) {
			continue
		}
		f := &files[at.File]
		if !f.IsCategory || !f.parsed() || at.Entry < 0 || at.Entry >= len(f.Doc.Entries) {
			continue
		}
		if rs := refs.Extract(f.Doc.Entries[at.Entry].Content); len(rs) > 0 {
			w.cites = append(w.cites, citing{file: at.File, entry: at.Entry, refs: rs})
		}
	}
	if len(w.cites) == 0 {
		return nil
	}
	for i := range registry {
		if r := &registry[i]; r.on(cfg) && r.NeedsRepo {
			w.run(r)
		}
	}
	return w.out
}
