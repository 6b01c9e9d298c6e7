package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
)

// bigWorkspace is a workspace whose decisions.md is one byte over
// MaxReadBytes, quirks.md exactly at it, notes.md (no category file) a
// sparse file of 5 GiB, and security.md small. It returns the workspace and
// each file's bytes as written (nil for the sparse file).
func bigWorkspace(t *testing.T) (*Workspace, map[string][]byte) {
	t.Helper()
	w, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdirs(t, w.Dir)
	line := []byte("- [filler] A line repeated until the file is over the limit.\n")
	files := map[string][]byte{
		"decisions.md": append(bytes.Repeat(line, MaxReadBytes/len(line)), bytes.Repeat([]byte{'x'}, MaxReadBytes%len(line)+1)...),
		"quirks.md":    append(bytes.Repeat(line, MaxReadBytes/len(line)), bytes.Repeat([]byte{'y'}, MaxReadBytes%len(line))...),
		"security.md":  []byte("# Security\n\n- [no-root] Never run the API container as root.\n"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(w.Dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Read whole, this file alone would take 5 GiB: a Snapshot that read it
	// would fail with an out-of-memory error rather than pass.
	notes := filepath.Join(w.Dir, "notes.md")
	f, err := os.Create(notes)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil {
		f.Close()
		os.Remove(notes)
		t.Skipf("no sparse 5 GiB file here: %v", err)
	}
	f.Close()
	files["notes.md"] = nil
	return w, files
}

// TestSnapshotDoesNotReadTooLargeFiles: a file over MaxReadBytes, category
// or not, is listed with its size and mode and no data, and reading the
// folder allocates far less than such a file; a file of exactly MaxReadBytes
// is read whole.
func TestSnapshotDoesNotReadTooLargeFiles(t *testing.T) {
	w, files := bigWorkspace(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := w.Snapshot()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		size     int64
		tooLarge bool
	}{
		{"decisions.md", MaxReadBytes + 1, true},
		{"notes.md", 5 << 30, true},
		{"quirks.md", MaxReadBytes, false},
		{"security.md", int64(len(files["security.md"])), false},
	} {
		f := s.Lookup(tc.name)
		if f == nil {
			t.Fatalf("%s not listed", tc.name)
		}
		if !f.Exists || f.Size != tc.size || f.Mode != 0o644 || f.TooLarge() != tc.tooLarge {
			t.Errorf("%s: exists %v, size %d, mode %v, too large %v; want size %d, too large %v",
				tc.name, f.Exists, f.Size, f.Mode, f.TooLarge(), tc.size, tc.tooLarge)
		}
		if tc.tooLarge && f.Data != nil {
			t.Errorf("%s: %d bytes read, want none", tc.name, len(f.Data))
		}
		if !tc.tooLarge && !bytes.Equal(f.Data, files[tc.name]) {
			t.Errorf("%s: read %d bytes, want its %d", tc.name, len(f.Data), len(files[tc.name]))
		}
	}
	// quirks.md (8 MiB) is read; nothing of the larger files is. The rest
	// of the budget is the small files and the bookkeeping.
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(MaxReadBytes+1<<20); got > limit {
		t.Errorf("Snapshot allocated %d bytes, over %d: it read a file over the limit", got, limit)
	}
}

// TestUpdateNeverRewritesAnUnreadFile: a change to a file Snapshot did not
// read is refused before anything is written, whatever its bytes (an empty
// or truncated rewrite is exactly what a planner that took the missing Data
// for an absent file would produce), and the file stays byte-identical.
func TestUpdateNeverRewritesAnUnreadFile(t *testing.T) {
	w, files := bigWorkspace(t)
	big := filepath.Join(w.Dir, "decisions.md")
	for _, data := range [][]byte{nil, NewFileBytes(category.Decision), files["decisions.md"][:100]} {
		_, err := w.Update(context.Background(), func(s *Snapshot) ([]Change, error) {
			return []Change{
				{Path: "security.md", Data: []byte("# Security\n")},
				{Path: big, Data: data},
			}, nil
		})
		want := fmt.Sprintf("refusing to write %s: it is %d bytes, over the %d-byte limit of a memory file, so it was not read", big, MaxReadBytes+1, MaxReadBytes)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	if _, err := w.Update(context.Background(), changeTo("notes.md")); err == nil || !strings.Contains(err.Error(), "was not read") {
		t.Errorf("rewrite of the 5 GiB notes.md: err = %v", err)
	}
	for name, want := range files {
		p := filepath.Join(w.Dir, name)
		if want == nil {
			if fi, err := os.Stat(p); err != nil || fi.Size() != 5<<30 {
				t.Errorf("%s changed: %v", name, err)
			}
			continue
		}
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s changed (%d bytes, %v)", name, len(got), err)
		}
	}
	noLeftovers(t, w.Dir, "decisions.md", "notes.md", "quirks.md", "security.md")
}

// TestUpdateNeverWritesPastTheLimit: a change whose new text is over
// MaxReadBytes is refused before anything is written, even beside changes
// that fit, and every file stays byte-identical; one of exactly MaxReadBytes
// is written, since it is still read.
func TestUpdateNeverWritesPastTheLimit(t *testing.T) {
	w, files := bigWorkspace(t)
	grown := append(bytes.Clone(files["quirks.md"]), '\n')
	_, err := w.Update(context.Background(), func(s *Snapshot) ([]Change, error) {
		return []Change{
			{Path: "security.md", Data: []byte("# Security\n")},
			{Path: "quirks.md", Data: grown},
		}, nil
	})
	want := fmt.Sprintf("refusing to write %s: the new text is %d bytes, over the %d-byte limit of a memory file past which it is not read; nothing was written", filepath.Join(w.Dir, "quirks.md"), MaxReadBytes+1, MaxReadBytes)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	for _, name := range []string{"quirks.md", "security.md"} {
		if got, err := os.ReadFile(filepath.Join(w.Dir, name)); err != nil || !bytes.Equal(got, files[name]) {
			t.Errorf("%s changed (%d bytes, %v)", name, len(got), err)
		}
	}
	full := append(bytes.Clone(files["security.md"]), bytes.Repeat([]byte{'z'}, MaxReadBytes-len(files["security.md"]))...)
	if _, err := w.Update(context.Background(), func(s *Snapshot) ([]Change, error) {
		return []Change{{Path: "security.md", Data: full}}, nil
	}); err != nil {
		t.Errorf("a change of exactly MaxReadBytes: %v", err)
	}
	noLeftovers(t, w.Dir, "decisions.md", "notes.md", "quirks.md", "security.md")
}

// TestTrimLogPastTheLimit: a log HackLM let grow over MaxReadBytes is
// trimmed to its last lines like any other, read from its tail, rather
// than left to grow.
func TestTrimLogPastTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conflicts.log")
	var b bytes.Buffer
	for i := 0; b.Len() <= MaxReadBytes; i++ {
		fmt.Fprintf(&b, "2026-01-01 | decisions.md | s%d | OLD: \"a\" | NEW: \"b\"\n", i)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendLog(path, []byte("2026-11-28 | decisions.md | last | OLD: \"x\" | NEW: \"y\"\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != MaxLogLines || !strings.Contains(lines[MaxLogLines-1], "| last |") {
		t.Fatalf("the log has %d lines after the append (%d bytes), ending %q; want the last %d", len(lines), len(got), lines[len(lines)-1], MaxLogLines)
	}
	all := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[0] != all[len(all)-MaxLogLines+1] {
		t.Errorf("first kept line %q, want %q", lines[0], all[len(all)-MaxLogLines+1])
	}
}

// TestReadAtMost: the limit is inclusive, an empty file reads as non-nil
// empty data, and anything that is not a regular file is refused.
func TestReadAtMost(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte{'a'}, n), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		n, limit int
		read     bool
	}{{0, 10, true}, {9, 10, true}, {10, 10, true}, {11, 10, false}, {5000, 10, false}, {5000, 4999, false}} {
		p := write(fmt.Sprintf("f%d-%d", tc.n, tc.limit), tc.n)
		data, size, mode, err := readAtMost(p, int64(tc.limit))
		if err != nil || size != int64(tc.n) || mode.Perm() != 0o600 {
			t.Errorf("%d bytes, limit %d: size %d, mode %v, err %v", tc.n, tc.limit, size, mode, err)
		}
		if tc.read && (data == nil || len(data) != tc.n) || !tc.read && data != nil {
			t.Errorf("%d bytes, limit %d: data %d bytes (nil %v)", tc.n, tc.limit, len(data), data == nil)
		}
	}
	if _, _, _, err := readAtMost(dir, 10); !errors.Is(err, errNotRegular) {
		t.Errorf("directory: err = %v", err)
	}
	if _, _, _, err := readAtMost(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: err = %v", err)
	}
}

// TestOpenRefusesMemoryFolderAsRoot: a root that is a `.memory` folder
// itself (as given, with a trailing slash, or through a symlink) is refused
// with its parent named; nothing is created. A folder named `.memory` that
// holds its own `.memory` is a workspace like any other.
func TestOpenRefusesMemoryFolderAsRoot(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(base, "ws")
	mem := filepath.Join(ws, DirName)
	mkdirs(t, mem, filepath.Join(base, "nested", DirName, DirName))
	os.Symlink(mem, filepath.Join(base, "link"))
	for _, root := range []string{mem, mem + string(filepath.Separator), filepath.Join(base, "link")} {
		_, err := Open(root)
		want := fmt.Sprintf("it is a .memory folder itself, and its memory would go into %s; pass the folder that holds it, ", filepath.Join(filepath.Clean(root), DirName))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%s) err = %v, want %q", root, err, want)
		}
	}
	// The folder to pass instead: the parent, of the resolved folder for a
	// link that lives elsewhere.
	os.Symlink(mem, filepath.Join(base, "nested", "link"))
	for _, root := range []string{mem, filepath.Join(base, "nested", "link")} {
		if _, err := Open(root); err == nil || !strings.HasSuffix(err.Error(), "pass the folder that holds it, "+ws) {
			t.Errorf("Open(%s) err = %v, want the parent %s named", root, err, ws)
		}
	}
	noLeftovers(t, mem)
	w, err := Open(filepath.Join(base, "nested", DirName))
	if err != nil {
		t.Fatalf("a .memory folder holding its own .memory: %v", err)
	}
	if w.Dir != filepath.Join(base, "nested", DirName, DirName) {
		t.Errorf("Dir = %s", w.Dir)
	}
}
