package rules

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/similar"
)

// pairFor holds, for one later entry, the earlier entry it relates to most
// strongly in each sense: exact duplicate, near-duplicate, conflict; and for
// the last two the pair (an index into w.pairs) that says how.
type pairFor struct {
	exact, near, conflict int32 // index into w.refs, -1 if none
	nearP, conflictP      int32 // index into w.pairs
}

// related returns, per reference index, the strongest earlier partner of
// each kind, from the pairs Check computed.
func (w *workspace) related() ([]entryRef, []pairFor) {
	if w.best != nil {
		return w.refs, w.best
	}
	best := make([]pairFor, len(w.refs))
	for i := range best {
		best[i] = pairFor{exact: -1, near: -1, conflict: -1}
	}
	for k := range w.pairs {
		p := &w.pairs[k]
		b := &best[p.J]
		v := &p.Verdict
		switch {
		case v.Exact:
			if b.exact < 0 || p.I < int(b.exact) {
				b.exact = int32(p.I)
			}
		case v.Action == similar.Conflict:
			if b.conflict < 0 || stronger(v, p.I, &w.pairs[b.conflictP].Verdict, int(b.conflict)) {
				b.conflict, b.conflictP = int32(p.I), int32(k)
			}
		case v.Action == similar.Skip || v.Action == similar.Update || v.Kind == similar.KindSibling:
			if b.near < 0 || stronger(v, p.I, &w.pairs[b.nearP].Verdict, int(b.near)) {
				b.near, b.nearP = int32(p.I), int32(k)
			}
		}
	}
	w.best = best
	return w.refs, best
}

// stronger orders candidate partners as storeMemory's Decide does: the
// stronger action, then the higher similarity, then the earlier entry.
func stronger(v *similar.Verdict, i int, old *similar.Verdict, oi int) bool {
	if v.Action != old.Action {
		return v.Action == similar.Skip
	}
	if v.Similarity != old.Similarity {
		return v.Similarity > old.Similarity
	}
	return i < oi
}

func (w *workspace) entry(r entryRef) *memfile.Entry { return &w.files[r.file].Doc.Entries[r.entry] }

// entryLineNo is the editor line of an entry.
func (w *workspace) entryLineNo(r entryRef) int {
	return w.lineNo(r.file, w.entry(r).LineSpan.Start)
}

func similarity(v similar.Verdict) string {
	s := fmt.Sprintf("similarity %.2f", v.Similarity)
	if v.Reason != "" {
		s += ", " + v.Reason
	}
	return s
}

// takeOver is the edit pair shared by merging a near-duplicate and keeping
// the newer side of a conflict: the earlier entry's line (old) becomes the
// later entry's text under slug, and the later line (later) goes.
func (w *workspace) takeOver(old, later entryRef, slug string) []FileEdit {
	od, ld := w.files[old.file].Doc, w.files[later.file].Doc
	oe, le := w.entry(old), w.entry(later)
	return append(in(old.file, od.ReplaceLine(oe.LineIndex, memfile.EntryLine(slug, le.Content))),
		in(later.file, ld.DeleteLines([]int{le.LineIndex})...)...)
}

// Titles of the choices on a pair of entries, offered by the near-duplicate
// and conflict findings (on the later entry: "this one").
const (
	FixKeepThis  = "Keep this one"
	FixKeepOther = "Keep the other"
	FixKeepBoth  = "Keep both"
)

// pairFixes are the choices on the pair of the earlier entry old and the
// later entry this, set on fd, the pair's finding. Keeping this one puts its
// text in the earlier entry's place (where a store would have updated it),
// under its own slug or else the earlier one's; keeping the other deletes
// this line, and the other takes this slug if it has none. Either way no slug
// a reader may look up is lost and no text is rewritten. Their edits are made
// when asked for (Finding.EditsOf), and every such finding shares one list
// of them: a file of thousands of near-duplicates offers three on each, and
// edits made up front held its text twice over (TestPairFixesAreLight).
func (w *workspace) pairFixes(fd *Finding, old, this entryRef) {
	fd.pair = pairRef{int32(old.file), int32(old.entry), int32(this.file), int32(this.entry)}
	fd.Fixes = pairChoices
}

// pairChoices are the fixes of every pair finding (pairFixes). Shared: a
// front end that changes a finding's fixes makes a list of its own.
var pairChoices = []Fix{{Title: FixKeepThis, keep: keepThis}, {Title: FixKeepOther, keep: keepOther}, {Title: FixKeepBoth, KeepBoth: true}}

const (
	keepThis  = 1
	keepOther = 2
)

// pairRef is the earlier and the later entry of a pair finding: a value,
// so that findings compare equal when they say the same.
type pairRef struct{ oldFile, oldEntry, thisFile, thisEntry int32 }

// edits are the edits of keeping one entry of the pair (keepThis or
// keepOther).
func (c pairRef) edits(files []File, keep uint8) []FileEdit {
	w := &workspace{files: files}
	old, this := entryRef{int(c.oldFile), int(c.oldEntry)}, entryRef{int(c.thisFile), int(c.thisEntry)}
	oe, e := w.entry(old), w.entry(this)
	if keep == keepThis {
		slug := e.Slug
		if !e.HasSlug {
			slug = oe.Slug
		}
		return w.takeOver(old, this, slug)
	}
	od, d := files[old.file].Doc, files[this.file].Doc
	keepOther := in(this.file, d.DeleteLines([]int{e.LineIndex})...)
	if !oe.HasSlug && e.HasSlug {
		keepOther = append(in(old.file, od.ReplaceLine(oe.LineIndex, memfile.EntryLine(e.Slug, oe.Content))), keepOther...)
	}
	return keepOther
}
