package lsp_test

// Red-team reproductions against the acknowledgement journal (ARCHITECTURE.md,
// "Nothing acknowledged is lost"). Each test drives the real binary as an
// editor does, in a git repository, and fails on the commit it was written
// against.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// settle lets the server's watcher and reconcile run, then makes sure a
// request round-trips (the read loop is past every notification sent).
func redSettle(c *lsptest.Client) {
	time.Sleep(700 * time.Millisecond)
	c.Request("workspace/executeCommand", map[string]any{"command": "memory.listMemories", "arguments": []any{map[string]any{}}})
	time.Sleep(300 * time.Millisecond)
}

// A client that sends no didSave (the protocol makes it optional): the
// editor saves its buffer right after an agent's store, then the user types
// on before the server reconciles. The saved text is neither the buffer's
// text at the reconcile nor one it noted (no record was live while it was
// typed), so the save is judged "another writer" and the acknowledged entry
// is honoured as deleted.
// (The client says so in its capabilities: one that declares didSave is
// waited for, and a change without it is another writer's.)
func TestRedNoDidSaveTypingAfterSaveLosesAgentEntry(t *testing.T) {
	longtest.Skip(t)
	root, path := gitWorkspace(t, togetherDecisions)
	c := startBinary(t, root)
	p := initParams(root, false, nil)
	p["capabilities"].(map[string]any)["textDocument"].(map[string]any)["synchronization"] = map[string]any{"didSave": false}
	c.Initialize(p)
	uri := c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	agentStore(t, root, strings.TrimPrefix(agent, "- "))
	// The editor's save: the buffer as it is, written in place, no didSave.
	if err := os.WriteFile(path, []byte(c.Text(uri)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})
	redSettle(c)
	eventuallyTrue(t, "the acknowledged entry on disk", func() (bool, string) { return holdsEach(readFile(t, path), agent) })
	eventuallyTrue(t, "the acknowledged entry in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), agent, mine) })
}

// commitAll commits the work tree as it is.
func commitAll(t *testing.T, root string) {
	t.Helper()
	git(t, root, "add", "-A")
	git(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "memory")
}

// The user discards an agent's store with git while the buffer (an editor
// that does not reload files by itself) still shows it. ARCHITECTURE.md says
// a change that is not a save (git) is honoured; but git writes back the
// very text the buffer held before the entry came in, which the server has
// noted as one of the buffer's texts, so it takes the checkout for a save
// that crossed the bring-in and puts the entry back. After `git stash`, the
// put-back line makes `git stash pop` refuse to run.
func TestRedGitDiscardOfAgentEntryIsUndone(t *testing.T) {
	longtest.Skip(t)
	for _, how := range []string{"stash", "checkout"} {
		t.Run(how, func(t *testing.T) {
			root, path := gitWorkspace(t, togetherDecisions)
			commitAll(t, root)
			c := startBinary(t, root)
			c.Initialize(initParams(root, false, nil))
			uri := c.OpenFile(path)
			c.AwaitDiagnostics(uri, 1, wait)
			agentStore(t, root, strings.TrimPrefix(agent, "- "))
			eventuallyTrue(t, "the entry in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), agent) })
			redSettle(c)
			if how == "stash" {
				git(t, root, "stash", "-q")
			} else {
				git(t, root, "checkout", "-q", "--", ".memory/decisions.md")
			}
			redSettle(c)
			redSettle(c)
			if disk := readFile(t, path); strings.Contains(disk, agent) {
				t.Errorf("after git %s the discarded entry is back on disk:\n%s\nmessages: %q", how, disk, messages(c))
			}
			if how == "stash" {
				out, err := exec.Command("git", "-C", root, "stash", "pop").CombinedOutput()
				if err != nil {
					t.Errorf("git stash pop: %v\n%s", err, out)
				}
			}
		})
	}
}

// Two editors (two server processes) hold the same memory file. The user
// deletes the agent's fresh entry in one of them and saves. The saved text
// is the one both buffers held before the entry came in, so the other
// server takes it for a save of its own buffer that crossed the bring-in,
// and puts the entry back: the user's deletion is undone.
func TestRedDeletionInOneEditorUndoneByTheOther(t *testing.T) {
	longtest.Skip(t)
	root, path := gitWorkspace(t, togetherDecisions)
	a := startBinary(t, root)
	a.Initialize(initParams(root, false, nil))
	ua := a.OpenFile(path)
	a.AwaitDiagnostics(ua, 1, wait)
	b := startBinary(t, root)
	b.Initialize(initParams(root, false, nil))
	ub := b.OpenFile(path)
	b.AwaitDiagnostics(ub, 1, wait)

	agentStore(t, root, strings.TrimPrefix(agent, "- "))
	eventuallyTrue(t, "the entry in editor A", func() (bool, string) { return holdsEach(a.Text(ua), agent) })
	eventuallyTrue(t, "the entry in editor B", func() (bool, string) { return holdsEach(b.Text(ub), agent) })
	redSettle(a)
	redSettle(b)

	lines := strings.Split(a.Text(ua), "\n")
	at := -1
	for i, l := range lines {
		if l == agent {
			at = i
		}
	}
	a.Change(ua, lsptest.TextEdit{Range: lsptest.R(at, 0, at+1, 0), NewText: ""})
	a.Save(ua)
	redSettle(a)
	redSettle(b)
	if disk := readFile(t, path); strings.Contains(disk, agent) {
		t.Errorf("the entry the user deleted in editor A is back on disk:\nA: %q\nB: %q\n%s", messages(a), messages(b), disk)
	}
	if strings.Contains(a.Text(ua), agent) {
		t.Errorf("the entry the user deleted is back in editor A's buffer")
	}
}

// The journal's exclude line is anchored at the repository's top
// (".memory/.acked"), so a workspace in a subfolder of the repository (a
// monorepo) has its journal in `git status`; `git add -A` commits it, and
// from then on every record is ignored as "tracked by git": a save right
// after an agent's store loses the entry again.
func TestRedJournalInSubfolderIsCommittedAndDisarmed(t *testing.T) {
	longtest.Skip(t)
	for _, sub := range []string{"", "app"} {
		name := "control: workspace at the repository's top"
		if sub != "" {
			name = "workspace in a subfolder"
		}
		t.Run(name, func(t *testing.T) {
			top := t.TempDir()
			if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
				t.Skipf("git init: %v %s", err, out)
			}
			root := filepath.Join(top, sub)
			path := filepath.Join(root, ".memory", "decisions.md")
			writeFile(t, path, togetherDecisions)
			agentStore(t, root, "Run the migrations before the deploy.")
			out, err := exec.Command("git", "-C", top, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), ".acked") {
				t.Errorf("the journal shows in git status of the repository:\n%s", out)
			}
			commitAll(t, top)

			c := startBinary(t, root)
			c.Initialize(initParams(root, false, nil))
			uri := c.OpenFile(path)
			c.AwaitDiagnostics(uri, 1, wait)
			for _, content := range distinctFacts {
				agentStore(t, root, content)
				c.Save(uri) // the editor's save right after the store
				redSettle(c)
				eventuallyTrue(t, "the acknowledged entry on disk", func() (bool, string) {
					return holdsEach(readFile(t, path), "- "+content)
				})
			}
		})
	}
}

