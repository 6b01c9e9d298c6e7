package memory

import (
	"bytes"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// EntryLine renders one entry the way HackLM writes it: "- [slug] content" or "- content".
func EntryLine(slug, content string) string {
	if slug == "" {
		return "- " + content
	}
	return "- [" + slug + "] " + content
}

// eol is the line ending a file mostly uses, so that inserted lines do not
// turn a CRLF file into a mixed one (HackLM bug B12).
func eol(d *memfile.Document) string {
	crlf, lf := 0, 0
	for _, ln := range d.Lines {
		if !ln.HasLF {
			continue
		}
		if ln.Span.End > ln.Span.Start && d.Src[ln.Span.End-1] == '\r' {
			crlf++
		} else {
			lf++
		}
	}
	if crlf > lf {
		return "\r\n"
	}
	return "\n"
}

// replaceLine rewrites the text of line i, keeping its line ending (the CR of
// a CRLF line stays).
func replaceLine(d *memfile.Document, i int, newText string) text.Edit {
	s := d.Lines[i].Span
	end := s.End
	if d.Lines[i].HasLF && end > s.Start && d.Src[end-1] == '\r' {
		end--
	}
	return text.Edit{Start: s.Start, End: end, New: newText}
}

// deleteLine removes line i with its terminator; a last line without one
// takes the previous line's terminator instead, so no blank line is left.
func deleteLine(d *memfile.Document, i int) text.Edit {
	s := d.Lines[i].Span
	if d.Lines[i].HasLF {
		return text.Edit{Start: s.Start, End: s.End + 1}
	}
	start := s.Start
	if i > 0 {
		start = d.Lines[i-1].Span.End
		if d.Lines[i-1].Span.End > d.Lines[i-1].Span.Start && d.Src[start-1] == '\r' {
			start--
		}
	}
	return text.Edit{Start: start, End: s.End}
}

// appendEntry adds an entry at the end of the file, following the file's own
// layout: HackLM separates appended entries with a blank line, hand-written
// files usually do not, and a store must not reformat either kind.
func appendEntry(d *memfile.Document, line string) text.Edit {
	nl := eol(d)
	src := d.Src
	var b bytes.Buffer
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteString(nl)
	}
	if needsBlankBefore(d) {
		b.WriteString(nl)
	}
	b.WriteString(line)
	b.WriteString(nl)
	return text.Edit{Start: len(src), End: len(src), New: b.String()}
}

// needsBlankBefore decides whether the new entry gets a blank line before it:
// yes after a heading or prose, and after entries when the file separates its
// entries with blank lines; no when the file already ends with a blank line or
// keeps its entries on consecutive lines.
func needsBlankBefore(d *memfile.Document) bool {
	last := lastNonBlank(d, len(d.Lines)-1)
	if last < 0 {
		return false
	}
	if lastTextLine(d) > last {
		return false // the file already ends with a blank line
	}
	if d.Lines[last].Kind != memfile.KindEntry {
		return true
	}
	adjacent, separated := 0, 0
	prev := -1
	hackLMHeader := false
	for i, ln := range d.Lines {
		if ln.Kind == memfile.KindBoilerplate {
			hackLMHeader = true
		}
		if ln.Kind != memfile.KindEntry {
			continue
		}
		if prev >= 0 {
			if prev == i-1 {
				adjacent++
			} else if lastNonBlank(d, i-1) == prev {
				separated++
			}
		}
		prev = i
	}
	// With too few entries to tell, a file HackLM created gets HackLM's spacing.
	return separated > adjacent || (separated == adjacent && hackLMHeader)
}

// lastTextLine is the index of the last line that ends with a terminator or
// has text: a final empty "line" after the last LF does not count.
func lastTextLine(d *memfile.Document) int {
	n := len(d.Lines) - 1
	if n > 0 && !d.Lines[n].HasLF && d.Lines[n].Span.Len() == 0 {
		return n - 1
	}
	return n
}

func lastNonBlank(d *memfile.Document, from int) int {
	for i := from; i >= 0; i-- {
		if d.Lines[i].Kind != memfile.KindBlank {
			return i
		}
	}
	return -1
}
