package lsp_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/lsp"
)

// TestCodeActionsMatchFreshServer: the code actions a server serves from the
// check it made for a document's version (the file-wide rewrites and the
// fix-all made once per check, fileRewrites) are byte for byte those of a
// new server opening the same text, after random edits, on every line, with
// and without a kind filter, asked once and again.
func TestCodeActionsMatchFreshServer(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 2))
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for range 12 {
		b.WriteString("- " + lsptest.Sentence(r, true) + "\n")
	}
	writeFile(t, path, b.String())
	settings := map[string]any{"categoryLimit": map[string]any{"Decision": 10}}
	// The warm server debounces as the binary does (100 ms), so that code
	// actions asked right after a change meet a check still pending; the
	// fresh one checks at once.
	start := func(debounce time.Duration) *lsptest.Client {
		c := inProcessWith(t, lsp.Options{Version: "test", Debounce: debounce})
		c.SetSettings(map[string]any{"memory": settings})
		c.Initialize(lsptest.InitializeParams(root, settings))
		return c
	}
	warm := start(100 * time.Millisecond)
	uri := warm.OpenFile(path)
	warm.AwaitDiagnostics(uri, 1, wait)
	onlys := [][]string{nil, {"quickfix"}, {"refactor"}, {"source.fixAll"}, {"refactor.rewrite", "quickfix"}}
	answers := func(c *lsptest.Client, lines int) []string {
		var out []string
		for l := range lines {
			for _, only := range onlys {
				ctx := map[string]any{"diagnostics": []any{}}
				if only != nil {
					ctx["only"] = only
				}
				res, err := c.Request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
					"range": lsptest.R(l, 0, l, 0), "context": ctx})
				out = append(out, fmt.Sprintf("line %d %v: %s %v", l, only, res, err))
			}
		}
		return out
	}
	// kept are the "Keep both" commands the warm server ran, replayed on
	// each fresh one: a choice the server remembers is part of its answers.
	var kept []json.RawMessage
	keepOne := func(c *lsptest.Client, lines int) {
		for l := range lines {
			res, err := c.Request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": lsptest.R(l, 0, l, 0), "context": map[string]any{"diagnostics": []any{}}})
			if err != nil {
				t.Fatal(err)
			}
			var actions []struct {
				Command *struct {
					Command   string          `json:"command"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"command"`
			}
			if err := json.Unmarshal(res, &actions); err != nil {
				t.Fatal(err)
			}
			for _, a := range actions {
				if a.Command != nil && a.Command.Command == "memory.keepBoth" {
					kept = append(kept, a.Command.Arguments)
					runKeepBoth(t, c, a.Command.Arguments)
					return
				}
			}
		}
	}
	for step := range 25 {
		text := warm.Text(uri)
		lines := strings.Split(text, "\n")
		i := 2 + r.IntN(len(lines)-2)
		entry := "- " + lsptest.Sentence(r, true)
		switch r.IntN(4) {
		case 0: // a copy of another entry, a duplicate
			entry = lines[2+r.IntN(len(lines)-3)]
		case 3: // another entry with a word more: a near-duplicate, which "Keep both" may answer
			entry = strings.TrimSuffix(lines[2+r.IntN(len(lines)-3)], ".") + " again."
		case 1: // an entry with no slug
			entry = "- " + lsptest.Sentence(r, false)
		}
		v := warm.Change(uri, lsptest.TextEdit{Range: lsptest.R(i, 0, i, 0), NewText: entry + "\n"})
		if r.IntN(2) == 0 {
			warm.AwaitDiagnostics(uri, v, wait) // else asked before the publish
		}
		n := len(lines) + 1
		if step%4 == 3 {
			keepOne(warm, n)
		}
		got, again := answers(warm, n), answers(warm, n)
		fresh := start(-1)
		// opened at the warm buffer's version: the edits carry it
		if err := fresh.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": "markdown", "version": v, "text": warm.Text(uri)}}); err != nil {
			t.Fatal(err)
		}
		fresh.AwaitDiagnostics(uri, v, wait)
		for _, args := range kept {
			runKeepBoth(t, fresh, args)
		}
		want := answers(fresh, n)
		fresh.Shutdown()
		for k := range want {
			if got[k] != want[k] || again[k] != want[k] {
				t.Fatalf("step %d: code actions differ from a fresh server's\n got: %.600s\nagain: %.600s\nwant: %.600s", step, got[k], again[k], want[k])
			}
		}
	}
	warm.Shutdown()
	if len(kept) == 0 {
		t.Error("no step offered Keep both: the test did not exercise a remembered choice")
	}
}

// runKeepBoth runs memory.keepBoth with the arguments a code action gave.
func runKeepBoth(t *testing.T, c *lsptest.Client, args json.RawMessage) {
	t.Helper()
	var list []any
	if err := json.Unmarshal(args, &list); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.keepBoth", "arguments": list}); err != nil {
		t.Fatal(err)
	}
}
