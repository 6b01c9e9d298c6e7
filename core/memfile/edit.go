package memfile

import (
	"sort"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// EntryLine renders one entry the way HackLM writes it: "- [slug] content",
// or "- content" without a slug.
func EntryLine(slug, content string) string {
	if slug == "" {
		return "- " + content
	}
	return "- [" + slug + "] " + content
}

// BodyEnd is where line i's text ends: before its LF and before the CR of a
// CRLF ending, so that rewriting the body keeps the line's ending.
func (d *Document) BodyEnd(i int) int {
	s := d.Lines[i].Span
	if s.End > s.Start && d.Src[s.End-1] == '\r' {
		return s.End - 1
	}
	return s.End
}

// Body is line i's text without its line ending: what an editor shows of
// it, and a span an editor can name (one ending between CR and LF is no
// position at all).
func (d *Document) Body(i int) text.Span {
	return text.Span{Start: d.Lines[i].Span.Start, End: d.BodyEnd(i)}
}

// ReplaceLine rewrites the text of line i and keeps its line ending.
func (d *Document) ReplaceLine(i int, newText string) text.Edit {
	return text.Edit{Start: d.Lines[i].Span.Start, End: d.BodyEnd(i), New: newText}
}

// DeleteLines removes whole lines with their endings. A run of lines that
// reaches a last line without LF takes the preceding line's ending instead,
// so the file does not end with a new blank line. Each run of adjacent lines
// becomes one edit, so the edits never overlap.
func (d *Document) DeleteLines(lines []int) []text.Edit {
	ls := lines // read only
	if len(lines) > 1 {
		ls = append([]int(nil), lines...)
		sort.Ints(ls)
	}
	if len(ls) == 0 {
		return nil
	}
	runs := 0 // sized once: pruning a large category deletes thousands of runs
	for i := range ls {
		if i == 0 || ls[i] > ls[i-1]+1 {
			runs++
		}
	}
	out := make([]text.Edit, 0, runs)
	for i := 0; i < len(ls); {
		a := ls[i]
		b := a
		for i++; i < len(ls) && ls[i] <= b+1; i++ {
			b = max(b, ls[i])
		}
		out = append(out, d.deleteRun(a, b))
	}
	return out
}

// DeleteLine is DeleteLines of line i alone, without a slice: a rule that
// offers the deletion of each of thousands of entries calls it once each.
func (d *Document) DeleteLine(i int) text.Edit { return d.deleteRun(i, i) }

// deleteRun removes lines a to b (inclusive), as DeleteLines says.
func (d *Document) deleteRun(a, b int) text.Edit {
	switch {
	case d.Lines[b].HasLF:
		return text.Edit{Start: d.Lines[a].Span.Start, End: d.Lines[b].Span.End + 1}
	case a > 0:
		return text.Edit{Start: d.BodyEnd(a - 1), End: d.Lines[b].Span.End}
	}
	return text.Edit{Start: 0, End: d.Lines[b].Span.End}
}

// EOL is the line ending the file mostly uses, so that inserted lines do not
// turn a CRLF file into a mixed one (HackLM bug B12). Ties go to LF.
func (d *Document) EOL() string {
	crlf, lf := 0, 0
	for i, ln := range d.Lines {
		if !ln.HasLF {
			continue
		}
		if d.BodyEnd(i) < ln.Span.End {
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
