package rules

import (
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

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
	return Fix{Title: title, Safe: safe, Edits: in(fi, d.DeleteLines([]int{li})...)}
}

// quote shortens s to at most n characters for a message, with "…".
func quote(s string, n int) string { return `"` + text.Clip(s, n) + `"` }

// entrySpan is the span a finding about an entry points at: its content, or
// the whole tail when the content is empty.
func entrySpan(e *memfile.Entry) text.Span {
	if e.ContentSpan.Len() > 0 {
		return e.ContentSpan
	}
	return e.LineSpan
}

func decodeRune(b []byte, at int) (rune, int) { return utf8.DecodeRune(b[at:]) }
