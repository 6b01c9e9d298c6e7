package lsp_test

// An open editor and a writing agent at once: each test drives
// the real binary over stdio as an editor does, in a git repository (as
// users work), while an agent writes the same .memory file with the CLI.
// The promise checked everywhere: nothing stored is lost, nothing appears
// twice, and every store that replies "Stored" is on disk and in the open
// buffer.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

const togetherDecisions = "# Decisions\n\n- [db] Use Postgres for the ledger.\n- [deploy] Deploy the API before the web app.\n"

// gitWorkspace is a git repository holding .memory/decisions.md.
func gitWorkspace(t *testing.T, decisions string) (root, path string) {
	t.Helper()
	root = t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s (these tests run in a git repository, as users work)", err, out)
	}
	path = filepath.Join(root, ".memory", "decisions.md")
	writeFile(t, path, decisions)
	return root, path
}

// agentStore stores content as an agent does, through the CLI process,
// and returns what it printed (the agent reads "Stored" from it).
func agentStore(t *testing.T, root, content string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append(append([]string{"store", "--root", root, "--category", "Decision"}, args...), content)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("agent store: %v\n%s", err, out)
	}
	return string(out)
}

// initParams are an editor's initialize params; versioned says whether it
// applies versioned documentChanges (Neovim 0.7 does not).
func initParams(root string, versioned bool, options any) map[string]any {
	p := lsptest.InitializeParams(root, options)
	ws := p["capabilities"].(map[string]any)["workspace"].(map[string]any)
	ws["workspaceEdit"] = map[string]any{"documentChanges": versioned}
	return p
}

// session starts the server in a fresh git workspace and opens its
// decisions.md, as an editor does.
func session(t *testing.T, decisions string, versioned bool, options any) (root, path string, c *lsptest.Client, uri string) {
	t.Helper()
	root, path = gitWorkspace(t, decisions)
	c = startBinary(t, root)
	c.Initialize(initParams(root, versioned, options))
	uri = c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	return root, path, c, uri
}

// eventuallyTrue polls cond until it holds or wait runs out.
func eventuallyTrue(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	eventuallyWithin(t, wait, what, cond)
}

// eventuallyWithin is eventuallyTrue with its own bound, for a server that
// checks an 8 MiB file on a busy machine.
func eventuallyWithin(t *testing.T, wait time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s; now:\n%s", what, wait, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// once reports whether text holds line exactly once, as a whole line.
func once(text, line string) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			n++
		}
	}
	return n == 1
}

// holdsEach reports whether text holds every line exactly once.
func holdsEach(text string, lines ...string) (bool, string) {
	for _, l := range lines {
		if !once(text, l) {
			return false, fmt.Sprintf("%q is not there exactly once in:\n%s", l, text)
		}
	}
	return true, text
}

// messages are the texts of the window/showMessage notifications so far.
func messages(c *lsptest.Client) []string {
	var out []string
	for _, m := range c.Messages() {
		if m.Method == "window/showMessage" {
			var p struct {
				Message string `json:"message"`
			}
			json.Unmarshal(m.Params, &p)
			out = append(out, p.Message)
		}
	}
	return out
}

func someMessage(c *lsptest.Client, parts ...string) (bool, string) {
	msgs := messages(c)
	for _, m := range msgs {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(m, p)
		}
		if all {
			return true, m
		}
	}
	return false, strings.Join(msgs, "\n")
}

const (
	mine  = "- [review] Review schema changes with a second person."
	agent = "- Tag every release from the main branch."
)

// Unsaved buffer + an agent store on disk + the editor saves: the agent's
// entry is brought into the buffer, so the save keeps it.
func TestE2EAgentStoreThenSave(t *testing.T) {
	for _, versioned := range []bool{true, false} {
		t.Run(fmt.Sprintf("versioned=%v", versioned), func(t *testing.T) {
			root, path, c, uri := session(t, togetherDecisions, versioned, nil)
			c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})

			agentStore(t, root, strings.TrimPrefix(agent, "- "))
			eventuallyTrue(t, "the agent's entry in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), mine, agent) })
			eventuallyTrue(t, "a message naming the entry", func() (bool, string) {
				return someMessage(c, "brought 1 entry", strings.TrimPrefix(agent, "- "))
			})
			if got := readFile(t, path); strings.Contains(got, mine) {
				t.Errorf("the buffer's unsaved line reached the disk before a save:\n%s", got)
			}
			c.Save(uri)
			eventuallyTrue(t, "the saved file", func() (bool, string) {
				return holdsEach(readFile(t, path), "- [db] Use Postgres for the ledger.", "- [deploy] Deploy the API before the web app.", mine, agent)
			})
			c.Shutdown()
		})
	}
}

