package memfile

import (
	"testing"
	"unsafe"
)

// within reports whether s's bytes lie in b's.
func within(s string, b []byte) bool {
	if len(s) == 0 || len(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(b))
}

const viewsSrc = "# Decisions\n\n- [cache-api] Cache the API\n- plain content\r\n-   \n- [x] done\n"

// TestParseViewsItsSource: a parse's slugs and contents are views of its
// Src, not copies (a server keeps a parse per file: copies doubled what
// it held), and read the same as copies would.
func TestParseViewsItsSource(t *testing.T) {
	src := []byte(viewsSrc)
	d := Parse(src)
	if len(d.Entries) != 4 {
		t.Fatalf("%d entries, want 4", len(d.Entries))
	}
	for _, e := range d.Entries {
		if e.Content != string(src[e.ContentSpan.Start:e.ContentSpan.End]) || e.Slug != string(src[e.SlugSpan.Start:e.SlugSpan.End]) {
			t.Fatalf("line %d: %q %q do not read as their spans", e.Line, e.Slug, e.Content)
		}
		if e.Content != "" && !within(e.Content, src) || e.HasSlug && !within(e.Slug, src) {
			t.Errorf("line %d: %q %q are copies, not views of Src", e.Line, e.Slug, e.Content)
		}
	}
}

// TestEntriesCopyTheirLine: Entries and EntryOfLine, whose callers may
// reuse the bytes they read (a scan's buffer, a line read back from a
// file), give strings that stay the same when those bytes are
// overwritten.
func TestEntriesCopyTheirLine(t *testing.T) {
	buf := []byte(viewsSrc)
	var got []Entry
	Entries(buf, func(e Entry) { got = append(got, e) })
	line := []byte("- [slug-one] some content")
	one, ok := EntryOfLine(line, 100, 7)
	if !ok || len(got) != 4 {
		t.Fatalf("EntryOfLine %v, Entries %d", ok, len(got))
	}
	want := Parse([]byte(viewsSrc)).Entries
	for i := range buf {
		buf[i] = 'x'
	}
	for i := range line {
		line[i] = 'y'
	}
	for i, e := range got {
		if e.Slug != want[i].Slug || e.Content != want[i].Content {
			t.Errorf("entry %d: %q %q after its buffer changed, want %q %q", i, e.Slug, e.Content, want[i].Slug, want[i].Content)
		}
	}
	if one.Slug != "slug-one" || one.Content != "some content" {
		t.Errorf("EntryOfLine: %q %q after its line changed", one.Slug, one.Content)
	}
}
