package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// A burst of agent stores, the editor saving right after each, and an
// editor that saves its pre-edit buffer as every edit of the server comes
// in (autosave crossing each bring-in): every entry ends on disk and in the
// buffer, once.
func TestRedBurstOfStoresWithCrossingSaves(t *testing.T) {
	longtest.Skip(t)
	root, path := gitWorkspace(t, togetherDecisions)
	c := startBinary(t, root)
	var uri string
	c.Handle("workspace/applyEdit", func(raw json.RawMessage) (any, error) {
		var p struct {
			Edit json.RawMessage `json:"edit"`
		}
		json.Unmarshal(raw, &p)
		os.WriteFile(path, []byte(c.Text(uri)), 0o644)
		c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		if err := c.ApplyEdit(p.Edit); err != nil {
			return map[string]any{"applied": false, "failureReason": err.Error()}, nil
		}
		return map[string]any{"applied": true}, nil
	})
	c.Initialize(initParams(root, false, nil))
	uri = c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	c.Change(uri, lsptest.TextEdit{Range: lsptest.R(4, 0, 4, 0), NewText: mine + "\n"})
	want := []string{mine}
	for _, content := range distinctFacts {
		agentStore(t, root, content)
		c.Save(uri)
		want = append(want, "- "+content)
	}
	redSettle(c)
	eventuallyTrue(t, "every entry on disk", func() (bool, string) { return holdsEach(readFile(t, path), want...) })
	eventuallyTrue(t, "every entry in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), want...) })
	redSettle(c)
	c.Shutdown()
	if ok, state := holdsEach(readFile(t, path), want...); !ok {
		t.Errorf("after shutdown: %s", state)
	}
}

// crossingSession opens decisions.md in an editor that saves its pre-edit
// buffer as the server's first edit comes in, then applies it.
func crossingSession(t *testing.T, decisions string, options any) (root, path string, c *lsptest.Client, uri string) {
	t.Helper()
	root, path = gitWorkspace(t, decisions)
	c = startBinary(t, root)
	crossed := false
	c.Handle("workspace/applyEdit", func(raw json.RawMessage) (any, error) {
		var p struct {
			Edit json.RawMessage `json:"edit"`
		}
		json.Unmarshal(raw, &p)
		if !crossed {
			crossed = true
			os.WriteFile(path, []byte(c.Text(uri)), 0o644)
			c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		}
		if err := c.ApplyEdit(p.Edit); err != nil {
			return map[string]any{"applied": false, "failureReason": err.Error()}, nil
		}
		return map[string]any{"applied": true}, nil
	})
	c.Initialize(initParams(root, false, options))
	uri = c.OpenFile(path)
	c.AwaitDiagnostics(uri, 1, wait)
	return root, path, c, uri
}

// A save crossing the bring-in of an update (same slug, new text), of a
// store that evicted the oldest entry of a full category, and of the
// language server's own store: the store stands as made, once.
func TestRedCrossingSaveOfUpdateEvictionAndOwnStore(t *testing.T) {
	longtest.Skip(t)
	three := togetherDecisions + "- [cache] Cache rendered invoices for ten minutes.\n"
	t.Run("update", func(t *testing.T) {
		root, path, c, uri := crossingSession(t, togetherDecisions, nil)
		agentStore(t, root, "Deploy the web app before the API.", "--slug", "deploy")
		redSettle(c)
		want := "- [deploy] Deploy the web app before the API."
		eventuallyTrue(t, "the update on disk", func() (bool, string) { return holdsEach(readFile(t, path), want) })
		eventuallyTrue(t, "the update in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), want) })
		if d := readFile(t, path); strings.Contains(d, "Deploy the API before the web app.") {
			t.Errorf("the replaced line is back:\n%s", d)
		}
	})
	t.Run("eviction", func(t *testing.T) {
		root, path, c, uri := crossingSession(t, three, nil)
		cfg := filepath.Join(t.TempDir(), "settings.json")
		writeFile(t, cfg, `{"categoryLimit":{"decision":3}}`)
		agentStore(t, root, "Pin the base image of every container by digest.", "--config", cfg)
		redSettle(c)
		want := "- Pin the base image of every container by digest."
		eventuallyTrue(t, "the store on disk", func() (bool, string) { return holdsEach(readFile(t, path), want) })
		eventuallyTrue(t, "the store in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), want) })
	})
	t.Run("own store", func(t *testing.T) {
		_, path, c, uri := crossingSession(t, togetherDecisions, nil)
		if _, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory", "arguments": []any{map[string]any{"category": "Decision", "content": "Pin the base image of every container by digest."}}}); err != nil {
			t.Fatal(err)
		}
		redSettle(c)
		want := "- Pin the base image of every container by digest."
		eventuallyTrue(t, "the store on disk", func() (bool, string) { return holdsEach(readFile(t, path), want) })
		eventuallyTrue(t, "the store in the buffer", func() (bool, string) { return holdsEach(c.Text(uri), want) })
	})
}
