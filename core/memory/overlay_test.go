package memory

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// overlaySnapshot is a snapshot with every kind of file Overlay must place:
// present and absent category files, one over the size limit, and unknown
// files sorting before and after the category files.
func overlaySnapshot() *store.Snapshot {
	dir := "/w/.memory"
	file := func(name, data string) store.File {
		return store.File{Path: filepath.Join(dir, name), Name: name, Exists: true, Data: []byte(data), Size: int64(len(data))}
	}
	return &store.Snapshot{Dir: dir, Files: []store.File{
		file("decisions.md", "# Decisions\n\n- [db] Use Postgres.\n"),
		{Path: filepath.Join(dir, "constraints.md"), Name: "constraints.md"},
		{Path: filepath.Join(dir, "quirks.md"), Name: "quirks.md", Exists: true, Size: store.MaxReadBytes + 1},
		file("aaa.md", "- [z] early unknown\n"),
		file("notes.md", "random unknown file\n"),
	}}
}

func TestOverlay(t *testing.T) {
	dir := "/w/.memory"
	tests := []struct {
		name      string
		nilSnap   bool
		open      []string
		wantPaths []string
	}{
		{"disk alone", false, nil, []string{"decisions.md", "quirks.md", "aaa.md", "notes.md"}},
		{"a buffer replaces its file in place", false, []string{"decisions.md"}, []string{"decisions.md", "quirks.md", "aaa.md", "notes.md"}},
		{"buffers of files not on disk come last, by path", false, []string{"zzz.md", "notes.md", "constraints.md", "bbb.md"},
			[]string{"decisions.md", "constraints.md", "quirks.md", "aaa.md", "notes.md", "bbb.md", "zzz.md"}},
		{"a buffer of a file too large to read is read", false, []string{"quirks.md"}, []string{"decisions.md", "quirks.md", "aaa.md", "notes.md"}},
		{"no snapshot: the buffers alone", true, []string{"notes.md", "decisions.md"}, []string{"decisions.md", "notes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := overlaySnapshot()
			if tt.nilSnap {
				snap = nil
			}
			bufs := map[string][]byte{}
			for _, name := range tt.open {
				bufs[filepath.Join(dir, name)] = []byte("- [b] buffer of " + name + "\n")
			}
			got := Overlay(snap, bufs)
			var paths []string
			for _, f := range got {
				paths = append(paths, filepath.Base(f.Path))
				p := f.Path
				switch b, open := bufs[p]; {
				case open && string(f.Doc.Src) != string(b):
					t.Errorf("%s holds %q, want its buffer %q", p, f.Doc.Src, b)
				case !open && filepath.Base(p) == "quirks.md" && !f.TooLarge():
					t.Errorf("%s is not marked too large", p)
				}
			}
			if !reflect.DeepEqual(paths, tt.wantPaths) {
				t.Errorf("files %v, want %v", paths, tt.wantPaths)
			}

			// The same files from parses the caller keeps, each asked for
			// only when the result holds it.
			var asked []string
			var parsed []func() rules.File
			if snap != nil {
				parsed = make([]func() rules.File, len(snap.Files))
				for i, f := range snap.Files {
					parsed[i] = func() rules.File { asked = append(asked, f.Name); return rules.NewFile(f.Path, f.Data) }
				}
			}
			open := map[string]func() rules.File{}
			for p, b := range bufs {
				open[p] = func() rules.File { asked = append(asked, "buffer "+filepath.Base(p)); return rules.NewFile(p, b) }
			}
			if again := OverlayParsed(snap, parsed, open); !reflect.DeepEqual(again, got) {
				t.Errorf("OverlayParsed differs from Overlay")
			}
			read := 0
			for _, f := range got {
				if !f.TooLarge() {
					read++
				}
			}
			if len(asked) != read {
				t.Errorf("parses asked for: %v; the result holds %d files read", asked, read)
			}
		})
	}
}
