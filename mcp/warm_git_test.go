package mcp

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestWarmQueryMatchesColdServerInGit is TestWarmQueryMatchesColdServer
// where users work: a git repository whose entries cite its files. The
// warm server opens the repository of its last query again for the next
// (memory.Warm.Repo), so right after each change to the code (a git mv, a
// deletion, a new file, a commit), as after stores and external writes of
// memory, the warm server's queryMemory answers, stale marks included, must
// be a new server's, byte for byte.
func TestWarmQueryMatchesColdServerInGit(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 7))
	g := lsptest.CitingRepo(t, r)
	paths := lsptest.CodePaths
	cites := func() string { return lsptest.Citing(r, paths) }

	warm := session(t, Options{Root: g.Dir, Config: config.Default()}, nil, "")
	other := session(t, Options{Root: g.Dir}, nil, "")
	past := time.Now().Add(-time.Hour)
	day := gittest.Day("2025-01-02")
	var stale, fresh int
	for step := range 60 {
		cat := category.All[r.IntN(len(category.All))]
		var what string
		switch op := r.IntN(7); op {
		case 0, 1:
			cs := warm
			what = "a store"
			if op == 1 {
				cs, what = other, "another server's store"
			}
			call(t, cs, "storeMemory", map[string]any{"category": cat.String(), "content": cites()})
		case 2:
			what = lsptest.Rewrite(t, r, filepath.Join(g.Dir, ".memory", cat.File()), &past)
		case 3, 4:
			what = lsptest.ChangeCode(t, g, r, paths)
		default:
			what, _ = lsptest.CommitAll(g, &day)
		}
		cold := session(t, Options{Root: g.Dir}, nil, "")
		for range 3 {
			args := map[string]any{"query": lsptest.Words[r.IntN(len(lsptest.Words))], "limit": 20}
			got, want := call(t, warm, "queryMemory", args), call(t, cold, "queryMemory", args)
			if got.IsError {
				t.Fatalf("step %d (%s): %v: %s", step, what, args, got)
			}
			if got.String() != want.String() {
				t.Fatalf("step %d (%s): %v:\nwarm %s\ncold %s", step, what, args, got, want)
			}
			stale += strings.Count(string(got.Data), `"stale":[`)
			fresh += strings.Count(string(got.Data), `"score":`) - strings.Count(string(got.Data), `"stale":[`)
		}
	}
	if stale == 0 || fresh == 0 {
		t.Fatalf("%d hits marked stale, %d not: the comparison never saw both", stale, fresh)
	}
}
