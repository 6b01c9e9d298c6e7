package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// citing is a decisions file whose entries cite paths, commands and
// versions, with non-ASCII text (a BMP letter and an astral emoji) before
// the first path, so that byte, rune and UTF-16 columns all differ.
const citing = "# Decisions\n" +
	"\n" +
	"- [auth] Die Sitzung (Straße 🚀) lebt in `src/auth/session.ts:42`; vor dem Merge `make e2e` laufen lassen, `docs/gone.md` fehlt.\n" +
	"- Routing was in `src/old.ts` and `src/removed.ts`; deploy with `make deploy`.\n" +
	"- We are on Node 18; CI needs Node 20 or newer.\n" +
	"- Always squash commits when merging.\n"

// citingRepo is the repository citing's entries are judged against.
func citingRepo(root string, now time.Time) *fakeRepo {
	return &fakeRepo{
		Repo: refstest.Repo{
			Files:     []string{"src/auth/session.ts", "Makefile", ".nvmrc", "lib/new.ts"},
			Manifests: map[refstest.At]refs.Manifest{{Tool: refs.Make}: makefile},
			Gone: map[string]refs.Move{
				"src/old.ts":     {To: "lib/new.ts", Commit: "def5678901", When: now.Add(-49 * time.Hour)},
				"src/removed.ts": {Commit: "0123456789abc", When: now.Add(-40 * 24 * time.Hour)},
			},
			PinsOf: map[string][]refs.Pin{"node": {{Value: "22", File: ".nvmrc", Line: 1, Bare: refs.Exact}}},
			Lost:   map[refstest.At]map[string]refs.Move{{Tool: refs.Make}: {"deploy": {Commit: "fedcba9876", When: now.Add(-5 * 24 * time.Hour)}}},
		},
		root:    root,
		changed: map[string]lastChange{"src/auth/session.ts": {"abc1234567", now.Add(-73 * time.Hour)}},
	}
}

// utf16At is the LSP position of byte offset off in s, counted here
// independently of text.Index.
func utf16At(s string, off int) protocol.Position {
	line := strings.Count(s[:off], "\n")
	start := strings.LastIndex(s[:off], "\n") + 1
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(len(utf16.Encode([]rune(s[start:off]))))}
}

// rangeOf is the range of the first occurrence of cited in s.
func rangeOf(t *testing.T, s, cited string) protocol.Range {
	t.Helper()
	i := strings.Index(s, cited)
	if i < 0 {
		t.Fatalf("%q is not in the text", cited)
	}
	return protocol.Range{Start: utf16At(s, i), End: utf16At(s, i+len(cited))}
}

// inside is a position in the middle of the first occurrence of cited.
func inside(t *testing.T, s, cited string) protocol.Position {
	t.Helper()
	i := strings.Index(s, cited)
	if i < 0 {
		t.Fatalf("%q is not in the text", cited)
	}
	return utf16At(s, i+len(cited)/2)
}

// citingSession serves a workspace holding citing, with repo as its
// repository.
func citingSession(t *testing.T, make func(root string) (rules.Repo, error), caps map[string]any) (c *testClient, root, path string, rf *repoFactory) {
	t.Helper()
	return citingSessionOf(t, citing, make, caps)
}

// citingSessionOf is citingSession with text as decisions.md.
func citingSessionOf(t *testing.T, text string, make func(root string) (rules.Repo, error), caps map[string]any) (c *testClient, root, path string, rf *repoFactory) {
	t.Helper()
	root = t.TempDir()
	path = writeMemory(t, root, "decisions.md", text)
	// Old enough for the folder's disk cache to trust its stat: a check
	// runs again only when something else changed.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	rf = &repoFactory{make: make}
	c = newTestClient(t, Options{OpenRepo: rf.open})
	c.initialize(root, nil, caps)
	c.diagnostics(0, uriOf(path), -1)
	return c, root, path, rf
}

