package rules

import "fmt"

// checkConflict flags an entry that reverses an earlier one ("Always X" /
// "Never X"): HackLM sees the two as duplicates (B3); both are read by
// agents. Two texts under one slug that do not reverse each other are
// duplicate-slug's (versions of one entry), not a conflict (issue 27).
func checkConflict(w *workspace) {
	refs, best := w.related()
	for j, b := range best {
		if b.conflict < 0 || b.exact >= 0 {
			continue
		}
		r, o := refs[j], refs[b.conflict]
		e, oe := w.entry(r), w.entry(o)
		line := w.entryLineNo(o)
		v := w.pairs[b.conflictP].Verdict
		msg := fmt.Sprintf("reverses line %d: %s", line, quote(oe.Content, 60))
		if v.Reason != "" && v.Reason != "reversal" {
			msg = fmt.Sprintf("reverses line %d (%s): %s", line, v.Reason, quote(oe.Content, 60))
		}
		fd := Finding{File: r.file, Span: entrySpan(e),
			Message: msg,
			Related: []Related{{File: o.file, Span: entrySpan(oe), Message: "the entry it reverses"}}}
		w.pairFixes(&fd, o, r)
		w.report(fd)
	}
}
