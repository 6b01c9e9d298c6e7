package rules

import (
	"testing"
	"unsafe"
)

// TestSourceViewsTheBytes: the whole-file rules read a file's bytes as a
// string that is a view of its Document's Src, not a copy, and the same
// string for each rule of a check.
func TestSourceViewsTheBytes(t *testing.T) {
	files := []File{NewFile("/m/.memory/decisions.md", []byte("# Decision\n\n- Use Postgres.\n")), NewFile("/m/.memory/quirks.md", nil)}
	x := newFileViews(len(files))
	s := x.source(files, 0)
	if s != string(files[0].Doc.Src) || unsafe.StringData(s) != &files[0].Doc.Src[0] {
		t.Errorf("source is a copy, or other bytes: %q", s)
	}
	if again := x.source(files, 0); unsafe.StringData(again) != unsafe.StringData(s) {
		t.Error("a second rule got another string")
	}
	if s := x.source(files, 1); s != "" {
		t.Errorf("an empty file reads as %q", s)
	}
}
