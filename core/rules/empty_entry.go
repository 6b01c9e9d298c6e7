package rules

import "github.com/memory-lsp/memory-lsp/core/memfile"

// checkEmptyEntry flags entries HackLM reads with empty content (`-   `) and
// bare `-` lines it ignores but its cleanup turns into an entry "- -".
func checkEmptyEntry(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		for li, ln := range d.Lines {
			var msg string
			switch {
			case ln.Kind == memfile.KindEntry && d.Entries[ln.Entry].Content == "":
				msg = "empty entry: HackLM reads an entry with no text here"
			case ln.Kind == memfile.KindBareDash:
				msg = `list marker with no text: HackLM ignores it, but its cleanup turns it into an entry "- -"`
			default:
				continue
			}
			w.report(Finding{File: fi, Span: d.Body(li), Message: msg,
				Fixes: []Fix{deleteLineFix("Delete the empty line", true, fi, d, li)}})
		}
	})
}
