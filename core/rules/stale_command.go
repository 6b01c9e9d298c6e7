package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// checkStaleCommand flags a command an entry cites whose target, script,
// recipe or task the manifest of its folder does not define, or whose
// folder does not exist. The message lists the closest names the manifest
// does define; each is offered as a fix, none as a safe one: the nearest
// spelling is a guess (the target may be gone, or renamed to something
// else), a choice for a person, like a spelling suggestion.
//
// Only what the history proves is a warning: a name the manifest listed
// when the entry was written or in some version since (refs.Verdict
// Dropped, Lost), or a folder the history shows moved. A name no version
// listed is information: on issue 27's labelled files sets such names were
// right 17 times in 38 (the others: scripts of a sibling repository on the
// author's machine, a generic checklist's `npm test`, a placeholder), and
// names the history shows removed 17 in 17.
func checkStaleCommand(w *workspace) {
	var unproven []Finding // reported after the warnings, as stale-path's
	w.judged(refs.Command, func(fi int, e *memfile.Entry, ref refs.Ref, v refs.Verdict) {
		cited := e.Content[ref.Start:ref.End]
		if v.NoDir {
			f := Finding{File: fi, Span: refSpan(e, ref.Start, ref.End),
				Message: cited + ": there is no folder " + ref.In + "/"}
			if m := v.Moved; m != nil && m.To != "" {
				f.Message += "; it " + movedHow(ref.In, m.To) + " to " + m.To + "/ in " + shortCommit(m.Commit)
				w.report(f)
				return
			}
			unproven = append(unproven, f)
			return
		}
		msg := cited + ": no " + ref.Tool.NameKind() + ` "` + ref.Target + `" in ` + v.File
		switch {
		case v.Dropped:
			msg += " any more (it had one when this entry was written)"
		case v.Lost != nil && v.Lost.Commit == "":
			msg += " any more (removed since the last commit)"
		case v.Lost != nil:
			msg += " any more (removed in " + shortCommit(v.Lost.Commit) + ")"
		default:
			// in a clone without history (CI's depth 1) too: the message
			// says what was read, not that the name never was
			msg += ", nor in any version of it read"
		}
		var fixes []Fix
		if len(v.Near) > 0 {
			msg += "; closest: " + strings.Join(v.Near, ", ")
			for _, n := range v.Near {
				fixes = append(fixes, Fix{Title: "Replace with " + n, Edits: in(fi, replaceIn(e, ref.ValueStart, ref.ValueEnd, n))})
			}
		}
		f := Finding{File: fi, Span: refSpan(e, ref.Start, ref.End), Message: msg, Fixes: fixes}
		if !v.Dropped && v.Lost == nil {
			unproven = append(unproven, f)
			return
		}
		w.report(f)
	})
	for _, f := range unproven {
		w.reportAs(max(w.rule.Severity, Information), f)
	}
}
