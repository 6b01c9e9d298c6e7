package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/rules"
)

// oversized is a quirks.md just over rules.MaxFileBytes: entries with slugs,
// so that anything that parsed it would find symbols, hovers and fixes.
func oversized() string {
	var b strings.Builder
	b.WriteString("# Quirks\n\n")
	for i := 0; b.Len() <= rules.MaxFileBytes; i++ {
		fmt.Fprintf(&b, "- [q-%d] Job %d leaks memory after twenty builds.\n", i, i)
	}
	return b.String()
}

// TestOversizedFileIsNotAnalysed: a memory file over the limit, on disk and
// then open, gets its one file-too-large diagnostic and nothing else: no
// symbols, hover or code actions, no line index, and every command that
// would edit it refuses and writes nothing; the rest of its folder is
// served as usual.
func TestOversizedFileIsNotAnalysed(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root, "decisions.md", decisionsV1)
	big := oversized()
	path := writeMemory(t, root, "quirks.md", big)
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)

	onlyTooLarge := func(p published) {
		t.Helper()
		if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "file-too-large" || p.Diagnostics[0].Range != (protocol.Range{}) {
			t.Errorf("diagnostics of the oversized file: %+v, want one file-too-large at 0:0", p.Diagnostics)
		}
	}
	leftAlone := func() {
		t.Helper()
		var syms []json.RawMessage
		if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms); err != nil || len(syms) != 0 {
			t.Errorf("documentSymbol: %v, %d symbols; want none", err, len(syms))
		}
		var hover json.RawMessage
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": protocol.Position{Line: 2, Character: 4}}, &hover); err != nil || string(hover) != "null" {
			t.Errorf("hover: %s, %v; want null", hover, err)
		}
		if as := c.codeActions(uri, pos(2, 0)); len(as) != 0 {
			t.Errorf("code actions: %v, want none", titles(as))
		}
		v, fi, _ := c.server.documentView(uri)
		if fi != -1 {
			t.Errorf("documentView serves the oversized file as file %d", fi)
		}
		if i := v.find(path); i < 0 || v.ix(i).LineCount() != 1 || len(v.files[i].Doc.Lines) != 0 {
			t.Errorf("the view indexed or parsed the oversized file")
		}
		for _, tc := range []struct {
			name string
			arg  map[string]any
			want string
		}{
			{"memory.storeMemory", map[string]any{"category": "Quirk", "content": "The linter caches nothing."}, "refusing to store into"},
			{"memory.deleteMemory", map[string]any{"category": "Quirk", "slug": "q-1"}, "refusing to delete from " + path},
			{"memory.assignSlugs", map[string]any{"uri": string(uri)}, "refusing to assign slugs in " + path},
			{"memory.cleanup", map[string]any{}, "refusing to clean up " + path},
			{"memory.cleanup", map[string]any{"apply": true}, "refusing to clean up " + path},
		} {
			wantCommandError(t, c.command(tc.name, tc.arg, nil), codeRequestFailed, tc.name+": "+tc.want)
		}
		var q struct {
			Results []struct {
				Slug string `json:"slug"`
			} `json:"results"`
		}
		if err := c.command("memory.queryMemory", map[string]any{"query": "Postgres database"}, &q); err != nil || len(q.Results) != 1 || q.Results[0].Slug != "db" {
			t.Errorf("query beside the oversized file: %v, %+v", err, q)
		}
		if got := readDisk(t, path); got != big {
			t.Errorf("a refused command changed the oversized file (%d bytes now)", len(got))
		}
	}

	p, _ := c.diagnostics(0, uri, -1)
	onlyTooLarge(p)
	leftAlone()

	// Open: the same, for the buffer.
	from := c.count()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: big}})
	p, _ = c.diagnostics(from, uri, 1)
	onlyTooLarge(p)
	leftAlone()

	// Trimmed under the limit by an edit, it is an ordinary file again.
	lines := strings.Count(big, "\n")
	from = c.count()
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: protocol.UInteger(lines)}}, "text": ""}}})
	p, _ = c.diagnostics(from, uri, 2)
	if len(codes(p)) != 0 {
		t.Errorf("diagnostics of the trimmed file: %v, want none", codes(p))
	}
	var syms []struct {
		Name string `json:"name"`
	}
	if err := c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms); err != nil || len(syms) != 1 || syms[0].Name != "q-0" {
		t.Errorf("symbols of the trimmed file: %v, %+v", err, syms)
	}
	c.shutdown()
}
