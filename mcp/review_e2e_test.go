package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// Through the binary: what the MCP server stores is recorded under the
// client's name and version from initialize; with review: agents every
// store is held, no tool returns it, and the server offers no tool to
// approve it (an agent must not approve its own writes).
func TestBinaryReviewAndProvenance(t *testing.T) {
	root := poison.Workspace(t)
	p := startServer(t, t.TempDir(), nil, "", "--root", root)
	if r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": "Tag every release from main."}); r.IsError {
		t.Fatal(r.Text)
	}
	data, _ := os.ReadFile(filepath.Join(root, ".memory", memory.ProvenanceLog))
	log := memory.ParseProvenance(data)
	if len(log) != 1 || log[0].By != memory.ByMCP || log[0].Name != "e2e 1" || log[0].Action != memory.ActionStored {
		t.Errorf("provenance %+v", log)
	}

	agents := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(agents, []byte(`{"review": "agents"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p = startServer(t, t.TempDir(), nil, "", "--root", root, "--config", agents)
	r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": "Deploy on Thursdays only.", "slug": "deploy-day"})
	if r.IsError || !strings.HasPrefix(r.Text, "Held for review, not stored: ") {
		t.Fatalf("store under review: agents: %q", r.Text)
	}
	if r := call(t, p.cs, ToolGet, map[string]any{"slug": "deploy-day"}); strings.Contains(r.Text, "Deploy on Thursdays") {
		t.Errorf("getMemory returned the held write: %s", r.Text)
	}
	for _, tool := range []string{ToolQuery, ToolList} {
		args := map[string]any{"query": "Thursdays"}
		if tool == ToolList {
			args = map[string]any{}
		}
		if r := call(t, p.cs, tool, args); strings.Contains(r.Text, "Deploy on Thursdays") {
			t.Errorf("%s returned the held write: %s", tool, r.Text)
		}
	}
	tools, err := p.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if n := strings.ToLower(tool.Name); strings.Contains(n, "approve") || strings.Contains(n, "review") {
			t.Errorf("the MCP server offers %s", tool.Name)
		}
	}
}

// The project's .memory/settings.json is a floor the server's own --config
// does not lower.
func TestBinaryProjectReviewFloor(t *testing.T) {
	root := poison.Workspace(t)
	if err := os.WriteFile(filepath.Join(root, ".memory", "settings.json"), []byte(`{"review": "agents"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	off := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(off, []byte(`{"review": "off"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, t.TempDir(), nil, "", "--root", root, "--config", off)
	if r := call(t, p.cs, ToolStore, map[string]any{"category": "Decision", "content": "Deploy on Thursdays only."}); r.IsError || !strings.HasPrefix(r.Text, "Held for review") {
		t.Errorf("store under a project's review: agents: %q", r.Text)
	}
}
