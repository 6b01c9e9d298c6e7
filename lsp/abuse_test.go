package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestThousandRapidChanges: a burst of 1,000 changes is applied in order and
// ends in diagnostics for the last version, without a publish per change.
func TestThousandRapidChanges(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", "# Decisions\n\n")
	uri := uriOf(path)
	c := newTestClient(t, Options{Debounce: 50 * time.Millisecond})
	c.initialize(root, nil, nil)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: "# Decisions\n\n"}})
	_, next := c.diagnostics(0, uri, 1)
	for v := 2; v <= 1001; v++ {
		line := protocol.UInteger(v)
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}, "text": "- [s] entry\n"}},
		})
	}
	p, _ := c.diagnostics(next, uri, 1001)
	dups := 0
	for _, d := range p.Diagnostics {
		if d.Code == "duplicate-slug" {
			dups++
		}
	}
	if dups != 999 {
		t.Errorf("%d duplicate-slug diagnostics, want 999 (1,000 entries with one slug)", dups)
	}
	published := 0
	c.mu.Lock()
	for _, n := range c.notes[next:] {
		if n.method == "textDocument/publishDiagnostics" {
			published++
		}
	}
	c.mu.Unlock()
	if published > 100 {
		t.Errorf("%d publishes for one burst: the debounce did not hold", published)
	}
	c.shutdown()
}

// TestClientThatNeverAnswersApplyEdit: a store into an open buffer waits for
// workspace/applyEdit at most the client timeout, fails with a message that
// says so, writes nothing, and the server goes on answering.
func TestClientThatNeverAnswersApplyEdit(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [db] Use Postgres.\n")
	uri := uriOf(path)
	c := newTestClient(t, Options{ClientTimeout: 300 * time.Millisecond})
	block := make(chan struct{})
	defer close(block)
	c.answer = func(method string, _ json.RawMessage) (any, error) {
		if method == "workspace/applyEdit" {
			<-block // never answers while the test runs
		}
		return nil, nil
	}
	c.initialize(root, nil, nil)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: "# Decisions\n\n- [db] Use Postgres.\n"}})
	c.diagnostics(0, uri, 1)
	var res struct {
		Action  string         `json:"action"`
		Message string         `json:"message"`
		Disk    []string       `json:"disk"`
		Buffers []bufferReport `json:"buffers"`
	}
	err := c.request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Decision", "content": "Deploy with Helm charts."}}}, &res)
	// The store is on disk, where every other agent reads it; the reply
	// says the buffer could not be updated, and why.
	if err != nil || res.Action != "stored" || len(res.Buffers) != 1 || res.Buffers[0].Applied || !strings.Contains(res.Buffers[0].Problem, "no answer") ||
		!strings.Contains(res.Message, "was not updated") {
		t.Fatalf("store with a silent client: %v, %+v; want stored on disk and a buffer problem saying the client did not answer", err, res)
	}
	if got := readDisk(t, path); !strings.Contains(got, "- Deploy with Helm charts.") {
		t.Fatalf("disk after the store: %q", got)
	}
	var syms []any
	if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms); err != nil || len(syms) != 1 {
		t.Fatalf("server after the timeout: %v, %d symbols", err, len(syms))
	}
	c.shutdown()
}
