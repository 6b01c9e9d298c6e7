package lsp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tliron/commonlog"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// The server builds its views from a cache (diskcache.go) and orders each
// line's diagnostics for display (publish.go). These tests hold both to
// the plain path: store.Snapshot + memory.Overlay, rules.Check,
// diagnostic() and the promised order.

// referenceParams is the params of the publishDiagnostics the uncached,
// reflection-encoded path sends for file i of v.
func referenceParams(t *testing.T, s *Server, v *view, findings []rules.Finding, i int) protocol.PublishDiagnosticsParams {
	t.Helper()
	params := protocol.PublishDiagnosticsParams{URI: uriOf(v.files[i].Path), Diagnostics: []protocol.Diagnostic{}}
	for _, f := range findings {
		if f.File != i {
			continue
		}
		d, err := s.diagnostic(v, f)
		if err != nil {
			t.Fatalf("%s: %v", v.files[i].Path, err)
		}
		params.Diagnostics = append(params.Diagnostics, d)
	}
	displayOrder(params.Diagnostics)
	if v.versions[i] >= 0 {
		ver := protocol.UInteger(v.versions[i])
		params.Version = &ver
	}
	return params
}

// displayOrder is the order the server promises, computed apart from
// mostSevereLast: by line, and on one line the most severe last (LSP's
// severities count up from Error = 1), else as found.
func displayOrder(d []protocol.Diagnostic) {
	slices.SortStableFunc(d, func(a, b protocol.Diagnostic) int {
		if a.Range.Start.Line != b.Range.Start.Line {
			return cmp.Compare(a.Range.Start.Line, b.Range.Start.Line)
		}
		return cmp.Compare(*b.Severity, *a.Severity)
	})
}

// sentParams is the params publish sends for file i of v.
func sentParams(t *testing.T, s *Server, v *view, findings []rules.Finding, i int) protocol.PublishDiagnosticsParams {
	t.Helper()
	var own []int32
	for k, f := range findings {
		if f.File == i {
			if _, err := s.diagnostic(v, f); err != nil {
				t.Fatalf("%s: %v", v.files[i].Path, err)
			}
			own = append(own, int32(k))
		}
	}
	return s.publishParams(v, i, findings, own)
}

// uncachedView is the view of dir as the server built it before
// diskcache.go: store.Snapshot and memory.Overlay on every call.
func uncachedView(t testing.TB, s *Server, dir string) *view {
	t.Helper()
	bufs := map[string][]byte{}
	vers := map[string]int32{}
	for p, d := range s.docsIn(dir) {
		bufs[p], vers[p] = d.text, d.version
	}
	var snap *store.Snapshot
	if ws, err := store.Open(filepath.Dir(dir)); err == nil {
		snap, _ = ws.Snapshot()
	}
	v := &view{dir: dir, files: memory.Overlay(snap, bufs)}
	v.versions = make([]int32, len(v.files))
	v.index = make([]*text.Index, len(v.files))
	v.uris = make([]protocol.DocumentUri, len(v.files))
	for i, f := range v.files {
		v.versions[i] = -1
		if ver, ok := vers[f.Path]; ok {
			v.versions[i] = ver
		}
	}
	return v
}

// sameFiles fails unless a and b hold the same files, parsed the same.
func sameFiles(t *testing.T, a, b []rules.File) {
	t.Helper()
	if !reflect.DeepEqual(a, b) {
		var names []string
		for _, f := range a {
			names = append(names, f.Path)
		}
		var other []string
		for _, f := range b {
			other = append(other, f.Path)
		}
		t.Fatalf("views differ:\n%v\n%v", names, other)
	}
}

// diverseMemory is a .memory folder whose findings cover every part of a
// diagnostic: related locations in other files, tags, non-ASCII and
// astral characters before a span (UTF-16 columns), CRLF lines, HTML-ish
// and quoted text in messages, over-limit warnings.
func diverseMemory(t *testing.T, root string) {
	t.Helper()
	diverseMemoryOf(t, root, 60)
}

