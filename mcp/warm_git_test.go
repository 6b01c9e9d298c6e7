package mcp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/internal/gittest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestWarmQueryMatchesColdServerInGit is TestWarmQueryMatchesColdServer
// where users work: a git repository whose entries cite its files. The
// warm server keeps the repository it opened for a burst of queries
// (memory.Warm.Repo), so after each change to the code (a git mv, a
// deletion, a new file, a commit) the test's clock steps past that window,
// as real time does within seconds; stores and external writes of memory
// change no code and are judged against the kept repository. After every
// step the warm server's queryMemory answers, stale marks included, must be
// a new server's, byte for byte.
func TestWarmQueryMatchesColdServerInGit(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 7))
	g := gittest.New(t)
	paths := []string{"src/cache.go", "src/auth/session.ts", "cmd/deploy/main.go",
		"internal/queue/worker.go", "docs/release.md", "scripts/lint.sh", "src/schema.sql", "tools/rotate.py"}
	code := map[string]string{}
	for _, p := range paths[:5] {
		code[p] = "// " + p + ": long enough for git to see a rename of it\n"
	}
	cites := func() string {
		s := strings.TrimSuffix(lsptest.Sentence(r, false), ".")
		return fmt.Sprintf("%s in `%s`.", s, paths[r.IntN(len(paths))])
	}
	initial := map[string]string{}
	for p, c := range code {
		initial[p] = c
	}
	for _, cat := range category.All {
		text := "# " + cat.String() + "\n\n"
		for range 4 {
			text += "- " + cites() + "\n"
		}
		initial[filepath.Join(".memory", cat.File())] = text
	}
	g.Write(initial)
	g.Commit("2025-01-01", "start")

	clock := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	srv := New(Options{Root: g.Dir, Config: config.Default()})
	srv.now = func() time.Time { return clock }
	warm := connect(t, srv, nil, "")
	other := session(t, Options{Root: g.Dir}, nil, "")
	past := time.Now().Add(-time.Hour)
	day := gittest.Day("2025-01-02")
	var stale, fresh int
	for step := range 60 {
		cat := category.All[r.IntN(len(category.All))]
		var what string
		codeChanged := false
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
			codeChanged = true
			what = changeCode(t, g, r, paths)
		default:
			what = "nothing to commit"
			if g.Git("add", "-A"); g.Git("status", "--porcelain") != "" {
				codeChanged = true
				day = day.AddDate(0, 0, 1)
				g.Commit(day.Format("2006-01-02"), fmt.Sprintf("step %d", step))
				what = "a commit of everything"
			}
		}
		if codeChanged {
			clock = clock.Add(5 * time.Second)
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

// changeCode changes the project as a developer does, and says how: a
// cited file moved with git mv, deleted, or created.
func changeCode(t *testing.T, g *gittest.Repo, r *rand.Rand, paths []string) string {
	t.Helper()
	var present, absent []string
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(g.Dir, p)); err == nil {
			present = append(present, p)
		} else {
			absent = append(absent, p)
		}
	}
	switch {
	case len(present) > 0 && len(absent) > 0 && r.IntN(3) == 0:
		from, to := present[r.IntN(len(present))], absent[r.IntN(len(absent))]
		if err := os.MkdirAll(filepath.Dir(filepath.Join(g.Dir, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		g.Git("add", "-A")
		g.Git("mv", "-f", from, to)
		return "git mv " + from + " " + to
	case len(present) > 0 && r.IntN(2) == 0:
		p := present[r.IntN(len(present))]
		if err := os.Remove(filepath.Join(g.Dir, p)); err != nil {
			t.Fatal(err)
		}
		return "deleted " + p
	case len(absent) > 0:
		p := absent[r.IntN(len(absent))]
		gittest.WriteFiles(t, g.Dir, map[string]string{p: "// " + p + "\n"})
		return "created " + p
	}
	return "nothing"
}
