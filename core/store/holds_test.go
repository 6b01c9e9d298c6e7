package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestHolds: the check made before a file is replaced tells the bytes read
// from any other, also when they differ only past the first block, by a
// byte at the end, or in length alone.
func TestHolds(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decisions.md")
	big := bytes.Repeat([]byte("- Use Postgres for the ledger.\n"), 10000)
	changedLate := bytes.Clone(big)
	changedLate[len(big)-2] = '!'
	for _, c := range []struct {
		name       string
		disk, want []byte
		same       bool
	}{
		{"the same", big, big, true},
		{"empty, both", []byte{}, []byte{}, true},
		{"a byte near the end", changedLate, big, false},
		{"one line more on disk", append(bytes.Clone(big), "- x\n"...), big, false},
		{"one line less on disk", big[:len(big)-31], big, false},
		{"empty on disk", []byte{}, big, false},
	} {
		if err := os.WriteFile(path, c.disk, 0o644); err != nil {
			t.Fatal(err)
		}
		if same, err := holds(path, c.want); err != nil || same != c.same {
			t.Errorf("%s: holds = %v, %v; want %v", c.name, same, err, c.same)
		}
	}
	if _, err := holds(filepath.Join(dir, "absent.md"), big); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an absent file: err = %v", err)
	}
	if _, err := holds(dir, nil); !errors.Is(err, errNotRegular) {
		t.Errorf("a directory: err = %v", err)
	}
}
