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
func checkStaleCommand(w *workspace) {
	w.judged(refs.Command, func(fi int, e *memfile.Entry, ref refs.Ref, v refs.Verdict) {
		cited := e.Content[ref.Start:ref.End]
		if v.NoDir {
			w.report(Finding{File: fi, Span: refSpan(e, ref.Start, ref.End),
				Message: cited + ": there is no folder " + ref.In + "/"})
			return
		}
		msg := cited + ": no " + ref.Tool.NameKind() + ` "` + ref.Target + `" in ` + v.File
		if v.Dropped {
			msg += " any more (it had one when this entry was written)"
		}
		var fixes []Fix
		if len(v.Near) > 0 {
			msg += "; closest: " + strings.Join(v.Near, ", ")
			for _, n := range v.Near {
				fixes = append(fixes, Fix{Title: "Replace with " + n, Edits: in(fi, replaceIn(e, ref.ValueStart, ref.ValueEnd, n))})
			}
		}
		w.report(Finding{File: fi, Span: refSpan(e, ref.Start, ref.End), Message: msg, Fixes: fixes})
	})
}
