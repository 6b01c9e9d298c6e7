package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTree: the agents' files are read as regular files inside the root
// only, a huge one by its head; folders list sorted.
func TestTree(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "AGENTS.md"), []byte("agents\n"))
	write(filepath.Join(root, ".cursor", "rules", "b.mdc"), []byte("b"))
	write(filepath.Join(root, ".cursor", "rules", "a.mdc"), []byte("a"))
	write(filepath.Join(outside, "secret.md"), []byte("not the workspace's\n"))
	huge := bytes.Repeat([]byte("x\n"), MaxAgentFileBytes/2+10)
	write(filepath.Join(root, "CLAUDE.md"), huge)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "GEMINI.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(root, "CLAUDE.local.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "AGENTS.override.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr := Tree{Root: root}
	if b, ok := tr.ReadFile("AGENTS.md"); !ok || string(b) != "agents\n" {
		t.Errorf("AGENTS.md: %q %v", b, ok)
	}
	if b, ok := tr.ReadFile("CLAUDE.local.md"); !ok || string(b) != "agents\n" {
		t.Errorf("a symlink inside the root is followed: %q %v", b, ok)
	}
	if _, ok := tr.ReadFile("GEMINI.md"); ok {
		t.Error("a symlink to a file outside the root was read")
	}
	if _, ok := tr.ReadFile("AGENTS.override.md"); ok {
		t.Error("a folder was read as a file")
	}
	if b, ok := tr.ReadFile("CLAUDE.md"); !ok || len(b) != MaxAgentFileBytes {
		t.Errorf("a file over MaxAgentFileBytes: %d bytes, %v; want its head", len(b), ok)
	}
	if got := tr.List(".cursor/rules"); !slices.Equal(got, []string{"a.mdc", "b.mdc"}) {
		t.Errorf("List = %v", got)
	}
	if got := tr.List("nowhere"); got != nil {
		t.Errorf("List of no folder = %v", got)
	}
}
