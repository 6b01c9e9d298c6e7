package rules

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

// checkNearDuplicate flags an entry that storeMemory would have skipped or
// turned into an update of an earlier entry (similarity at or above the
// update threshold, not identical), or stored beside it as a sibling (one
// term differs), so that a person can decide. One finding per later entry,
// naming the strongest earlier partner.
func checkNearDuplicate(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.near < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.near]
		e, oe := w.entry(r), w.entry(o)
		line := w.entryLineNo(o)
		v := w.pairs[b.nearP].Verdict
		msg := fmt.Sprintf("near-duplicate of line %d (%s): %s", line, similarity(v), quote(oe.Content, 60))
		if v.Kind == similar.KindSibling {
			terms := strings.TrimPrefix(v.Reason, "sibling: ")
			msg = fmt.Sprintf("sibling of line %d (%s, similarity %.2f): %s — two facts, or one? Keep both if two", line, terms, v.Similarity, quote(oe.Content, 60))
		}
		fd := Finding{File: r.file, Span: entrySpan(e),
			Message: msg,
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the similar earlier entry"}}}
		w.pairFixes(&fd, o, r)
		w.report(fd)
	}
}
