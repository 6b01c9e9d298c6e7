package lsp_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestWarmQueriesMatchColdServerInGit is TestWarmQueriesMatchColdServer
// where users work: a git repository whose entries cite its files, so that
// hits carry stale marks judged against the repository the server keeps.
// Besides edits of open buffers, stores and external writes of memory, the
// code changes (a git mv, a deletion, a new file, a commit). A change to
// memory must show in the very next answers; a change to the code reaches
// the server through its watcher, so after one the warm answers must come
// to equal a new server's within the test's wait, and then stay equal.
func TestWarmQueriesMatchColdServerInGit(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 9))
	g := lsptest.CitingRepo(t, r)
	root := g.Top()
	paths := lsptest.CodePaths
	dir := filepath.Join(root, ".memory")

	warm := inProcess(t)
	warm.Initialize(lsptest.InitializeParams(root, nil))
	cold := func(open map[string]string, queries []string) []string {
		c := inProcess(t)
		c.Initialize(lsptest.InitializeParams(root, nil))
		defer c.Shutdown()
		for path, uri := range open {
			c.Open(path, warm.Text(uri))
		}
		return warmAnswers(t, c, queries)
	}
	open := map[string]string{} // path → uri, in the warm client
	past := time.Now().Add(-time.Hour)
	day := gittest.Day("2025-01-02")
	stale, fresh, stored, waited := 0, 0, 0, 0
	for step := range 50 {
		cat := category.All[r.IntN(len(category.All))]
		path := filepath.Join(dir, cat.File())
		uri, isOpen := open[path]
		var what string
		codeChanged := false
		t0 := time.Now()
		switch op := r.IntN(8); {
		case op == 0 && !isOpen && store.Exists(path):
			what = "open " + cat.File()
			open[path] = warm.OpenFile(path)
		case op == 1 && isOpen:
			what = "edit " + cat.File()
			lines := strings.Split(warm.Text(uri), "\n")
			i := r.IntN(len(lines))
			warm.Change(uri, lsptest.TextEdit{Range: lsptest.R(i, 0, i, len(lines[i])), NewText: "- " + lsptest.Citing(r, paths)})
		case op == 2 && !isOpen:
			what = "store into " + cat.File()
			if _, err := warm.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
				"arguments": []any{map[string]any{"category": cat.String(), "content": lsptest.Citing(r, paths)}}}); err != nil {
				t.Logf("step %d: store refused: %v", step, err)
			} else {
				stored++
			}
		case op == 3 && !isOpen:
			what = lsptest.Rewrite(t, r, path, &past)
		case op == 4 || op == 5:
			codeChanged = true
			what = lsptest.ChangeCode(t, g, r, paths)
		case op == 6:
			what, codeChanged = lsptest.CommitAll(g, &day)
		default:
			continue
		}
		w := func() string { return lsptest.Words[r.IntN(len(lsptest.Words))] }
		queries := []string{w(), w() + " " + w(), w()[:4]}
		got := warmAnswers(t, warm, queries)
		want := cold(open, queries)
		for deadline := time.Now().Add(wait); codeChanged && !slices.Equal(got, want) && time.Now().Before(deadline); {
			waited++
			time.Sleep(20 * time.Millisecond)
			got = warmAnswers(t, warm, queries)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("step %d (%s): the warm server answers\n%s\na new one\n%s", step, what, got[i], want[i])
			}
			if strings.HasPrefix(want[i], "queryMemory") {
				n := strings.Count(want[i], `"stale":[`)
				stale += n
				fresh += strings.Count(want[i], `"score":`) - n
			}
		}
		if d := time.Since(t0); d > time.Second {
			// Not a failure (timing is the machine's), but a lead if a
			// request ever waits on something it should not.
			t.Logf("step %d (%s) took %v", step, what, d)
		}
	}
	warm.Shutdown()
	t.Logf("%d hits marked stale, %d not; %d stores; %d polls for the watcher", stale, fresh, stored, waited)
	if stale == 0 || fresh == 0 || stored == 0 {
		t.Fatalf("%d hits marked stale, %d not, %d stores: the comparison never saw them all", stale, fresh, stored)
	}
}
