package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStatDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), DirName)
	mkdirs(t, dir)
	for _, name := range []string{"b.md", "a.md", "notes.txt", ".lock"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := StatDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fi := range st.Files {
		names = append(names, fi.Name())
	}
	if len(names) != 2 || names[0] != "a.md" || names[1] != "b.md" || !st.Dir.IsDir() {
		t.Errorf("StatDir lists %q (folder %v), want [a.md b.md] in a folder", names, st.Dir.Mode())
	}
	via := filepath.Join(filepath.Dir(dir), "via")
	if err := os.Symlink(dir, via); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if _, err := StatDir(via); err == nil {
		t.Errorf("StatDir(%s), a symlink to a folder: no error", via)
	}
}
