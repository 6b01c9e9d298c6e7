package repo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/repo"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// BenchmarkRepoJudge is the reference rules' work on a cold repository view,
// as one `check` does it: open the project, then extract every entry's
// references and judge each (with the blame of the entry's line when the
// history knows a cited path). It runs on the repository
// scripts/gen-reference-repo writes (100,000 files, 1,000 entries), named by
// MEMORY_LSP_BENCH_REPO:
//
//	scripts/gen-reference-repo $TMPDIR/memory-lsp-bench/repo100k
//	MEMORY_LSP_BENCH_REPO=$TMPDIR/memory-lsp-bench/repo100k go test -bench RepoJudge -run '^$' ./core/memory/
func BenchmarkRepoJudge(b *testing.B) {
	root := os.Getenv("MEMORY_LSP_BENCH_REPO")
	if root == "" {
		b.Skip("MEMORY_LSP_BENCH_REPO is not set: generate a repository with scripts/gen-reference-repo")
	}
	ws, err := store.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := ws.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	files := memory.Files(snap)
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := store.OpenProject(context.Background(), root); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open-and-judge", func(b *testing.B) {
		var counts map[refs.Status]int
		for b.Loop() {
			r, err := repo.Open(context.Background(), root, config.Default())
			if err != nil {
				b.Fatal(err)
			}
			counts = map[refs.Status]int{}
			for _, f := range files {
				for _, e := range f.Doc.Entries {
					for _, ref := range refs.Extract(e.Content) {
						v := refs.Judge(ref, r)
						if v.Moved != nil {
							r.Written(filepath.Join(ws.Dir, f.Name), e.Line)
						}
						counts[v.Status]++
					}
				}
			}
		}
		b.ReportMetric(float64(counts[refs.Holds]), "holds")
		b.ReportMetric(float64(counts[refs.Stale]), "stale")
		b.ReportMetric(float64(counts[refs.Drift]), "drift")
	})
}

// BenchmarkRepoReopen is the repository view opened again after one `git
// mv` of a file and after its move back (two Reopens per op, each after its
// git command), in process, on the repository of BenchmarkRepoJudge, with
// the moves read as a server has read them. The git commands are not timed.
func BenchmarkRepoReopen(b *testing.B) {
	root := os.Getenv("MEMORY_LSP_BENCH_REPO")
	if root == "" {
		b.Skip("MEMORY_LSP_BENCH_REPO is not set: generate a repository with scripts/gen-reference-repo")
	}
	r, err := repo.Open(context.Background(), root, config.Default())
	if err != nil {
		b.Fatal(err)
	}
	r.Moved("f000100.go")
	from, to := "pkg/m0001/sub/f000100.go", "pkg/m0001/sub/f000100-moved.go"
	git := func(args ...string) {
		b.Helper()
		b.StopTimer()
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v %s", args, err, out)
		}
		b.StartTimer()
	}
	reopen := func() {
		b.Helper()
		next, err := r.(repo.Reopener).Reopen(context.Background(), true)
		if err != nil {
			b.Fatal(err)
		}
		r = next
		r.Moved("f000100.go")
	}
	for b.Loop() {
		git("mv", from, to)
		reopen()
		git("mv", to, from)
		reopen()
	}
}
