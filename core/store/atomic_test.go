package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	tests := []struct {
		name     string
		existing bool
		mode     fs.FileMode
		old      string
		data     string
		wantMode fs.FileMode
	}{
		{"new file", false, 0, "", "# Decisions\n\n- a\n", 0o644},
		{"keeps 0600", true, 0o600, "old\n", "new content\n", 0o600},
		{"keeps 0640", true, 0o640, "old\n", "- [s] x\r\n- y\r\n", 0o640},
		{"keeps 0664", true, 0o664, "old", "", 0o664},
		{"BOM and no final newline kept verbatim", true, 0o644, "x", "\ufeff# Q\n- a", 0o644},
		{"shrinks", true, 0o644, strings.Repeat("long line\n", 1000), "short", 0o644},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "decisions.md")
			if tc.existing {
				if err := os.WriteFile(p, []byte(tc.old), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFileAtomic(p, []byte(tc.data)); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, []byte(tc.data)) {
				t.Errorf("content = %q, want %q", got, tc.data)
			}
			fi, _ := os.Stat(p)
			if fi.Mode().Perm() != tc.wantMode {
				t.Errorf("mode = %v, want %v", fi.Mode().Perm(), tc.wantMode)
			}
			noLeftovers(t, dir, "decisions.md")
		})
	}
}

func TestWriteFileAtomicThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.md")
	link := filepath.Join(dir, "link.md")
	os.WriteFile(real, []byte("old"), 0o640)
	if err := os.Symlink("real.md", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("symlink replaced by a file")
	}
	if got := readString(t, real); got != "new" {
		t.Errorf("target = %q", got)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode = %v", fi.Mode().Perm())
	}
	noLeftovers(t, dir, "link.md", "real.md")
}

func TestWriteFileAtomicErrors(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub.md")
	os.Mkdir(sub, 0o755)
	if err := WriteFileAtomic(sub, []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x.md"), []byte("x")); err == nil || !strings.Contains(err.Error(), "writing ") {
		t.Errorf("err = %v", err)
	}
	noLeftovers(t, dir, "sub.md")
}

// TestWriteFileAtomicRefusesReadOnly: a file made read-only on purpose is not
// replaced, even by root, and stays byte for byte as it was.
func TestWriteFileAtomicRefusesReadOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "decisions.md")
	if err := os.WriteFile(p, []byte("# Decisions\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(p, []byte("changed\n"))
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only (mode 0444)") {
		t.Fatalf("err = %v, want ErrReadOnly naming the mode", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "# Decisions\n" {
		t.Errorf("file changed to %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("left %d files behind", len(ents)-1)
	}
}

func TestIsTempName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{".decisions.md.tmp-1bf7cea587e12161", true},
		{".decisions.md.tmp-3421987654", true}, // os.CreateTemp's tail, from earlier versions
		{".notes.txt.tmp-0", true},
		{".a.tmp-b.tmp-ff", true},
		{".decisions.md.tmp-", false},
		{".tmp-123", false},              // no base
		{"..tmp-123", false},             // no base
		{"decisions.md.tmp-123", false},  // not hidden
		{".decisions.md.tmp-12x", false}, // not hex
		{".decisions.md.tmp-ABC", false}, // upper case is not ours
		{".decisions.md.tmp-123.md", false},
		{".decisions.md.tmp-123456789012345678901", false}, // tail too long
		{".lock", false},
		{".lock.break", false},
		{"decisions.md", false},
		{"conflicts.log", false},
		{"cleanup.log", false},
	}
	for _, tc := range tests {
		if got := isTempName(tc.name); got != tc.want {
			t.Errorf("isTempName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The temp file a write creates is one that isTempName recognises, and it
// holds the synced new content before the rename.
func TestWriteFileAtomicTempName(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "decisions.md")
	var seen []string
	hook := func(s stage) {
		if s != stageTempSynced {
			return
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			seen = append(seen, e.Name())
			if !isTempName(e.Name()) {
				t.Errorf("%q is not recognised as our temp file", e.Name())
			} else if got := readString(t, filepath.Join(dir, e.Name())); got != "new" {
				t.Errorf("temp holds %q before the rename", got)
			}
		}
	}
	if err := writeFileAtomic(p, []byte("new"), hook, nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 {
		t.Errorf("files before the rename: %q, want one temp file", seen)
	}
	noLeftovers(t, dir, "decisions.md")
}