type link struct {
	Range   protocol.Range `json:"range"`
	Target  string         `json:"target"`
	Tooltip string         `json:"tooltip"`
}

func documentLinks(t *testing.T, c *testClient, path string) []link {
	t.Helper()
	var links []link
	if err := c.request("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}}, &links); err != nil {
		t.Fatal(err)
	}
	return links
}

func TestDocumentLinks(t *testing.T) {
	now := time.Now()
	c, root, path, _ := citingSession(t, func(root string) (rules.Repo, error) { return citingRepo(root, now), nil }, nil)
	got := documentLinks(t, c, path)
	want := []link{
		{rangeOf(t, citing, "src/auth/session.ts:42"), string(uriOf(filepath.Join(root, "src", "auth", "session.ts"))) + "#L42", "Open session.ts at line 42"},
		{rangeOf(t, citing, "make e2e"), string(uriOf(filepath.Join(root, "Makefile"))) + "#L12", "Open Makefile at target e2e"},
		{rangeOf(t, citing, "make deploy"), string(uriOf(filepath.Join(root, "Makefile"))), "Open Makefile"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("links:\n got %+v\nwant %+v", got, want)
	}
	// The first link starts after "Straße 🚀": 2 UTF-16 units for the
	// emoji, 1 for ß, where bytes count 4 and 2.
	if i := strings.Index(citing, "src/auth"); len(got) > 0 && got[0].Range.Start.Character != protocol.UInteger(i-strings.LastIndex(citing[:i], "\n")-1-3) {
		t.Errorf("the first link starts at column %d, not in UTF-16 units", got[0].Range.Start.Character)
	}
	c.shutdown()
}

func TestNoLinksWithoutRepository(t *testing.T) {
	c, _, path, rf := citingSession(t, func(string) (rules.Repo, error) { return nil, errors.New("no repository here") }, nil)
	if got := documentLinks(t, c, path); len(got) != 0 {
		t.Errorf("links without a repository: %+v", got)
	}
	if rf.builds() != 1 {
		t.Errorf("a repository that fails to open was tried %d times before any change", rf.builds())
	}
	c.shutdown()
}

func TestDefinition(t *testing.T) {
	now := time.Now()
	c, root, path, _ := citingSession(t, func(root string) (rules.Repo, error) { return citingRepo(root, now), nil }, nil)
	definition := func(at protocol.Position) json.RawMessage {
		t.Helper()
		var raw json.RawMessage
		if err := c.request("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": at}, &raw); err != nil {
			t.Fatal(err)
		}
		return raw
	}
	location := func(p string, line int) string {
		at := protocol.Position{Line: protocol.UInteger(line)}
		b, _ := json.Marshal(protocol.Location{URI: uriOf(p), Range: protocol.Range{Start: at, End: at}})
		return string(b)
	}
	makefile := filepath.Join(root, "Makefile")
	for _, tc := range []struct {
		at   protocol.Position
		want string
	}{
		{inside(t, citing, "src/auth/session.ts:42"), location(filepath.Join(root, "src", "auth", "session.ts"), 41)},
		{inside(t, citing, "make e2e"), location(makefile, 11)},
		{inside(t, citing, "make deploy"), location(makefile, 0)},
		{inside(t, citing, "src/old.ts"), "null"},          // missing
		{inside(t, citing, "Node 18"), "null"},             // a version leads nowhere
		{inside(t, citing, "Straße"), "null"},              // no reference
		{protocol.Position{Line: 0, Character: 3}, "null"}, // the heading
	} {
		if got := string(definition(tc.at)); got != tc.want {
			t.Errorf("definition at %+v = %s, want %s", tc.at, got, tc.want)
		}
	}
	c.shutdown()
}

