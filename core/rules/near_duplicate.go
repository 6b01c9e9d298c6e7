package rules

import "fmt"

// checkNearDuplicate flags an entry that storeMemory would have skipped or
// turned into an update of an earlier entry (similarity at or above the
// update threshold, not identical). One finding per later entry, naming the
// strongest earlier partner.
func checkNearDuplicate(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.near < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.near]
		e, oe := w.entry(r), w.entry(o)
		line := w.entryLineNo(o)
		slug := oe.Slug
		if !oe.HasSlug {
			slug = e.Slug
		}
		merge := w.takeOver(o, r, slug)
		w.add(Finding{Code: "near-duplicate", Severity: Information, File: r.file, Span: entrySpan(e),
			Message: fmt.Sprintf("near-duplicate of line %d (%s): %s", line, similarity(w.pairs[b.nearP].Verdict), quote(oe.Content, 60)),
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the similar earlier entry"}},
			Fixes:   []Fix{{Title: fmt.Sprintf("Merge into line %d", line), Edits: merge}}})
	}
}
