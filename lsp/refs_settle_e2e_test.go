package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// The reference verdicts the server shows once a change to the code has
// settled are a fresh `check`'s: the red team's cases, each a change the
// server once followed without checking again, or did not see.

// referenceCodes are the findings judged against the repository.
var referenceCodes = map[string]bool{"stale-path": true, "stale-command": true, "version-drift": true}

// freshReferences is what a fresh `check --format json` in root says of
// the memory file rel, "line:code:message" sorted, the CLI's history cache
// off.
func freshReferences(t *testing.T, root, rel string) []string {
	t.Helper()
	cmd := exec.Command(binary, "check", "--format", "json")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MEMORY_LSP_CACHE=off")
	out, err := cmd.Output()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("check: %v", err)
	}
	var res struct {
		Findings []struct {
			Path, Code, Message string
			Line                int
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("check's output: %v\n%s", err, out)
	}
	var got []string
	for _, f := range res.Findings {
		if referenceCodes[f.Code] && filepath.ToSlash(f.Path) == rel {
			got = append(got, fmt.Sprintf("%d:%s:%s", f.Line, f.Code, f.Message))
		}
	}
	slices.Sort(got)
	return got
}

// shownReferences is the reference findings of a publish, as
// freshReferences writes them.
func shownReferences(d *lsptest.Diagnostics) []string {
	var got []string
	for _, x := range d.Diagnostics {
		if referenceCodes[x.Code] {
			got = append(got, fmt.Sprintf("%d:%s:%s", x.Range.Start.Line+1, x.Code, x.Message))
		}
	}
	slices.Sort(got)
	return got
}

// settlesOnFreshCheck waits until the server's last publish for the memory
// file rel (uri) shows the reference findings a fresh check gives.
func settlesOnFreshCheck(t *testing.T, c *lsptest.Client, uri, root, rel, after string) {
	t.Helper()
	want := freshReferences(t, root, rel)
	deadline := time.Now().Add(wait)
	for {
		var last []string
		for _, m := range c.Messages() {
			var p lsptest.Diagnostics
			if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
				last = shownReferences(&p)
			}
		}
		if slices.Equal(last, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s the server shows %q; a fresh check says %q", after, last, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startFollowing starts the server in root with the memory file open and
// returns the file's URI once first published. With registers false the
// client registers no file watchers and the server follows the code with
// its own; with it true the client takes that on (and, in these tests,
// sends nothing).
func startFollowing(t *testing.T, root, mem string, registers bool) (*lsptest.Client, string) {
	t.Helper()
	c := startBinary(t, root)
	params := lsptest.InitializeParams(root, nil)
	params["capabilities"].(map[string]any)["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": registers}
	c.Initialize(params)
	uri := c.OpenFile(mem)
	c.AwaitDiagnostics(uri, 1, wait)
	return c, uri
}

// holds fails the test unless a fresh check finds nothing in the memory
// file any more: a test whose change moves no verdict tests nothing.
func holds(t *testing.T, root string) {
	t.Helper()
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 0 {
		t.Fatalf("test bug: after the change a fresh check still says %q", fresh)
	}
}

// servedWithEntry is a git repository with one source file and a memory
// file holding entry, committed, served by a server that follows the code
// with its own watcher, settled.
func servedWithEntry(t *testing.T, entry string) (root string, c *lsptest.Client, uri string) {
	t.Helper()
	repo := gittest.New(t)
	root = repo.Top()
	repo.Write(map[string]string{"src/app.ts": "export {};\n", ".memory/decisions.md": "# Decisions\n\n" + entry + "\n"})
	repo.Commit("2024-01-01T10:00:00Z", "init")
	c, uri = startFollowing(t, root, filepath.Join(root, ".memory", "decisions.md"), false)
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 1 {
		t.Fatalf("test bug: at the start a fresh check says %q, not that the cited path does not exist", fresh)
	}
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the start")
	return root, c, uri
}

// TestE2EReferencesSettleOnAModuleFile: an entry cites `src/utils`; a
// src/utils.ts written later makes it hold.
func TestE2EReferencesSettleOnAModuleFile(t *testing.T) {
	root, c, uri := servedWithEntry(t, "- [utils] Shared helpers live in `src/utils`.")
	writeFile(t, filepath.Join(root, "src", "utils.ts"), "export const x = 1;\n")
	holds(t, root)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "writing src/utils.ts")
}

// TestE2EReferencesSettleOnADeepenedClone: the rename an entry's path went
// through lies past a shallow clone's cut until `git fetch --deepen`.
func TestE2EReferencesSettleOnADeepenedClone(t *testing.T) {
	origin := gittest.New(t)
	origin.Write(map[string]string{"src/old.js": "export const entry = 1; // long enough for git to see a rename\n", "README.md": "# x\n",
		".memory/decisions.md": "# Decisions\n\n- [entry] The entry point is `src/old.js`.\n"})
	origin.Commit("2024-01-01T10:00:00Z", "init")
	origin.Git("mv", "src/old.js", "src/new.js")
	origin.Commit("2024-01-02T10:00:00Z", "rename")
	for i, name := range []string{"a.txt", "b.txt"} {
		origin.Write(map[string]string{name: name})
		origin.Commit(fmt.Sprintf("2024-01-0%dT10:00:00Z", 3+i), name)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	origin.Git("clone", "-q", "--depth", "2", "file://"+origin.Top(), clone)
	root, err := filepath.EvalSymlinks(clone)
	if err != nil {
		t.Fatal(err)
	}
	c, uri := startFollowing(t, root, filepath.Join(root, ".memory", "decisions.md"), false)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the start")
	origin.Git("-C", root, "fetch", "-q", "--deepen=2")
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 1 || !strings.Contains(fresh[0], "src/new.js") {
		t.Fatalf("test bug: after the deepening a fresh check says %q, not the rename", fresh)
	}
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "git fetch --deepen=2")
}

// TestE2EReferencesSettleAfterGitInit: a folder made a git repository
// after the server started has its history read, and followed.
func TestE2EReferencesSettleAfterGitInit(t *testing.T) {
	g := gittest.New(t)
	root := g.Top()
	if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil { // a plain folder, until later
		t.Fatal(err)
	}
	mem := filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, filepath.Join(root, "src", "session.ts"), "export const session = 1; // long enough for git to see a rename\n")
	writeFile(t, filepath.Join(root, "README.md"), "# x\n")
	writeFile(t, mem, "# Decisions\n\n- [auth] Sessions live in `src/session.ts`.\n")
	c, uri := startFollowing(t, root, mem, false)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the start")
	g.Git("init", "-q")
	g.Git("config", "user.name", "Memory Test")
	g.Git("config", "user.email", "memory@example.com")
	g.Commit("2024-01-01T10:00:00Z", "init")
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "git init and a commit")
	g.Git("mv", "src/session.ts", "src/sessions.ts")
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "git mv")
	// only git's files change now: the server must be watching them
	g.Commit("2024-02-01T10:00:00Z", "rename")
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 1 || !strings.Contains(fresh[0], "renamed to src/sessions.ts") {
		t.Fatalf("test bug: after the commit a fresh check says %q, not the rename", fresh)
	}
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the rename committed")
}