func TestReferenceHover(t *testing.T) {
	now := time.Now()
	repo := func(root string) *fakeRepo { return citingRepo(root, now) }
	written := map[string]time.Time{}
	c, _, path, _ := citingSession(t, func(root string) (rules.Repo, error) {
		r := repo(root)
		r.written = written
		return r, nil
	}, nil)
	hover := func(at protocol.Position) (string, *protocol.Range) {
		t.Helper()
		var h *struct {
			Contents protocol.MarkupContent `json:"contents"`
			Range    *protocol.Range        `json:"range"`
		}
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": at}, &h); err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return "", nil
		}
		return h.Contents.Value, h.Range
	}
	for _, tc := range []struct{ cited, want string }{
		{"src/auth/session.ts:42", "`src/auth/session.ts:42` exists, last changed 3 days ago in abc1234"},
		{"src/old.ts", "`src/old.ts` is missing; renamed to `lib/new.ts` in def5678 (2 days ago)"},
		{"src/removed.ts", "`src/removed.ts` is missing since 0123456 (deleted 40 days ago)"},
		{"docs/gone.md", "`docs/gone.md` is missing"},
		{"make e2e", "`make e2e`: target `e2e` in `Makefile` line 12"},
		{"Node 18", "`Node 18` contradicts `.nvmrc` (22)"},
		{"Node 20 or newer", "`Node 20 or newer` agrees with `.nvmrc` (22)"},
	} {
		got, r := hover(inside(t, citing, tc.cited))
		if got != tc.want {
			t.Errorf("hover on %s = %q, want %q", tc.cited, got, tc.want)
		}
		if want := rangeOf(t, citing, tc.cited); r == nil || *r != want {
			t.Errorf("hover on %s has range %v, want %v", tc.cited, r, want)
		}
	}
	if got, _ := hover(inside(t, citing, "make deploy")); !strings.HasPrefix(got, "`make deploy`: no target `deploy` in `Makefile` any more (removed in fedcba9); closest: `deploy-staging`") {
		t.Errorf("hover on a stale command = %q", got)
	}
	// Off the references, the entry's own hover.
	for _, at := range []string{"Straße", "Always squash"} {
		if got, _ := hover(inside(t, citing, at)); !strings.Contains(got, "Pruning score **") {
			t.Errorf("hover on %q is not the entry's: %q", at, got)
		}
	}
	c.shutdown()
}

// TestReferenceHoverKeepsEntryHover: a reference with no evidence against
// the entry (a path the entry itself says moved away) gets the entry's
// hover, byte for byte as without a repository.
func TestReferenceHoverKeepsEntryHover(t *testing.T) {
	now := time.Now()
	text := strings.Replace(citing, "Routing was in `src/old.ts`", "Routing moved out of `src/old.ts`", 1)
	hoverWith := func(make func(root string) (rules.Repo, error)) string {
		t.Helper()
		c, _, path, _ := citingSessionOf(t, text, make, nil)
		defer c.shutdown()
		var raw json.RawMessage
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": inside(t, text, "src/old.ts")}, &raw); err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	got := hoverWith(func(root string) (rules.Repo, error) { return citingRepo(root, now), nil })
	want := hoverWith(func(string) (rules.Repo, error) { return nil, errors.New("none") })
	if got != want || !strings.Contains(got, "Pruning score") {
		t.Errorf("hover on a reference the entry says moved away:\n got %s\nwant %s", got, want)
	}
}

// TestReferenceHoverReadsAlternatives: releases joined by a slash are
// judged together in the hover as in check: where the pins hold one
// ("Node 18/22" with .nvmrc 22) the other is no contradiction, and its
// hover is the entry's; listed apart, it still contradicts.
func TestReferenceHoverReadsAlternatives(t *testing.T) {
	now := time.Now()
	text := strings.Replace(citing, "We are on Node 18; CI needs Node 20 or newer.", "Scripts run on Node 18/22; docs say Node 18, not 22.", 1)
	c, _, path, _ := citingSessionOf(t, text, func(root string) (rules.Repo, error) { return citingRepo(root, now), nil }, nil)
	defer c.shutdown()
	hover := func(at protocol.Position) string {
		t.Helper()
		var h *struct {
			Contents protocol.MarkupContent `json:"contents"`
		}
		if err := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}, "position": at}, &h); err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if got := hover(inside(t, text, "Node 18/")); strings.Contains(got, "contradicts") || !strings.Contains(got, "Pruning score") {
		t.Errorf("hover on an alternative the pins do not hold = %q, want the entry's", got)
	}
	if got := hover(inside(t, text, "Node 18,")); got != "`Node 18` contradicts `.nvmrc` (22)" {
		t.Errorf("hover on a release listed apart = %q", got)
	}
}

