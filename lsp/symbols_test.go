package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func TestDocumentSymbols(t *testing.T) {
	root := t.TempDir()
	content := "# Decisions\n\n- [db] Use Postgres for the main database.\n- 😀 发布 builds ship from the release branch only, never from main or feature branches.\n-   \n"
	path := writeMemory(t, root, "decisions.md", content)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	var syms []protocol.DocumentSymbol
	if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 3 {
		t.Fatalf("%d symbols, want 3: %+v", len(syms), syms)
	}
	db := syms[0]
	if db.Name != "db" || db.Kind != protocol.SymbolKindKey || db.Detail == nil || *db.Detail != "Use Postgres for the main database." {
		t.Errorf("first symbol = %+v", db)
	}
	if db.Range != (protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2, Character: 42}}) ||
		db.SelectionRange != (protocol.Range{Start: protocol.Position{Line: 2, Character: 3}, End: protocol.Position{Line: 2, Character: 5}}) {
		t.Errorf("first symbol ranges %+v / %+v", db.Range, db.SelectionRange)
	}
	long := syms[1]
	if long.Kind != protocol.SymbolKindString || !strings.HasPrefix(long.Name, "😀 发布 builds") || !strings.HasSuffix(long.Name, "…") || len([]rune(long.Name)) > 41 {
		t.Errorf("second symbol = %q kind %d", long.Name, long.Kind)
	}
	// The line's end counts the emoji as two UTF-16 units.
	lineLen := uint32(len([]rune("- 😀 发布 builds ship from the release branch only, never from main or feature branches."))) + 1
	if long.Range.End != (protocol.Position{Line: 3, Character: lineLen}) || long.SelectionRange.Start != (protocol.Position{Line: 3, Character: 2}) {
		t.Errorf("second symbol ranges %+v / %+v, want end 3:%d", long.Range, long.SelectionRange, lineLen)
	}
	if syms[2].Name == "" {
		t.Error("an empty entry got an empty name")
	}

	// CRLF endings: a line's range ends before the CR.
	crlf := writeMemory(t, root, "quirks.md", "# Quirks\r\n\r\n- [a] One.\r\n- Two.\r\n")
	if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uriOf(crlf)}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 2 || syms[0].Range.End != (protocol.Position{Line: 2, Character: 10}) || syms[1].Range.End != (protocol.Position{Line: 3, Character: 6}) {
		t.Errorf("CRLF symbols = %+v", syms)
	}

	readme := filepath.Join(root, "README.md")
	os.WriteFile(readme, []byte("- [x] y\n"), 0o644)
	var raw json.RawMessage
	if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uriOf(readme)}}, &raw); err != nil || string(raw) != "[]" {
		t.Errorf("README.md symbols = %s, %v; want []", raw, err)
	}
	c.shutdown()
}

func TestWorkspaceSymbols(t *testing.T) {
	root := t.TempDir()
	decisions := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [db] Use Postgres for the main database.\n- Deploy with blue green releases.\n")
	writeMemory(t, root, "quirks.md", "# Quirks\n\n- [ci-cache] The CI cache is keyed on the lock file only.\n")
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	// An open buffer is searched instead of the disk.
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uriOf(decisions), Version: 1, Text: "# Decisions\n\n\n- [db] Use Postgres for the main database.\n"}})

	var syms []protocol.SymbolInformation
	if err := c.request("workspace/symbol", map[string]any{"query": "postgres"}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 {
		t.Fatalf("query postgres: %+v", syms)
	}
	s := syms[0]
	if s.Name != "[db] Use Postgres for the main database." || s.Kind != protocol.SymbolKindKey || s.ContainerName == nil || *s.ContainerName != "Decision" {
		t.Errorf("symbol = %+v", s)
	}
	if s.Location.URI != uriOf(decisions) || s.Location.Range.Start != (protocol.Position{Line: 3}) {
		t.Errorf("location = %+v, want line 3 of the open buffer", s.Location)
	}
	if err := c.request("workspace/symbol", map[string]any{"query": ""}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 2 || *syms[0].ContainerName != "Quirk" && *syms[1].ContainerName != "Quirk" {
		t.Errorf("empty query: %+v", syms)
	}
	if err := c.request("workspace/symbol", map[string]any{"query": "zebra"}, &syms); err != nil || len(syms) != 0 {
		t.Errorf("no match: %+v, %v", syms, err)
	}
	c.shutdown()
}
