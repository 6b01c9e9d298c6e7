package lsp_test

// Issue 26, nothing lost at the edges: through the binary, in a git
// repository, a request whose id JSON-RPC does not allow is answered with
// InvalidRequest and not run, and a store of text that is not UTF-8 is
// refused; the server goes on serving and .memory/ is byte for byte what
// it was.

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// edgeRepo is a git repository holding poison.Seed in .memory/, committed,
// with the binary serving it; it returns the client, the repository's top
// and the URI of decisions.md.
func edgeRepo(t *testing.T) (*lsptest.Client, string, string) {
	t.Helper()
	g := gittest.New(t)
	for name, text := range poison.Seed {
		writeFile(t, filepath.Join(g.Dir, ".memory", name), text)
	}
	g.Commit("2025-01-02", "memory")
	c := startBinary(t, g.Dir)
	c.Initialize(lsptest.InitializeParams(g.Dir, nil))
	return c, g.Dir, lsptest.URI(filepath.Join(g.Dir, ".memory", "decisions.md"))
}

// TestE2EInvalidIDIsNotRun: a shutdown or a store whose id is an array, an
// object or a boolean gets InvalidRequest with id null and is not run: the
// next request is answered as before, nothing reached the disk or the
// editor, and a proper shutdown and exit still end the server with 0.
func TestE2EInvalidIDIsNotRun(t *testing.T) {
	c, root, uri := edgeRepo(t)
	before := poison.Files(t, root)
	store := `"method":"workspace/executeCommand","params":{"command":"memory.storeMemory","arguments":[{"category":"Decision","content":"Use MySQL for reporting."}]}`
	calls := map[string]string{"shutdown": `"method":"shutdown"`, "store": store, "exit": `"method":"exit"`}
	for _, id := range []string{`true`, `false`, `[1]`, `[]`, `{"n":1}`, `{}`} {
		for _, name := range []string{"shutdown", "store", "exit"} {
			body := `{"jsonrpc":"2.0","id":` + id + `,` + calls[name] + `}`
			mark := c.Mark()
			if err := c.WriteRaw([]byte("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)); err != nil {
				t.Fatal(err)
			}
			m, _ := c.Await(mark, wait, "an error answer to "+body, func(m *lsptest.Message) bool { return m.Error != nil })
			if m.Error.Code != lsptest.CodeInvalidRequest || m.ID != nil {
				t.Errorf("%s answered %s, want code %d and id null", body, m.Raw, lsptest.CodeInvalidRequest)
			}
			// Still serving, and not shut down: after a shutdown every
			// request but exit gets InvalidRequest.
			if got := symbolNames(t, c, uri); strings.Join(got, ",") != "db" {
				t.Fatalf("after %s: document symbols %v, want [db]", body, got)
			}
		}
	}
	poison.Unchanged(t, root, before, "requests with invalid ids")
	if n := len(c.ServerRequests("workspace/applyEdit")); n != 0 {
		t.Errorf("requests with invalid ids sent %d workspace/applyEdit", n)
	}
	if v := c.Violations(); len(v) > 0 {
		t.Errorf("stdout carried something other than framed JSON-RPC: %v", v)
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

// TestE2EStoreRefusesInvalidUTF8: memory.storeMemory refuses each content
// of poison.NotUTF8 (raw bytes, lone surrogate escapes) with an error
// naming the problem, sends the editor no edit and leaves .memory/
// byte-identical; a U+FFFD really sent is text and is stored.
func TestE2EStoreRefusesInvalidUTF8(t *testing.T) {
	c, root, _ := edgeRepo(t)
	store := func(content string) (json.RawMessage, error) {
		// Written as it comes: encoding the content would replace what
		// is not UTF-8 before the server saw it.
		return c.Request("workspace/executeCommand", json.RawMessage(`{"command":"memory.storeMemory","arguments":[{"category":"Decision","content":"`+content+`"}]}`))
	}
	poison.RefusedNotUTF8(t, root, func(row poison.NotText) (string, bool, bool) {
		res, err := store(row.JSON)
		var e *lsptest.Error
		if !errors.As(err, &e) {
			return string(res), false, false
		}
		return e.Message, true, false
	})
	if n := len(c.ServerRequests("workspace/applyEdit")); n != 0 {
		t.Errorf("refused stores sent %d workspace/applyEdit", n)
	}
	for _, r := range poison.RealFFFD {
		if _, err := store(r.JSON); err != nil {
			t.Errorf("store of a real U+FFFD, %q: %v", r.JSON, err)
		}
	}
	got := readFile(t, filepath.Join(root, ".memory", "decisions.md"))
	for _, r := range poison.RealFFFD {
		if !strings.Contains(got, r.Stored) {
			t.Errorf("decisions.md lacks %q after storing a real U+FFFD:\n%s", r.Stored, got)
		}
	}
	c.Shutdown()
	if code := c.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
