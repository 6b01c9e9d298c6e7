package rules

import (
	"fmt"
	"sort"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

// overLimitListed is how many of the entries pruning would remove an
// over-limit warning lists as its related information, first by line: a
// person reads a few dozen, and a category thousands over its limit would
// otherwise carry thousands of locations into every publish. `memory-lsp
// cleanup` shows the whole plan.
const overLimitListed = 100

// checkOverLimit reports once for each category holding more entries than
// its limit, naming exactly the entries HackLM's pruning would remove: all
// entries are scored, stably sorted by score (highest first), and
// everything after the first `limit` goes, so among equal scores the later
// lines go first. The warning sits on the first of them by line and lists
// them (up to overLimitListed) as related information; its fix prunes.
func checkOverLimit(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		limit := w.cfg.Limit(f.Category)
		n := len(d.Entries)
		if limit < 1 || n <= limit {
			return
		}
		contents := make([]string, n)
		for i := range d.Entries {
			contents[i] = d.Entries[i].Content
		}
		scores := w.pruneScores(f, contents)
		pruned := similar.OrderByScore(scores)[limit:]
		sort.Ints(pruned)
		lines := make([]int, len(pruned))
		for k, i := range pruned {
			lines[k] = d.Entries[i].LineIndex
		}
		first := &d.Entries[pruned[0]]
		listed := pruned[:min(len(pruned), overLimitListed)]
		related := make([]Related, len(listed))
		for k, i := range listed {
			e := &d.Entries[i]
			related[k] = Related{File: fi, Span: entrySpan(e), Message: fmt.Sprintf("pruning removes this entry (score %d)", scores[i])}
		}
		msg := fmt.Sprintf("the %s category holds %d entries, over its limit of %d: HackLM's pruning removes ", f.Category, n, limit)
		switch {
		case len(pruned) == 1:
			msg += fmt.Sprintf("the one with the lowest score, this one (score %d)", scores[pruned[0]])
		case len(pruned) == 2:
			msg += fmt.Sprintf("the 2 with the lowest scores, this one (score %d) first by line; the related information lists both", scores[pruned[0]])
		case len(listed) == len(pruned):
			msg += fmt.Sprintf("the %d with the lowest scores, this one (score %d) first by line; the related information lists all %d", len(pruned), scores[pruned[0]], len(pruned))
		default:
			msg += fmt.Sprintf("the %d with the lowest scores, this one (score %d) first by line; the related information lists the first %d, memory-lsp cleanup all of them", len(pruned), scores[pruned[0]], len(listed))
		}
		w.report(Finding{File: fi, Span: entrySpan(first), Message: msg, Related: related,
			Fixes: []Fix{{Title: fmt.Sprintf("Prune %s to %d entries", f.Category, limit), FileWide: true, Edits: in(fi, d.DeleteLines(lines)...)}}})
	})
}
