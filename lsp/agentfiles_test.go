package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestAgentFilesInTheEditor: the editor shows what check shows of the
// agents' files beside .memory/ — an AGENTS.md past Codex's 32 KiB gets its
// load-budget error on the line Codex drops, and loses it once trimmed
// (at the next check); with cross-file on, an entry that names another
// package manager than AGENTS.md carries AGENTS.md's line as related
// information.
func TestAgentFilesInTheEditor(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [pm] Use pnpm for installs.\n")
	agents := filepath.Join(root, "AGENTS.md")
	long := "# Agents\n\n- Install dependencies with `npm install`.\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 330)
	if err := os.WriteFile(agents, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	c.initialize(root, map[string]any{"rules": map[string]any{"cross-file": true}}, nil)
	from := c.count()
	text := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "markdown", Version: 1, Text: text}})
	p, _ := c.diagnosticsWhere(from, uriOf(agents), "load-budget", has("load-budget"))
	// The heading, a blank line and the npm line take 53 bytes, then lines
	// of 100: byte 32,768 is on 0-based line 3 + 327 = 330.
	if d := p.Diagnostics[0]; d.Severity != 1 || d.Range.Start.Line != 330 || !strings.Contains(d.Message, "Codex loads at most 32 KiB") {
		t.Errorf("AGENTS.md's finding: %+v", d)
	}
	m, _ := c.diagnosticsWhere(from, uri, "cross-file", has("cross-file"))
	for _, d := range m.Diagnostics {
		if d.Code != "cross-file" {
			continue
		}
		if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != uriOf(agents) || d.RelatedInformation[0].Location.Range.Start.Line != 2 {
			t.Errorf("cross-file's related information: %+v", d.RelatedInformation)
		}
	}
	// Trimmed: at the next check (an edit of the memory file) AGENTS.md's
	// list is emptied.
	if err := os.WriteFile(agents, []byte("# Agents\n\n- Install dependencies with `npm install`.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	from = c.count()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": text + "- [ci] CI runs on every push.\n"}},
	})
	c.diagnosticsWhere(from, uriOf(agents), "no findings", empty)
	c.shutdown()
}