// diverseMemoryOf is diverseMemory with n numbered entries.
func diverseMemoryOf(t *testing.T, root string, n int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Decisions\r\n\r\n")
	for i := range n {
		fmt.Fprintf(&b, "- [d-%d] Use <tool-%d> & \"quoted\" café 😀 step %d for the build.\r\n", i%50, i, i)
	}
	b.WriteString("- Use Postgres for the main database.\n- Use Postgres for the main database.\n")
	b.WriteString("- [Bad Slug] token ghp_0123456789abcdefABCDEF0123456789abcd here\n")
	b.WriteString("- " + strings.Repeat("very long entry ", 40) + "\n")
	b.WriteString("stray line\n")
	writeMemory(t, root, "decisions.md", b.String())
	writeMemory(t, root, "quirks.md", "# Quirks\n\n- [d-3] Prefer small 😀 functions.\n- [p-1] Use Postgres for the main database.\n")
	writeMemory(t, root, "notes.md", "random unknown file\n- [d-4] x\n")
}

// TestPublishMatchesReference: for every file of a diverse folder, with
// one file open, the view equals the uncached one and the params sent are
// the reference's, in the promised order.
func TestPublishMatchesReference(t *testing.T) {
	root := t.TempDir()
	diverseMemory(t, root)
	dir := memory.Dir(root)
	s := NewServer(Options{}, commonlog.GetLogger("test"))
	path := filepath.Join(dir, "decisions.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open := append(data, "- [d-7] edited in the buffer only 🎉.\n"...)
	s.openForTest(path, 3, string(open))
	s.openForTest(filepath.Join(dir, "ideas.md"), 1, "- [d-9] not on disk\n")
	for _, limits := range []string{"default", "raised"} {
		cfg := config.Default()
		if limits == "raised" {
			for c := range cfg.Limits {
				cfg.Limits[c] = 1000
			}
		}
		v, _ := s.snapshot(s.folderFor(dir))
		ref := uncachedView(t, s, dir)
		sameFiles(t, v.files, ref.files)
		findings := rules.Check(v.files, cfg)
		if len(findings) < 20 {
			t.Fatalf("%s limits: only %d findings", limits, len(findings))
		}
		for i := range v.files {
			want, err := json.Marshal(referenceParams(t, s, ref, findings, i))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(sentParams(t, s, v, findings, i))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s limits, %s:\ngot  %s\nwant %s", limits, v.files[i].Path, got, want)
			}
		}
	}
}

