package lsp

import (
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// TestOpenTakesTheDiskParse: a buffer opened with the bytes the folder's
// disk cache holds takes the cache's parse (one parse, one copy of the
// bytes), and that document is the one newDocument makes of the same text;
// other bytes, or another file, take none.
func TestOpenTakesTheDiskParse(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, "decisions.md"), filepath.Join(dir, "quirks.md")
	data := []byte("# Decision\n\n- [db] Use Postgres.\n\n- Tag releases.\n")
	c := &memory.Disk{Snap: &store.Snapshot{Dir: dir, Files: []store.File{
		{Path: path, Name: "decisions.md", Exists: true, Data: data},
		{Path: other, Name: "quirks.md", Exists: true},
	}}, Parsed: []func() rules.File{sync.OnceValue(func() rules.File { return rules.NewFile(path, data) }), nil}}

	opened := string(data) // the client's text: equal bytes, another array
	f, ok := c.ParseOf(path, []byte(opened))
	if !ok || f.Doc != c.Parsed[0]().Doc {
		t.Fatalf("the cache's parse was not taken: %v", ok)
	}
	got := parsedDocument(uriOf(path), 3, f)
	want := newDocument(uriOf(path), path, 3, opened)
	if &got.text[0] != &data[0] {
		t.Error("the document keeps a second copy of the bytes")
	}
	if got.uri != want.uri || got.path != want.path || got.version != want.version || string(got.text) != string(want.text) ||
		!reflect.DeepEqual(got.ix, want.ix) || !reflect.DeepEqual(got.file(), want.file()) {
		t.Errorf("the document of the disk parse differs from the buffer's own:\n%+v\n%+v", got, want)
	}
	for _, tc := range []struct {
		path    string
		content string
	}{{path, opened + "- New.\n"}, {path, ""}, {other, opened}, {filepath.Join(dir, "gone.md"), opened}} {
		if _, ok := c.ParseOf(tc.path, []byte(tc.content)); ok {
			t.Errorf("%s with %q took the parse of other bytes", filepath.Base(tc.path), tc.content)
		}
	}
}