// The editor saves before the reconcile lands (within the server's
// debounce), or refuses the server's edit and saves anyway: the dropped
// entry is restored on disk (and in the buffer, where the editor lets it),
// with a warning.
func TestE2ESaveDropsAgentEntry(t *testing.T) {
	longtest.Skip(t)
	for _, refuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("refuse=%v", refuse), func(t *testing.T) {
			root, path := gitWorkspace(t, togetherDecisions)
			c := startBinary(t, root)
			if refuse {
				c.Handle("workspace/applyEdit", func(json.RawMessage) (any, error) {
					return map[string]any{"applied": false, "failureReason": "the user said no"}, nil
				})
			}
			c.Initialize(initParams(root, true, nil))
			uri := c.OpenFile(path)
			c.AwaitDiagnostics(uri, 1, wait)
			c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})

			agentStore(t, root, strings.TrimPrefix(agent, "- "))
			if refuse {
				// The reconcile was tried and refused.
				eventuallyTrue(t, "the server's edit", func() (bool, string) {
					return len(c.ServerRequests("workspace/applyEdit")) > 0, ""
				})
			} else {
				time.Sleep(30 * time.Millisecond) // inside the server's debounce
			}
			if strings.Contains(c.Text(uri), agent) {
				t.Fatalf("the buffer already holds the agent's entry: the save does not race anything")
			}
			// Queries through the server see what is on disk for every other
			// agent, although the buffer does not hold it yet.
			for _, cmd := range []string{"memory.queryMemory", "memory.listMemories"} {
				raw, err := c.Request("workspace/executeCommand", map[string]any{"command": cmd,
					"arguments": []any{map[string]any{"query": "tag every release"}}})
				if cmd == "memory.listMemories" {
					raw, err = c.Request("workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{map[string]any{}}})
				}
				if err != nil || !strings.Contains(string(raw), strings.TrimPrefix(agent, "- ")) {
					t.Errorf("%s does not see the agent's entry: %v %s", cmd, err, raw)
				}
				if cmd == "memory.listMemories" && !strings.Contains(string(raw), "Review schema changes") {
					t.Errorf("%s does not see the buffer's entry: %s", cmd, raw)
				}
			}
			c.Save(uri) // the buffer without the agent's entry
			eventuallyTrue(t, "the dropped entry restored on disk", func() (bool, string) {
				return holdsEach(readFile(t, path), "- [db] Use Postgres for the ledger.", mine, agent)
			})
			eventuallyTrue(t, "a warning naming the restored entry", func() (bool, string) {
				return someMessage(c, "restored", strings.TrimPrefix(agent, "- "))
			})
			if !refuse {
				eventuallyTrue(t, "the restored entry in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), mine, agent) })
			}
			c.Shutdown()
		})
	}
}

