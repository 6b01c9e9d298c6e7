package rules

import "fmt"

// checkConflict flags an entry that reverses an earlier one ("Always X" /
// "Never X"). HackLM sees the two as duplicates (B3); both are read by agents.
func checkConflict(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.conflict < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.conflict]
		e, oe := w.entry(r), w.entry(o)
		d := w.files[r.file].Doc
		line := w.entryLineNo(o)
		// Keep new: the later entry takes the earlier one's place, keeping
		// the earlier slug when the later entry has none.
		slug := e.Slug
		if !e.HasSlug {
			slug = oe.Slug
		}
		del := in(r.file, d.DeleteLines([]int{e.LineIndex})...)
		keepNew := w.takeOver(o, r, slug)
		w.add(Finding{Code: "conflict", Severity: Warning, File: r.file, Span: entrySpan(e),
			Message: fmt.Sprintf("reverses line %d: %s", line, quote(oe.Content, 60)),
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the entry it reverses"}},
			Fixes:   []Fix{{Title: "Keep new", Edits: keepNew}, {Title: "Keep old", Edits: del}}})
	}
}
