package rules

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/memory-lsp/memory-lsp/core/similar"
)

// checkOverLimit flags, in a category holding more entries than its limit,
// exactly the entries HackLM's pruning would remove: all entries are scored,
// stably sorted by score (highest first), and everything after the first
// `limit` goes, so among equal scores the later lines go first.
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
		order := similar.OrderByScore(scores)
		pruned := append([]int(nil), order[limit:]...)
		sort.Ints(pruned)
		lines := make([]int, len(pruned))
		for k, i := range pruned {
			lines[k] = d.Entries[i].LineIndex
		}
		prune := Fix{Title: fmt.Sprintf("Prune %s to %d entries", f.Category, limit), FileWide: true, Edits: in(fi, d.DeleteLines(lines)...)}
		// Only the score differs from one message to the next: the rest is
		// formatted once per file, and each message once per score (a large
		// category has thousands of findings and a few dozen scores). The
		// findings' fixes and edits are carved from one allocation each: on
		// HackLM's limits a 10,000-entry file has 9,960 of them, remade on
		// every keystroke in an editor.
		head := fmt.Sprintf("the %s category holds %d entries, over its limit of %d: HackLM's pruning removes this one (score ", f.Category, n, limit)
		tail := fmt.Sprintf(", among the %d lowest)", n-limit)
		messages := map[int]string{}
		fixes := make([]Fix, 2*len(pruned))
		edits := make([]FileEdit, len(pruned))
		w.willReport(len(pruned))
		for k, i := range pruned {
			e := &d.Entries[i]
			msg, ok := messages[scores[i]]
			if !ok {
				msg = head + strconv.Itoa(scores[i]) + tail
				messages[scores[i]] = msg
			}
			edits[k] = FileEdit{File: fi, Edit: d.DeleteLine(e.LineIndex)}
			fx := fixes[2*k : 2*k+2 : 2*k+2]
			fx[0], fx[1] = Fix{Title: "Delete this entry", Edits: edits[k : k+1 : k+1]}, prune
			w.report(Finding{File: fi, Span: entrySpan(e), Message: msg, Fixes: fx})
		}
	})
}