// TestE2EReferencesSettleOnAParentRepository: a workspace folder below the
// repository's top level, whose client watches the folder's files for the
// server (and so sends nothing of git's folder above it): a committed
// rename is seen all the same.
func TestE2EReferencesSettleOnAParentRepository(t *testing.T) {
	repo := gittest.New(t)
	root := filepath.Join(repo.Top(), "app")
	mem := filepath.Join(root, ".memory", "decisions.md")
	repo.Write(map[string]string{"app/src/session.ts": "export const session = 1; // long enough for git to see a rename\n",
		"app/package.json": "{\"name\":\"app\"}\n", "app/.memory/decisions.md": "# Decisions\n\n- [auth] Sessions live in `src/session.ts`.\n"})
	repo.Commit("2024-01-01T10:00:00Z", "init")
	c, uri := startFollowing(t, root, mem, true)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the start")
	// This client sends no file events at all: only git's folder, which
	// the server watches itself, tells of the rename.
	repo.Git("mv", "app/src/session.ts", "app/src/sessions.ts")
	repo.Commit("2024-02-01T10:00:00Z", "rename")
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 1 || !strings.Contains(fresh[0], "renamed to src/sessions.ts") {
		t.Fatalf("test bug: after the commit a fresh check says %q, not the rename", fresh)
	}
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the rename committed")
}

// TestE2EReferencesSettleOnAFolderFirstFile: an entry cites a folder that
// does not exist; made empty it still does not (git lists no empty
// folder), and its first file makes it hold.
func TestE2EReferencesSettleOnAFolderFirstFile(t *testing.T) {
	root, c, uri := servedWithEntry(t, "- [adr] Decisions are recorded in `docs/adr/`.")
	from := c.Mark()
	if err := os.MkdirAll(filepath.Join(root, "docs", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	// the check the new folder sets going, before its first file comes
	c.AwaitDiagnosticsWhere(from, uri, wait, func(*lsptest.Diagnostics) bool { return true })
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "mkdir -p docs/adr")
	writeFile(t, filepath.Join(root, "docs", "adr", "0001-record.md"), "# Record decisions\n")
	holds(t, root)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the folder's first file")
}

// TestE2EReferencesSettleWhenAMoveDestinationGoes: an entry's file was
// moved, which the finding names; the file it was moved to is deleted
// later, outside git.
func TestE2EReferencesSettleWhenAMoveDestinationGoes(t *testing.T) {
	repo := gittest.New(t)
	root := repo.Top()
	mem := filepath.Join(root, ".memory", "decisions.md")
	repo.Write(map[string]string{"src/auth/session.ts": "export const session = 1; // long enough for git to see a rename\n",
		"src/app.ts": "export {};\n", ".memory/decisions.md": "# Decisions\n\n- [auth] Auth lives in `src/auth/session.ts`.\n"})
	repo.Commit("2024-01-01T10:00:00Z", "init")
	repo.Git("mv", "src/auth", "src/login")
	repo.Commit("2024-02-01T10:00:00Z", "auth to login")
	c, uri := startFollowing(t, root, mem, false)
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the start")
	if err := os.Remove(filepath.Join(root, "src", "login", "session.ts")); err != nil {
		t.Fatal(err)
	}
	if fresh := freshReferences(t, root, ".memory/decisions.md"); len(fresh) != 1 || !strings.Contains(fresh[0], "does not exist either") {
		t.Fatalf("test bug: after the deletion a fresh check says %q", fresh)
	}
	settlesOnFreshCheck(t, c, uri, root, ".memory/decisions.md", "the destination deleted")
}
