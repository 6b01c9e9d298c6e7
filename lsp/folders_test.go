package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// initializeFolders runs the handshake with workspaceFolders.
func (c *testClient) initializeFolders(roots ...string) {
	c.t.Helper()
	var folders []protocol.WorkspaceFolder
	for _, r := range roots {
		folders = append(folders, protocol.WorkspaceFolder{URI: string(uriOf(r)), Name: filepath.Base(r)})
	}
	params := map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}, "workspaceFolders": folders}
	if err := c.request("initialize", params, nil); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify("initialized", map[string]any{})
}

func folderEvent(added, removed []string) protocol.DidChangeWorkspaceFoldersParams {
	var p protocol.DidChangeWorkspaceFoldersParams
	for _, r := range added {
		p.Event.Added = append(p.Event.Added, protocol.WorkspaceFolder{URI: string(uriOf(r)), Name: filepath.Base(r)})
	}
	for _, r := range removed {
		p.Event.Removed = append(p.Event.Removed, protocol.WorkspaceFolder{URI: string(uriOf(r)), Name: filepath.Base(r)})
	}
	if p.Event.Added == nil {
		p.Event.Added = []protocol.WorkspaceFolder{}
	}
	if p.Event.Removed == nil {
		p.Event.Removed = []protocol.WorkspaceFolder{}
	}
	return p
}

func TestWorkspaceFolders(t *testing.T) {
	r1, r2 := t.TempDir(), t.TempDir()
	// The same slug in both folders: no finding, each .memory is its own.
	p1 := writeMemory(t, r1, "decisions.md", cleanDecisions)
	p2 := writeMemory(t, r2, "decisions.md", dupDecisions)
	u1, u2 := uriOf(p1), uriOf(p2)
	c := newTestClient(t, Options{})
	log := recordWatch(c)
	c.initializeFolders(r1, r2)
	if p, _ := c.diagnostics(0, u1, -1); !empty(p) {
		t.Errorf("%s: %v, want nothing (the duplicate is in the other folder)", u1, codes(p))
	}
	if p, _ := c.diagnostics(0, u2, -1); !has("duplicate-slug")(p) {
		t.Errorf("%s: %v, want duplicate-slug", u2, codes(p))
	}
	for _, r := range []string{r1, r2} {
		if m := watchModeOf(c, memory.Dir(r)); m != watchFolder {
			t.Errorf("%s: watch mode %d, want the folder", r, m)
		}
	}

	// Each folder is watched on its own.
	from := c.count()
	writeFile(t, p1, dupDecisions)
	c.diagnosticsWhere(from, u1, "duplicate-slug in the first folder", has("duplicate-slug"))

	// Removing the second folder clears its diagnostics and its watch.
	from = c.count()
	c.notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{r2}))
	_, next := c.diagnosticsWhere(from, u2, "the removed folder's list is empty", empty)
	if m := watchModeOf(c, memory.Dir(r2)); m != watchNothing {
		t.Errorf("removed folder: watch mode %d, want none", m)
	}
	c.server.mu.Lock()
	w := c.server.watch
	c.server.mu.Unlock()
	w.mu.Lock()
	if _, ok := w.paths[memory.Dir(r2)]; ok {
		t.Errorf("fsnotify still watches %s", memory.Dir(r2))
	}
	w.mu.Unlock()
	// A write there goes unnoticed; one in the first folder, made after it,
	// is seen, and events arrive in order.
	mark := log.count()
	writeFile(t, p2, cleanDecisions)
	writeFile(t, p1, cleanDecisions)
	log.wait(t, mark, p1)
	c.diagnosticsWhere(next, u1, "the first folder clean again", empty)
	for _, e := range log.all()[mark:] {
		if strings.HasPrefix(e.name, memory.Dir(r2)) {
			t.Errorf("event for %s after its folder was removed", e.name)
		}
	}
	c.mu.Lock()
	for _, n := range c.notes[next:] {
		if n.method == "textDocument/publishDiagnostics" && strings.Contains(string(n.params), string(u2)) {
			t.Errorf("published for the removed folder: %s", n.params)
		}
	}
	c.mu.Unlock()

	// Added back: checked at once and watched.
	from = c.count()
	writeFile(t, p2, dupDecisions)
	c.notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{r2}, nil))
	c.diagnosticsWhere(from, u2, "duplicate-slug in the added folder", has("duplicate-slug"))
	eventually(t, "the added folder is watched", func() bool { return watchModeOf(c, memory.Dir(r2)) == watchFolder })
	c.shutdown()
}

func TestFileOutsideEveryFolder(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	writeMemory(t, root, "decisions.md", cleanDecisions)
	open := writeMemory(t, elsewhere, "decisions.md", cleanDecisions)
	const brokenQuirks = "# Quirks\n\n- [pg] Postgres needs a restart after upgrades.\n- [pg] Postgres listens on 5433 here.\n"
	sibling := writeMemory(t, elsewhere, "quirks.md", brokenQuirks)
	dir := filepath.Dir(open)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	c.diagnostics(0, uriOf(filepath.Join(root, ".memory", "decisions.md")), -1)
	if m := watchModeOf(c, dir); m != watchNothing {
		t.Fatalf("a folder outside the workspace is watched (%d) before any file in it is open", m)
	}

	// Opened: served from its own .memory, siblings included.
	from := c.count()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uriOf(open), LanguageID: "markdown", Version: 1, Text: cleanDecisions}})
	if p, _ := c.diagnostics(from, uriOf(open), 1); !empty(p) {
		t.Errorf("open file: %v, want nothing", codes(p))
	}
	if p, _ := c.diagnostics(from, uriOf(sibling), -1); !has("duplicate-slug")(p) {
		t.Errorf("closed sibling: %v, want duplicate-slug", codes(p))
	}
	if m := watchModeOf(c, dir); m != watchFolder {
		t.Fatalf("the open file's folder: watch mode %d, want the folder", m)
	}

	// Watched while open: an agent fixes the sibling.
	from = c.count()
	writeFile(t, sibling, "# Quirks\n\n- [pg] Postgres needs a restart after upgrades.\n")
	_, next := c.diagnosticsWhere(from, uriOf(sibling), "the sibling clean", empty)

	// Closed: no longer served, so its diagnostics go and so does the watch.
	writeFile(t, sibling, brokenQuirks)
	c.diagnosticsWhere(next, uriOf(sibling), "duplicate-slug again", has("duplicate-slug"))
	from = c.count()
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(open)}})
	c.diagnosticsWhere(from, uriOf(sibling), "the sibling cleared", empty)
	c.diagnosticsWhere(from, uriOf(open), "the closed file cleared", empty)
	if m := watchModeOf(c, dir); m != watchNothing {
		t.Errorf("after close: watch mode %d, want none", m)
	}
	c.shutdown()
}
