package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpdateOnlyReadsTheNamedFiles: the snapshot holds the named files,
// read inside the lock (a category file absent, a file of another name),
// and no other; what fn writes of them lands as with Update.
func TestUpdateOnlyReadsTheNamedFiles(t *testing.T) {
	w := workspaceWith(t, map[string]string{"quirks.md": "# Quirks\n", "notes.md": "# Notes\n", "other.md": "# Other\n"})
	var names []string
	_, err := w.UpdateOnly(context.Background(), []string{"decisions.md", "notes.md"}, func(s *Snapshot) ([]Change, error) {
		for _, f := range s.Files {
			names = append(names, f.Name)
			if f.Name == "notes.md" && string(f.Data) != "# Notes\n" {
				t.Errorf("notes.md read as %q", f.Data)
			}
		}
		return []Change{{Path: "decisions.md", Data: []byte("# Decisions\n\n- x\n")}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "decisions.md notes.md" {
		t.Errorf("the snapshot held %s; want decisions.md notes.md", got)
	}
	if got := readString(t, filepath.Join(w.Dir, "decisions.md")); got != "# Decisions\n\n- x\n" {
		t.Errorf("decisions.md = %q", got)
	}
}

// TestUpdateOnlyRefusesWhatItDidNotRead: a change to a file the update did
// not read is refused and writes nothing, and a category file linked out
// of the folder fails the update even when it is not named, as with Update.
func TestUpdateOnlyRefusesWhatItDidNotRead(t *testing.T) {
	root := t.TempDir()
	w, _ := Open(root)
	mkdirs(t, w.Dir)
	quirks := filepath.Join(w.Dir, "quirks.md")
	os.WriteFile(quirks, []byte("# Quirks\n\n- kept\n"), 0o644)
	_, err := w.UpdateOnly(context.Background(), []string{"decisions.md"}, changeTo("quirks.md"))
	if err == nil || !strings.Contains(err.Error(), "did not read") {
		t.Errorf("writing an unread file: err = %v", err)
	}
	if got := readString(t, quirks); got != "# Quirks\n\n- kept\n" {
		t.Errorf("quirks.md overwritten: %q", got)
	}
	target := filepath.Join(root, "target.md")
	os.WriteFile(target, []byte("keep"), 0o644)
	os.Symlink(target, filepath.Join(w.Dir, "security.md"))
	if _, err := w.UpdateOnly(context.Background(), []string{"decisions.md"}, appendIfAbsent("- x\n")); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("with security.md linked outside: err = %v", err)
	}
	if got := readString(t, target); got != "keep" {
		t.Errorf("target overwritten: %q", got)
	}
	noLeftovers(t, w.Dir, "quirks.md", "security.md")
}