// Back-to-back stores into an open, full category, by a client that does
// not version its edits (as Neovim 0.7): every store that replies "Stored"
// is on disk and in the buffer, unless a later store's reply says it
// evicted it.
func TestE2EConcurrentStoresIntoOpenFullCategory(t *testing.T) {
	for _, versioned := range []bool{false, true} {
		t.Run(fmt.Sprintf("versioned=%v", versioned), func(t *testing.T) {
			var full strings.Builder
			full.WriteString("# Decisions\n\n")
			for i := range 5 {
				fmt.Fprintf(&full, "- [old-%d] Old decision number %d about the %s module.\n", i, i, []string{"billing", "search", "auth", "export", "import"}[i])
			}
			root, path := gitWorkspace(t, full.String())
			c := startBinary(t, root)
			c.Initialize(initParams(root, versioned, map[string]any{"memory": map[string]any{"categoryLimit": map[string]any{"Decision": 5}}}))
			uri := c.OpenFile(path)
			c.AwaitDiagnostics(uri, 1, wait)

			contents := []string{
				"Cache rendered invoices for ten minutes.",
				"Write every migration as a reversible script.",
				"Keep feature flags in the config service.",
				"Run the nightly export at two in the morning.",
				"Sign webhooks with a rotating shared secret.",
				"Pin the base image of every container by digest.",
			}
			type reply struct {
				Action  string `json:"action"`
				Slug    string `json:"slug"`
				Content string `json:"content"`
				Evicted *struct {
					Content string `json:"content"`
				} `json:"evicted"`
				Buffers []struct {
					Applied bool   `json:"applied"`
					Problem string `json:"problem"`
				} `json:"buffers"`
			}
			replies := make([]reply, len(contents))
			var wg sync.WaitGroup
			for i, content := range contents {
				wg.Add(1)
				go func() {
					defer wg.Done()
					call, err := c.Go("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
						"arguments": []any{map[string]any{"category": "Decision", "content": content}}})
					if err != nil {
						t.Error(err)
						return
					}
					raw, err := call.Wait(3 * wait)
					if err != nil {
						t.Errorf("store %q: %v", content, err)
						return
					}
					json.Unmarshal(raw, &replies[i])
				}()
			}
			wg.Wait()
			evicted := map[string]bool{}
			for _, r := range replies {
				if r.Evicted != nil {
					evicted[r.Evicted.Content] = true
				}
			}
			disk, buf := readFile(t, path), c.Text(uri)
			if disk != buf {
				t.Errorf("disk and buffer differ after the stores:\ndisk:\n%s\nbuffer:\n%s", disk, buf)
			}
			for i, r := range replies {
				if r.Action != "stored" {
					t.Errorf("store %q replied %+v", contents[i], r)
					continue
				}
				for _, b := range r.Buffers {
					if !b.Applied || b.Problem != "" {
						t.Errorf("store %q: buffer %+v", contents[i], b)
					}
				}
				if evicted[r.Content] {
					continue
				}
				line := memoryLine(r.Slug, r.Content)
				if !once(disk, line) || !once(buf, line) {
					t.Errorf("stored %q is not once on disk and once in the buffer:\ndisk:\n%s\nbuffer:\n%s", line, disk, buf)
				}
			}
			c.Shutdown()
		})
	}
}

func memoryLine(slug, content string) string {
	if slug == "" {
		return "- " + content
	}
	return "- [" + slug + "] " + content
}

// The agent changes the very entry the user is editing: both versions are
// kept in the buffer, one after the other, and reported as two versions of
// the slug to choose from; the disk keeps the agent's version until the
// user saves.
func TestE2EAgentUpdatesTheEntryBeingEdited(t *testing.T) {
	root, path, c, uri := session(t, togetherDecisions, false, nil)
	// The user rewrites [db] (line 3), unsaved.
	c.Change(uri, lsptest.TextEdit{Range: lsptest.R(2, 0, 3, 0), NewText: "- [db] Use Postgres 16 for the ledger and the audit log.\n"})
	agentStore(t, root, "Use CockroachDB for the ledger.", "--slug", "db")
	if got := readFile(t, path); !once(got, "- [db] Use CockroachDB for the ledger.") {
		t.Fatalf("the agent's update is not on disk:\n%s", got)
	}
	eventuallyTrue(t, "both versions in the buffer", func() (bool, string) {
		return holdsEach(c.Text(uri), "- [db] Use Postgres 16 for the ledger and the audit log.", "- [db] Use CockroachDB for the ledger.", "- [deploy] Deploy the API before the web app.")
	})
	eventuallyTrue(t, "a finding of the two versions on the buffer", func() (bool, string) {
		d := c.AwaitDiagnostics(uri, c.Version(uri), wait)
		dup := d.Find("duplicate-slug")
		return dup != nil && strings.Contains(dup.Message, "holds a different text"), strings.Join(d.Codes(), ",")
	})
	eventuallyTrue(t, "a warning about the conflict", func() (bool, string) { return someMessage(c, "[db]", "both lines are kept") })
	c.Save(uri)
	eventuallyTrue(t, "both versions saved", func() (bool, string) {
		return holdsEach(readFile(t, path), "- [db] Use Postgres 16 for the ledger and the audit log.", "- [db] Use CockroachDB for the ledger.")
	})
	c.Shutdown()
}

