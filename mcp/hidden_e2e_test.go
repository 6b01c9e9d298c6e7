package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// TestBinaryStoreRefusesHiddenText: the storeMemory tool of `memory-lsp mcp`
// refuses each content holding hidden text with a tool error that shows
// where it is and what it says, and leaves every file of .memory/
// byte-identical.
func TestBinaryStoreRefusesHiddenText(t *testing.T) {
	root := poison.Workspace(t)
	off := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(off, []byte(`{"review": "off"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, t.TempDir(), nil, "", "--root", root, "--config", off)
	poison.Refused(t, root, func(content string) (string, bool) {
		r := call(t, p.cs, ToolStore, map[string]any{"category": "Instruction", "content": content})
		return r.Text, r.IsError && strings.HasPrefix(r.Text, "Failed to store memory: content holds hidden text")
	})
	// With review on (the default), held for a person instead.
	p = startServer(t, t.TempDir(), nil, "", "--root", root)
	poison.Held(t, root, func(content string) (string, bool) {
		r := call(t, p.cs, ToolStore, map[string]any{"category": "Instruction", "content": content})
		return r.Text, !r.IsError
	})
}
