package rules

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// checkLineEnding flags a carriage return that does not end a line (HackLM
// splits on LF only and stops reading an entry at the first CR, while editors
// show a line break there) and files that mix LF and CRLF endings.
func checkLineEnding(w *workspace) {
	w.categoryFiles(func(fi int, f *File) {
		d := f.Doc
		crlf, lf := 0, 0
		firstCRLF, firstLF := -1, -1
		for li, ln := range d.Lines {
			end := ln.Span.End
			if end > ln.Span.Start && d.Src[end-1] == '\r' {
				end-- // the CR of CRLF, or a CR that ends the file
			}
			if ln.HasLF {
				if end < ln.Span.End {
					crlf++
					if firstCRLF < 0 {
						firstCRLF = li
					}
				} else {
					lf++
					if firstLF < 0 {
						firstLF = li
					}
				}
			}
			// nearly no line holds a CR before its end: find none at memchr speed
			if bytes.IndexByte(d.Src[ln.Span.Start:end], '\r') >= 0 {
				lineCRs(w, fi, d, li, end)
			}
		}
		if crlf == 0 || lf == 0 {
			return
		}
		// Convert the minority; on a tie, keep the ending of the first line.
		toCRLF := crlf > lf || (crlf == lf && firstCRLF < firstLF)
		first, majority, minority, msg := firstLF, "CRLF", "LF", "LF"
		if !toCRLF {
			first, majority, minority, msg = firstCRLF, "LF", "CRLF", "CRLF"
		}
		var edits []text.Edit
		for _, ln := range d.Lines {
			if !ln.HasLF {
				continue
			}
			isCRLF := ln.Span.End > ln.Span.Start && d.Src[ln.Span.End-1] == '\r'
			switch {
			case toCRLF && !isCRLF:
				edits = append(edits, text.Edit{Start: ln.Span.End, End: ln.Span.End, New: "\r"})
			case !toCRLF && isCRLF:
				// CRLF becomes LF as a whole: LSP and SARIF positions have
				// nothing between the CR and the LF, so an edit ending there
				// could not be sent to an editor or written in SARIF.
				edits = append(edits, text.Edit{Start: ln.Span.End - 1, End: ln.Span.End + 1, New: "\n"})
			}
		}
		ln := d.Lines[first]
		w.report(Finding{File: fi,
			Span: text.Span{Start: d.BodyEnd(first), End: ln.Span.End + 1},
			Message: fmt.Sprintf("mixed line endings: %d CRLF and %d LF; this is the first %s line",
				crlf, lf, msg),
			Fixes: []Fix{{Title: fmt.Sprintf("Convert %s line endings to %s", minority, majority), Safe: true, Edits: in(fi, edits...)}}})
	})
}

// lineCRs flags every lone CR in line li before offset end.
func lineCRs(w *workspace, fi int, d *memfile.Document, li, end int) {
	ln := d.Lines[li]
	first := true
	for p := ln.Span.Start; p < end; {
		r, size := utf8.DecodeRune(d.Src[p:end])
		if r == 0x2028 || r == 0x2029 {
			first = false
		}
		if r != '\r' {
			p += size
			continue
		}
		msg := "carriage return inside a line: editors show a line break here that HackLM does not see"
		if ln.Kind == memfile.KindEntry && first {
			e := &d.Entries[ln.Entry]
			msg = "carriage return inside the entry: HackLM stops reading at it and reads only " + quote(e.Content, 60)
		}
		first = false
		w.report(Finding{File: fi, Span: text.Span{Start: p, End: p + 1}, Message: msg,
			Fixes: []Fix{{Title: "Replace the carriage return with a space", Safe: true, Edits: in(fi, text.Edit{Start: p, End: p + 1, New: " "})}}})
		p++
	}
}