// A file opened through a symlinked path is the same file: the agent's
// entry reaches the buffer the editor knows by the link, a store through
// the server edits that buffer, and a save loses nothing.
func TestE2ESymlinkedPath(t *testing.T) {
	root, _ := gitWorkspace(t, togetherDecisions)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	viaLink := filepath.Join(link, ".memory", "decisions.md")
	c := startBinary(t, root)
	c.Initialize(initParams(root, false, nil)) // the workspace folder by its real path
	uri := c.OpenFile(viaLink)
	c.AwaitDiagnostics(uri, 1, wait)
	agentStore(t, root, strings.TrimPrefix(agent, "- "))
	eventuallyTrue(t, "the agent's entry in the buffer opened through the link", func() (bool, string) { return holdsEach(c.Text(uri), agent) })

	var res struct {
		Action  string `json:"action"`
		Buffers []struct {
			File    string `json:"file"`
			Applied bool   `json:"applied"`
		} `json:"buffers"`
	}
	raw, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Decision", "content": "Keep one migration per pull request."}}})
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw, &res)
	if res.Action != "stored" || len(res.Buffers) != 1 || !res.Buffers[0].Applied {
		t.Fatalf("store through the server: %s", raw)
	}
	stored := "- Keep one migration per pull request."
	if ok, state := holdsEach(c.Text(uri), agent, stored); !ok {
		t.Errorf("buffer: %s", state)
	}
	c.Save(uri)
	eventuallyTrue(t, "the saved file", func() (bool, string) {
		return holdsEach(readFile(t, filepath.Join(root, ".memory", "decisions.md")), "- [db] Use Postgres for the ledger.", agent, stored)
	})
	c.Shutdown()
}

// A didChange whose version does not increase is applied (the client's
// text is the truth): the server's copy follows it.
func TestE2ENonIncreasingVersion(t *testing.T) {
	_, _, c, uri := session(t, togetherDecisions, false, nil)
	v := c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})
	// The same version again, with one more line.
	c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v},
		"contentChanges": []any{map[string]any{"text": c.Text(uri) + "- [extra] Sent under a repeated version.\n"}}})
	var syms []any
	raw, err := c.Request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if json.Unmarshal(raw, &syms); err != nil || len(syms) != 4 {
		t.Errorf("after a didChange with a repeated version the server holds %d entries (%v), want the client's 4: %s", len(syms), err, raw)
	}
	c.Shutdown()
}

// Opening a memory file outside every workspace folder authorises its own
// existing .memory and nothing else: not a folder whose .memory does not
// exist, and not through "..".
func TestE2EOpenFileAuthorisesOnlyItsExistingFolder(t *testing.T) {
	root, _ := gitWorkspace(t, togetherDecisions)
	elsewhere := t.TempDir()
	c := startBinary(t, root)
	c.Initialize(initParams(root, true, nil))
	ghost := filepath.Join(elsewhere, ".memory", "decisions.md") // no such folder
	c.Open(ghost, "# Decisions\n")
	dotted := "file://" + filepath.ToSlash(root) + "/../" + filepath.Base(elsewhere) + "/.memory/quirks.md"
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": dotted, "languageId": "markdown", "version": 1, "text": "# Quirks\n"}})
	_, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Decision", "content": "Nothing is written here.", "root": elsewhere}}})
	if err == nil || !strings.Contains(err.Error(), "not a workspace folder") {
		t.Errorf("store into the folder of a file opened outside every workspace: %v, want a refusal", err)
	}
	if _, serr := os.Stat(filepath.Join(elsewhere, ".memory")); serr == nil {
		t.Errorf("a .memory folder was created in %s", elsewhere)
	}
	// Its own existing .memory is accepted.
	lone := t.TempDir()
	lonePath := filepath.Join(lone, ".memory", "decisions.md")
	writeFile(t, lonePath, togetherDecisions)
	c.OpenFile(lonePath)
	if _, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Decision", "content": "Single-file mode still stores.", "root": lone}}}); err != nil {
		t.Errorf("store into an open file's existing .memory: %v", err)
	}
	if got := readFile(t, lonePath); !once(got, "- Single-file mode still stores.") {
		t.Errorf("disk: %s", got)
	}
	c.Shutdown()
}
