package rules

import (
	"path"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// checkStalePath flags a path an entry cites that the repository no longer
// has (refs.Judge decides, leaning to silence). When the history shows it
// renamed, the message names where it went and a safe fix writes the new
// path in its place: the entry's fact is kept, only its pointer is
// corrected. Otherwise the fact may be gone with the file, and deleting the
// entry is for a person to choose.
//
// Only a path the history shows moving away is a warning: the commit that
// moved it proves the entry's pointer is stale and says where it points
// now. Every other missing path is information, shown and counted by
// nothing. A path the history never had (refs.Verdict.Unseen; every
// missing path in a clone without history) was mostly another
// repository's, a file to be made, a folder the tooling fills or an
// example (docs/evaluation.md, files v2); one the history shows deleted,
// or a slip of a name that exists, was as often the entry recording the
// removal in its own words (in any language), an example in code, a
// layout to create or a line written after the deletion: on issue 27's
// labelled files sets a deletion was right 79 times in 107, a slip 4 in
// 17, and a move 105 in 105.
func checkStalePath(w *workspace) {
	// reported after the warnings, so that a file's listing (MaxListed a
	// rule) never spends its room on information while a warning goes
	// unlisted
	var unproven []Finding
	w.judged(refs.Path, func(fi int, e *memfile.Entry, ref refs.Ref, v refs.Verdict) {
		cited := e.Content[ref.ValueStart:ref.ValueEnd]
		msg := cited + " does not exist"
		var fixes []Fix
		switch m := v.Moved; {
		case m != nil && m.To != "":
			to := m.To
			if ref.Dir {
				to += "/"
			}
			msg += "; " + movedHow(ref.Path, m.To) + " to " + to + " in " + shortCommit(m.Commit)
			// Only to a path that is there: a fix must not trade one
			// stale pointer for another.
			if _, ok := w.repo.Stat(m.To); ok {
				// A word (ref.Soft) may name the crate or tool the folder
				// held, whose name stays: a person chooses to write the
				// folder's new path in its place.
				to := movedCitation(cited, ref, m.To)
				if ref.Soft && !strings.Contains(ref.Path, "/") {
					to = m.To
				}
				fixes = append(fixes, Fix{Title: "Replace with " + to, Safe: !ref.Soft,
					Edits: in(fi, replaceIn(e, ref.ValueStart, ref.ValueEnd, to))})
			} else {
				msg += ", which does not exist either"
			}
		case m != nil:
			msg += " (deleted in " + shortCommit(m.Commit) + ")"
		case len(v.Near) > 0:
			// a slip of the pen; one letter may also be a different file
			// to come, so a person chooses
			to := movedCitation(cited, ref, strings.TrimSuffix(v.Near[0], "/"))
			msg += "; " + strings.TrimSuffix(v.Near[0], "/") + " does"
			fixes = append(fixes, Fix{Title: "Replace with " + to, Edits: in(fi, replaceIn(e, ref.ValueStart, ref.ValueEnd, to))})
		}
		if len(fixes) == 0 {
			fixes = append(fixes, deleteLineFix("Delete entry", false, fi, w.files[fi].Doc, e.LineIndex))
		}
		f := Finding{File: fi, Span: refSpan(e, ref.Start, ref.End), Message: msg, Fixes: fixes}
		if v.Unseen {
			f.Message += ", and no commit read shows it ever did"
		}
		if v.Moved == nil || v.Moved.To == "" {
			unproven = append(unproven, f)
			return
		}
		w.report(f)
	})
	for _, f := range unproven {
		w.reportAs(max(w.rule.Severity, Information), f)
	}
}

// movedHow says whether a path was renamed (its folder kept) or moved. A
// bare name's folder is unknown: it was renamed when its name changed.
func movedHow(from, to string) string {
	if strings.Contains(from, "/") && path.Dir(from) == path.Dir(to) || !strings.Contains(from, "/") && path.Base(to) != from {
		return "renamed"
	}
	return "moved"
}

// movedCitation is how the entry cites a path that moved to "to", written
// as the entry wrote the old one: with its "./" and trailing slash, and a
// bare name (found by its last element in the history) as a bare name.
func movedCitation(cited string, ref refs.Ref, to string) string {
	if !strings.Contains(ref.Path, "/") {
		to = path.Base(to)
	}
	lead, ok := strings.CutSuffix(strings.TrimSuffix(cited, "/"), ref.Path)
	if !ok {
		lead = ""
	}
	if ref.Dir {
		to += "/"
	}
	return lead + to
}
