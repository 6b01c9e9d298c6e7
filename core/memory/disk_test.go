package memory

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadDiskTrustsOnlyOldStats: a read is given again only while a stat
// of the folder vouches for it, never for a file modified too recently for
// its stat to show a rewrite of the same size, and never without the
// caller's word that it watched the folder.
func TestReadDiskTrustsOnlyOldStats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "decisions.md")
	write := func(text string, at time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	read := func(keep bool, prev *Disk, open map[string]bool) (*Disk, bool) {
		t.Helper()
		d, reused, err := ReadDisk(dir, keep, prev, open, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d, reused
	}

	at := func(d *Disk) int {
		t.Helper()
		for i, sf := range d.Snap.Files {
			if sf.Path == path {
				return i
			}
		}
		t.Fatal("the read lacks decisions.md")
		return -1
	}

	write("# Decision\n\n- Use Go.\n", time.Now())
	fresh, _ := read(true, nil, nil)
	if _, reused := read(true, fresh, nil); reused {
		t.Error("a file modified just now was judged by its stat")
	}

	old := time.Now().Add(-time.Hour)
	write("# Decision\n\n- Use Go.\n", old)
	d, _ := read(true, nil, nil)
	if again, reused := read(true, d, nil); !reused || again != d {
		t.Error("an unchanged folder with old files was read again")
	}
	if unkept, _ := read(false, nil, nil); unkept.Vouched() {
		t.Error("a read the caller cannot vouch for was made worth keeping")
	}

	opened, reused := read(true, d, map[string]bool{"decisions.md": true})
	if !reused || opened.Snap.Files[at(opened)].Data != nil || opened.Parsed[at(opened)] != nil {
		t.Error("the disk bytes of an open file were kept")
	}
	if _, reused := read(true, opened, nil); reused {
		t.Error("a file closed again was served without its bytes")
	}

	write("# Decision\n\n- Use Rust.\n", old.Add(time.Second))
	if got, reused := read(true, d, nil); reused || string(got.Snap.Files[at(got)].Data) != "# Decision\n\n- Use Rust.\n" {
		t.Errorf("a rewritten file was served from the earlier read: %q", got.Snap.Files[at(got)].Data)
	}
}
