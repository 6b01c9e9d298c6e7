package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestOpenSnapshotListsAsSnapshot: OpenSnapshot lists the files Snapshot
// lists, with the same sizes, modes and links, the category files it would
// read opened instead, reading back the bytes Snapshot read; and it fails
// where Snapshot fails.
func TestOpenSnapshotListsAsSnapshot(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, DirName)
	outside := filepath.Join(t.TempDir(), "elsewhere.md")
	for p, data := range map[string]string{
		"decisions.md": "# Decisions\n\n- One.\n", "quirks.md": "", "notes.md": "- a note\n",
		"target.md": "- linked\n", outside: "- outside\n",
	} {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("target.md", filepath.Join(dir, "security.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "away.md")); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("- x\n"), MaxReadBytes/4+1)
	if err := os.WriteFile(filepath.Join(dir, "preferences.md"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	got, opened, err := w.OpenSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(opened)
	var names []string
	for _, o := range opened {
		f := &got.Files[o.Index]
		names = append(names, f.Name)
		data, err := o.ReadAll()
		if err != nil || !bytes.Equal(data, want.Files[o.Index].Data) {
			t.Errorf("%s reads back %q (%v), Snapshot read %q", f.Name, data, err, want.Files[o.Index].Data)
		}
		if o.Stamp.Size != int64(len(data)) || o.Stamp.Ino == 0 || o.Stamp.ModNs == 0 {
			t.Errorf("%s: stamp %+v", f.Name, o.Stamp)
		}
		f.Data = want.Files[o.Index].Data
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OpenSnapshot\n%+v\nSnapshot\n%+v", got, want)
	}
	if fmt.Sprint(names) != "[quirks.md decisions.md security.md]" {
		t.Errorf("opened %v", names)
	}
	// A category file leading outside: both refuse.
	if err := os.Symlink(outside, filepath.Join(dir, "instructions.md")); err != nil {
		t.Fatal(err)
	}
	_, serr := w.Snapshot()
	_, o, oerr := w.OpenSnapshot()
	if serr == nil || fmt.Sprint(serr) != fmt.Sprint(oerr) || o != nil {
		t.Errorf("Snapshot: %v; OpenSnapshot: %v, %d opened", serr, oerr, len(o))
	}
}

// TestWriteCacheFileKeepsTheNewest: a cache file is replaced whole, and
// the folder keeps only the newest files of its kind.
func TestWriteCacheFileKeepsTheNewest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "query")
	old := time.Now().Add(-time.Hour)
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("%d.idx", i))
		if err := WriteCacheFile(p, []byte{byte(i)}, 3); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(p, old.Add(time.Duration(i)*time.Minute), old.Add(time.Duration(i)*time.Minute))
	}
	if err := WriteCacheFile(filepath.Join(dir, "2.idx"), []byte("new"), 3); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != "[2.idx 3.idx 4.idx]" {
		t.Errorf("the cache folder holds %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "2.idx")); string(b) != "new" {
		t.Errorf("2.idx holds %q", b)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the cache folder: %v %v", fi.Mode(), err)
	}
}

// TestOpenedUnchanged: an opened file stays unchanged while nothing writes
// it; a rewrite in place, even of the same size with its old time set
// back, changes it. (A replacement by a rename may too, since the old
// file's change time moves as its link goes: the query then scans, which
// is safe either way.)
func TestOpenedUnchanged(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, DirName)
	path := filepath.Join(dir, "decisions.md")
	old := time.Now().Add(-time.Hour)
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write("# Decision\n\n- Use Postgres.\n")
	open := func() *Opened {
		t.Helper()
		ws, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		_, opened, err := ws.OpenSnapshot()
		if err != nil || len(opened) != 1 {
			t.Fatalf("OpenSnapshot: %v, %d files opened", err, len(opened))
		}
		t.Cleanup(func() { CloseAll(opened) })
		return opened[0]
	}

	o := open()
	if !o.Unchanged() {
		t.Fatal("an opened file nothing wrote is changed")
	}
	o = open()
	write("# Decision\n\n- Use MariaDB.\n") // the same size, in place, its old time set back
	if o.Unchanged() {
		t.Error("a rewrite in place of the same size left the opened file unchanged")
	}
}

// TestStampVouches: a stamp vouches for a file only when nothing of it
// changed and its last change was not racily close to the reading.
func TestStampVouches(t *testing.T) {
	const sec = int64(1e9)
	s := Stamp{Size: 10, ModNs: 100*sec + 5, ChangeNs: 100*sec + 5, Ino: 1, Dev: 2}
	if !s.Vouches(s, 101*sec) {
		t.Error("a file changed a second before it was read is not vouched for")
	}
	if s.Vouches(s, 100*sec+50e6) {
		t.Error("a file changed 50 ms before it was read is vouched for")
	}
	other := s
	other.Ino = 9
	if s.Vouches(other, 200*sec) {
		t.Error("a file replaced by another inode is vouched for")
	}
	coarse := Stamp{Size: 10, ModNs: 100 * sec, ChangeNs: 100 * sec}
	if coarse.Vouches(coarse, 102*sec) {
		t.Error("a whole-second stamp two seconds before the reading is vouched for")
	}
	if !coarse.Vouches(coarse, 104*sec) {
		t.Error("a whole-second stamp four seconds before the reading is not vouched for")
	}
}