// TestClientEventsVoidTheRepository: with a client that watches files, the
// server registers for changes to the code; a change to a manifest rebuilds
// the repository and checks the folder again, though no memory file changed.
func TestClientEventsVoidTheRepository(t *testing.T) {
	now := time.Now()
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c, root, path, rf := citingSession(t, func(root string) (rules.Repo, error) { return citingRepo(root, now), nil }, caps)
	var watchers []protocol.FileSystemWatcher
	eventually(t, "the server registers for changes to the code", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, a := range c.asked {
			var p struct {
				Registrations []struct {
					ID              string `json:"id"`
					Method          string `json:"method"`
					RegisterOptions struct {
						Watchers []protocol.FileSystemWatcher `json:"watchers"`
					} `json:"registerOptions"`
				} `json:"registrations"`
			}
			if a.method == "client/registerCapability" && json.Unmarshal(a.params, &p) == nil && len(p.Registrations) == 1 &&
				p.Registrations[0].ID == clientReferenceWatchID && p.Registrations[0].Method == "workspace/didChangeWatchedFiles" {
				watchers = p.Registrations[0].RegisterOptions.Watchers
				return true
			}
		}
		return false
	})
	globs := map[string]protocol.UInteger{}
	for _, w := range watchers {
		kind := protocol.WatchKindCreate | protocol.WatchKindChange | protocol.WatchKindDelete
		if w.Kind != nil {
			kind = *w.Kind
		}
		globs[w.GlobPattern] = kind
	}
	for glob, kind := range map[string]protocol.UInteger{"**/Makefile": 7, "**/package.json": 7, "**/.nvmrc": 7, "**/*": 5, "**/.git/HEAD": 7, "**/.git/index": 7} {
		if globs[glob] != kind {
			t.Errorf("watcher %s has kind %d, want %d (all: %v)", glob, globs[glob], kind, globs)
		}
	}
	f := c.server.folderAt(filepath.Join(root, ".memory"))
	checks := func() int {
		f.pub.Lock()
		defer f.pub.Unlock()
		return f.checks
	}
	before, builds := checks(), rf.builds()
	if builds != 1 {
		t.Fatalf("the repository was built %d times before any change", builds)
	}
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: uriOf(filepath.Join(root, "Makefile")), Type: protocol.FileChangeTypeChanged},
	}})
	eventually(t, "the repository is rebuilt and the folder checked again", func() bool { return rf.builds() == 2 && checks() > before })
	if got := documentLinks(t, c, path); len(got) != 3 {
		t.Errorf("links after the rebuild: %+v", got)
	}
	c.shutdown()
}

// TestWatcherVoidsTheRepository: without the client's help, the server
// watches the folder of a cited file; moving the file away rebuilds the
// repository, and the link to it goes; moving it back brings the link back.
func TestWatcherVoidsTheRepository(t *testing.T) {
	watcherVoids(t, nil, nil)
}

// TestRefusedRegistrationFallsBackToTheWatcher: a client that advertises
// file watching but refuses the registration for the code leaves it to the
// server's watcher.
func TestRefusedRegistrationFallsBackToTheWatcher(t *testing.T) {
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	refused := make(chan struct{})
	watcherVoids(t, caps, func(method string, params json.RawMessage) (any, error) {
		if method == "client/registerCapability" && strings.Contains(string(params), clientReferenceWatchID) {
			defer close(refused)
			return nil, errors.New("no watching of code here")
		}
		return nil, nil
	}, refused)
}

