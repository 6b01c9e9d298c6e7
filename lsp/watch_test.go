package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// watchLog records what the server's watcher did with each file event.
type watchLog struct {
	mu     sync.Mutex
	events []watchEvent
	signal chan struct{}
}

type watchEvent struct{ name, scheduled string }

// recordWatch installs the watcher hook; call it before initialize.
func recordWatch(c *testClient) *watchLog {
	l := &watchLog{signal: make(chan struct{}, 1)}
	c.server.watchHook = func(name, scheduled string) {
		l.mu.Lock()
		l.events = append(l.events, watchEvent{name, scheduled})
		l.mu.Unlock()
		select {
		case l.signal <- struct{}{}:
		default:
		}
	}
	return l
}

// wait returns the first event for name from index from on, waiting up
// to 5 s.
func (l *watchLog) wait(t *testing.T, from int, name string) watchEvent {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		l.mu.Lock()
		for _, e := range l.events[min(from, len(l.events)):] {
			if e.name == name {
				l.mu.Unlock()
				return e
			}
		}
		l.mu.Unlock()
		select {
		case <-l.signal:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the watcher saw no event for %s", name)
		}
	}
}

// count is the number of events so far, a mark for wait.
func (l *watchLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.events)
}

func (l *watchLog) all() []watchEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// eventually polls cond for up to 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// diagnosticsWhere waits for a publishDiagnostics for uri that satisfies ok.
func (c *testClient) diagnosticsWhere(from int, uri protocol.DocumentUri, what string, ok func(published) bool) (published, int) {
	c.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, next := c.diagnostics(from, uri, -1)
		if ok(p) {
			return p, next
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no publish for %s where %s (last: %v)", uri, what, codes(p))
		}
		from = next
	}
}

func has(code string) func(published) bool {
	return func(p published) bool { return slices.Contains(codes(p), code) }
}

func lacks(code string) func(published) bool {
	return func(p published) bool { return p.Diagnostics != nil && !slices.Contains(codes(p), code) }
}

func empty(p published) bool { return p.Diagnostics != nil && len(p.Diagnostics) == 0 }

