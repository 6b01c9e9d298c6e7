package mcp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// TestBinaryStoreAtTheLimit (issue 26): the storeMemory tool of `memory-lsp
// mcp`, in a git repository, refuses a store whose line would take
// decisions.md past the 8 MiB limit with a tool error naming the file, its
// size and the limit, and leaves every file of .memory/ byte-identical; a
// store that fills the file to the byte is stored (a file of exactly the
// limit is read), and after it nothing more goes in.
func TestBinaryStoreAtTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 8 MiB files around")
	}
	const fits = "Ship on Tuesdays."
	line := func(s string) int { return len(memfile.EntryLine("", s)) + 1 }
	size := memfile.MaxBytes - line(fits)
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	path := filepath.Join(root, ".memory", "decisions.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(poison.FileOfSize(size)), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(root, "settings.json")
	if err := os.WriteFile(settings, []byte(poison.RoomySettings), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, t.TempDir(), nil, "", "--root", root, "--config", settings)
	refused := func(content string, now int) {
		t.Helper()
		before := poison.Files(t, root)
		r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": content})
		if !r.IsError {
			t.Fatalf("stored %q into the full file: %s", content, r.Text)
		}
		for _, w := range []string{"refusing to store into decisions.md", fmt.Sprintf("it is %d bytes, and this would make it %d bytes", now, now+line(content)),
			fmt.Sprintf("over the limit of a memory file (%d MiB, %d bytes)", memfile.MaxBytes>>20, memfile.MaxBytes), "nothing was written"} {
			if !strings.Contains(r.Text, w) {
				t.Errorf("the refusal %q does not say %q", r.Text, w)
			}
		}
		poison.Unchanged(t, root, before, "a refused store")
	}
	refused("Tag every release from the main branch.", size)
	if r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": fits}); r.IsError || !strings.Contains(r.Text, "Stored in decisions.md") {
		t.Fatalf("a store that fits: %s", r.Text)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != memfile.MaxBytes {
		t.Fatalf("decisions.md after the store: %v, want exactly %d bytes", err, memfile.MaxBytes)
	}
	refused("Ship it.", memfile.MaxBytes)
	// The full file is read as any other: the entry is found.
	if r := call(t, p.cs, ToolQuery, map[string]any{"query": "ship tuesdays"}); !strings.Contains(r.Text, fits) {
		t.Errorf("queryMemory does not find the entry that filled the file: %s", r.Text)
	}
}