// watcherVoids starts a session with caps and answer, waits for each of
// ready, and checks that the server's watcher sees a cited file go and
// come back.
func watcherVoids(t *testing.T, caps map[string]any, answer func(string, json.RawMessage) (any, error), ready ...chan struct{}) {
	t.Helper()
	root := t.TempDir()
	cited := filepath.Join(root, "src", "auth", "session.ts")
	writeCode(t, root, "src/auth/session.ts", "Makefile")
	path := writeMemory(t, root, "decisions.md", citing)
	rf := diskRepo(t)
	c := newTestClient(t, Options{OpenRepo: rf.open})
	c.answer = answer
	c.initialize(root, nil, caps)
	c.diagnostics(0, uriOf(path), -1)
	for _, r := range ready {
		select {
		case <-r:
		case <-time.After(5 * time.Second):
			t.Fatal("the client was never asked")
		}
	}
	dir := filepath.Dir(cited)
	eventually(t, "the cited file's folder is watched", func() bool {
		c.server.mu.Lock()
		w := c.server.watch
		c.server.mu.Unlock()
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.refDirs[dir] != nil
	})
	links := func() []string {
		var out []string
		for _, l := range documentLinks(t, c, path) {
			out = append(out, l.Target)
		}
		return out
	}
	target := string(uriOf(cited)) + "#L42"
	if got := links(); !slices.Contains(got, target) {
		t.Fatalf("no link to the cited file: %v", got)
	}
	if err := os.Rename(cited, filepath.Join(root, "src", "session.ts")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the repository is rebuilt without the moved file", func() bool { return rf.builds() >= 2 && !slices.Contains(links(), target) })
	builds := rf.builds()
	if err := os.Rename(filepath.Join(root, "src", "session.ts"), cited); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the repository is rebuilt with the file back", func() bool { return rf.builds() > builds && slices.Contains(links(), target) })
	c.shutdown()
}

// TestFailedRepositoryIsRetriedAfterAChange: a repository that cannot be
// opened is not retried on every check, only after a change to the code.
func TestFailedRepositoryIsRetriedAfterAChange(t *testing.T) {
	now := time.Now()
	var fail atomic.Bool
	fail.Store(true)
	make := func(root string) (rules.Repo, error) {
		if fail.Load() {
			return nil, errors.New("git is broken")
		}
		return citingRepo(root, now), nil
	}
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c, root, path, rf := citingSession(t, make, caps)
	// Another check (a buffer opened and changed) does not retry.
	uri := uriOf(path)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: citing}})
	c.diagnostics(0, uri, 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": citing + "- One more entry about nothing.\n"}}})
	c.diagnostics(0, uri, 2)
	if got := rf.builds(); got != 1 {
		t.Errorf("a failed repository was opened %d times without a change to the code", got)
	}
	fail.Store(false)
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: uriOf(filepath.Join(root, "src", "auth", "session.ts")), Type: protocol.FileChangeTypeCreated},
	}})
	eventually(t, "the repository is opened again after the change", func() bool { return rf.builds() == 2 })
	// Opened is not yet installed: the worker stores the repository after
	// the build returns, and a request in between answers from the failed
	// one (the client asks again after the next publish).
	eventually(t, "links once the repository opens", func() bool { return len(documentLinks(t, c, path)) == 3 })
	if got := rf.builds(); got != 2 {
		t.Errorf("the repository was opened %d times, want 2", got)
	}
	c.shutdown()
}

// writeCode writes a file at each of paths (slash-separated, under root).
func writeCode(t *testing.T, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// diskRepo builds repositories of the files on disk at each build, with
// citing's Makefile.
func diskRepo(t *testing.T) *repoFactory {
	return &repoFactory{make: func(root string) (rules.Repo, error) {
		return &fakeRepo{root: root, Repo: refstest.Repo{Files: diskFiles(t, root), Manifests: map[refstest.At]refs.Manifest{{Tool: refs.Make}: makefile}}}, nil
	}}
}
