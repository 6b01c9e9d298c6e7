package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/repo"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/text"
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

// TestAgentFileOpenInTheEditor: an agent's file open in the editor gets
// what check gives it when named — the reference rules on its bullets,
// with check's messages — from the buffer as it is typed, and no memory
// rule, although missing-slug is on and its bullets have no slug; its
// load-budget comes from the buffer too. Closed, it shows what the disk
// holds (nothing here).
func TestAgentFileOpenInTheEditor(t *testing.T) {
	root := t.TempDir()
	mem := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [go] Use Go.\n")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "src", "real.go"), "package src\n")
	agents := filepath.Join(root, "AGENTS.md")
	clean := "# Agents\n\n- The entry point is `src/real.go`.\n"
	writeFile(t, agents, clean)
	c := newTestClient(t, Options{})
	settings := map[string]any{"rules": map[string]any{"missing-slug": true}}
	c.initialize(root, settings, nil)
	c.diagnostics(0, uriOf(mem), -1)

	uri := uriOf(agents)
	stale := clean + "- Sessions live in `src/session.go`.\n"
	from := c.count()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "markdown", Version: 1, Text: stale}})
	p, _ := c.diagnostics(from, uri, 1)
	cfg := config.Default()
	r, err := repo.Open(context.Background(), root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := rules.ReferencesIn(rules.NewFile(agents, []byte(stale)), r, cfg)
	if len(want) != 1 || len(p.Diagnostics) != 1 {
		t.Fatalf("check finds %v, the editor shows %v", want, codes(p))
	}
	d, ix := p.Diagnostics[0], text.NewIndex([]byte(stale))
	at, _ := ix.Position(want[0].Span.Start)
	if d.Code != "stale-path" || d.Code != want[0].Code || d.Message != want[0].Message || int(d.Range.Start.Line) != at.Line || int(d.Range.Start.Character) != at.Col {
		t.Errorf("the editor shows %+v; check finds %+v at %+v", d, want[0], at)
	}

	// Fixed in the buffer, not saved: gone.
	fixed := clean + "- Sessions live in `src/real.go`.\n"
	from = c.count()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}},
	})
	if p, _ := c.diagnostics(from, uri, 2); len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: %v", codes(p))
	}
	// Broken again, by an incremental change: back.
	from = c.count()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"range": rangeOf(t, fixed, "src/real.go`.\n"), "text": "src/session.go`.\n"}},
	})
	if p, _ := c.diagnostics(from, uri, 3); !slices.Equal(codes(p), []string{"stale-path"}) {
		t.Errorf("broken again: %v", codes(p))
	}
	// Past Codex's 32 KiB in the buffer: load-budget as well, read from
	// the buffer (the disk's AGENTS.md is small).
	long := stale + strings.Repeat(strings.Repeat("x", 99)+"\n", 330)
	from = c.count()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 4},
		"contentChanges": []any{map[string]any{"text": long}},
	})
	if p, _ := c.diagnostics(from, uri, 4); !slices.Equal(codes(p), []string{"stale-path", "load-budget"}) {
		t.Errorf("past 32 KiB: %v", codes(p))
	}
	// Nothing of it reaches the memory files, and it offers no fix.
	if acts := c.codeActions(uri, protocol.Range{End: protocol.Position{Line: 4}}); len(acts) != 0 {
		t.Errorf("code actions on AGENTS.md: %+v", acts)
	}
	if got, err := os.ReadFile(agents); err != nil || string(got) != clean {
		t.Errorf("AGENTS.md on disk: %q, %v", got, err)
	}

	// Closed: the disk's AGENTS.md, which has nothing to show.
	from = c.count()
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if p, _ := c.diagnostics(from, uri, -1); p.Version != nil || len(p.Diagnostics) != 0 {
		t.Errorf("after close: version %v, %v", p.Version, codes(p))
	}
	c.shutdown()
}
