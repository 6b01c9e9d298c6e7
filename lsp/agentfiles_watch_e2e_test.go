package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestE2EClosedAgentFileChangesOnDisk: an agent's file nobody has open in
// the editor grows past Codex's 32 KiB on disk (a git pull, an agent's
// edit): the server sees it — by its own watcher, or by the events of a
// client that watches for it — and shows the load-budget error, and takes
// it back when the file shrinks again.
func TestE2EClosedAgentFileChangesOnDisk(t *testing.T) {
	for _, tc := range []struct {
		name               string
		byClient, viaALink bool
	}{{"server-watcher", false, false}, {"client-events", true, false}, {"server-watcher, a root reached through a link", false, true}} {
		byClient := tc.byClient
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			entry := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
			small := "# Agents\n\n- Install dependencies with `pnpm install`.\n"
			g.Write(map[string]string{".memory/decisions.md": entry, "AGENTS.md": small})
			g.Commit("2026-11-01T10:00:00Z", "memory and agents")
			root := g.Dir
			if tc.viaALink {
				// the editor opens the project by a path through a link, as
				// macOS names its temporary folders (/var → /private/var):
				// the repository, from git, names it by its real path
				root = filepath.Join(t.TempDir(), "project")
				if err := os.Symlink(g.Dir, root); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
			}
			c := startBinary(t, root)
			params := lsptest.InitializeParams(root, nil)
			params["capabilities"].(map[string]any)["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": byClient}
			c.Initialize(params)
			uri := lsptest.URI(filepath.Join(root, ".memory", "decisions.md"))
			agentsURI := lsptest.URI(filepath.Join(root, "AGENTS.md"))
			c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": entry}})
			c.AwaitDiagnostics(uri, 1, 20*time.Second)
			growAndShrink(t, c, g, "AGENTS.md", agentsURI, agentsURI, byClient, small)
			c.Shutdown()
		})
	}
}

// TestE2ELinkedAgentFileChangesOnDisk: AGENTS.md is a symbolic link to
// docs/agents.md (a common way to share one file between agents). A write
// to docs/agents.md changes what Codex loads, though no instruction file's
// name changed and nothing cites docs/: the server follows the link's
// target — by its own watcher, or by a client's events for it — and shows
// the load-budget error on AGENTS.md, and takes it back.
func TestE2ELinkedAgentFileChangesOnDisk(t *testing.T) {
	for _, byClient := range []bool{false, true} {
		name := "server-watcher"
		if byClient {
			name = "client-events"
		}
		t.Run(name, func(t *testing.T) {
			g := gittest.New(t)
			entry := "# Decisions\n\n- [pm] Use pnpm for installs.\n"
			small := "# Agents\n\n- Install dependencies with `pnpm install`.\n"
			g.Write(map[string]string{".memory/decisions.md": entry, "docs/agents.md": small})
			if err := os.Symlink(filepath.Join("docs", "agents.md"), filepath.Join(g.Dir, "AGENTS.md")); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			g.Commit("2026-11-01T10:00:00Z", "memory and agents")
			c := startBinary(t, g.Dir)
			params := lsptest.InitializeParams(g.Dir, nil)
			params["capabilities"].(map[string]any)["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": byClient}
			c.Initialize(params)
			uri := lsptest.URI(filepath.Join(g.Dir, ".memory", "decisions.md"))
			agentsURI := lsptest.URI(filepath.Join(g.Dir, "AGENTS.md"))
			targetURI := lsptest.URI(filepath.Join(g.Dir, "docs", "agents.md"))
			c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": entry}})
			c.AwaitDiagnostics(uri, 1, 20*time.Second)
			growAndShrink(t, c, g, "docs/agents.md", targetURI, agentsURI, byClient, small)
			if byClient {
				// a real client sends changes only to what it watches: the
				// server asked it to watch the link's target
				real, err := filepath.EvalSymlinks(filepath.Join(g.Dir, "docs", "agents.md"))
				if err != nil {
					t.Fatal(err)
				}
				c.Await(0, 10*time.Second, "a registration for docs/agents.md", func(m *lsptest.Message) bool {
					return m.Method == "client/registerCapability" && strings.Contains(string(m.Params), "memory-lsp/instruction-links") &&
						strings.Contains(string(m.Params), filepath.ToSlash(real))
				})
			}
			c.Shutdown()
		})
	}
}

// growAndShrink writes the file rel of g's work tree (AGENTS.md or the file
// it links to) past Codex's 32 KiB, then back to small, each time sending
// the client's event for eventURI when byClient, and waits for AGENTS.md's
// load-budget error at agentsURI to show, then to go. The server starts
// watching the root once it has read the repository, a moment after the
// first diagnostics: a write before that is in what it reads. So each
// write is made again until seen (the same content: only the event is
// repeated).
func growAndShrink(t *testing.T, c *lsptest.Client, g *gittest.Repo, rel, eventURI, agentsURI string, byClient bool, small string) {
	t.Helper()
	seen := func(text string, want func(*lsptest.Diagnostics) bool) *lsptest.Diagnostics {
		t.Helper()
		mark := c.Mark()
		for try := 0; ; try++ {
			g.Write(map[string]string{rel: text})
			if byClient {
				c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": eventURI, "type": 2}}})
			}
			if d, ok := c.TryAwaitDiagnosticsWhere(mark, agentsURI, 2*time.Second, want); ok {
				return d
			}
			if try == 10 {
				t.Fatalf("%s written on disk, no diagnostics seen for AGENTS.md", rel)
			}
		}
	}
	d := seen(small+strings.Repeat(strings.Repeat("x", 99)+"\n", 400), func(d *lsptest.Diagnostics) bool { return d.Find("load-budget") != nil })
	if f := d.Find("load-budget"); !strings.Contains(f.Message, "Codex loads at most 32 KiB") {
		t.Errorf("%s grown on disk: %s", rel, f.Message)
	}
	seen(small, func(d *lsptest.Diagnostics) bool { return d.Find("load-budget") == nil })
}
