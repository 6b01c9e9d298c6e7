package main

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// TestQueryIndexWithOtherWriters: `memory-lsp query` answering from its
// index, as a user runs it in a git repository whose memory other programs
// write between queries (another memory-lsp process storing, an editor
// rewriting a file in place to the same size with its old modification
// time put back, a tool replacing one by a rename, a commit) and whose
// index a disk or another program damaged, answers exactly as a query
// that keeps nothing between runs (MEMORY_LSP_CACHE=off), stale marks
// included, and does keep its index and the history's moves (the cache
// folder holds one of each).
func TestQueryIndexWithOtherWriters(t *testing.T) {
	longtest.Skip(t)
	r := rand.New(rand.NewPCG(16, 31))
	g := lsptest.CitingRepo(t, r)
	cache := t.TempDir()
	env := map[string]string{"MEMORY_LSP_CACHE": cache}
	dir := filepath.Join(g.Dir, ".memory")
	day := time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
	past := time.Now().Add(-time.Hour)
	hits := 0
	for step := range 40 {
		path := filepath.Join(dir, category.All[r.IntN(len(category.All))].File())
		var what string
		switch r.IntN(6) {
		case 0:
			what = "another process's store"
			runWithEnv(t, g.Dir, env, "store", "--category", category.All[r.IntN(len(category.All))].String(), "--", lsptest.Citing(r, lsptest.CodePaths))
		case 1:
			what = "a rewrite in place of the same size, its time put back"
			data, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue // a category no store has written yet
			} else if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			i := strings.LastIndex(string(data), "- ")
			if i < 0 || i+3 >= len(data) {
				continue
			}
			data[i+2] ^= 0x20 // the case of the first letter of the last entry
			if err := os.WriteFile(path, data, fi.Mode()); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		case 2:
			what = lsptest.Rewrite(t, r, path, &past)
		case 3:
			what = lsptest.ChangeCode(t, g, r, lsptest.CodePaths)
		case 4:
			what = "the index file damaged: a byte of every block changed"
			idx, _ := filepath.Glob(filepath.Join(cache, "query", "*.idx"))
			for _, f := range idx {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for i := 64 + r.IntN(960); i < len(data); i += 1024 {
					data[i] ^= 0x41
				}
				if err := os.WriteFile(f, data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
		default:
			what, _ = lsptest.CommitAll(g, &day)
		}
		for range 2 {
			q := []string{"query", "--json", "--limit", "20", lsptest.Words[r.IntN(len(lsptest.Words))]}
			got := runWithEnv(t, g.Dir, env, q...)
			// read afresh: no index and no kept history either
			want := runWithEnv(t, g.Dir, map[string]string{"MEMORY_LSP_CACHE": "off"}, q...)
			if got != want {
				t.Fatalf("step %d (%s): %v from the index:\n%s\nread afresh:\n%s", step, what, q, got, want)
			}
			hits += strings.Count(got, `"score"`)
		}
	}
	if hits == 0 {
		t.Fatal("no query found anything: nothing was compared")
	}
	if idx, _ := filepath.Glob(filepath.Join(cache, "query", "*.idx")); len(idx) != 1 {
		t.Fatalf("the cache folder holds %v: the queries did not keep an index", idx)
	}
	if moves, _ := filepath.Glob(filepath.Join(cache, "moves", "*")); len(moves) != 1 {
		t.Fatalf("the cache folder holds %v: the queries did not keep the history's moves", moves)
	}
}
