package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkStrayLine flags lines HackLM ignores today but its cleanup (step 1,
// "normalise raw lines") turns into entries: prose, code and fences. Its
// headings, blank lines, "Memories stored by…" and anything starting with
// "- " stay as they are; other list markers are the bullet-marker rule's.
func checkStrayLine(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for li, ln := range d.Lines {
			if ln.Kind != memfile.KindProse && ln.Kind != memfile.KindCode && ln.Kind != memfile.KindFence {
				continue
			}
			sp := d.Body(li)
			t := memfile.TrimJS(string(d.Src[sp.Start:sp.End]))
			if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") {
				continue
			}
			what := "text outside an entry"
			if ln.Kind != memfile.KindProse {
				what = "code outside an entry"
			}
			w.report(Finding{File: fi, Span: sp,
				Message: what + ": HackLM ignores it, but its cleanup turns it into an entry",
				Fixes: []Fix{
					{Title: "Make it an entry", Edits: in(fi, text.Edit{Start: sp.Start, End: sp.End, New: "- " + t})},
					deleteLineFix("Delete line", false, fi, d, li),
				}})
		}
	})
}
