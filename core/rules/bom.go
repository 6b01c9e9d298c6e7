package rules

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

var bomBytes = []byte{0xEF, 0xBB, 0xBF}

// checkBOM flags a UTF-8 byte order mark. HackLM keeps it as U+FEFF at the
// start of line 1, so a first line that would be an entry is not one.
func checkBOM(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		if !bytes.HasPrefix(d.Src, bomBytes) {
			return
		}
		fd := Finding{File: fi, Span: text.Span{Start: 0, End: 3},
			Message: "byte order mark at the start of the file: HackLM keeps it as an invisible U+FEFF character in line 1",
			Fixes:   []Fix{{Title: "Remove the BOM", Safe: true, Edits: in(fi, text.Edit{Start: 0, End: 3})}}}
		first := memfile.Parse(d.Src[3:d.Lines[0].Span.End])
		if len(first.Entries) == 1 {
			fd.Message = "byte order mark before the first entry: HackLM reads it as part of line 1, so it never sees that entry"
			w.reportAs(Error, fd)
			return
		}
		w.report(fd)
	})
}
