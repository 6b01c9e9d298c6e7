package rules

import (
	"testing"
	"unsafe"

	"github.com/memory-lsp/memory-lsp/core/config"
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

// TestCheckerKeepsNoViewOfALaterVersion: what a Checker keeps of the
// contents of a version after its first call (the analyses, the
// references read) views none of that version's bytes: each line edited
// would otherwise keep a whole version of the file alive.
func TestCheckerKeepsNoViewOfALaterVersion(t *testing.T) {
	c := &Checker{Repo: testRepo()}
	a := "- Auth is in `src/auth/session.ts`.\n- Run `make e2e` before merging.\n"
	b := "- Auth is in `src/auth/sessions.ts`.\n- Run `make e2e` before merging.\n"
	c.Check([]File{NewFile(".memory/decisions.md", []byte(a))}, config.Default())
	src := []byte(b)
	c.Check([]File{NewFile(".memory/decisions.md", src)}, config.Default())
	views := func(s string) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&src[0]))
		return len(s) > 0 && p >= lo && p < lo+uintptr(len(src))
	}
	analysed := 0
	for _, g := range c.groups {
		for _, tx := range g.texts {
			if views(tx.Raw) {
				t.Errorf("the analysis of %q views the second version", tx.Raw)
			}
			analysed++
		}
	}
	cited := 0
	for ct, rs := range c.References().All() {
		for _, r := range rs {
			if views(r.Path) || views(r.Target) || views(r.In) || views(r.Subject) || views(r.Version) {
				t.Errorf("a reference read in %q views the second version", ct)
			}
			cited++
		}
	}
	if analysed != 2 || cited != 2 {
		t.Fatalf("%d analyses and %d references kept, want 2 and 2", analysed, cited)
	}
}
