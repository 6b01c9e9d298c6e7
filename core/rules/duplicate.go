package rules

import "fmt"

// checkDuplicate flags an entry whose normalised text equals an earlier
// entry's in the same file: HackLM would never have stored it.
func checkDuplicate(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.exact < 0 {
			continue
		}
		r, o := refs[j], refs[b.exact]
		e, oe := w.entry(r), w.entry(o)
		d := w.files[r.file].Doc
		w.report(Finding{File: r.file, Span: entrySpan(e),
			Message: fmt.Sprintf("duplicate of line %d: the same text once normalised", w.entryLineNo(o)),
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the earlier entry"}},
			Fixes:   []Fix{deleteLineFix("Delete the duplicate", true, r.file, d, e.LineIndex)}})
	}
}
