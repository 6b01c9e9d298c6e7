package lsp

import (
	"encoding/json"
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
	if got := hover(0, 3); string(got) != "null" {
		t.Errorf("hover on the heading = %s, want null", got)
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