// watchModeOf is how the server watches dir (watchNothing when it does not).
func watchModeOf(c *testClient, dir string) watchMode {
	c.server.mu.Lock()
	w := c.server.watch
	c.server.mu.Unlock()
	if w == nil {
		return watchNothing
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dirs[dir]
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	cleanDecisions = "# Decisions\n\n- [db] Use Postgres.\n"
	dupDecisions   = cleanDecisions + "- [db] Use Redis.\n"
)

func TestWatchExternalWrites(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", cleanDecisions)
	dir := filepath.Dir(path)
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	log := recordWatch(c)
	c.initialize(root, nil, nil)
	// The file is never opened: everything below comes from the watcher.
	p, next := c.diagnostics(0, uri, -1)
	if !empty(p) {
		t.Fatalf("clean file: %v", codes(p))
	}
	if m := watchModeOf(c, dir); m != watchFolder {
		t.Fatalf("watch mode of %s = %d, want the folder itself", dir, m)
	}

	// An agent appends a duplicate slug.
	writeFile(t, path, dupDecisions)
	p, next = c.diagnosticsWhere(next, uri, "duplicate-slug", has("duplicate-slug"))
	if p.Version != nil {
		t.Errorf("a closed file's diagnostics carry version %d", *p.Version)
	}

	// Deleted: its diagnostics are cleared.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, next = c.diagnosticsWhere(next, uri, "the list is empty", empty)

	// Atomic replace, as our store and most editors write.
	tmp := filepath.Join(dir, ".decisions.md.tmp-9")
	writeFile(t, tmp, dupDecisions)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	_, next = c.diagnosticsWhere(next, uri, "duplicate-slug after a rename", has("duplicate-slug"))

	// Our own temp files, the lock and other files are not memory files.
	ignored := []string{filepath.Join(dir, ".decisions.md.tmp-123"), filepath.Join(dir, ".lock"), filepath.Join(dir, "notes.txt")}
	for _, f := range ignored {
		writeFile(t, f, dupDecisions)
	}
	// Events of one folder arrive in order: once the sentinel is seen,
	// every event before it has been handled.
	sentinel := filepath.Join(dir, "sentinel.txt")
	writeFile(t, sentinel, "")
	log.wait(t, 0, sentinel)
	for _, f := range ignored {
		log.wait(t, 0, f)
	}
	for _, e := range log.all() {
		if slices.Contains(ignored, e.name) && e.scheduled != "" {
			t.Errorf("%s scheduled a check of %s", e.name, e.scheduled)
		}
	}
	c.mu.Lock()
	for _, n := range c.notes[next:] {
		if n.method == "textDocument/publishDiagnostics" && strings.Contains(string(n.params), ".tmp-") {
			t.Errorf("published for a temp file: %s", n.params)
		}
	}
	c.mu.Unlock()
	c.shutdown()
}

func TestWatchMemoryFolderAppearsAndReappears(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	path := filepath.Join(dir, "decisions.md")
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	eventually(t, "the root is watched for .memory to appear", func() bool { return watchModeOf(c, dir) == watchParent })

	// Created after initialize.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, dupDecisions)
	_, next := c.diagnosticsWhere(0, uri, "duplicate-slug in a new .memory", has("duplicate-slug"))
	eventually(t, ".memory itself is watched", func() bool { return watchModeOf(c, dir) == watchFolder })

	// Removed: diagnostics cleared, back to watching the root.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	_, next = c.diagnosticsWhere(next, uri, "the list is empty after removal", empty)
	eventually(t, "the root is watched again", func() bool { return watchModeOf(c, dir) == watchParent })

	// Recreated: watched again.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, dupDecisions)
	_, next = c.diagnosticsWhere(next, uri, "duplicate-slug in the recreated .memory", has("duplicate-slug"))
	eventually(t, "the recreated .memory is watched", func() bool { return watchModeOf(c, dir) == watchFolder })
	writeFile(t, path, cleanDecisions)
	_, next = c.diagnosticsWhere(next, uri, "a clean file after a write in the recreated .memory", empty)

	// Moved away and back.
	moved := filepath.Join(root, "old-memory")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the root is watched after .memory moved away", func() bool { return watchModeOf(c, dir) == watchParent })
	writeFile(t, filepath.Join(moved, "decisions.md"), dupDecisions)
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	c.diagnosticsWhere(next, uri, "duplicate-slug after .memory moved back", has("duplicate-slug"))
	eventually(t, ".memory is watched after moving back", func() bool { return watchModeOf(c, dir) == watchFolder })
	c.shutdown()
}

func TestClientFileEventsAreAHint(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", cleanDecisions)
	uri := uriOf(path)
	c := newTestClient(t, Options{})
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c.initialize(root, nil, caps)
	eventually(t, "the server registers for memory file events", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, a := range c.asked {
			var p protocol.RegistrationParams
			if a.method == "client/registerCapability" && json.Unmarshal(a.params, &p) == nil && len(p.Registrations) == 1 &&
				p.Registrations[0].Method == "workspace/didChangeWatchedFiles" && strings.Contains(string(a.params), `"globPattern":"**/.memory/*.md"`) {
				return true
			}
		}
		return false
	})
	_, next := c.diagnostics(0, uri, -1)
	// Nothing changed on disk, so only the hint can cause this publish.
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri, Type: 2}}})
	c.diagnostics(next, uri, -1)
	c.shutdown()
}

func TestNoRegistrationWithoutTheCapability(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", cleanDecisions)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	c.diagnostics(0, uriOf(path), -1)
	c.shutdown()
	for _, a := range c.asked {
		t.Errorf("server asked %s of a client without the capabilities", a.method)
	}
}

func TestShutdownStopsTheWatcher(t *testing.T) {
	root := t.TempDir()
	path := writeMemory(t, root, "decisions.md", cleanDecisions)
	c := newTestClient(t, Options{})
	c.initialize(root, nil, nil)
	c.diagnostics(0, uriOf(path), -1)
	c.server.mu.Lock()
	w := c.server.watch
	c.server.mu.Unlock()
	if w == nil {
		t.Fatal("no watcher after initialized")
	}
	// A change just before shutdown arms a timer that must not outlive it.
	writeFile(t, path, dupDecisions)
	c.shutdown()
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the watcher's event loop is still running after shutdown")
	}
	if err := w.fs.Add(root); err == nil {
		t.Error("the fsnotify watcher still accepts watches after shutdown")
	}
	c.server.mu.Lock()
	pending := 0
	for _, f := range c.server.folders {
		if f.timer != nil || f.sync != nil {
			pending++
		}
	}
	if c.server.watch != nil || pending != 0 {
		t.Errorf("after shutdown: watch %v, %d folders with pending timers", c.server.watch, pending)
	}
	c.server.mu.Unlock()
	// No goroutine of ours or of fsnotify is left (other tests of this
	// package run sequentially, so any such goroutine would be ours).
	eventually(t, "no watcher goroutine is left", func() bool {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		return !strings.Contains(stacks, "(*watcher).loop") && !strings.Contains(stacks, "fsnotify.(*inotify).readEvents")
	})
}