// distinctFacts are stores no one of which is similar to another.
var distinctFacts = []string{
	"Run the linter before every push.",
	"Keep secrets in the vault, never in env files.",
	"The billing service owns invoice numbering.",
	"Pin container images by digest.",
	"Feature flags expire after one quarter.",
}

// storeCLI runs an agent's CLI store and returns its exit error and output.
func storeCLI(root, content string) (string, error) {
	out, err := exec.Command(binary, "store", "--root", root, "--category", "Decision", content).CombinedOutput()
	return string(out), err
}

// A repository can plant the journal's path as something else than a
// regular file: a folder (`.memory/.acked/x` committed) or a symlink to a
// memory file beside it. A store is then refused before anything is
// written, naming the journal (it had written the entry through the symlink
// and then answered that it failed: an agent told "not stored" about an
// entry on disk).
func TestRedPlantedJournalPathBreaksStores(t *testing.T) {
	for _, kind := range []string{"folder", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			root, path := gitWorkspace(t, togetherDecisions)
			j := filepath.Join(root, ".memory", ".acked")
			if kind == "folder" {
				writeFile(t, filepath.Join(j, "keep"), "")
			} else if err := os.Symlink("decisions.md", j); err != nil {
				t.Fatal(err)
			}
			commitAll(t, root)
			before := readFile(t, path)
			out, err := storeCLI(root, "Run the linter before every push.")
			if err == nil || !strings.Contains(out, ".acked") || !strings.Contains(out, "remove it") {
				t.Errorf("store: exit %v, want a refusal naming the journal:\n%s", err, out)
			}
			if after := readFile(t, path); after != before {
				t.Errorf("the refused store wrote decisions.md:\n%s", after)
			}
		})
	}
}

// An agent whose clock is a few seconds behind the editor's (a container or
// a VM whose clock drifted: WSL2 and Docker's VM after a sleep) stores as
// our writers do, file and journal record inside the lock; the editor saves
// right after. The record is older than the server's last read of the
// journal minus its 5 s slack, so it is not judged, and the entry is lost
// as before the journal. skew is how far behind the agent's clock is.
func TestRedSkewedWriterClockLosesEntry(t *testing.T) {
	longtest.Skip(t)
	for _, skew := range []time.Duration{0, 10 * time.Second} {
		t.Run(skew.String(), func(t *testing.T) {
			root, path, c, uri := session(t, togetherDecisions, false, nil)
			// One reconcile, so that the server has read the journal.
			c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})
			c.Save(uri)
			redSettle(c)
			ws, err := store.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ws.Update(context.Background(), func(s *store.Snapshot) ([]store.Change, error) {
				f := s.Lookup("decisions.md")
				rec := store.NewAck("decisions.md", agent, nil, "cli", time.Now().Add(-skew))
				return []store.Change{
					{Path: f.Path, Data: append(append([]byte{}, f.Data...), agent+"\n"...)},
					{Path: filepath.Join(s.Dir, store.JournalName), Data: rec.Encode(), Append: true},
				}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			c.Save(uri) // the editor's save right after the store
			redSettle(c)
			eventuallyTrue(t, "the acknowledged entry on disk", func() (bool, string) { return holdsEach(readFile(t, path), agent, mine) })
		})
	}
}
