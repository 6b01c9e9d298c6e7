package rules

import (
	"strconv"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// checkVersionDrift flags a version an entry states that contradicts every
// pin of the project that counts (refs.Judge: exact pins such as .nvmrc
// when there are any, else the ranges). The fix writes the pinned version
// in its place, but not as a safe fix: the entry may state a second fact on
// purpose (a legacy service, the CI matrix) that the pins do not know of,
// and only a person can tell.
//
// A version that contradicts only a container image (a Dockerfile's FROM, a
// compose file's image) is information: the image pins what one service
// runs, and on issue 27's labelled real instruction files such findings
// were right 3 times in 14 (the others spoke of a Lambda, a local tool, a
// CI job or another service).
func checkVersionDrift(w *workspace) {
	w.judged(refs.Version, func(fi int, e *memfile.Entry, ref refs.Ref, v refs.Verdict) {
		where := v.Pin.File
		if v.Pin.Line > 1 {
			where += ":" + strconv.Itoa(v.Pin.Line)
		}
		cited := `"` + e.Content[ref.Start:ref.End] + `"`
		if ref.Alt {
			cited += " (" + ref.Subject + ")" // "v2" alone does not say of what
		}
		f := Finding{File: fi, Span: refSpan(e, ref.Start, ref.End), Message: cited + " contradicts " + where + " (" + v.Pin.Value + ")"}
		if v.Replace != "" {
			f.Fixes = []Fix{{Title: "Update to " + v.Replace, Edits: in(fi, replaceIn(e, ref.ValueStart, ref.ValueEnd, v.Replace))}}
		}
		if refs.ImagePin(v.Pin.File) {
			f.Message += ", the image of one service"
			w.reportAs(max(w.rule.Severity, Information), f)
			return
		}
		w.report(f)
	})
}
