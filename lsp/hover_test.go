package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func TestHover(t *testing.T) {
	root := t.TempDir()
	content := "# Decisions\n\n- [db] Use Postgres for the main database.\n- Use Postgres for the analytics database.\n- Deploy with blue green releases.\n- Always squash commits when merging.\n"
	path := writeMemory(t, root, "decisions.md", content)
	c := newTestClient(t, Options{})
	c.initialize(root, map[string]any{"categoryLimit": map[string]any{"Decision": 10}}, nil)

	hover := func(line, col uint32) json.RawMessage {
		t.Helper()
		var raw json.RawMessage
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": protocol.Position{Line: line, Character: col}}, &raw); err != nil {
			t.Fatal(err)
		}
		return raw
	}
	var h struct {
		Contents protocol.MarkupContent `json:"contents"`
		Range    protocol.Range         `json:"range"`
	}
	if err := json.Unmarshal(hover(2, 10), &h); err != nil {
		t.Fatal(err)
	}
	v := h.Contents.Value
	if h.Contents.Kind != protocol.MarkupKindMarkdown || h.Range.Start.Line != 2 || h.Range.End.Line != 2 {
		t.Errorf("hover = %+v", h)
	}
	for _, want := range []string{"**[db]** · Decision", "Pruning score **", "Decisions: 4/10 entries", "Most similar in decisions.md:", "- line 4, "} {
		if !strings.Contains(v, want) {
			t.Errorf("hover lacks %q:\n%s", want, v)
		}
	}
	// The most similar entry comes first: line 4 before anything else.
	if i, j := strings.Index(v, "- line 4"), strings.Index(v, "- line 5"); j >= 0 && j < i {
		t.Errorf("similar entries out of order:\n%s", v)
	}
	// The top of the file: its size (no agent's files here, so no limits).
	h = struct {
		Contents protocol.MarkupContent `json:"contents"`
		Range    protocol.Range         `json:"range"`
	}{}
	if err := json.Unmarshal(hover(0, 3), &h); err != nil {
		t.Fatal(err)
	}
	if want := "**decisions.md**: 172 bytes, 6 lines, about 42 tokens"; h.Contents.Value != want || h.Range.Start.Line != 0 || h.Range.End.Character != 11 {
		t.Errorf("hover on the heading = %+v, want %q on the heading", h, want)
	}
	if got := hover(1, 0); string(got) != "null" {
		t.Errorf("hover on the blank line = %s, want null", got)
	}
	c.shutdown()
}

// TestHoverFileBudget: with an agent's file beside .memory/, the top of a
// memory file says how it stands against that agent's file tool, and a
// CLAUDE.md created later counts from the next request.
func TestHoverFileBudget(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "quirks.md", "# Quirks\n\n"+strings.Repeat("- The build is slow on a cold cache.\n", 1700))
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	hover := func() string {
		t.Helper()
		var h struct {
			Contents protocol.MarkupContent `json:"contents"`
		}
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": protocol.Position{Line: 0, Character: 2}}, &h); err != nil {
			t.Fatal(err)
		}
		return h.Contents.Value
	}
	if got := hover(); strings.Contains(got, "Claude") {
		t.Errorf("no agent's files yet, but the hover names one: %s", got)
	}
	writeFile(t, filepath.Join(root, "CLAUDE.md"), "# Team\n")
	if got, want := hover(), "Claude Code: 85 % of 2,000 lines"; !strings.Contains(got, want) {
		t.Errorf("hover = %q, want it to say %q", got, want)
	}
	c.shutdown()
}

// TestHoverLineAfterLoneCR: a similar entry is named by the editor's line,
// which a lone CR also ends, not by HackLM's LF-only number.
func TestHoverLineAfterLoneCR(t *testing.T) {
	root := t.TempDir()
	content := "# Deci\rsions\n\n- Use Postgres for the main database.\n- Use Postgres for the main database!\n"
	path := writeMemory(t, root, "decisions.md", content)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	var h struct {
		Contents protocol.MarkupContent `json:"contents"`
	}
	if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": protocol.Position{Line: 4, Character: 3}}, &h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents.Value, "\n- line 4, 100%") {
		t.Errorf("hover names the similar entry by another line:\n%s", h.Contents.Value)
	}
	c.shutdown()
}
