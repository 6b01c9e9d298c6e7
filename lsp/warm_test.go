package lsp_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// warmAnswers are the server's answers to the queries: memory.queryMemory's
// results and reply, and workspace/symbol's symbols, as raw JSON.
func warmAnswers(t *testing.T, c *lsptest.Client, queries []string) []string {
	t.Helper()
	var out []string
	for _, q := range queries {
		res, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.queryMemory",
			"arguments": []any{map[string]any{"query": q}}})
		out = append(out, fmt.Sprintf("queryMemory %q: %s %v", q, res, err))
		res, err = c.Request("workspace/symbol", map[string]any{"query": q})
		out = append(out, fmt.Sprintf("workspace/symbol %q: %s %v", q, res, err))
	}
	res, err := c.Request("workspace/symbol", map[string]any{"query": ""})
	return append(out, fmt.Sprintf("workspace/symbol \"\": %s %v", res, err))
}

// TestWarmQueriesMatchColdServer: a server that keeps its catalog warm
// answers memory.queryMemory and workspace/symbol exactly as a new server
// does (whose first query builds everything), after random sequences of
// edits to open buffers, stores through the server into closed files, and
// external writes of closed files (in place or replacing them, some with
// an old modification time so that the stat is trusted, some deleted).
func TestWarmQueriesMatchColdServer(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 4))
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	for _, cat := range category.All {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", cat)
		for range 3 + r.IntN(8) {
			b.WriteString("- " + lsptest.Sentence(r, true) + "\n")
		}
		writeFile(t, filepath.Join(dir, cat.File()), b.String())
	}
	warm := inProcess(t)
	warm.Initialize(lsptest.InitializeParams(root, nil))
	open := map[string]string{} // path → uri, in the warm client
	past := time.Now().Add(-time.Hour)
	hits, stored := 0, 0
	for step := range 80 {
		cat := category.All[r.IntN(len(category.All))]
		path := filepath.Join(dir, cat.File())
		uri, isOpen := open[path]
		var what string
		switch op := r.IntN(6); {
		case op == 0 && !isOpen && store.Exists(path):
			what = "open " + cat.File()
			open[path] = warm.OpenFile(path)
		case op == 1 && isOpen:
			what = "close " + cat.File()
			warm.Close(uri)
			delete(open, path)
		case op == 2 && isOpen:
			what = "edit " + cat.File()
			lines := strings.Split(warm.Text(uri), "\n")
			i := r.IntN(len(lines))
			warm.Change(uri, lsptest.TextEdit{Range: lsptest.R(i, 0, i, len(lines[i])), NewText: "- " + lsptest.Sentence(r, true)})
		case op == 3 && !isOpen:
			what = "store into " + cat.File()
			if _, err := warm.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
				"arguments": []any{map[string]any{"category": cat.String(), "content": lsptest.Sentence(r, false)}}}); err != nil {
				t.Logf("step %d: store refused: %v", step, err)
			} else {
				stored++
			}
		case !isOpen:
			what = lsptest.Rewrite(t, r, path, &past)
		default:
			continue
		}
		// Queries that hit several files, a phrase, a prefix.
		w := func() string { return lsptest.Words[r.IntN(len(lsptest.Words))] }
		queries := []string{w(), w() + " " + w(), w()[:4]}
		got := warmAnswers(t, warm, queries)

		cold := inProcess(t)
		cold.Initialize(lsptest.InitializeParams(root, nil))
		for path, uri := range open {
			cold.Open(path, warm.Text(uri))
		}
		want := warmAnswers(t, cold, queries)
		cold.Shutdown()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("step %d (%s): the warm server answers\n%s\na new one\n%s", step, what, got[i], want[i])
			}
		}
		for _, a := range got {
			if strings.Contains(a, `"results":[{`) {
				hits++
			}
		}
	}
	warm.Shutdown()
	if hits == 0 {
		t.Fatal("no query found anything: nothing was compared")
	}
	if stored == 0 {
		t.Fatal("every store was refused: no warm store was compared with a cold read")
	}
}
