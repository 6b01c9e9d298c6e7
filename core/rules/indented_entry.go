package rules

import (
	"strings"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkIndentedEntry flags indented list items. HackLM reads entries only at
// column 0, yet its upsert deletes the first line whose trimmed form starts
// with "- [slug]", so an indented item can be deleted in place of the entry
// a store meant to update (behaviour spec B6).
func checkIndentedEntry(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for li, ln := range d.Lines {
			if ln.Kind != memfile.KindIndented {
				continue
			}
			line := string(d.Src[ln.Span.Start:d.BodyEnd(li)])
			rest := strings.TrimLeftFunc(line, text.IsJSSpace)
			indent := len(line) - len(rest)
			mark, n := bulletMarker(rest)
			if n == 0 {
				continue
			}
			msg := "indented list item: HackLM only reads entries that start at the beginning of a line, so it never sees this one"
			if mark == "-" && rest[1] == ' ' {
				sub := memfile.Parse([]byte("- " + rest[n:]))
				if len(sub.Entries) == 1 && sub.Entries[0].HasSlug {
					msg += `, and a store under slug "` + sub.Entries[0].Slug + `" may delete this line instead of the entry`
				}
			}
			w.report(Finding{File: fi, Span: d.Body(li), Message: msg,
				Fixes: []Fix{{Title: `Dedent into a "- " entry`, Edits: in(fi, text.Edit{Start: ln.Span.Start, End: ln.Span.Start + indent + n, New: "- "})}}})
		}
	})
}
