package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadSizeLimit: a settings file of exactly MaxFileBytes is read (here
// valid JSON padded with spaces); one byte more is refused unread, naming
// the file and its size. A directory and a missing file are errors naming
// the path.
func TestLoadSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) string {
		head := []byte(`{"longEntry": 150}`)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, append(head, bytes.Repeat([]byte{' '}, size-len(head))...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := load(Default(), write("exact.json", MaxFileBytes))
	if err != nil || c.LongEntry != 150 {
		t.Errorf("a file of exactly %d bytes: longEntry %d, err %v", MaxFileBytes, c.LongEntry, err)
	}
	p := write("over.json", MaxFileBytes+1)
	_, err = load(Default(), p)
	if want := fmt.Sprintf("reading config %s: it is %d bytes, over the 1 MiB limit of a settings file", p, MaxFileBytes+1); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if _, err := load(Default(), dir); err == nil || !strings.Contains(err.Error(), dir+": not a regular file but a directory") {
		t.Errorf("directory: err = %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := load(Default(), missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v", err)
	}
	// A symlink to a regular file is fine.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("exact.json", link); err != nil {
		t.Skip(err)
	}
	if _, err := load(Default(), link); err != nil {
		t.Errorf("symlink to a settings file: %v", err)
	}
}

// load is what the CLI does with --config (it also checks the rule names,
// which this package cannot see).
func load(c Config, path string) (Config, error) {
	data, err := ReadSettingsFile(path)
	if err != nil {
		return c, err
	}
	s, err := ParseSettings(data)
	if err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	out, err := c.Merge(s)
	if err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
