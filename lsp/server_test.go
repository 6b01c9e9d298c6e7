package lsp

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func writeMemory(t *testing.T, root, name, content string) string {
	t.Helper()
	dir := filepath.Join(root, ".memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLifecycleAndErrors(t *testing.T) {
	c := newTestClient(t, Options{})
	var rerr *Error
	if err := c.request("textDocument/documentSymbol", map[string]any{}, nil); !errors.As(err, &rerr) || rerr.Code != codeServerNotInitialized {
		t.Errorf("request before initialize: %v, want code %d", err, codeServerNotInitialized)
	}
	root := t.TempDir()
	res := c.initialize(root, nil, nil)
	if res.ServerInfo == nil || res.ServerInfo.Name != Name {
		t.Errorf("serverInfo = %+v", res.ServerInfo)
	}
	if err := c.request("no/such", nil, nil); !errors.As(err, &rerr) || rerr.Code != codeMethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	if err := c.request("initialize", map[string]any{}, nil); !errors.As(err, &rerr) || rerr.Code != codeInvalidRequest {
		t.Errorf("second initialize: %v", err)
	}
	c.shutdown()
}

func TestDiagnosticsOnOpenAndChange(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [db] Use Postgres.\n")
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	from := c.count()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "markdown", Version: 1, Text: "# Decisions\n\n- [db] Use Postgres.\n"}})
	p, next := c.diagnostics(from, uri, 1)
	if p.Diagnostics == nil || len(p.Diagnostics) != 0 {
		t.Fatalf("clean file: %+v, want an empty (not null) list", p.Diagnostics)
	}
	// Insert a duplicate slug after an emoji: the diagnostic's UTF-16
	// column must count the emoji as two units.
	line := "- [😀x] a\n- [db] Use Redis.\n"
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 3}}, "text": line}},
	})
	p, _ = c.diagnostics(next, uri, 2)
	var dup *protocol.Range
	for i := range p.Diagnostics {
		if p.Diagnostics[i].Code == "duplicate-slug" {
			dup = &p.Diagnostics[i].Range
		}
	}
	if dup == nil || dup.Start.Line != 4 || dup.Start.Character != 3 {
		t.Fatalf("duplicate-slug = %+v in %v", dup, codes(p))
	}
	if !slices.Contains(codes(p), "slug-format") {
		t.Errorf("codes = %v, want slug-format for [😀x]", codes(p))
	}
	for _, d := range p.Diagnostics {
		// The slug "😀x" spans UTF-16 columns 3..6: the emoji is two units.
		if d.Code == "slug-format" && (d.Range.Start != protocol.Position{Line: 3, Character: 3} || d.Range.End != protocol.Position{Line: 3, Character: 6}) {
			t.Errorf("slug-format range = %+v, want 3:3-3:6", d.Range)
		}
	}
	c.shutdown()
}

func TestOutOfRangeChangeIsRejected(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "quirks.md", "# Quirks\n")
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: "# Quirks\n"}})
	c.diagnostics(0, uri, 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 0, Character: 40}, End: protocol.Position{Line: 0, Character: 40}}, "text": "BAD"}},
	})
	// A request after the notification is handled after it: the buffer must
	// be unchanged.
	if err := c.request("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	got := string(c.server.docAt(path).text)
	if got != "# Quirks\n" {
		t.Errorf("buffer after a bad change = %q", got)
	}
	c.notify("exit", nil)
}

func TestOtherMarkdownGetsNothing(t *testing.T) {
	root := t.TempDir()
	readme := filepath.Join(root, "README.md")
	os.WriteFile(readme, []byte("* not memory\n"), 0o644)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uriOf(readme), Version: 1, Text: "* not memory\n"}})
	c.shutdown()
	for _, n := range c.notes {
		if strings.Contains(string(n.params), "README.md") {
			t.Errorf("server sent %s about README.md", n.method)
		}
	}
}

// TestDidSaveRepublishes: a save re-checks the folder at once (the other
// files of the folder may have changed on disk meanwhile), so the saved file
// gets a fresh publish for its current version.
func TestDidSaveRepublishes(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", "# Decisions\n\n- [db] Use Postgres.\n")
	uri := uriOf(path)
	c := newTestClient(t, Options{Debounce: time.Hour}) // only open and save may publish
	c.initialize(root, nil, nil)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Version: 1, Text: "# Decisions\n\n- [db] Use Postgres.\n"}})
	_, next := c.diagnostics(0, uri, 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "# Decisions\n\n- [db] Use Postgres.\n- [db] Use Redis.\n"}},
	})
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	p, _ := c.diagnostics(next, uri, 2)
	if !slices.Contains(codes(p), "duplicate-slug") {
		t.Errorf("after save: codes %v, want duplicate-slug", codes(p))
	}
	c.shutdown()
}

// The server's own disk work outlives the request or event that began it
// (a capture after a file event, a reconcile a timer runs): exit waits for
// it, so that no lock of ours is taken and no file written in a workspace
// after the process is gone (a test's TempDir cleanup once found a .lock
// appearing under it).
func TestExitWaitsForDiskWork(t *testing.T) {
	root := t.TempDir()
	writeMemory(t, root, "decisions.md", decisionsV1)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	started, release := make(chan struct{}), make(chan struct{})
	c.server.goAfter(func() {
		close(started)
		<-release
	})
	<-started
	if err := c.request("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.notify("exit", nil)
	select {
	case <-c.served:
		t.Fatal("the server ended while its disk work ran")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-c.served; err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	// Once stopped, no new work starts: a reconcile whose timer fires
	// late, or a capture of an event read just before the watcher closed,
	// does nothing.
	var ran atomic.Bool
	c.server.goAfter(func() { ran.Store(true) })
	time.Sleep(10 * time.Millisecond)
	if ran.Load() {
		t.Error("work started after the server stopped")
	}
}