// TestSessionPublishesMatchUncachedPath drives a session with the disk cache
// in use (old modification times, a watched folder) through edits of the
// open file and rewrites of a closed one, including one that leaves its
// stat unchanged, and compares every publish for the open file with what
// the uncached path makes of the same state.
func TestSessionPublishesMatchUncachedPath(t *testing.T) {
	root := t.TempDir()
	diverseMemory(t, root)
	dir := memory.Dir(root)
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"decisions.md", "quirks.md", "notes.md"} {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, Options{})
	events := recordWatch(c)
	c.initialize(root, nil, nil)
	path := filepath.Join(dir, "decisions.md")
	uri := uriOf(path)
	content, _ := os.ReadFile(path)
	buf := string(content)
	from := c.count()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: buf}})
	version := 1
	check := func(what string) {
		t.Helper()
		_, next := c.waitFor(from, func(n note) bool {
			var p published
			return n.method == "textDocument/publishDiagnostics" && json.Unmarshal(n.params, &p) == nil &&
				p.URI == uri && p.Version != nil && *p.Version == version
		})
		from = next
		ref := uncachedView(t, c.server, dir)
		fi := ref.find(path)
		findings := rules.Check(ref.files, config.Default())
		// One publishDir sends every file of the folder, in the view's
		// order, under the folder's lock: the open file's publish is
		// number fi of a contiguous run.
		first := next - 1 - fi
		c.waitFor(first+len(ref.files)-1, func(note) bool { return true })
		c.mu.Lock()
		run := c.notes[first : first+len(ref.files)]
		c.mu.Unlock()
		for i, n := range run {
			want, err := json.Marshal(referenceParams(t, c.server, ref, findings, i))
			if err != nil {
				t.Fatal(err)
			}
			if n.method != "textDocument/publishDiagnostics" || string(n.params) != string(want) {
				t.Fatalf("%s (version %d), %s:\ngot  %s %s\nwant %s", what, version, ref.files[i].Name, n.method, n.params, want)
			}
		}
	}
	check("open")

	names := map[string]bool{"decisions.md": true}
	snap1, _ := c.server.diskFiles(c.server.folderAt(dir), names)
	if snap2, _ := c.server.diskFiles(c.server.folderAt(dir), names); snap1 == nil || snap2 != snap1 {
		t.Fatal("an unchanged, watched folder was read again: the disk cache is not used")
	}

	edit := func(what string, line, col, endCol int, text string) {
		t.Helper()
		version++
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": protocol.Range{
				Start: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)},
				End:   protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(endCol)}}, "text": text}},
		})
		check(what)
	}
	edit("insert a line", 2, 0, 0, "- [d-3] A new 😀 entry repeating a slug.\n")
	edit("type a character", 3, 4, 4, "x")
	edit("delete a word", 5, 2, 8, "")

	// A rewrite of a closed file with a new size, dated in the past so that
	// the cache trusts its stat afterwards.
	quirks := filepath.Join(dir, "quirks.md")
	old2 := old.Add(time.Minute)
	n := events.count()
	writeMemory(t, root, "quirks.md", "# Quirks\n\n- [d-5] Something else entirely, now longer.\n")
	if err := os.Chtimes(quirks, old2, old2); err != nil {
		t.Fatal(err)
	}
	events.wait(t, n, quirks)
	edit("after a rewrite of quirks.md", 2, 0, 0, "- ")
	snap3, _ := c.server.diskFiles(c.server.folderAt(dir), names)
	if snap3 == snap1 {
		t.Fatal("the cache served a folder that changed")
	}
	// The rewrite's later events (the chmod of Chtimes) void the cache once
	// more; after them, the folder is served from the cache again.
	eventually(t, "the rewritten folder is cached", func() bool {
		a, _ := c.server.diskFiles(c.server.folderAt(dir), names)
		b, _ := c.server.diskFiles(c.server.folderAt(dir), names)
		return a == b
	})

	// A rewrite that leaves identity, size and modification time as they
	// were (a missed tick of a coarse clock): only the watcher's event can
	// tell. Wait for it, then check the new bytes are seen.
	same := "# Quirks\n\n- [d-6] Something ELSE entirely, now longer.\n"
	if fi, err := os.Stat(quirks); err != nil || int64(len(same)) != fi.Size() {
		t.Fatalf("test bug: %d bytes, want the size of %v", len(same), fi)
	}
	n = events.count()
	if err := os.WriteFile(quirks, []byte(same), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(quirks, old2, old2); err != nil {
		t.Fatal(err)
	}
	events.wait(t, n, quirks)
	edit("after a same-stat rewrite of quirks.md", 2, 0, 2, "")

	// Closed, the file is read from disk again: the cache dropped the disk
	// bytes of the open file and must not serve it without them.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	n2, _ := c.waitFor(from, func(n note) bool {
		var p published
		return n.method == "textDocument/publishDiagnostics" && json.Unmarshal(n.params, &p) == nil && p.URI == uri && p.Version == nil
	})
	ref := uncachedView(t, c.server, dir)
	want, err := json.Marshal(referenceParams(t, c.server, ref, rules.Check(ref.files, config.Default()), ref.find(path)))
	if err != nil {
		t.Fatal(err)
	}
	if string(n2.params) != string(want) {
		t.Fatalf("after close:\ngot  %s\nwant %s", n2.params, want)
	}
	c.shutdown()
}
