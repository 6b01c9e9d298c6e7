package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2EAgentFiles: the binary, in a git repository, shows what check
// shows of the agents' files beside .memory/: AGENTS.md past Codex's
// 32 KiB gets its load-budget error on the line Codex drops, and with
// cross-file on, the entry naming another package manager than AGENTS.md
// carries AGENTS.md's line as related information.
func TestE2EAgentFiles(t *testing.T) {
	g := gittest.New(t)
	entry := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
	// The heading, a blank line and the npm line take 53 bytes, then lines
	// of 100: byte 32,768 is on 0-based line 3 + 327 = 330.
	agents := "# Agents\n\n- Install dependencies with `npm install`.\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 330)
	g.Write(map[string]string{".memory/decisions.md": entry, "AGENTS.md": agents})
	g.Commit("2026-11-01T10:00:00Z", "memory and agents")
	c := startBinary(t, g.Dir)
	c.Initialize(lsptest.InitializeParams(g.Dir, map[string]any{"rules": map[string]any{"cross-file": true}}))
	uri := lsptest.URI(filepath.Join(g.Dir, ".memory", "decisions.md"))
	agentsURI := lsptest.URI(filepath.Join(g.Dir, "AGENTS.md"))
	mark := c.Mark()
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": entry}})
	d := c.AwaitDiagnosticsWhere(mark, agentsURI, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Find("load-budget") != nil })
	if f := d.Find("load-budget"); f.Severity != 1 || f.Range.Start.Line != 330 || !strings.Contains(f.Message, "Codex loads at most 32 KiB") {
		t.Errorf("AGENTS.md's load-budget: %+v", f)
	}
	m := c.AwaitDiagnosticsWhere(mark, uri, 20*time.Second, func(d *lsptest.Diagnostics) bool { return d.Find("cross-file") != nil })
	f := m.Find("cross-file")
	if len(f.RelatedInformation) != 1 || f.RelatedInformation[0].Location.URI != agentsURI || f.RelatedInformation[0].Location.Range.Start.Line != 2 {
		t.Errorf("cross-file's related information: %+v", f.RelatedInformation)
	}
	c.Shutdown()
}
