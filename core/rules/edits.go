package rules

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// bodyEnd is where line li's text ends: before its LF and before the CR of
// a CRLF ending.
func bodyEnd(d *memfile.Document, li int) int {
	s := d.Lines[li].Span
	if s.End > s.Start && d.Src[s.End-1] == '\r' {
		return s.End - 1
	}
	return s.End
}

// body is line li's text without its line ending.
func body(d *memfile.Document, li int) text.Span {
	return text.Span{Start: d.Lines[li].Span.Start, End: bodyEnd(d, li)}
}

// deleteLines removes whole lines with their line endings. A run of lines
// that reaches a last line without LF takes the preceding line ending
// instead, so the file does not end with a new blank line. Each run of
// adjacent lines becomes one edit, so the edits never overlap.
func deleteLines(d *memfile.Document, lines []int) []text.Edit {
	ls := append([]int(nil), lines...)
	sort.Ints(ls)
	var out []text.Edit
	for i := 0; i < len(ls); {
		a := ls[i]
		b := a
		for i++; i < len(ls) && ls[i] <= b+1; i++ {
			b = max(b, ls[i])
		}
		if d.Lines[b].HasLF {
			out = append(out, text.Edit{Start: d.Lines[a].Span.Start, End: d.Lines[b].Span.End + 1})
		} else if a > 0 {
			out = append(out, text.Edit{Start: bodyEnd(d, a-1), End: d.Lines[b].Span.End})
		} else {
			out = append(out, text.Edit{Start: 0, End: d.Lines[b].Span.End})
		}
	}
	return out
}

// in wraps edits of one file as FileEdits.
func in(fi int, edits ...text.Edit) []FileEdit {
	out := make([]FileEdit, len(edits))
	for i, e := range edits {
		out[i] = FileEdit{File: fi, Edit: e}
	}
	return out
}

// deleteLineFix is a fix removing line li of file fi.
func deleteLineFix(title string, safe bool, fi int, d *memfile.Document, li int) Fix {
	return Fix{Title: title, Safe: safe, Edits: in(fi, deleteLines(d, []int{li})...)}
}

// entryLine renders a fresh entry line body.
func entryLine(slug, content string) string {
	if slug != "" {
		return "- [" + slug + "] " + content
	}
	return "- " + content
}

// quote shortens s to at most n characters for a message, with "…".
func quote(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return `"` + s + `"`
	}
	i, c := 0, 0
	for i = range s {
		if c == n {
			break
		}
		c++
	}
	return `"` + strings.TrimRight(s[:i], " ") + `…"`
}

// entrySpan is the span a finding about an entry points at: its content, or
// the whole tail when the content is empty.
func entrySpan(e *memfile.Entry) text.Span {
	if e.ContentSpan.Len() > 0 {
		return e.ContentSpan
	}
	return e.LineSpan
}

func decodeRune(b []byte, at int) (rune, int) { return utf8.DecodeRune(b[at:]) }
