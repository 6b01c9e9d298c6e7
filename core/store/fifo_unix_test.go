//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSnapshotNeverOpensAPipeBlocking: a named pipe in `.memory` is never
// read: as a category file it is an error naming it, as another `.md` it is
// not listed, and readAtMost, which opens without blocking, refuses it
// rather than wait for a writer (a pipe swapped in after the Lstat). A
// regression hangs until the test binary's timeout.
func TestSnapshotNeverOpensAPipeBlocking(t *testing.T) {
	w, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdirs(t, w.Dir)
	notes := filepath.Join(w.Dir, "notes.md")
	if err := syscall.Mkfifo(notes, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if f := s.Lookup("notes.md"); f != nil {
		t.Errorf("a pipe is listed: %+v", *f)
	}
	if _, _, _, err := readAtMost(notes, MaxReadBytes); !errors.Is(err, errNotRegular) {
		t.Errorf("readAtMost(pipe) err = %v, want errNotRegular", err)
	}
	dec := filepath.Join(w.Dir, "decisions.md")
	if err := syscall.Mkfifo(dec, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Snapshot(); err == nil || !strings.Contains(err.Error(), dec+": not a regular file") {
		t.Errorf("Snapshot with a pipe for decisions.md: err = %v", err)
	}
	if _, err := os.Stat(dec); err != nil {
		t.Error(err)
	}
}
