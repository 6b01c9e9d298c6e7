package store

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestKnownBytesReadAsTheFile: a snapshot given the bytes a file is
// expected to hold takes them for a file that holds exactly them (the same
// bytes, not a copy), and reads the file for any other expectation: other
// bytes of the same size, another size, none; a file larger than a block
// included. Its data equal a snapshot's without Known, file for file.
func TestKnownBytesReadAsTheFile(t *testing.T) {
	big := "# Decisions\n\n" + strings.Repeat("- [a-b] an entry of some length\n", 5000)
	files := map[string]string{"decisions.md": big, "quirks.md": "# Quirks\n\n- one\n", "notes.md": "# Notes\n", "facts.md": ""}
	w := workspaceWith(t, files)
	plain, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(s string, at int) []byte {
		b := []byte(s)
		b[at] ^= 1
		return b
	}
	for name, known := range map[string][]byte{
		"decisions.md": []byte(big),
		"quirks.md":    flip(files["quirks.md"], 12), // same size, other bytes
		"notes.md":     []byte("# Notes\n\n"),        // another size
		"facts.md":     {},
	} {
		for _, k := range [][]byte{known, flip(big, len(big)-2), flip(big, 70000)} {
			path := filepath.Join(w.Dir, name)
			w.Known = func(p string) []byte {
				if p == path {
					return k
				}
				return nil
			}
			got, err := w.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range got.Files {
				want := plain.Files[i]
				if f.Name != want.Name || f.Exists != want.Exists || !bytes.Equal(f.Data, want.Data) || f.Size != want.Size || f.Mode != want.Mode || (f.Data == nil) != (want.Data == nil) {
					t.Fatalf("known %s (%d bytes): %s read as %d bytes %v, want %d bytes %v", name, len(k), f.Name, len(f.Data), f.Exists, len(want.Data), want.Exists)
				}
				taken := f.Path == path && len(k) > 0 && len(f.Data) > 0 && &f.Data[0] == &k[0]
				if want := f.Path == path && bytes.Equal(k, []byte(files[name])); taken != want && len(k) > 0 {
					t.Errorf("known %s (%d bytes): %s taken as the known bytes: %v, want %v", name, len(k), f.Name, taken, want)
				}
			}
		}
	}
	// Inside the lock too, and what the update writes lands.
	w.Known = func(p string) []byte { return []byte(big) }
	_, err = w.UpdateOnly(context.Background(), []string{"decisions.md"}, func(s *Snapshot) ([]Change, error) {
		if f := s.Lookup("decisions.md"); f == nil || string(f.Data) != big {
			t.Errorf("decisions.md read inside the lock as %d bytes", len(f.Data))
		}
		return []Change{{Path: "decisions.md", Data: []byte(big + "- [c] more\n")}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(w.Dir, "decisions.md")); got != big+"- [c] more\n" {
		t.Errorf("decisions.md holds %d bytes after the update", len(got))
	}
}
